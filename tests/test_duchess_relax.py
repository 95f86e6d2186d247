"""solver/games/duchess_relax.py, the relaxation the solver runs on each first move of
a Duchess `redeals=0` deal (issue 19).

The answers known for a reason: states reached by random play on reduced deals,
decided by the complete DFS (every reachable state searched; the DFS is held to the
exhaustive oracle of tests/duchess_oracle.py by tests/test_duchess.py).  R+ (the
solver's: R with the columns' bottom cards kept) and R must never call lost a state
the DFS wins, must call lost some states the DFS proves lost, R+ all that R does,
and a mutant whose tableau holds three columns instead of four must be caught.  Then the
solver's use of it: a deal all of whose first moves R loses is lost with the proof
"relaxation", a deal R+ prunes only in part is still won, and its arrays are counted
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
    """R+ at 2,000,000 states (two won states need 1.5 M and 0.3 M: it splits R's states
    by their bottom cards), R at 300,000."""
    work = R.RelaxWork(2_000_000)
    plus_lost = r_lost = 0
    for st, status in decided:
        v_plus = R.search(work, st, 2_000_000, FOREVER)
        v_r = R.search(work, st, 300_000, FOREVER, bases=False)
        assert v_plus in (R.LOST, R.WON_R) and v_r in (R.LOST, R.WON_R)  # small enough to finish
        if status == P.WON:
            assert v_plus != R.LOST and v_r != R.LOST
        if v_r == R.LOST:
            assert v_plus == R.LOST  # R+'s moves are R's: what R loses, R+ loses
        plus_lost += v_plus == R.LOST
        r_lost += v_r == R.LOST
    wins = sum(status == P.WON for _, status in decided)
    # (wins, lost by R+, lost by R): (257, 48 of 48, 29) when written
    assert wins >= 100 and r_lost >= 20 and plus_lost >= r_lost + 10


def test_a_mutant_with_three_columns_is_caught(decided):
    """Allowing three columns where the tableau has four is unsound, and some won
    state shows it (R+: 21 of the 257 when written; R, three chains: 128)."""
    work = R.RelaxWork(300_000)
    for bases in (True, False):
        assert any(status == P.WON and R.search(work, st, 300_000, FOREVER, columns=3, bases=bases) == R.LOST
                   for st, status in decided)


def test_a_deal_it_proves_lost():
    """Full seed 3 (`redeals=0`): R+ loses all four first moves in 178,454 states."""
    deck = [int(c) for c in seeded_deck(3, 1)]
    r = solve_deal("duchess", {"redeals": 0}, deck, algorithm="dfs", max_nodes=1_000_000, seconds=60)
    assert (r.result, r.proof) == ("lost", "relaxation")
    r = solve_deal("duchess", {"redeals": 0}, deck, algorithm="nrpa", max_nodes=1_000_000, seconds=60)
    assert (r.result, r.proof) == ("lost", "relaxation")
    # with a redeal R does not apply: the search alone
    r = solve_deal("duchess", {"redeals": 1}, deck, algorithm="dfs", max_nodes=50_000, seconds=60)
    assert r.proof != "relaxation"


def test_a_deal_it_prunes_in_part_is_still_won():
    """Full seed 65: R+ loses two first moves in 2,000,000 states each, and the deal is
    won from another (the line replayed by the checker inside solve_deal)."""
    deck = [int(c) for c in seeded_deck(65, 1)]
    st0 = D.initial_state(deck, {"redeals": 0})
    P.WORKSPACE.prepare(D, "dfs", 2_000_000, 64)
    lost, every, states, _ = P.relaxed_first_moves(P.WORKSPACE, D, st0, 2_000_000, FOREVER, every=True)
    assert len(lost) == 2 and not every and states > 0
    r = solve_deal("duchess", {"redeals": 0}, deck, algorithm="dfs", max_nodes=2_000_000, seconds=60)
    assert r.result == "won"
    assert r.moves[0] not in {D.move_text(m) for m in lost}


def test_its_wins_are_real_lines():
    """R+ forgets only which card of a block lies on which, which the real game can
    nearly always change, so its wins are made real move by move
    (solver/games/duchess_relax_line.py): every line it gives replays in the checker,
    here on 7-rank deals (all 40 first moves of seeds 1..10 when written) and full seed
    221, won in R+ from its first first move in 854 states; a line cut short gives
    None, and one with a state left out None or a line the checker accepts."""
    from solver.checker import replay
    from solver.games import duchess_relax_line as L

    work = R.RelaxWork(300_000)
    made = 0
    moves = np.zeros(D.MAX_MOVES, dtype=np.int64)
    for ranks, seeds in ((7, range(1, 11)), (13, (221,))):
        for seed in seeds:
            deck = [int(c) for c in seeded_deck(seed, 1, ranks=ranks)]
            st0 = D.initial_state(deck, {"redeals": 0}, ranks=ranks)
            for i in range(int(D.gen_moves(st0, moves, 0))):
                st = st0.copy()
                D.apply_move(st, moves[i])
                if R.search(work, st, 300_000, FOREVER) != R.WON_R:
                    continue
                path = L.won_path(work)
                line = L.real_line(st0, int(moves[i]), path)
                if line is None:
                    continue
                made += 1
                check = replay("duchess", {"redeals": 0}, deck, [D.move_text(m) for m in line], ranks=ranks)
                assert check.won, check.error
                assert L.real_line(st0, int(moves[i]), path[:-1]) is None  # not won at its end
                broken = path[:len(path) // 2] + path[len(path) // 2 + 1:]  # a state left out
                other = L.real_line(st0, int(moves[i]), broken)
                assert other is None or replay("duchess", {"redeals": 0}, deck, [D.move_text(m) for m in other],
                                               ranks=ranks).won
    assert made >= 30
    r = solve_deal("duchess", {"redeals": 0}, [int(c) for c in seeded_deck(221, 1)], algorithm="nrpa",
                   max_nodes=1_000_000, seconds=60)
    assert r.result == "won" and r.nodes < 1_000  # R+'s states: no search ran
    r = solve_deal("duchess", {"redeals": 0}, [int(c) for c in seeded_deck(221, 1)], algorithm="astar",
                   max_nodes=1_000, seconds=60)
    assert r.result == "unknown"  # A* gives its own (shortest) lines only


def test_its_lines_keep_moves_whole():
    """Under `moves=whole` (only a top card or a whole column moves) R+ is still a
    relaxation, but its lines may move a run from a column's middle: such a line is
    refused, and every line given replays under `moves=whole` (7-rank seeds 1..10: 16
    given, 24 refused when written)."""
    from solver.checker import replay

    work = R.RelaxWork(300_000)
    moves = np.zeros(D.MAX_MOVES, dtype=np.int64)
    given = refused = 0
    for seed in range(1, 11):
        deck = [int(c) for c in seeded_deck(seed, 1, ranks=7)]
        st0 = D.initial_state(deck, {"redeals": 0, "moves": "whole"}, ranks=7)
        for i in range(int(D.gen_moves(st0, moves, 0))):
            st = st0.copy()
            D.apply_move(st, moves[i])
            if R.search(work, st, 300_000, FOREVER) == R.WON_R:
                line = R.won_line(work, st0, int(moves[i]))
                refused += line is None
                if line is not None:
                    given += 1
                    check = replay("duchess", {"redeals": 0, "moves": "whole"}, deck, [D.move_text(m) for m in line],
                                   ranks=7)
                    assert check.won, check.error
    assert given >= 10 and refused >= 10


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
    assert R.work_bytes(10**12) == R.work_bytes(R.MAX_STATES) < (2048 + 1) << 20  # 2^27 slots of 16 bytes
    assert R.table_slots(1_000) >= 2 * 1_000


def test_the_experiment_decides_by_r_plus_alone(monkeypatch, capsys):
    """experiments/duchess_relax_lines.py: 7-rank seeds 1..3 won by R+'s real lines;
    bad input is one line and status 2."""
    from pathlib import Path

    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[1] / "experiments"))
    import duchess_relax_lines

    assert duchess_relax_lines.main(["--ranks", "7", "--seeds", "1..3", "--max-states", "300000"]) == 0
    assert "{'won': 3, 'lost': 0, 'open': 0}" in capsys.readouterr().out
    assert duchess_relax_lines.main(["--max-states", "0"]) == 2
    assert capsys.readouterr().err.count("\n") == 1
