"""solver/games/duchess_relax.py, the relaxation the solver runs on each first move of
a Duchess `redeals=0` deal (issue 19).

The answers known for a reason: states reached by random play on reduced deals,
decided by the complete DFS (every reachable state searched; the DFS is held to the
exhaustive oracle of tests/duchess_oracle.py by tests/test_duchess.py).  R must never
call lost a state the DFS wins, must call lost some states the DFS proves lost, and
a mutant whose tableau holds three chains instead of four must be caught.  Then the
solver's use of it: a deal all of whose first moves R loses is lost with the proof
"relaxation", a deal R prunes only in part is still won, and R's arrays are counted
before they are allocated."""

import random

import numpy as np
import pytest

from solver.deals import seeded_deck
from solver.games import duchess as D
from solver.games import duchess_relax as R
from solver.search import portfolio as P
from solver.search.portfolio import Clock, search
from solver.solve import solve_deal

FOREVER = Clock(float("inf"))


def walk_states(ranks, seeds, steps=40, every=5):
    """States of random play (the DFS's moves) from each deal's start, one in ``every``
    moves after the first: the base rank set, cards dealt, the waste and the tableau
    built, the reserve partly played."""
    rng = random.Random(19)
    moves = np.zeros(D.MAX_MOVES, dtype=np.int64)
    for seed in seeds:
        deck = [int(c) for c in seeded_deck(seed, 1, ranks=ranks)]
        st = D.initial_state(deck, {"redeals": 0}, ranks=ranks)
        for step in range(steps):
            n = int(D.gen_moves(st, moves, 0))
            if n == 0 or D.is_won(st):
                break
            D.apply_move(st, moves[rng.randrange(n)])
            if step % every == 0:
                yield st.copy()


@pytest.fixture(scope="module")
def decided():
    """(state, DFS verdict) for the walk states the DFS decides: ranks 7 and 8."""
    out = []
    for ranks in (7, 8):
        for st in walk_states(ranks, range(1, 21)):
            o = search(D, st.copy(), "dfs", 300_000, 20, 64)
            if o.status in (P.WON, P.LOST):
                out.append((st, o.status))
    return out


def test_no_state_it_calls_lost_is_won(decided):
    work = R.RelaxWork(300_000)
    both_lost = 0
    for st, status in decided:
        v = R.search(work, st, 300_000, FOREVER)
        assert v in (R.LOST, R.WON_R)  # small enough to finish
        if status == P.WON:
            assert v != R.LOST
        both_lost += v == R.LOST
    wins = sum(status == P.WON for _, status in decided)
    assert wins >= 100 and both_lost >= 20  # (wins, both lost): (257, 29) when written


def test_a_mutant_with_three_columns_is_caught(decided):
    """Allowing three chains where the tableau holds four is unsound, and some won
    state shows it (128 of the 257 when written)."""
    work = R.RelaxWork(300_000)
    assert any(status == P.WON and R.search(work, st, 300_000, FOREVER, columns=3) == R.LOST
               for st, status in decided)


def test_a_deal_it_proves_lost():
    """Full seed 3 (`redeals=0`): R loses all four first moves in 181,790 states."""
    deck = [int(c) for c in seeded_deck(3, 1)]
    r = solve_deal("duchess", {"redeals": 0}, deck, algorithm="dfs", max_nodes=1_000_000, seconds=60)
    assert (r.result, r.proof) == ("lost", "relaxation")
    r = solve_deal("duchess", {"redeals": 0}, deck, algorithm="nrpa", max_nodes=1_000_000, seconds=60)
    assert (r.result, r.proof) == ("lost", "relaxation")
    # with a redeal R does not apply: the search alone
    r = solve_deal("duchess", {"redeals": 1}, deck, algorithm="dfs", max_nodes=50_000, seconds=60)
    assert r.proof != "relaxation"


def test_a_deal_it_prunes_in_part_is_still_won():
    """Full seed 221: R loses one first move, the DFS wins from another (the line is
    replayed by the checker inside solve_deal)."""
    deck = [int(c) for c in seeded_deck(221, 1)]
    st0 = D.initial_state(deck, {"redeals": 0})
    P.WORKSPACE.prepare(D, "dfs", 1_000_000, 64)
    lost, every, states = P.relaxed_first_moves(P.WORKSPACE, D, st0, 1_000_000, FOREVER, every=True)
    assert len(lost) == 1 and not every and states > 0
    r = solve_deal("duchess", {"redeals": 0}, deck, algorithm="dfs", max_nodes=1_000_000, seconds=60)
    assert r.result == "won"
    assert D.move_text(next(iter(lost))) != r.moves[0]


def test_the_clock_and_the_budget_stop_it():
    deck = [int(c) for c in seeded_deck(3, 1)]
    st = D.initial_state(deck, {"redeals": 0})
    moves = np.zeros(D.MAX_MOVES, dtype=np.int64)
    D.gen_moves(st, moves, 0)
    D.apply_move(st, moves[0])
    work = R.RelaxWork(1_000)
    assert R.search(work, st, 1_000, Clock(0.0)) == R.OPEN
    assert R.search(work, st, 1_000, FOREVER) == R.OPEN and work.ctx[R.STATES] == 1_001
    assert R.search(work, st, 10**9, FOREVER) == R.OPEN  # the work's capacity bounds it too


def test_its_memory_is_counted_first():
    """The workspace counts R's table for Duchess (any variant: R may apply) and for no
    other game; a budget past MAX_STATES costs no more than MAX_STATES."""
    from solver.games import get_game

    ws = P.Workspace()
    assert ws.needs(D, "dfs", 1_000, 1)[-1] and not ws.needs(get_game("grand-duchess"), "dfs", 1_000, 1)[-1]
    assert R.work_bytes(10**12) == R.work_bytes(R.MAX_STATES) < (1024 + 1) << 20
    assert R.table_slots(1_000) >= 2 * 1_000
