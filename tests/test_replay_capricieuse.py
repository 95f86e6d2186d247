"""The independent checker (solver/checker) for Capricieuse, and its oracle.

Every deck here is built by hand so that the expected layout or verdict can be read
off the construction; the reason is written next to each test.  Most decks are tiny
(``ranks=3``: 3 plays the king's part, 24 cards) with one to three piles.

A building block used throughout: for one suit X and ranks=3, the six cards
``AX 2X 3X 3X 2X AX`` all go to the foundations while they are dealt, whatever the piles
hold, so the pile pointer does not move:
AX fits the empty up foundation; 2X is next on it; 3X fits both the up foundation
(next after 2X) and the empty down foundation, and goes up; the second 3X then starts
the empty down foundation; 2X and AX follow it down.  ``cleared(X)`` is that block.

The last part checks the exhaustive oracle (tests/cap_oracle.py).
"""

from __future__ import annotations

import random

import pytest

from solver.cards import card, card_str, full_pack, parse_card, rank_of
from solver.errors import PatienceError
from solver.checker import GAMES, Capricieuse, IllegalMove, capricieuse_deal, replay

from cap_oracle import (
    StateCapExceeded,
    candidate_moves,
    legal_successors,
    lower_bound,
    solve_exhaustive,
    state_key,
)

CAP = "capricieuse"
C, D, H, S = range(4)


def cards(text: str) -> list[int]:
    return [parse_card(w) for w in text.split()]


def names(pile) -> str:
    return " ".join(card_str(c) for c in pile)


def layout(g) -> list[str]:
    return [names(p) for p in g.piles]


def cleared(suit: str) -> list[int]:
    """Six cards of one suit (ranks=3) that all go to the foundations as they are dealt."""
    return cards(" ".join(f"{r}{suit}" for r in "A 2 3 3 2 A".split()))


def shuffled(seed: int, ranks: int = 13) -> list[int]:
    deck = full_pack(2, ranks)
    random.Random(seed).shuffle(deck)
    return deck


def snapshot(g) -> tuple:
    return ([list(p) for p in g.piles], list(g.up), list(g.down), g.redeals_left, g.round)


def foundation_cards(g) -> list[int]:
    """Every card on the foundations (up: A..up[s], down: ranks..down[s])."""
    out = []
    for s in range(4):
        out += [card(r, s) for r in range(1, g.up[s] + 1)]
        if g.down[s]:
            out += [card(r, s) for r in range(g.down[s], g.ranks + 1)]
    return out


def assert_conserved(g, deck) -> None:
    """The piles and the foundations hold exactly the deck's cards."""
    assert sorted(c for p in g.piles for c in p) == sorted(_minus(deck, foundation_cards(g)))


def _minus(a: list[int], b: list[int]) -> list[int]:
    a = list(a)
    for c in b:
        a.remove(c)  # raises if the foundations hold a card the deck does not
    return a


# The won deck (ranks=3, two piles, shortest win 4 moves with redeals=0).
#   Clubs and diamonds clear themselves during the deal (see the module docstring).
#   2S: no spade foundation started, 2S is neither ace nor king (3) -> p1.
#   3H -> empty hearts down foundation.  3H (second): up empty needs AH, down wants 2H -> p2.
#   2H -> hearts down (3H 2H).  AH -> fits up (empty) and down (wants AH): goes up.
#   2H -> hearts up (A 2).  AH -> up wants 3H, down wants AH -> hearts down, complete.
#   AS -> spades up.  2S -> up.  3S -> up (it fits down too: up wins).  3S -> spades down.
#   AS -> up is complete, down wants 2S -> p1, on top of 2S.
WON_DECK = cleared("C") + cleared("D") + cards("2S 3H 3H 2H AH 2H AH AS 2S 3S 3S AS")
WON_LAYOUT = ["2S AS", "3H"]
WON_MOVES = ["p2 U 3H", "p1 p2 AS", "p1 D 2S", "p2 D AS"]

# The lost deck (ranks=3, two piles): diamonds, hearts and spades clear themselves; the
# clubs come 2C 2C AC 3C 3C AC.  2C -> p1 (nothing started), 2C -> p2, AC -> up,
# 3C -> down (fits only the empty down foundation), 3C -> p1 (up and down both want 2C),
# AC -> p2 (same).
LOST_DECK = cleared("D") + cleared("H") + cleared("S") + cards("2C 2C AC 3C 3C AC")
LOST_LAYOUT = ["2C 3C", "2C AC"]


# ------------------------------------------------------------------ registry, basics


def test_game_registered():
    assert GAMES[CAP] is Capricieuse


def test_defaults_and_start_state():
    deck = shuffled(1)
    g = Capricieuse(deck)
    assert g.variant == {"redeals": 2, "deal_plays": True}
    assert len(g.piles) == 12
    assert g.round == 1 and g.redeals_left == 2
    assert g.cards_left() == sum(len(p) for p in g.piles) == 104 - len(foundation_cards(g))
    assert not g.won()
    assert_conserved(g, deck)


def test_copy_is_independent():
    g = Capricieuse(WON_DECK, {"redeals": 0}, ranks=3, columns=2)
    h = g.copy()
    h.apply("p2 U 3H")
    assert layout(g) == WON_LAYOUT and g.up[H] == 2
    assert layout(h) == ["2S AS", ""] and h.up[H] == 3


# -------------------------------------------------------------- the deal procedure


def test_hand_built_layouts():
    # See the comments at WON_DECK and LOST_DECK for the card-by-card deal.
    g = Capricieuse(WON_DECK, ranks=3, columns=2)
    assert layout(g) == WON_LAYOUT
    assert g.up == [3, 3, 2, 3] and g.down == [1, 1, 1, 3]
    g = Capricieuse(LOST_DECK, ranks=3, columns=2)
    assert layout(g) == LOST_LAYOUT
    assert g.up == [1, 3, 3, 3] and g.down == [3, 1, 1, 1]


def test_cleared_block_needs_no_pile():
    # The building block alone with one pile: all 24 cards go to the foundations while
    # dealing, so the game is won before the first move.
    g = Capricieuse(cleared("C") + cleared("D") + cleared("H") + cleared("S"), ranks=3, columns=1)
    assert g.won() and g.up == [3] * 4 and g.down == [1] * 4


def test_card_fitting_both_foundations_goes_up():
    # Clubs up holds A (wants 2C), down holds 3 (wants 2C): 2C fits both, RULES.md says up.
    piles, up, down = [[]], [1, 0, 0, 0], [3, 0, 0, 0]
    plays = capricieuse_deal(cards("2C"), piles, up, down, 3, True)
    assert plays == [("U", parse_card("2C"))]
    assert up[C] == 2 and down[C] == 3 and piles == [[]]
    # The same with both foundations empty and ranks=1: the only rank is both the ace
    # and the king, so the first copy goes up and the second (up is complete) goes down.
    piles, up, down = [[]], [0] * 4, [0] * 4
    plays = capricieuse_deal(cards("AC AC"), piles, up, down, 1, True)
    assert plays == [("U", 0), ("D", 0)] and up[C] == 1 and down[C] == 1


def test_a_card_played_while_dealing_does_not_advance_the_pile():
    # 5C -> p1; AC goes up, so the next card, 7D, goes to p2 (not p3); 9H -> p3;
    # 2C goes up, and JS goes where 2C would have gone: p1.
    piles, up, down = [[], [], []], [0] * 4, [0] * 4
    plays = capricieuse_deal(cards("5C AC 7D 9H 2C JS"), piles, up, down, 13, True)
    assert [names(p) for p in piles] == ["5C JS", "7D", "9H"]
    assert plays == [("U", parse_card("AC")), ("U", parse_card("2C"))]
    # In a game (ranks=2, two piles; 2 plays the king's part):
    #   AC up; 2D starts diamonds down; AD fits up (empty) and down (wants AD): up;
    #   AD: up wants 2D, down wants AD -> down; AC: up wants 2C, down (empty) wants
    #   2C -> p1, the first card on a pile; 2C up (it fits both); 2C down; 2D up;
    #   AH up; AH -> p2; 2H up; 2H down; AS up; AS -> p1; 2S up; 2S down.
    # (Had every card used up a pile's turn, the layout would be p1 = AC, p2 = AH AS.)
    deck = cards("AC 2D AD AD AC 2C 2C 2D AH AH 2H 2H AS AS 2S 2S")
    g = Capricieuse(deck, ranks=2, columns=2)
    assert layout(g) == ["AC AS", "AH"]
    assert g.up == [2, 2, 2, 2] and g.down == [2, 1, 2, 2]


def test_only_the_dealt_card_is_checked():
    # ranks=3, one pile: 2C is dealt first (nothing to go on) -> p1.  AC then starts the
    # clubs up foundation; 2C, already on p1, now fits but stays there during the deal.
    piles, up, down = [[]], [0] * 4, [0] * 4
    capricieuse_deal(cards("2C AC"), piles, up, down, 3, True)
    assert piles == [cards("2C")] and up[C] == 1
    # In a game it is then an ordinary move.  Deck: 2C AC 2C 3C 3C AC, then the other
    # suits cleared.  2C -> p1; AC up; 2C up (the dealt card is checked: it fits);
    # 3C up; 3C down; AC -> up complete, down wants 2C -> p1.
    deck = cards("2C AC 2C 3C 3C AC") + cleared("D") + cleared("H") + cleared("S")
    g = Capricieuse(deck, {"redeals": 0}, ranks=3, columns=1)
    assert layout(g) == ["2C AC"] and g.up[C] == 3 and g.down[C] == 3
    # The first 2C waits under AC; nothing moved it during the deal.
    for m in ["p1 D AC", "p1 D 2C"]:
        with pytest.raises(IllegalMove):
            g.apply(m)
    assert not solve_exhaustive(CAP, {"redeals": 0}, deck, 3, 1)[0]


@pytest.mark.parametrize("seed", range(5))
def test_round_one_seats_one_ace_and_one_king_of_each_suit(seed):
    # The first ace of a suit always finds its up foundation empty, and the first king
    # its down foundation empty, so both are seated whatever the order.
    deck = shuffled(seed)
    g = Capricieuse(deck, {"redeals": 0})
    for s in range(4):
        assert g.up[s] >= 1
        assert 1 <= g.down[s] <= 13
    assert_conserved(g, deck)


def test_round_one_seats_the_first_copies():
    # The unshuffled two packs: AC..KC AD..KD AH..KH AS..KS, twice.  The first pack
    # builds every up foundation from A to K while it is dealt (each K fits both the up
    # foundation and the empty down one, and goes up).  In the second pack, A..Q of a
    # suit find up complete and down empty (it wants the king): they go to the piles;
    # each K starts its down foundation.  So 48 cards, A..Q of C, D, H, S in turn, go to
    # the 12 piles in turn: pile i gets rank i of each suit.
    deck = full_pack(2)
    g = Capricieuse(deck)
    assert g.up == [13] * 4 and g.down == [13] * 4
    assert g.cards_left() == 48
    for i, p in enumerate(g.piles):
        assert names(p) == " ".join(card_str(card(i + 1, s)) for s in range(4))


def test_redeal_gathers_last_pile_first_and_deals_from_p1():
    # ranks=3, three piles; diamonds, hearts, spades cleared; clubs 2C 2C AC 3C 3C AC:
    # 2C -> p1, 2C -> p2, AC up, 3C down (only the empty down fits), 3C -> p3 (up and
    # down both want 2C), AC -> p1.  The next card would go to p2.
    deck = cleared("D") + cleared("H") + cleared("S") + cards("2C 2C AC 3C 3C AC")
    g = Capricieuse(deck, ranks=3, columns=3)
    assert layout(g) == ["2C AC", "2C", "3C"]
    g.apply("redeal")
    # New stock: p3 from its bottom up (3C), then p2 (2C), then p1 (2C AC).
    # 3C: up wants 2C, down wants 2C -> p1 (the deal starts again at p1, not at p2).
    # 2C: fits both -> up (A 2).  2C: up wants 3C, down wants 2C -> down (3 2).
    # AC: up wants 3C, down wants AC -> down, complete.
    assert layout(g) == ["3C", "", ""]
    assert g.up[C] == 2 and g.down[C] == 1
    assert g.round == 2 and g.redeals_left == 1
    # (Gathered p1 first, the stock 2C AC 2C 3C would have put everything but AC on the
    # foundations and left AC on p1.)
    g.apply("p1 U 3C")
    assert g.won()


def test_redeal_uses_what_is_left_after_some_plays():
    # As above, but first p2 U 2C: the stock is then 3C (p3), 2C AC (p1).  3C fits up.
    # 2C fits down, AC follows it: won by the redeal itself.
    deck = cleared("D") + cleared("H") + cleared("S") + cards("2C 2C AC 3C 3C AC")
    g = Capricieuse(deck, ranks=3, columns=3)
    g.apply("p2 U 2C")
    g.apply("redeal")
    assert g.won()


def test_deal_plays_false_setup_and_redeal_order():
    # The pack in order AC 2C AD 2D AH 2H AS 2S twice (ranks=2: 2 is the king).  Its first
    # copies of every ace and king start the foundations; the other eight are dealt in
    # turn to three piles with no foundation plays, although every one of them fits.
    deck = full_pack(2, 2)
    g = Capricieuse(deck, {"deal_plays": False}, ranks=2, columns=3)
    assert g.up == [1] * 4 and g.down == [2] * 4
    assert layout(g) == ["AC 2D AS", "2C AH 2S", "AD 2H"]  # the last card went to p2
    g.apply("redeal")
    # Stock: p3 (AD 2H), p2 (2C AH 2S), p1 (AC 2D AS), dealt from p1 again, no plays.
    assert layout(g) == ["AD AH 2D", "2H 2S AS", "2C AC"]
    g.apply("redeal")
    # Stock: 2C AC, 2H 2S AS, AD AH 2D.
    assert layout(g) == ["2C 2S AH", "AC AS 2D", "2H AD"]
    assert g.up == [1] * 4 and g.down == [2] * 4 and g.redeals_left == 0


def test_deal_plays_false_full_game_is_eight_per_pile():
    # 104 cards less the first copy of each ace and each king: 96 cards, 8 per pile,
    # dealt in turn in deck order.
    deck = shuffled(7)
    g = Capricieuse(deck, {"deal_plays": False})
    assert g.up == [1] * 4 and g.down == [13] * 4
    rest, seen = [], set()
    for c in deck:
        if rank_of(c) in (1, 13) and c not in seen:
            seen.add(c)
        else:
            rest.append(c)
    assert len(rest) == 96
    assert g.piles == [rest[i::12] for i in range(12)]
    g.apply("redeal")
    stock = [c for p in reversed([rest[i::12] for i in range(12)]) for c in p]
    assert g.piles == [stock[i::12] for i in range(12)]
    assert all(len(p) == 8 for p in g.piles)


def test_deal_plays_false_takes_first_copies_only():
    # ranks=3: deck order puts 2C first, then the two ACs, then two 3Cs: the first AC and
    # the first 3C go to the foundations, the second copies are dealt.
    deck = cards("2C AC AC 3C 3C 2C") + cleared("D") + cleared("H") + cleared("S")
    g = Capricieuse(deck, {"deal_plays": False}, ranks=3, columns=2)
    assert g.up == [1] * 4 and g.down == [3] * 4
    # Dealt in turn: 2C AC 3C 2C, then per suit X: 2X 3X 2X AX (from A 2 3 3 2 A less the
    # first A and first 3) -- 16 cards, alternately p1 p2.
    stock = cards("2C AC 3C 2C 2D 3D 2D AD 2H 3H 2H AH 2S 3S 2S AS")
    assert g.piles == [stock[0::2], stock[1::2]]


# ------------------------------------------------------------------------- moves


def test_won_deck_replays():
    r = replay(CAP, {"redeals": 0}, WON_DECK, WON_MOVES, ranks=3, columns=2)
    assert r.legal and r.won and r.moves_applied == 4 and r.error is None


def test_pile_moves_same_suit_either_direction():
    g = Capricieuse(shuffled(3), {"redeals": 0})
    # Set a position by hand (the moves do not check where the cards came from).
    g.piles = [cards("5C"), cards("6C"), cards("2D 6C"), [], cards("KC"), cards("AC"),
               cards("QC"), cards("3C"), cards("3C"), cards("4H"), cards("5C 9S"), cards("4C")]
    g.apply("p1 p2 5C")      # 5C on 6C: one lower
    g.apply("p3 p2 6C")      # 6C on 5C: one higher (the direction may change)
    assert names(g.piles[1]) == "6C 5C 6C" and names(g.piles[2]) == "2D"
    g.apply("p5 p7 KC")      # K on Q
    g.apply("p7 p4 KC")      # any card into an empty pile
    assert names(g.piles[3]) == "KC" and names(g.piles[6]) == "QC"
    before = snapshot(g)
    for move, reason in [
        ("p4 p6 KC", "KC cannot go on AC, the top card of p6: it needs QC"),  # no wrap
        ("p6 p4 AC", "AC cannot go on KC, the top card of p4: it needs 2C"),
        ("p8 p9 3C", "3C cannot go on 3C"),  # the same rank is not one apart
        ("p12 p10 4C", "4C cannot go on 4H, the top card of p10: it needs 3C or 5C"),
        ("p12 p2 4C", "4C cannot go on 6C"),
        ("p3 p3 2D", "onto its own pile"),
    ]:
        with pytest.raises(IllegalMove, match=reason):
            g.apply(move)
        assert snapshot(g) == before
    g.apply("p12 p8 4C")  # on 3C: one higher
    assert names(g.piles[7]) == "3C 4C" and g.piles[11] == []


@pytest.mark.parametrize("move, reason", [
    ("deal", "no 'deal' move"),
    ("foo", "'foo' is not a move"),
    ("", "this has 0"),
    ("p1 U", "this has 2"),
    ("p1 U AS extra", "this has 4"),
    ("U p1 AS", "never moves again"),
    ("D U 3S", "never moves again"),
    ("p3 U 3H", "unknown pile 'p3': this game has piles p1..p2"),
    ("p0 U AS", "unknown pile 'p0'"),
    ("p01 U AS", "unknown pile 'p01'"),
    ("t1 U AS", "unknown pile 't1'"),
    ("c1 U AS", "unknown pile 'c1'"),
    ("p1 F AS", "unknown pile 'F'"),
    ("p1 p3 AS", "unknown pile 'p3'"),
    ("p1 U XX", "unknown card code"),
    ("p1 U 4S", "not in this game's deck"),
    ("p1 U 2S", "2S is not the top card of p1 \\(top is AS\\)"),
    ("p1 U AD", "AD is not the top card of p1"),
    ("p1 U AS", "AS cannot go to the spades up foundation: it is complete"),
    ("p1 D AS", "AS cannot go to the spades down foundation: it has 3S on top, so it takes 2S next"),
    ("p2 D 3H", "3H cannot go to the hearts down foundation: it is complete \\(down to AH\\)"),
    ("p1 p1 AS", "onto its own pile"),
    ("p1 p2 AS", "AS cannot go on 3H, the top card of p2: it needs 2S"),
    ("p2 p1 3H", "3H cannot go on AS, the top card of p1: it needs 2H"),
])
def test_illegal_moves_leave_the_state_unchanged(move, reason):
    g = Capricieuse(WON_DECK, {"redeals": 0}, ranks=3, columns=2)
    before = snapshot(g)
    with pytest.raises(IllegalMove, match=reason):
        g.apply(move)
    assert snapshot(g) == before


def test_empty_source_and_empty_foundation_messages():
    g = Capricieuse(WON_DECK, {"redeals": 0}, ranks=3, columns=2)
    g.apply("p2 U 3H")
    before = snapshot(g)
    with pytest.raises(IllegalMove, match="p2 is empty"):
        g.apply("p2 U 3H")
    with pytest.raises(IllegalMove, match="p2 is empty"):
        g.apply("p2 p1 3H")
    assert snapshot(g) == before
    # Empty foundations: up starts with the ace, down with the king (rank `ranks`).
    g = Capricieuse(shuffled(2), {"redeals": 0})
    g.piles[0] = cards("5D")
    g.up[D] = g.down[D] = 0
    with pytest.raises(IllegalMove, match="empty and an up foundation starts with the ace"):
        g.apply("p1 U 5D")
    with pytest.raises(IllegalMove, match="empty and a down foundation starts with the king \\(rank K\\)"):
        g.apply("p1 D 5D")


def test_redeal_count():
    g = Capricieuse(LOST_DECK, {"redeals": 0}, ranks=3, columns=2)
    before = snapshot(g)
    with pytest.raises(IllegalMove, match="no redeals left \\(this game allows 0\\)"):
        g.apply("redeal")
    assert snapshot(g) == before
    g = Capricieuse(shuffled(4))  # default: two redeals
    g.apply("redeal")
    g.apply("redeal")
    assert g.round == 3 and g.redeals_left == 0
    before = snapshot(g)
    with pytest.raises(IllegalMove, match="no redeals left \\(this game allows 2\\)"):
        g.apply("redeal")
    assert snapshot(g) == before


def test_replay_reports_the_first_illegal_move():
    r = replay(CAP, {"redeals": 0}, WON_DECK, ["p2 U 3H", "p1 D AS", "p1 p2 AS"], ranks=3, columns=2)
    assert not r.legal and r.moves_applied == 1
    assert r.error.startswith("move 2 'p1 D AS': AS cannot go to the spades down foundation")
    r = replay(CAP, {"redeals": 0}, WON_DECK, WON_MOVES[:3], ranks=3, columns=2)
    assert r.legal and not r.won and "1 card is not on the foundations" in r.error


def test_replay_default_columns_is_twelve_piles():
    # replay() passes columns=None unless told; the class reads it as its own 12.
    r = replay(CAP, {}, shuffled(5), [])
    assert r.legal and not r.won
    r = replay(CAP, {}, shuffled(5), ["p13 U AS"])
    assert not r.legal and "this game has piles p1..p12" in r.error
    r = replay(CAP, {}, shuffled(5), ["redeal", "redeal"], columns=12)
    assert r.legal


# ------------------------------------------------------------------ input errors


@pytest.mark.parametrize("variant, message", [
    ({"redeal": 2}, "unknown variant 'redeal' for capricieuse"),
    ({"redeals": 3}, "redeals takes a whole number from 0 to 2, not 3"),
    ({"redeals": -1}, "redeals takes a whole number from 0 to 2"),
    ({"redeals": True}, "redeals takes a whole number"),
    ({"redeals": "2"}, "redeals takes a whole number"),
    ({"redeals": 1.0}, "redeals takes a whole number"),
    ({"deal_plays": "false"}, "deal_plays must be true or false"),
    ({"deal_plays": 0}, "deal_plays must be true or false"),
])
def test_variant_errors(variant, message):
    with pytest.raises(PatienceError, match=message):
        replay(CAP, variant, full_pack(2), [])


def test_deck_and_size_errors():
    with pytest.raises(PatienceError, match="wrong number of cards"):
        Capricieuse(full_pack(1))
    with pytest.raises(PatienceError, match="duplicate card AC"):
        Capricieuse(full_pack(2)[:-1] + [card(1, C)])  # a third AC instead of a KS
    with pytest.raises(PatienceError, match="does not belong"):
        Capricieuse(full_pack(2, 3)[:-1] + [card(4, S)], ranks=3)
    for ranks in (0, 14):
        with pytest.raises(PatienceError, match="ranks must be from 1 to 13"):
            Capricieuse(full_pack(2), ranks=ranks)
    for columns in (0, 13, True, 2.0):
        with pytest.raises(PatienceError, match="from 1 to 12 piles"):
            Capricieuse(full_pack(2), columns=columns)
    with pytest.raises(PatienceError, match="needs ranks of at least 2"):
        Capricieuse(full_pack(2, 1), {"deal_plays": False}, ranks=1)


def test_one_rank_game_is_won_by_the_deal():
    # ranks=1: each ace is also the king; the first copy fits both foundations and goes
    # up, the second finds up complete and starts (and completes) down.
    g = Capricieuse(full_pack(2, 1), ranks=1, columns=1)
    assert g.won() and g.up == [1] * 4 and g.down == [1] * 4
    assert solve_exhaustive(CAP, {}, full_pack(2, 1), 1, 1) == (True, [], 1)


# -------------------------------------------------------------------- the oracle


def test_candidate_moves_are_a_superset():
    g = Capricieuse(WON_DECK, ranks=3, columns=2)
    cands = candidate_moves(g)
    assert cands == ["p1 U AS", "p1 D AS", "p1 p2 AS", "p2 U 3H", "p2 D 3H", "p2 p1 3H", "redeal"]
    assert [m for m, _ in legal_successors(g)] == ["p2 U 3H", "redeal"]
    assert state_key(g) == bytes(cards("2S AS") + [255] + cards("3H") + [255]
                                 + [3, 3, 2, 3] + [1, 1, 1, 3] + [2])


@pytest.mark.parametrize("method", ["bfs", "astar"])
def test_oracle_shortest_win_of_won_deck(method):
    # With no redeal, each of the 3 cards left needs a foundation move of its own, and
    # AS can reach a foundation only after 2S (spades up is complete, spades down wants
    # 2S), which lies under it: so AS must first move to another pile, and the only
    # pile it can go to is an empty one (p2's 3H is not a spade).  3 + 1 = 4 moves,
    # which WON_MOVES achieves.
    won, moves, _ = solve_exhaustive(CAP, {"redeals": 0}, WON_DECK, 3, 2, method=method)
    assert won and len(moves) == len(WON_MOVES) == 4
    assert replay(CAP, {"redeals": 0}, WON_DECK, moves, ranks=3, columns=2).won
    # With redeals the one move "redeal" wins: the stock is p2 (3H), then p1 (2S AS);
    # 3H fits hearts up, 2S fits spades down, AS follows it.
    assert solve_exhaustive(CAP, {}, WON_DECK, 3, 2, method=method)[:2] == (True, ["redeal"])


@pytest.mark.parametrize("method", ["bfs", "astar"])
def test_oracle_lost_deck(method):
    # No legal move at all with redeals=0: the tops are 3C and AC; clubs up holds AC and
    # down holds 3C, both want 2C, and both 2Cs lie under the tops; 3C and AC are two
    # ranks apart, so neither goes on the other, and no pile is empty.
    g = Capricieuse(LOST_DECK, {"redeals": 0}, ranks=3, columns=2)
    assert layout(g) == LOST_LAYOUT and legal_successors(g) == []
    assert solve_exhaustive(CAP, {"redeals": 0}, LOST_DECK, 3, 2, method=method) == (False, None, 1)
    # One redeal is not one move away from a win: the stock is 2C AC (p2) then 2C 3C
    # (p1): 2C up (fits both), AC -> p1 (up wants 3C, down wants 2C), 2C down, 3C up,
    # leaving AC on p1, which then fits down: two moves.
    won, moves, _ = solve_exhaustive(CAP, {"redeals": 1}, LOST_DECK, 3, 2, method=method)
    assert won and moves == ["redeal", "p1 D AC"]


def test_lower_bound():
    g = Capricieuse(WON_DECK, {"redeals": 0}, ranks=3, columns=2)
    assert lower_bound(g) == g.cards_left() == 3
    g = Capricieuse(WON_DECK, {"redeals": 1}, ranks=3, columns=2)
    assert lower_bound(g) == 1
    g.apply("redeal")
    assert g.won() and lower_bound(g) == 0


def test_lower_bound_is_consistent_on_a_whole_state_space():
    # Every edge s -> s' of a small reachable state space: h(s) <= 1 + h(s').
    deck = shuffled(0, 3)
    start = Capricieuse(deck, {"deal_plays": False, "redeals": 1}, ranks=3, columns=2)
    seen, todo, edges = {state_key(start)}, [start], 0
    while todo:
        g = todo.pop()
        for _, h in legal_successors(g):
            edges += 1
            assert lower_bound(g) <= 1 + lower_bound(h)
            if state_key(h) not in seen:
                seen.add(state_key(h))
                todo.append(h)
    assert edges > 50


def test_oracle_state_cap():
    with pytest.raises(StateCapExceeded):
        solve_exhaustive(CAP, {"deal_plays": False}, shuffled(0, 2), 2, 3, max_states=100)
    with pytest.raises(StateCapExceeded):
        solve_exhaustive(CAP, {"deal_plays": False}, shuffled(0, 2), 2, 3, max_states=100, method="bfs")


SEEDED = (
    [(3, 2, {"deal_plays": False}, seed) for seed in range(6)]  # won and lost, hundreds of states
    + [(4, 3, {"redeals": 0}, seed) for seed in range(6)]
    + [(3, 3, {}, seed) for seed in range(4)]
    + [(5, 4, {"redeals": 1}, seed) for seed in range(4)]
    + [(2, 3, {"deal_plays": False}, seed) for seed in range(2)]  # thousands of states
)


@pytest.mark.parametrize("ranks, columns, variant, seed", SEEDED)
def test_bfs_and_astar_agree_on_seeded_tiny_deals(ranks, columns, variant, seed):
    deck = shuffled(seed, ranks)
    a = solve_exhaustive(CAP, variant, deck, ranks, columns, max_states=200_000)
    b = solve_exhaustive(CAP, variant, deck, ranks, columns, max_states=200_000, method="bfs")
    assert a[0] == b[0]
    if a[0]:
        assert len(a[1]) == len(b[1])
        g = Capricieuse(deck, variant, ranks=ranks, columns=columns)
        assert len(a[1]) >= lower_bound(g)
        for moves in (a[1], b[1]):
            r = replay(CAP, variant, deck, moves, ranks=ranks, columns=columns)
            assert r.won, r.error
    else:
        assert a[1] is None and b[1] is None
        assert a[2] == b[2]  # a lost deal: both visit every reachable state
