"""The independent checker (solver/checker) against hand-made Baker's Dozen deals."""

from __future__ import annotations

import json

import pytest

from solver.cards import card, full_pack, parse_card
from solver.errors import PatienceError
from solver.checker import ReplayResult, deal_columns, parse_solution, read_solution, replay

BD = "bakers-dozen"


def cards(text: str) -> list[int]:
    return [parse_card(w) for w in text.split()]


def deck_from_columns(cols: list[list[int]]) -> list[int]:
    """The deck whose deal (before the king rule) gives ``cols``, each bottom to top.

    Deck card i goes to column i mod n, so row r of the layout is deck[r*n:(r+1)*n].
    """
    n = len(cols)
    return [cols[i % n][i // n] for i in range(n * len(cols[0]))]


# The "sorted" deck: column j (1..13) holds the four cards of rank j, suits C D H S
# from bottom to top.  Kings already fill c13 alone, so the king rule changes nothing.
SORTED_COLUMNS = [[card(r, s) for s in range(4)] for r in range(1, 14)]
SORTED_DECK = deck_from_columns(SORTED_COLUMNS)

# Its win: it is won because column j holds exactly the rank-j cards, and by the time we
# reach it every rank j-1 card is already on its foundation (columns are cleared in
# order c1, c2, ...).  So each card, popped from the top (S H D C), is the next rank of
# its suit's foundation.  52 foundation moves and no tableau move.
SORTED_WIN = [f"c{r} F {'A23456789TJQK'[r - 1]}{s}" for r in range(1, 14) for s in "SHDC"]


# --------------------------------------------------------------------- the deal


def test_deal_puts_card_i_on_column_i_mod_13():
    deck = full_pack()
    cols = deal_columns(deck, {"kings_to_bottom": False})
    assert len(cols) == 13 and all(len(c) == 4 for c in cols)
    for j in range(13):
        assert cols[j] == deck[j::13]  # bottom row first: cards j, j+13, j+26, j+39


def _deck_with_rules_example_in_c1() -> list[int]:
    # Column 1 gets deck cards 0, 13, 26, 39 (bottom to top); put the RULES.md example there.
    example = cards("5H KS 9C KD")
    rest = [c for c in full_pack() if c not in example]
    deck = []
    for i in range(52):
        deck.append(example[i // 13] if i % 13 == 0 else rest.pop(0))
    return deck


def test_king_rule_on_rules_example():
    cols = deal_columns(_deck_with_rules_example_in_c1(), {"kings_to_bottom": True})
    assert cols[0] == cards("KS KD 5H 9C")


def test_king_rule_is_the_default():
    assert deal_columns(_deck_with_rules_example_in_c1(), {})[0] == cards("KS KD 5H 9C")


def test_king_rule_off_keeps_the_deal():
    cols = deal_columns(_deck_with_rules_example_in_c1(), {"kings_to_bottom": False})
    assert cols[0] == cards("5H KS 9C KD")


def test_king_rule_uses_top_rank_in_tiny_game():
    # ranks=3: the 3 plays the king.  One column of four: 2C 3H AC 3S -> 3H 3S 2C AC.
    cols = [cards("2C 3H AC 3S"), cards("AD 2D 3D 3C"), cards("AH 2H AS 2S")]
    deck = deck_from_columns(cols)
    dealt = deal_columns(deck, {}, ranks=3, columns=3)
    assert dealt == [cards("3H 3S 2C AC"), cards("3D 3C AD 2D"), cards("AH 2H AS 2S")]


def test_bad_deck_and_variant_are_input_errors():
    with pytest.raises(PatienceError):
        deal_columns(full_pack()[:-1], {})  # 51 cards
    with pytest.raises(PatienceError):
        deal_columns(full_pack(), {"empty": "sometimes"})
    with pytest.raises(PatienceError):
        deal_columns(full_pack(), {"kings_to_top": True})  # unknown key is not ignored


# -------------------------------------------------------------------- winning


def test_sorted_deck_wins():
    assert replay(BD, {}, SORTED_DECK, SORTED_WIN) == ReplayResult(True, True, 52, None)


def test_face_down_changes_nothing():
    assert replay(BD, {"face_down": True}, SORTED_DECK, SORTED_WIN).won


def test_win_with_tableau_move_and_king_rule_in_tiny_game():
    # ranks=3 (A 2 3, the 3 is the king), columns=3.  Dealt, bottom to top:
    #   c1: 3C 2H AC 2D
    #   c2: 3D AD AH 2C
    #   c3: 3H 2S AS 3S  -> king rule ->  3H 3S 2S AS
    # Hand solution: clear spades' A and 2 off c3, which leaves 3S on top there; park 2D
    # on it (2 onto 3) to free AC; then every top card is the next foundation card in turn.
    cols = [cards("3C 2H AC 2D"), cards("3D AD AH 2C"), cards("3H 2S AS 3S")]
    deck = deck_from_columns(cols)
    moves = [
        "c3 F AS", "c3 F 2S",          # c3 is now 3H 3S
        "c1 c3 2D",                    # tableau move: 2D onto 3S
        "c1 F AC", "c2 F 2C",          # clubs A, 2
        "c2 F AH", "c2 F AD",          # c2 is now 3D
        "c3 F 2D", "c1 F 2H",          # c1 is now 3C, c3 is 3H 3S
        "c1 F 3C", "c2 F 3D", "c3 F 3S", "c3 F 3H",
    ]
    assert replay(BD, {}, deck, moves, ranks=3, columns=3) == ReplayResult(True, True, 13, None)
    # Without the king rule c3 keeps 3S on top, so the first move is already illegal.
    off = replay(BD, {"kings_to_bottom": False}, deck, moves, ranks=3, columns=3)
    assert not off.legal and off.error.startswith("move 1 'c3 F AS': AS is not the top card of c3 (top is 3S)")


def test_incomplete_solution_is_legal_but_not_won():
    r = replay(BD, {}, SORTED_DECK, SORTED_WIN[:4])
    assert r.legal and not r.won and r.moves_applied == 4
    assert "48 cards are not on the foundations" in r.error
    r = replay(BD, {}, SORTED_DECK, SORTED_WIN[:-1])
    assert r.legal and not r.won and "1 card is not on the foundations" in r.error
    r = replay(BD, {}, SORTED_DECK, [])
    assert r == ReplayResult(True, False, 0, r.error) and "52 cards" in r.error


# ------------------------------------------------------------------ illegal moves


def bad(moves, variant=None, deck=SORTED_DECK, **size) -> ReplayResult:
    r = replay(BD, variant or {}, deck, moves, **size)
    assert not r.legal and not r.won
    return r


def test_wrong_source_card():
    r = bad(["c1 F AS", "c1 F AC"])  # c1 top is AH after AS leaves
    assert r.moves_applied == 1
    assert r.error == "move 2 'c1 F AC': AC is not the top card of c1 (top is AH)"


def test_empty_source():
    r = bad(SORTED_WIN[:4] + ["c1 F AS"])
    assert r.error == "move 5 'c1 F AS': c1 is empty"


def test_foundation_out_of_order():
    r = bad(["c2 F 2S"])
    assert r.error == "move 1 'c2 F 2S': 2S cannot go to the spades foundation: it needs AS first"
    r = bad(["c1 F AS", "c3 F 3S"])
    assert r.moves_applied == 1
    assert r.error.startswith("move 2 'c3 F 3S': 3S cannot go to the spades foundation") and "2S" in r.error


def test_wrong_rank_on_tableau():
    r = bad(["c1 c3 AS"])  # c3 top is 3S: an ace needs a 2
    assert r.error.startswith("move 1 'c1 c3 AS': AS cannot go on 3S")
    r = bad(["c3 c2 3S"])  # lower onto higher is the wrong way round
    assert "3S cannot go on 2S" in r.error
    r = bad(["c13 c12 KS"])  # a king goes on nothing
    assert "KS cannot go on QS" in r.error and "higher than a king" in r.error
    r = bad(["c1 c1 AS"])
    assert "own column" in r.error


def test_legal_tableau_move():
    # AS onto 2S (one rank higher, any suit would do); then AH onto 2S is not allowed
    # because 2S is now covered by AS.
    r = replay(BD, {}, SORTED_DECK, ["c1 c2 AS"])
    assert r.legal
    r = bad(["c1 c2 AS", "c1 c2 AH"])
    assert r.error == "move 2 'c1 c2 AH': AH cannot go on AS, the top card of c2: it needs a 2, one rank higher, of any suit"


# After the four aces go up, c1 is empty and the tops are 2S, 3S, ..., KS.
CLEAR_C1 = SORTED_WIN[:4]


def test_empty_column_never_filled_by_default():
    r = bad(CLEAR_C1 + ["c2 c1 2S"])
    assert r.moves_applied == 4
    assert r.error == "move 5 'c2 c1 2S': c1 is empty and an empty column is never filled (empty=none)"
    bad(CLEAR_C1 + ["c13 c1 KS"], {"empty": "none"})


def test_empty_column_any():
    # Under empty=any the same move that was illegal above is fine, and so is a king.
    r = replay(BD, {"empty": "any"}, SORTED_DECK, CLEAR_C1 + ["c2 c1 2S"])
    assert r.legal and r.moves_applied == 5
    assert replay(BD, {"empty": "any"}, SORTED_DECK, CLEAR_C1 + ["c13 c1 KS"]).legal


def test_empty_column_any_then_play_from_it():
    moves = CLEAR_C1 + ["c2 c1 2S", "c1 F 2S"]
    assert replay(BD, {"empty": "any"}, SORTED_DECK, moves).legal


def test_empty_column_kings_only():
    assert replay(BD, {"empty": "king"}, SORTED_DECK, CLEAR_C1 + ["c13 c1 KS"]).legal
    r = bad(CLEAR_C1 + ["c2 c1 2S"], {"empty": "king"})
    assert r.error == "move 5 'c2 c1 2S': c1 is empty and only a king (rank K) may fill it (empty=king)"


def test_empty_column_kings_only_tiny_game_top_rank():
    # ranks=3, columns=3: the 3 is the king.  Sorted: c1 aces, c2 twos, c3 threes.
    deck = deck_from_columns([[card(r, s) for s in range(4)] for r in (1, 2, 3)])
    clear = ["c1 F AS", "c1 F AH", "c1 F AD", "c1 F AC"]
    assert replay(BD, {"empty": "king"}, deck, clear + ["c3 c1 3S"], ranks=3, columns=3).legal
    r = bad(clear + ["c2 c1 2S"], {"empty": "king"}, deck, ranks=3, columns=3)
    assert "only a king (rank 3)" in r.error


@pytest.mark.parametrize(
    "move, why",
    [
        ("c1 F", "three words"),
        ("c1 F AS now", "three words"),
        ("", "three words"),
        ("deal", "'deal' is not a move in Baker's Dozen"),
        ("redeal", "not a move"),
        ("c1 F ZZ", "unknown card code"),
        ("c1 F A", "unknown card code"),
        ("c14 F AS", "unknown pile 'c14'"),
        ("c0 F AS", "unknown pile 'c0'"),
        ("c01 F AS", "unknown pile 'c01'"),
        ("x3 F AS", "unknown pile 'x3'"),
        ("c1 U AS", "unknown pile 'U'"),
        ("c1 t2 AS", "unknown pile 't2'"),
        ("F c1 AS", "never moves again"),
    ],
)
def test_malformed_moves_are_illegal_not_exceptions(move, why):
    r = bad(["c1 F AS", move])
    assert r.moves_applied == 1
    assert r.error.startswith(f"move 2 {move!r}: ")
    assert why in r.error


def test_unknown_pile_in_tiny_game():
    deck = deck_from_columns([[card(r, s) for s in range(4)] for r in (1, 2, 3)])
    r = bad(["c4 F AS"], deck=deck, ranks=3, columns=3)
    assert "columns c1..c3" in r.error


def test_card_outside_tiny_game():
    deck = deck_from_columns([[card(r, s) for s in range(4)] for r in (1, 2, 3)])
    r = bad(["c3 F KS"], deck=deck, ranks=3, columns=3)
    assert "KS is not in this game's deck" in r.error


def test_card_codes_as_cards_py_reads_them():
    # 10H and lower case are accepted spellings of TH / as (cards.parse_card).
    assert replay(BD, {}, SORTED_DECK, ["c1 F as", "c1 F AH"]).legal
    r = bad(["c10 F 10S"])
    assert "TS cannot go to the spades foundation" in r.error


def test_unknown_game():
    with pytest.raises(PatienceError):
        replay("klondike", {}, SORTED_DECK, [])


# ----------------------------------------------------------------- solution files


def test_read_solution_lines(tmp_path):
    p = tmp_path / "sol.txt"
    p.write_text("# a comment\nc1 F AS\n\n  c1 F AH  \n# another\n")
    assert read_solution(p) == ["c1 F AS", "c1 F AH"]


def test_read_solution_json_list_and_object(tmp_path):
    p = tmp_path / "a.json"
    p.write_text(json.dumps(SORTED_WIN))
    assert read_solution(p) == SORTED_WIN
    q = tmp_path / "b.json"
    q.write_text(json.dumps({"game": BD, "variant": {}, "deck": SORTED_DECK, "result": "won", "moves": SORTED_WIN}))
    assert read_solution(str(q)) == SORTED_WIN
    assert replay(BD, {}, SORTED_DECK, read_solution(q)).won


@pytest.mark.parametrize(
    "text, why",
    [
        ("[\"c1 F AS\",", "not valid JSON"),
        ("{\"result\": \"won\"}", "without a \"moves\" list"),
        ("[1, 2]", "list of strings"),
        ("{\"moves\": \"c1 F AS\"}", "list of strings"),
    ],
)
def test_read_solution_bad_json(tmp_path, text, why):
    p = tmp_path / "bad.json"
    p.write_text(text)
    with pytest.raises(PatienceError, match=why) as e:
        read_solution(p)
    assert "\n" not in str(e.value)


def test_read_solution_missing_file(tmp_path):
    with pytest.raises(PatienceError, match="does not exist"):
        read_solution(tmp_path / "nope.txt")


def test_parse_solution_reads_text_as_read_solution_reads_a_file():
    """The CLI reads a solution from standard input through parse_solution; ``name``
    only says where the text came from in the messages."""
    assert parse_solution("# a comment\nc1 F AS\n\n  c1 F AH  \n", "standard input") == ["c1 F AS", "c1 F AH"]
    assert parse_solution(json.dumps({"moves": SORTED_WIN}), "standard input") == SORTED_WIN
    with pytest.raises(PatienceError, match="^standard input is not valid JSON"):
        parse_solution("[1, 2", "standard input")
    with pytest.raises(PatienceError, match="^standard input: the moves must be a JSON list"):
        parse_solution("[1, 2]", "standard input")
