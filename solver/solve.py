"""One deal in, one verdict out: the front end over the numba search engines.

    solve_deal(game_name, variant, deck, algorithm="dfs", max_nodes=..., seconds=..., tt_mb=...)
        -> SolveResult(result="won"|"lost"|"unknown", moves=[move strings], nodes=int, seconds=float)

DFS runs as a portfolio of restarts: attempt i orders moves by the game's profile
i (its fixed profiles first, then noisy variants); the first round of profiles
gets a small node budget each, and from then on each attempt doubles the budget,
so the last attempt always holds about half of all the nodes spent.
Which deal is hard depends on the move order far more than on the deal, so short
differently-ordered attempts decide most deals quickly.  Every attempt is a
complete graph search: one that ends without hitting its budget has seen every
reachable state, so its LOST is a proof; an attempt cut by its budget proves
nothing and the next one starts afresh.  The answer is UNKNOWN only when the total
node or time budget runs out.

Every "won" is replayed by the independent checker (solver.replay) before it is
returned; a solution it rejects is a bug and raises.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from .games import get_game
from .replay import replay
from .search.astar import AStarWork
from .search.dfs import LOST, RUNNING, UNKNOWN, WON, DfsWork
from .search.table import new_table

RESULT_NAMES = {LOST: "lost", WON: "won", UNKNOWN: "unknown"}
MAX_DEPTH = 3000
FIRST_BUDGET = 1500  # nodes of each attempt of the first round
SLICE = 20_000  # nodes between looks at the clock

_tables: dict[float, np.ndarray] = {}
_generation = [0]
_dfs_work: dict[int, DfsWork] = {}


@dataclass
class SolveResult:
    result: str
    moves: list[str] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0


def _table(tt_mb: float) -> tuple[np.ndarray, int]:
    """One table per process, reused across deals: each search takes a new number."""
    if tt_mb not in _tables:
        _tables.clear()
        _tables[tt_mb] = new_table(tt_mb)
        _generation[0] = 0
    _generation[0] += 1
    return _tables[tt_mb], _generation[0]


def _dfs_portfolio(game, st0, max_nodes, deadline, tt_mb):
    work = _dfs_work.get(game.MAX_MOVES)
    if work is None:
        work = _dfs_work[game.MAX_MOVES] = DfsWork(MAX_DEPTH, game.MAX_MOVES)
    total = 0
    attempt = 0
    nprof = len(game.PROFILES)
    while total < max_nodes:
        budget = min(max_nodes - total, FIRST_BUDGET << min(max(0, attempt - nprof + 1), 40))
        st = st0.copy()
        game.set_profile(st, attempt)
        table, gen = _table(tt_mb)
        work.reset()
        status = RUNNING
        while status == RUNNING:
            if time.perf_counter() > deadline:
                return UNKNOWN, total + int(work.ctx[1]), []
            status = game.dfs(st, table, gen, budget, SLICE, work.moves, work.count, work.nxt,
                                  work.scores, work.path, work.ctx)
        total += int(work.ctx[1])
        if status == WON:
            return status, total, [int(m) for m in work.path[: work.ctx[4]]]
        if status == LOST:
            return status, total, []
        attempt += 1
    return UNKNOWN, total, []


def _astar(game, st0, max_nodes, deadline):
    w = AStarWork(max_nodes, game.PACK_LEN, game.MAX_MOVES, MAX_DEPTH)
    st = st0.copy()
    status = RUNNING
    while status == RUNNING:
        if time.perf_counter() > deadline:
            return UNKNOWN, int(w.ctx[2]), []
        status = game.astar(st, SLICE, w.rows, w.g, w.parent, w.via, w.k1s, w.k2s, w.closed,
                                w.slots, w.hkey, w.hidx, w.moves, w.row, w.path, w.ctx)
    return status, int(w.ctx[2]), [int(m) for m in w.path[: w.ctx[4]]]


def solve_deal(game_name: str, variant: dict, deck, algorithm: str = "dfs", max_nodes: int = 2_000_000,
               seconds: float = 60.0, tt_mb: float = 64, ranks: int = 13, columns: int = 13) -> SolveResult:
    """Solve one deal; ``ranks``/``columns`` shrink the game for exhaustive tests."""
    game = get_game(game_name)
    start = time.perf_counter()
    st0 = game.initial_state(deck, variant, ranks=ranks, columns=columns)
    if algorithm == "dfs":
        status, nodes, raw = _dfs_portfolio(game, st0, max_nodes, start + seconds, tt_mb)
    elif algorithm == "astar":
        status, nodes, raw = _astar(game, st0, max_nodes, start + seconds)
    else:
        raise ValueError(f"unknown algorithm {algorithm!r}")
    elapsed = time.perf_counter() - start
    moves = [game.move_text(m) for m in raw]
    if status == WON:
        check = replay(game_name, variant, [int(c) for c in deck], moves, ranks=ranks, columns=columns)
        if not check.won:
            raise RuntimeError(f"solver bug: its solution does not replay: {check.error}")
    return SolveResult(RESULT_NAMES[status], moves, int(nodes), elapsed)
