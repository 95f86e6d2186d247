"""Duchess: the numba kernels and solvers against answers known for a reason.

* (the kernels against the independent checker along random walks, and the rest of
  the game interface: tests/test_game_contract.py;)
* the keys: blind to the order of the columns, and to nothing else;
* hand-built decks whose verdict follows from an argument written beside them;
* an exhaustive oracle (tests/duchess_oracle.py, which knows only the checker's
  rules) on tiny deals: DFS and A* must give its verdict, A* its length;
* DFS and A* agreeing on 200 seeded deals (reduced ranks, so that exact A*
  finishes), and every "won" replaying through the checker (solve_deal does).
"""

import random
import sys
from pathlib import Path

import numpy as np
import pytest

from solver.cards import card, card_str, full_pack, parse_card
from solver.checker import GAMES, replay
from solver.deals import seeded_deck
from solver.errors import PatienceError
from solver.games import duchess as du
from solver.solve import solve_deal

sys.path.insert(0, str(Path(__file__).parent))
from duchess_oracle import solve_exhaustive, solve_state  # noqa: E402

GAME = "duchess"
VARIANTS = [{}, {"redeals": 0}, {"moves": "whole"}, {"redeals": 0, "moves": "whole"}]


def kernel_moves(st):
    out = np.zeros(du.MAX_MOVES, dtype=np.int64)
    n = du.gen_moves(st, out, 0)
    return [int(m) for m in out[:n]]


def test_keys_ignore_the_order_of_the_columns_only():
    st = du.initial_state(seeded_deck(9, 1), {})
    other = st.copy()
    for c in range(4):  # reverse the columns
        other[du.COL0 + c * du.CAP] = st[du.COL0 + (3 - c) * du.CAP]
    du.rehash(other)
    assert (du.key1(other), du.key2(other)) == (du.key1(st), du.key2(st))
    swapped = st.copy()  # a column card swapped with a stock card: another state
    swapped[du.COL0], swapped[du.TAL0] = st[du.TAL0], st[du.COL0]
    du.rehash(swapped)
    assert du.key1(swapped) != du.key1(st)


# --- hand-built decks ------------------------------------------------------------------------


def ordered_deck():
    """Fan tops (deck cards 8..11) are the four aces, the fans' middle cards the 2s, their
    bottoms the 3s, the columns the 4s, and the stock 5C 5D 5H 5S 6C .. KS.  Taking an
    ace home makes the ace the base; then every card on view can go home in rank order,
    and each stock card goes home straight from the waste after its deal."""
    by_rank = [[card(r, s) for s in range(4)] for r in range(1, 14)]
    return by_rank[2] + by_rank[1] + by_rank[0] + by_rank[3] + [c for r in range(4, 13) for c in by_rank[r]]


@pytest.mark.parametrize("algorithm", ["dfs", "astar", "auto"])
@pytest.mark.parametrize("variant", [{}, {"redeals": 0}, {"moves": "whole"}], ids=str)
def test_ordered_deck_is_won(algorithm, variant):
    r = solve_deal(GAME, variant, ordered_deck(), algorithm=algorithm, max_nodes=200_000, seconds=20)
    assert r.result == "won"
    assert replay(GAME, variant, ordered_deck(), r.moves).won
    if algorithm == "astar":
        # 52 foundation moves and 36 deals, and no solution can have fewer
        assert len(r.moves) == 52 + 36


def all_fans_base_rank_buried_deck():
    """ranks=4 (A 2 3 4, the 4 playing the king; 16 cards, no stock).  Fans, bottom to
    top: r1 = 4C 2D 3S, r2 = 4D 2C 3H, r3 = 4H 2S 3C, r4 = 4S 2H 3D; columns AC AD AH AS.

    Every fan top is a 3, so the base is 3 and each suit goes 3 4 A 2.  After the 3s,
    every suit wants its 4, and every 4 lies at the bottom of a fan under a 2.  A 2
    can go home only last, or onto a column whose top is a 3; a 3 can go onto a 4 only,
    and no 4 is on view.  The aces cannot go home before the 4s, nor onto a column
    (an ace goes onto a 2 of the other colour), so no column ever empties and no
    space appears.  So nothing but the 3s can ever move: lost."""
    fans = ["4C 2D 3S", "4D 2C 3H", "4H 2S 3C", "4S 2H 3D"]
    cols = "AC AD AH AS".split()
    grid = [f.split() for f in fans]
    deck = [grid[i % 4][i // 4] for i in range(12)] + cols
    return [parse_card(w) for w in deck]


@pytest.mark.parametrize("variant", VARIANTS, ids=str)
def test_hand_built_lost_deck(variant):
    """(Tiny seeded deals are all won, so the oracle's "lost" comes from here.)"""
    deck = all_fans_base_rank_buried_deck()
    won, _, _ = solve_exhaustive(GAME, variant, deck, 4)
    assert won is False
    for algorithm in ("dfs", "astar", "auto"):
        r = solve_deal(GAME, variant, deck, algorithm=algorithm, max_nodes=100_000, seconds=10, ranks=4)
        assert r.result == "lost"


def test_bad_input_is_a_clear_error():
    deck = seeded_deck(1, 1)
    with pytest.raises(PatienceError, match="variant"):
        du.initial_state(deck, {"colour": True})
    with pytest.raises(PatienceError, match="four columns"):
        du.initial_state(deck, {}, columns=5)
    with pytest.raises(PatienceError):
        du.initial_state(deck[:-1], {})
    with pytest.raises(PatienceError, match="ranks"):
        du.initial_state(full_pack(1, 3), {}, ranks=3)


# --- the exhaustive oracle on tiny deals -------------------------------------------------


def tiny_deck(seed, ranks):
    deck = full_pack(1, ranks)
    random.Random(seed).shuffle(deck)
    return deck


ORACLE_CASES = [(ranks, variant) for ranks in (4, 5) for variant in VARIANTS]


@pytest.mark.slow
@pytest.mark.parametrize("ranks,variant", ORACLE_CASES, ids=str)
def test_solvers_agree_with_the_exhaustive_oracle(ranks, variant):
    """DFS, auto and A* give the oracle's verdict; A*'s solution is as short as the
    oracle's shortest."""
    for seed in range(10):
        deck = tiny_deck(seed, ranks)
        won, shortest, _ = solve_exhaustive(GAME, variant, deck, ranks, max_states=300_000)
        expected = "won" if won else "lost"
        for algorithm in ("dfs", "auto", "astar"):
            r = solve_deal(GAME, variant, deck, algorithm=algorithm, max_nodes=300_000, seconds=30, ranks=ranks)
            assert r.result == expected, (seed, algorithm)
            if algorithm == "astar" and won:
                assert len(r.moves) == len(shortest), seed


# --- DFS against A* on 200 seeded deals ---------------------------------------------------


@pytest.mark.slow
def test_dfs_and_astar_agree_on_200_seeded_deals():
    """Reduced deals (7 ranks: 28 cards, a stock of 12) so that exact A* finishes; the
    variants rotate so that every one is exercised."""
    won = 0
    for seed in range(1, 201):
        variant = VARIANTS[seed % len(VARIANTS)]
        deck = seeded_deck(seed, 1, ranks=7)
        a = solve_deal(GAME, variant, deck, algorithm="astar", max_nodes=2_000_000, seconds=60, ranks=7)
        d = solve_deal(GAME, variant, deck, algorithm="dfs", max_nodes=2_000_000, seconds=60, ranks=7)
        assert a.result in ("won", "lost"), seed
        assert d.result == a.result, (seed, variant)
        if a.result == "won":
            assert len(a.moves) <= len(d.moves)
            won += 1
    print(f"{won} won, {200 - won} lost")


# --- full deals ------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", [{}, {"moves": "whole"}], ids=str)
def test_full_deals_are_decided_and_replay(variant):
    decided = 0
    for seed in range(1, 6):
        r = solve_deal(GAME, variant, seeded_deck(seed, 1), max_nodes=500_000, seconds=20)
        if r.result == "won":
            assert replay(GAME, variant, seeded_deck(seed, 1), r.moves).won
        decided += r.result != "unknown"
    assert decided >= 4


@pytest.mark.parametrize("moves", ["any", "whole"])
def test_a_full_deal_lost_without_the_redeal_is_proved_lost(moves):
    """Seed 3 is won with the redeal and lost without it.  By exhaustion alone the
    DFS needed about a million states; with is_dead's stuck-set test every line is
    cut by the 18th card dealt, and a few thousand suffice.  Without a redeal most
    full deals stay unknown within a test's budget (see the README)."""
    deck = seeded_deck(3, 1)
    lost = solve_deal(GAME, {"redeals": 0, "moves": moves}, deck, algorithm="dfs", max_nodes=20_000, seconds=60)
    assert lost.result == "lost"
    won = solve_deal(GAME, {"moves": moves}, deck, max_nodes=2_000_000, seconds=30)
    assert won.result == "won"


@pytest.mark.parametrize("algorithm", ["dfs", "auto"])
def test_each_first_move_gets_a_search_of_its_own(algorithm, monkeypatch):
    """Seed 34 is won only from some base ranks: one search that tries the first move
    its ordering prefers spends 5M nodes without a win, while searching the four
    first moves side by side (solve.py, SPLIT_FIRST_MOVE) wins within 100k.  The
    win starts with the base it found, and solve_deal replays it."""
    deck = seeded_deck(34, 1)
    split = solve_deal(GAME, {}, deck, algorithm=algorithm, max_nodes=100_000, seconds=60)
    assert split.result == "won"
    assert split.moves[0] == "r4 F 2D"
    assert replay(GAME, {}, deck, split.moves).won
    monkeypatch.setattr(du, "SPLIT_FIRST_MOVE", False)
    single = solve_deal(GAME, {}, deck, algorithm=algorithm, max_nodes=100_000, seconds=60)
    assert single.result == "unknown"


@pytest.mark.slow
@pytest.mark.parametrize("variant", [{"redeals": 0}, {"redeals": 0, "moves": "whole"}, {}], ids=str)
def test_dead_end_test_only_cuts_lost_states(variant):
    """is_dead's claim checked state by state: along random walks through 8-rank deals,
    the first state it calls dead is handed, as the checker's position, to the
    exhaustive oracle, which must find it lost.  The walks prefer dealing, so that the
    waste grows as in the lost full deals (with a redeal, is_dead works only after
    it)."""
    from oracle_search import first_dead_states_are_lost

    rng = random.Random(5)

    def walks():
        for seed in range(1, 400):
            deck = tiny_deck(seed, 8)
            yield seed, du.initial_state(deck, variant, ranks=8), GAMES[GAME](deck, variant, ranks=8)

    def choose(moves_here):
        deals = [m for m in moves_here if m & 7 == du.KIND_DEAL]
        return rng.choice(deals if deals and rng.random() < 0.6 else moves_here)

    checked = first_dead_states_are_lost(du, walks(), choose, solve_state, want=20, max_states=200_000,
                                         steps=300, view=du.checker_view)
    assert checked >= 20


def test_dead_end_counts_stock_cards_in_the_stuck_set():
    """A position found by a random walk (6 ranks, A..6 with the 6 on the A; seed 108;
    no redeal) whose loss is_dead proves only by counting a card still in the stock.
    Base 6: 6C, AC, 6D and 6H are home.  Columns 4H; 5H 4C 3H; empty; 4D.  Fans 5D 2D
    2C; 2S 6S AS; 2H.  Waste, bottom to top: 4S AD 3S 3D AH 3C 5S; stock 5C.

    The stuck set is the waste and the 5C.  5S, on top, needs 3S and 4S (under it)
    home first, and 5C, once dealt, needs 3C (in the waste); each could go only onto a
    red 6, and both are home.  Four cards then each keep a column: the roots 4H and 4D
    (they need AH and AD, in the waste, home first, and could go only onto 5S or 5C),
    and the fan cards 2D and 2H (they need AD and AH, and could go only onto 3S or 3C,
    in the waste), which can leave the reserve only into the two other columns.  So no
    space is ever free for a waste card, and neither 5S nor 5C can ever move: lost, as
    the oracle confirms.  Without the stock in the set, 5C counts as a card 4H and 4D
    could go onto, and the test decides nothing."""
    variant = {"redeals": 0}
    deck = tiny_deck(108, 6)
    st = du.initial_state(deck, variant, ranks=6)
    g = GAMES[GAME](deck, variant, ranks=6)
    for text in ["r4 F 6D", "t1 t3 3H", "r4 t1 4H", "r4 F 6H", "deal", "deal", "deal", "deal", "deal", "deal",
                 "r3 F 6C", "r3 F AC", "t3 t2 4C", "deal"]:
        [m] = [m for m in kernel_moves(st) if du.move_text(m) == text]
        du.apply_move(st, m)
        g.apply(text)
    def text_of(pile):
        return " ".join(card_str(c) for c in pile)

    view = du.checker_view(st)
    fans, columns, stock, waste = view["fans"], view["columns"], view["stock"], view["waste"]
    assert [text_of(f) for f in fans] == ["5D 2D 2C", "2S 6S AS", "2H", ""]
    assert [text_of(c) for c in columns] == ["4H", "5H 4C 3H", "", "4D"]
    assert text_of(stock) == "5C"
    assert text_of(waste) == "4S AD 3S 3D AH 3C 5S"
    assert du.is_dead(st)
    without_stock = st.copy()
    without_stock[du.TK] = without_stock[du.TN]
    assert not du.is_dead(without_stock)
    won, _, _ = solve_state(g, max_states=10_000)
    assert not won
