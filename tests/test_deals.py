"""Deck sources: seeded decks, deck files, PySolFC game numbers."""

from __future__ import annotations

import numpy as np
import pytest

from solver import cards
from solver.deals import (
    _splitmix64,
    parse_deck_text,
    pysol_deck,
    pysol_shuffled_cards,
    read_deck_file,
    seeded_deck,
)
from solver.errors import PatienceError
from solver.pysol import _bakers_dozen_king_swap

# ---------------------------------------------------------------------------
# Seeded decks
# ---------------------------------------------------------------------------

# Computed once by solver.deals.seeded_deck and confirmed by _independent_seeded_deck.
PINNED = {
    1: "7D 9C 4D 8H 8D 5S JD 6D 9S JC 5D KD 3C 2D JH 5H 7H 4H 2C AD 6S KC KH TH TS JS "
    "TD 8S QC 4S 6C 7C AS 5C AH KS 6H QS QH QD 9D 3D 3S AC 4C 2H 8C TC 3H 2S 9H 7S",
    2024: "AC 7D 5S JD QH KS 7H 6D TS 3D 7C 3H TH 9S 8D JC KD 8C 6S 4S 6H 3C 5H JH AD 4C "
    "KH 8S 5C QD 9H 4D KC QC 2D 2S TD JS 2C 2H TC 3S 5D QS 4H 6C AS AH 8H 9D 9C 7S",
}


def _independent_seeded_deck(seed: int, packs: int = 1, ranks: int = 13) -> list[int]:
    """A second implementation of the documented algorithm: wrapping uint64 numpy
    arithmetic instead of masked Python ints, and the pack built by hand."""
    with np.errstate(over="ignore"):
        state = np.uint64(seed % 2**64)

        def draw() -> int:
            nonlocal state
            state = state + np.uint64(0x9E3779B97F4A7C15)
            z = state
            z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
            z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
            return int(z ^ (z >> np.uint64(31)))

        deck = [s * 13 + r for _ in range(packs) for s in range(4) for r in range(ranks)]
        for i in reversed(range(1, len(deck))):
            bound = 2**64 - 2**64 % (i + 1)
            x = draw()
            while x >= bound:
                x = draw()
            j = x % (i + 1)
            deck[i], deck[j] = deck[j], deck[i]
    return deck


def test_splitmix64_matches_published_reference_values():
    assert next(_splitmix64(0)) == 0xE220A8397B1DCDAF
    g = _splitmix64(1234567)
    assert [next(g) for _ in range(3)] == [6457827717110365317, 3203168211198807973, 9817491932198370423]


@pytest.mark.parametrize("seed", sorted(PINNED))
def test_seeded_deck_pinned(seed):
    assert cards.deck_str(seeded_deck(seed)) == PINNED[seed]


@pytest.mark.parametrize("seed", [0, 1, 2, 2024, 99999, 2**64 - 1, 2**63 + 5])
@pytest.mark.parametrize("packs,ranks", [(1, 13), (2, 13), (1, 9)])
def test_seeded_deck_matches_independent_implementation(seed, packs, ranks):
    assert seeded_deck(seed, packs, ranks).tolist() == _independent_seeded_deck(seed, packs, ranks)


@pytest.mark.parametrize("packs,ranks", [(1, 13), (2, 13), (1, 7)])
def test_seeded_deck_is_a_permutation(packs, ranks):
    for seed in range(20):
        deck = seeded_deck(seed, packs, ranks)
        assert deck.dtype == np.int8
        assert sorted(deck.tolist()) == sorted(cards.full_pack(packs, ranks))


def test_seeded_deck_reproducible_and_seed_dependent():
    assert np.array_equal(seeded_deck(42), seeded_deck(42))
    decks = {tuple(seeded_deck(s).tolist()) for s in range(200)}
    assert len(decks) == 200


def test_seeds_beyond_2_64_are_refused():
    """2**64 + 3 would only repeat seed 3 (the generator's state is 64 bits)."""
    seeded_deck(2**64 - 1)
    for bad in (2**64, 2**64 + 3):
        with pytest.raises(PatienceError, match="2\\*\\*64-1"):
            seeded_deck(bad)


@pytest.mark.parametrize("bad", [-1, -(2**70)])
def test_negative_seed_rejected(bad):
    with pytest.raises(PatienceError, match="seed"):
        seeded_deck(bad)


# ---------------------------------------------------------------------------
# Deck files
# ---------------------------------------------------------------------------


def _all_codes(order=None) -> list[str]:
    return [cards.card_str(c) for c in (order if order is not None else cards.full_pack())]


def test_parse_deck_text_comments_ten_and_lowercase():
    codes = _all_codes(seeded_deck(5).tolist())
    written = [("10" + c[1]) if c[0] == "T" else c for c in codes]
    written = [w.lower() if i % 2 else w for i, w in enumerate(written)]
    text = "# a comment line\n" + " ".join(written[:20]) + "\n   # indented comment AS KS\n\n"
    text += "\t".join(written[20:]) + "\n"
    assert np.array_equal(parse_deck_text(text), seeded_deck(5))


def test_parse_two_pack_and_short_pack():
    two = seeded_deck(3, packs=2)
    assert np.array_equal(parse_deck_text(cards.deck_str(two), packs=2), two)
    short = seeded_deck(3, ranks=9)
    assert np.array_equal(parse_deck_text(cards.deck_str(short), ranks=9), short)


def test_unknown_code_names_code_and_position():
    codes = _all_codes()
    codes[6] = "XQ"
    text = " ".join(codes[:5]) + "\n" + " ".join(codes[5:])
    with pytest.raises(PatienceError) as e:
        parse_deck_text(text)
    msg = str(e.value)
    assert "'XQ'" in msg and "card 7 " in msg and "line 2" in msg and "\n" not in msg


def test_inline_hash_is_not_a_comment():
    with pytest.raises(PatienceError, match="'#'"):
        parse_deck_text(" ".join(_all_codes()) + " # trailing")


def test_wrong_count():
    with pytest.raises(PatienceError, match="wrong number of cards.*51"):
        parse_deck_text(" ".join(_all_codes()[:51]))
    with pytest.raises(PatienceError, match="wrong number of cards.*0"):
        parse_deck_text("# nothing but a comment\n")


def test_duplicate():
    codes = _all_codes()
    codes[10] = codes[3]  # 4C twice, JC missing
    with pytest.raises(PatienceError, match="duplicate card 4C"):
        parse_deck_text(" ".join(codes))


def test_card_outside_a_short_pack():
    with pytest.raises(PatienceError, match="KC does not belong"):
        parse_deck_text(" ".join(_all_codes(cards.full_pack(1, 9))).replace("9C", "KC"), ranks=9)


def test_read_deck_file(tmp_path):
    path = tmp_path / "deck.txt"
    path.write_text("# deal 7\n" + cards.deck_str(seeded_deck(7)) + "\n")
    assert np.array_equal(read_deck_file(path), seeded_deck(7))
    assert np.array_equal(read_deck_file(str(path)), seeded_deck(7))


def test_missing_file_names_path(tmp_path):
    path = tmp_path / "nope.txt"
    with pytest.raises(PatienceError, match="not found.*nope.txt"):
        read_deck_file(path)


def test_unreadable_file_names_path(tmp_path):
    with pytest.raises(PatienceError, match=f"cannot read deck file {tmp_path}"):
        read_deck_file(tmp_path)  # a directory
    binary = tmp_path / "deck.bin"
    binary.write_bytes(b"\xff\xfe\x00AS")
    with pytest.raises(PatienceError, match="deck.bin"):
        read_deck_file(binary)


def test_file_errors_name_the_file(tmp_path):
    path = tmp_path / "short.txt"
    path.write_text(" ".join(_all_codes()[:50]))
    with pytest.raises(PatienceError) as e:
        read_deck_file(path)
    assert "short.txt" in str(e.value) and "wrong number of cards" in str(e.value)


# ---------------------------------------------------------------------------
# PySolFC game numbers
# ---------------------------------------------------------------------------

# Microsoft FreeCell deal #1, read row by row (the well-known layout).
FREECELL_1 = (
    "JD 2D 9H JC 5D 7H 7C 5H KD KC 9S 5S AD QC KH 3H 2S KS 9D QD JS AS AH 3C 4C 5C "
    "TS QH 4H AC 4D 7S 3S TD 4S TH 8H 2C JH 7D 6D 8S 8D QS 6C 3D 8C TC 6S 9C 2H 6H"
)


def _columns(deck) -> list[str]:
    """Baker's Dozen columns under RULES.md (no king rule), bottom to top."""
    return [cards.deck_str(deck[c::13]) for c in range(13)]


def _pysol_cards_layout(number: int) -> list[str]:
    from pysol_cards.cards import CardRenderer
    from pysol_cards.deal_game import Game
    from pysol_cards.random_base import RandomBase

    game = Game("bakers_dozen", number, RandomBase.DEALS_PYSOLFC)
    return game.calc_layout_string(CardRenderer(True)).splitlines()


def _pysol_cards_layout_with_mt(number: int) -> list[str]:
    """pysol_cards' own Baker's Dozen deal, forced onto the Mersenne Twister (PySolFC's
    rule for 32000, which pysol_cards itself would deal with the MS generator)."""
    from pysol_cards.cards import CardRenderer, createCards
    from pysol_cards.deal_game import Game
    from pysol_cards.random import MTRandom
    from pysol_cards.random_base import RandomBase

    game = Game("bakers_dozen", number, RandomBase.DEALS_PYSOLFC)
    shuffled = MTRandom(number).shuffle(createCards(1))
    game.new_cards(list(reversed(shuffled)))  # what Game.deal does
    game.bakers_dozen()
    return game.board.calc_string(CardRenderer(True)).splitlines()


def test_ms_generator_reproduces_freecell_1():
    # FreeCell deals the shuffled list from its end.
    assert cards.deck_str(reversed(pysol_shuffled_cards(1))) == FREECELL_1


def test_bakers_dozen_1_is_freecell_1_reversed_then_king_swap():
    # Baker's Dozen reverses the list before dealing, so its deal order runs the other
    # way round from FreeCell's.
    before_swap = [cards.parse_card(c) for c in reversed(FREECELL_1.split())]
    assert pysol_deck("bakers-dozen", 1).tolist() == _bakers_dozen_king_swap(before_swap)


@pytest.mark.parametrize("number", [1, 2, 617, 11982, 31999, 32001, 100000, 123456789, 10**20])
def test_bakers_dozen_matches_pysol_cards(number):
    assert _columns(pysol_deck("bakers-dozen", number)) == _pysol_cards_layout(number)


def test_32000_uses_mersenne_twister_like_pysolfc():
    deck = pysol_deck("bakers-dozen", 32000)
    assert _columns(deck) == _pysol_cards_layout_with_mt(32000)
    # pysol_cards reads 32000 as an MS deal (game_num <= 32000); PySolFC does not.
    assert _columns(deck) != _pysol_cards_layout(32000)


def test_game_0_uses_ms_generator_with_seed_0():
    # pysol_cards' LCRandom31 refuses seed 0, so set its state by hand.
    from pysol_cards.cards import createCards, ms_rearrange
    from pysol_cards.random import LCRandom31

    r = LCRandom31(1)
    r.seed = r.seedx = 0
    shuffled = r.shuffle(ms_rearrange(createCards(1)))
    expected = [cards.parse_card(cards.RANKS[c.rank - 1] + c.suit_s()) for c in shuffled]
    assert pysol_shuffled_cards(0) == expected
    deck = pysol_deck("bakers-dozen", 0)
    assert sorted(deck.tolist()) == cards.full_pack()
    assert not np.array_equal(deck, pysol_deck("bakers-dozen", 1))


@pytest.mark.parametrize("numbers", [range(0, 300), range(31990, 32010), range(10**9, 10**9 + 50)])
def test_kings_sit_at_the_bottom_of_every_column(numbers):
    for number in numbers:
        deck = pysol_deck("bakers-dozen", number)
        assert deck.dtype == np.int8
        for c in range(13):
            is_king = [cards.rank_of(int(x)) == 13 for x in deck[c::13]]
            assert is_king == sorted(is_king, reverse=True), (number, c)


def test_king_swap_is_not_rules_stable_partition():
    # One column, bottom to top 5H KS 9C KD: RULES.md gives KS KD 5H 9C, PySolFC swaps.
    col = [cards.parse_card(c) for c in "5H KS 9C KD".split()]
    assert cards.deck_str(_bakers_dozen_king_swap(col, columns=1)) == "KS KD 9C 5H"


def test_unsupported_game():
    # the other games: tests/test_pysol.py
    with pytest.raises(PatienceError, match="PySolFC has no game matching russian-patience"):
        pysol_deck("russian-patience", 1)


@pytest.mark.parametrize("bad", [-1, 10**20 + 1])
def test_number_out_of_range(bad):
    with pytest.raises(PatienceError, match="PySolFC game numbers run from 0"):
        pysol_deck("bakers-dozen", bad)
