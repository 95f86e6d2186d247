"""The DFS's memo of dead ends (solver.search.dfs.dfs_dead; DEAD_MEMO in Grand
Duchess and Parisienne): what it keeps, what it answers, and that each deal gets
its own number in it.  That the verdicts stay right is the oracle tests' part
(tests/test_grand_duchess.py runs the portfolio, memo and all, against the
exhaustive oracle, redeals=1 included)."""

from __future__ import annotations

import numpy as np

from solver.deals import seeded_deck
from solver.games import bakers_dozen as bd
from solver.games import grand_duchess as gd
from solver.search import portfolio
from solver.search.table import new_table, table_insert, table_probe


def _keys(kernel, st):
    return int(kernel.key1(st)), int(kernel.key2(st))


def _stock_out(seed):
    """A Grand Duchess redeals=1 state of round one right after its last deal (plays
    only when nothing else is left, so the stock runs out quickly)."""
    st = gd.initial_state(seeded_deck(seed, 2), {"redeals": 1})
    out = np.zeros(gd.MAX_MOVES, np.int64)
    while st[gd.SP] != st[gd.SN]:
        moves = [int(out[i]) for i in range(gd.gen_moves(st, out, 0))]
        deal = [m for m in moves if m & 3 == gd.KIND_DEAL]
        gd.apply_move(st, deal[0] if deal else moves[0])
    return st


def test_keeps_only_its_deals_dead_ends_and_answers_from_them():
    dead_st = _stock_out(13)
    assert gd.is_dead(dead_st.copy())  # refuted by redeal_dead (seed 13 is lost)
    live = gd.initial_state(seeded_deck(13, 2), {"redeals": 1})
    assert not gd.is_dead(live.copy())
    memo = new_table(1)
    # a dead end is tested, found dead and kept under the deal's number only
    assert gd.dfs_dead(dead_st, memo, 3)
    assert table_probe(memo, *_keys(gd, dead_st), 3)
    assert not table_probe(memo, *_keys(gd, dead_st), 4)
    # a live state is not kept
    assert not gd.dfs_dead(live, memo, 3)
    assert not table_probe(memo, *_keys(gd, live), 3)
    # the memo is believed without a test (so only the deal's own dead ends may go in):
    # a state written there under number 3 is dead for number 3, and for no other
    table_insert(memo, *_keys(gd, live), 3)
    assert gd.dfs_dead(live, memo, 3)
    assert not gd.dfs_dead(live, memo, 4)
    assert not gd.dfs_dead(live, memo, 0)  # number 0: no memo at all


def test_a_game_without_the_memo_ignores_it():
    assert not bd.DEAD_MEMO
    st = bd.initial_state(seeded_deck(1, 1), {})
    assert not bd.is_dead(st.copy())
    memo = new_table(1)
    table_insert(memo, *_keys(bd, st), 5)
    assert not bd.dfs_dead(st, memo, 5)


def test_each_search_gets_a_new_number():
    ws = portfolio.Workspace()
    st = gd.initial_state(seeded_deck(1, 2, 4), {"redeals": 1}, ranks=4)
    gens, memos = [], []
    for _ in range(2):
        portfolio.search(gd, st.copy(), "dfs", 10_000, 10.0, 1, ws=ws)
        gens.append(ws.dead_gen)
        memos.append(ws.dead)
    assert gens[1] == gens[0] + 1 and gens[0] >= 1
    assert memos[0] is memos[1] and ws.dead.nbytes > 1 << 20  # the full memo, made once


def test_remembers_a_costly_test_that_did_not_refute():
    """Where the game says its test is costly (dead_costly: redeal_dead at the
    stock-out), a state the test did not refute is kept under its second key salted,
    and believed: the next restart searches it without testing it again.  Elsewhere
    nothing is kept."""
    from solver.search.dfs import LIVE_SALT

    live_st = _stock_out(2)  # not refuted by redeal_dead (seed 2's windows stay too wide)
    dead_st = _stock_out(13)
    assert gd.dead_costly(live_st) and not gd.is_dead(live_st.copy())
    memo = new_table(1)
    k1, k2 = _keys(gd, live_st)
    assert not gd.dfs_dead(live_st, memo, 3)
    assert table_probe(memo, k1, k2 ^ LIVE_SALT, 3) and not table_probe(memo, k1, k2, 3)
    assert not table_probe(memo, k1, k2 ^ LIVE_SALT, 4)
    # believed without a test: a refutable state marked "not refuted" under number 5
    # is searched (answered False) for that number only
    d1, d2 = _keys(gd, dead_st)
    table_insert(memo, d1, d2 ^ LIVE_SALT, 5)
    assert not gd.dfs_dead(dead_st, memo, 5)
    assert gd.dfs_dead(dead_st, memo, 6)
    # a state whose test is cheap (not at the stock-out) is not kept either way
    start = gd.initial_state(seeded_deck(2, 2), {"redeals": 1})
    assert not gd.dead_costly(start)
    assert not gd.dfs_dead(start, memo, 3)
    s1, s2 = _keys(gd, start)
    assert not table_probe(memo, s1, s2 ^ LIVE_SALT, 3) and not table_probe(memo, s1, s2, 3)
