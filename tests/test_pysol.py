"""PySolFC game numbers for every game PySolFC has (solver/pysol.py).

Each expected layout is computed here the way PySolFC computes it, independently of
solver/pysol.py: pysol_cards (a port of PySolFC's card creation, generators and
shuffle hooks) shuffles the cards, and a literal talon (a list dealt from its end,
``dealRow`` giving one card to each stack in turn) replays the game's ``startGame``
and ``dealCards`` as pysollib/games/glenwood.py, capricieuse.py and grandduchess.py
write them.  Our deck must then give the same piles under RULES.md, through the
independent checker.  Numbers on both sides of PySolFC's generator switch (31999 and
below: Microsoft's LCG; 32001 and above: the Mersenne Twister; pysol_cards itself
reads 32000 as an LCG number, so 32000 is left to tests/test_deals.py).
"""

from __future__ import annotations

import pytest

from solver import cards
from solver.checker import GAMES
from solver.errors import PatienceError
from solver.pysol import pysol_deck, pysol_note, pysol_variant_words

NUMBERS = [1, 2, 617, 11982, 31999, 32001, 100000, 123456789, 10**20]


def _talon(number: int, decks: int, hook=None) -> list:
    """PySolFC's talon for game ``number``: pysol_cards' shuffled cards, the game's hook,
    then the list as the talon holds it (its end is the top, dealt first)."""
    from pysol_cards.cards import createCards
    from pysol_cards.deal_game import Game
    from pysol_cards.random import shuffle
    from pysol_cards.random_base import RandomBase

    assert number != 32000
    shuffled = shuffle(createCards(decks), number, RandomBase.DEALS_PYSOLFC)
    if hook is not None:
        shuffled = hook(Game("bakers_dozen", number, RandomBase.DEALS_PYSOLFC), shuffled)
    return list(shuffled)


def _code(c) -> int:
    return cards.parse_card(cards.RANKS[c.rank - 1] + c.suit_s())


def _deal_row(talon: list, stacks: list) -> None:
    """PySolFC's dealRowAvail: one card from the talon's top to each stack, in turn, while any are left."""
    for s in stacks:
        if talon:
            s.append(talon.pop())


def _first_aces_and_kings(c):
    """The hook's callback of Parisienne and Capricieuse, with PySolFC's 0-based ranks."""
    return c.id < 52 and c.rank in (1, 13), (c.rank - 1, c.suit)


def _codes(stack) -> list[int]:
    return [_code(c) for c in stack]


def _foundation_codes(foundations) -> list[int]:
    return sorted(_code(c) for f in foundations for c in f)


@pytest.mark.parametrize("number", NUMBERS)
def test_duchess_is_pysolfc_glenwood(number):
    talon = _talon(number, 1)
    reserves, rows = [[] for _ in range(4)], [[] for _ in range(4)]
    for _ in range(3):  # Glenwood.startGame
        _deal_row(talon, reserves)
    _deal_row(talon, rows)
    game = GAMES["duchess"](pysol_deck("duchess", number), {"moves": "whole"})
    view = game.view()
    assert view["fans"] == [_codes(r) for r in reserves]
    assert view["columns"] == [_codes(r) for r in rows]
    assert view["stock"] == _codes(reversed(talon))  # the talon's top card is dealt first


@pytest.mark.parametrize("number", NUMBERS)
def test_capricieuse_is_pysolfc_capricieuse(number):
    talon = _talon(number, 2, lambda g, cs: g._shuffleHookMoveToBottom(cs, _first_aces_and_kings, 8))
    rows, foundations = [[] for _ in range(12)], [[] for _ in range(8)]
    for _ in range(8):  # Capricieuse.startGame: 7 rows, a row, then the foundations
        _deal_row(talon, rows)
    _deal_row(talon, foundations)
    assert not talon
    # each of the 8 cards went to its own foundation: up C S H D aces, down C S H D kings
    assert [(c.rank, c.suit) for f in foundations for c in f] == [(1, s) for s in range(4)] + [(13, s) for s in range(4)]
    deck = pysol_deck("capricieuse", number)
    game = GAMES["capricieuse"](deck, {"deal_plays": False, "redeals": 0})
    assert game.view()["piles"] == [_codes(r) for r in rows]
    assert game.cards_left() == 96
    assert sorted(int(c) for c in deck[:8]) == _foundation_codes(foundations)


@pytest.mark.parametrize("number", NUMBERS)
def test_parisienne_round_one_is_pysolfc_parisienne(number):
    talon = _talon(number, 2, lambda g, cs: g._shuffleHookMoveToTop(cs, _first_aces_and_kings))
    foundations = [[] for _ in range(8)]
    _deal_row(talon, foundations)  # Parisienne.startGame, then GrandDuchess.startGame
    assert [(c.rank, c.suit) for f in foundations for c in f] == [(1, s) for s in range(4)] + [(13, s) for s in range(4)]
    rows, reserves = [[] for _ in range(4)], [[], []]
    deck = pysol_deck("parisienne", number)
    game = GAMES["parisienne"](deck, {"redeals": 0})
    deals = 0
    while talon:  # GrandDuchess_Talon.dealCards in round one: R0, t1..t4, R1
        _deal_row(talon, reserves[:1])
        _deal_row(talon, rows)
        _deal_row(talon, reserves[1:])
        if deals:
            game.apply("deal")
        deals += 1
        view = game.view()
        assert view["tableau"] == [_codes(r) for r in rows], deals
        assert sorted(view["reserve"]) == sorted(_codes(reserves[0] + reserves[1])), deals
    assert deals == 16 and not game.view()["stock"]
    assert sorted(int(c) for c in deck[:8]) == _foundation_codes(foundations)


def test_grand_duchess_round_one_would_differ_so_it_is_refused():
    # PySolFC's round one: 17 deals of six (R0 t1 t2 t3 t4 R1), then its two last cards
    # go to R0 and t1; RULES.md's go to t1 and t2.  No deck can give both layouts.
    talon = _talon(1, 2)
    rows, reserves = [[] for _ in range(4)], [[], []]
    while talon:
        _deal_row(talon, reserves[:1])
        _deal_row(talon, rows)
        _deal_row(talon, reserves[1:])
    assert [len(r) for r in rows] == [18, 17, 17, 17] and [len(r) for r in reserves] == [18, 17]
    with pytest.raises(PatienceError, match="no variant covers: round one ends with a deal of two cards"):
        pysol_deck("grand-duchess", 557)


def test_russian_patience_has_no_pysolfc_game():
    with pytest.raises(PatienceError, match="PySolFC has no game matching russian-patience"):
        pysol_deck("russian-patience", 1)


@pytest.mark.parametrize("game,words,expected", [
    ("duchess", [], ["moves=whole"]),
    ("duchess", ["redeals=0"], ["redeals=0", "moves=whole"]),
    ("capricieuse", [], ["deal_plays=false", "redeals=0"]),
    ("parisienne", [], ["redeals=0", "foundation_transfer=true"]),
    ("parisienne", ["foundation_transfer=false"], ["foundation_transfer=false", "redeals=0"]),
    ("bakers-dozen", ["face_down=true"], ["face_down=true"]),
])
def test_variant_words_choose_pysolfc_reading(game, words, expected):
    assert pysol_variant_words(game, words) == expected


@pytest.mark.parametrize("game,words,match", [
    ("duchess", ["moves=any"], "needs moves=whole, not moves=any: PySolFC moves only the top card"),
    ("capricieuse", ["redeals=2"], "needs redeals=0, not redeals=2: PySolFC shuffles the cards at each redeal"),
    ("capricieuse", ["deal_plays=true"], "needs deal_plays=false"),
    ("parisienne", ["redeals=3"], "needs redeals=0"),
])
def test_variant_words_refuse_what_pysolfc_does_not_play(game, words, match):
    with pytest.raises(PatienceError, match=match):
        pysol_variant_words(game, words)


def test_note_names_pysolfc_game_id():
    assert "game id 282" in pysol_note("duchess", 5)
    assert "game id 292" in pysol_note("capricieuse", 5)
    assert "game id 617" in pysol_note("parisienne", 5)
    assert "game id 31)" in pysol_note("bakers-dozen", 5)


@pytest.mark.parametrize("game", ["duchess", "capricieuse", "parisienne"])
def test_decks_are_full_packs_and_differ_by_number(game):
    packs = 1 if game == "duchess" else 2
    a, b = pysol_deck(game, 0), pysol_deck(game, 40000)
    assert sorted(a.tolist()) == sorted(cards.full_pack(packs)) == sorted(b.tolist())
    assert a.tolist() != b.tolist()
