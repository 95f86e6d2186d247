"""One deal in, one verdict out: the front end over the numba search engines.

    solve_deal(game_name, variant, deck, algorithm="auto", max_nodes=..., seconds=..., tt_mb=...)
        -> SolveResult(result="won"|"lost"|"unknown", moves=[move strings], nodes=int, seconds=float)

Algorithms: ``astar`` is exact A* (a shortest solution; ``max_nodes`` is the size
of its node store).  ``dfs`` runs depth-first search as a portfolio of restarts
drawn from two schedules that share the nodes equally (the one that has spent
fewer goes next):

* long attempts: attempt i orders moves by the game's profile i (its fixed
  profiles first, then noisy variants); the first round of profiles gets a small
  node budget each, and from then on each attempt doubles the budget;
* short attempts: each in its own noisy order, with budgets that follow the Luby
  sequence (SHORT_BUDGET x 1 1 2 1 1 2 4 ...).

Which deal is hard depends on the move order far more than on the deal: many deals
that a long attempt misses within 100k nodes fall to some short one within a few
thousand (Grand Duchess: 163 of 202 such deals), while the long attempts keep
loss proofs cheap.  Every attempt is a complete graph search: one that ends
without hitting its budget has seen every reachable state, so its LOST is a proof;
an attempt cut by its budget proves nothing and the next one starts afresh.  The
answer is UNKNOWN only when the total node or time budget runs out.  ``auto`` (the
default) alternates the long DFS attempts with greedy best-first attempts (the A*
engine ordered by depth + the game's move-ordering score, not exact, complete
within its node store): the two fail on different deals, so together they leave
fewer unknown.  A game that sets ``SPLIT_FIRST_MOVE`` gets one such portfolio per
first move, run side by side.

Every "won" is replayed by the independent checker (solver.replay) before it is
returned; a solution it rejects is a bug and raises.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from .games import get_game
from .replay import replay
from .search import astar as astar_engine
from .search import dfs as dfs_engine
from .search.astar import AStarWork
from .search.dfs import LOST, RUNNING, UNKNOWN, WON, DfsWork
from .search.table import new_table

RESULT_NAMES = {LOST: "lost", WON: "won", UNKNOWN: "unknown"}
MAX_DEPTH = 3000
FIRST_BUDGET = 1500  # nodes of each attempt of the first round
SLICE = 20_000  # nodes between looks at the clock
SHORT_BUDGET = 1000  # nodes of the shortest attempts of the Luby schedule (0: none)
SHORT_PROFILES = 10_000  # its attempts' profile numbers start here (noisy orders)

_tables: dict[float, np.ndarray] = {}
_generation = [0]
_dfs_work: dict[str, DfsWork] = {}
_astar_work: dict[str, AStarWork] = {}
ALGORITHMS = ("auto", "dfs", "astar")


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


def _dfs_attempt(game, st, budget, deadline, tt_mb):
    """One DFS run; returns (status, nodes, raw moves)."""
    work = _dfs_work.get(game.NAME)
    if work is None:
        work = _dfs_work[game.NAME] = DfsWork(MAX_DEPTH, game.MAX_MOVES)
    table, gen = _table(tt_mb)
    work.reset()
    status = RUNNING
    while status == RUNNING:
        if time.perf_counter() > deadline:
            return UNKNOWN, int(work.ctx[dfs_engine.NODES]), []
        status = game.dfs(st, table, gen, budget, SLICE, work.moves, work.count, work.nxt,
                          work.scores, work.path, work.ctx)
    return status, int(work.ctx[dfs_engine.NODES]), [int(m) for m in work.path[: work.ctx[dfs_engine.LENGTH]]]


def _node_store(game, capacity):
    """A*'s arrays, kept per process and grown when a larger store is asked for."""
    w = _astar_work.get(game.NAME)
    if w is None or w.capacity < capacity:
        _astar_work.clear()
        w = _astar_work[game.NAME] = AStarWork(capacity, game.PACK_LEN, game.MAX_MOVES, MAX_DEPTH)
    return w


def _best_first_attempt(game, st, capacity, deadline, greedy):
    """One A* (greedy=0) or best-first (greedy=k>0) run over at most ``capacity`` stored nodes."""
    w = _node_store(game, capacity)
    w.reset(capacity, greedy)
    status = RUNNING
    while status == RUNNING:
        if time.perf_counter() > deadline:
            return UNKNOWN, w.expanded, []
        status = game.astar(st, SLICE, w.rows, w.g, w.parent, w.via, w.k1s, w.k2s, w.closed,
                            w.slots, w.hkey, w.hidx, w.moves, w.row, w.path, w.ctx)
    return status, w.expanded, [int(m) for m in w.path[: w.ctx[astar_engine.LENGTH]]]


_warm: set = set()


def _warm_up(game, st0, tt_mb):
    """Load (or, the first time, compile) the game's engines before any clock starts,
    so that a time budget measures search, not numba."""
    if game.NAME not in _warm:
        _dfs_attempt(game, st0.copy(), 1, float("inf"), tt_mb)
        _best_first_attempt(game, st0.copy(), 2, float("inf"), greedy=0)
        _warm.add(game.NAME)


def luby(i: int) -> int:
    """The Luby sequence 1 1 2 1 1 2 4 1 1 2 1 1 2 4 8 ... (i from 1)."""
    k = 1
    while (1 << k) - 1 < i:
        k += 1
    if (1 << k) - 1 == i:
        return 1 << (k - 1)
    return luby(i - (1 << (k - 1)) + 1)


class _Restarts:
    """The restart schedule from one state (see the module docstring): each call to
    ``step`` runs the next attempt, from whichever of the two schedules has spent
    fewer nodes so far."""

    def __init__(self, game, st0, best_first):
        self.game = game
        self.st0 = st0
        self.best_first = best_first
        self.attempt = 0
        self.short = 0
        self.long_nodes = 0
        self.short_nodes = 0

    @property
    def nodes(self):
        return self.long_nodes + self.short_nodes

    def step(self, max_budget, deadline, tt_mb):
        game = self.game
        st = self.st0.copy()
        if SHORT_BUDGET > 0 and self.short_nodes < self.long_nodes:
            # short attempts, Luby-sized, each in its own noisy order
            self.short += 1
            budget = min(max_budget, SHORT_BUDGET * luby(self.short))
            game.set_profile(st, SHORT_PROFILES + self.short)
            status, nodes, raw = _dfs_attempt(game, st, budget, deadline, tt_mb)
            self.short_nodes += nodes
        else:
            nprof = len(game.PROFILES)
            round_no = self.attempt // 2 if self.best_first else self.attempt
            budget = min(max_budget, FIRST_BUDGET << min(max(0, round_no - nprof + 1), 40))
            game.set_profile(st, round_no)
            if self.best_first and self.attempt % 2 == 1:
                status, nodes, raw = _best_first_attempt(game, st, budget, deadline, greedy=1)
            else:
                status, nodes, raw = _dfs_attempt(game, st, budget, deadline, tt_mb)
            self.long_nodes += nodes
            self.attempt += 1
        return status, nodes, raw


def _portfolio(game, st0, max_nodes, deadline, tt_mb, best_first):
    """Restarts with differently ordered searches (see the module docstring), one
    schedule per first move for a game that sets ``SPLIT_FIRST_MOVE``, run side by
    side: the one with the fewest nodes spent goes next.  For a game whose first
    move is a choice that decides the rest (Duchess's base rank), one DFS attempt
    would spend its whole budget under whichever first move its ordering tries
    first.  A win is the schedule's first move followed by its line; the deal is
    lost when every schedule's search ends without hitting its budget, each a proof
    for its own subtree."""
    children = []  # (moves leading to the schedule's start, its schedule)
    if getattr(game, "SPLIT_FIRST_MOVE", False) and not game.is_won(st0):
        moves = np.zeros(game.MAX_MOVES, dtype=np.int64)
        # gen_moves prunes only moves a win can do without: none at all means lost
        for i in range(int(game.gen_moves(st0, moves, 0))):
            st = st0.copy()
            game.apply_move(st, moves[i])
            children.append(([int(moves[i])], _Restarts(game, st, best_first)))
    else:
        children.append(([], _Restarts(game, st0, best_first)))
    total = 0
    while children and total < max_nodes and time.perf_counter() < deadline:
        k = min(range(len(children)), key=lambda j: children[j][1].nodes)
        prefix, restarts = children[k]
        status, nodes, raw = restarts.step(max_nodes - total, deadline, tt_mb)
        total += nodes
        if status == WON:
            return WON, total, prefix + raw
        if status == LOST:
            del children[k]
    return (LOST if not children else UNKNOWN), total, []


def solve_deal(game_name: str, variant: dict, deck, algorithm: str = "auto", max_nodes: int = 2_000_000,
               seconds: float = 60.0, tt_mb: float = 64, ranks: int = 13, columns: int | None = None) -> SolveResult:
    """Solve one deal; ``ranks``/``columns`` shrink the game for exhaustive tests
    (``columns=None``: the game's own number of piles)."""
    game = get_game(game_name)
    st0 = game.initial_state(deck, variant, ranks=ranks, columns=columns)
    _warm_up(game, st0, tt_mb)
    start = time.perf_counter()
    deadline = start + seconds
    if algorithm in ("dfs", "auto"):
        status, nodes, raw = _portfolio(game, st0, max_nodes, deadline, tt_mb, best_first=algorithm == "auto")
    elif algorithm == "astar":
        status, nodes, raw = _best_first_attempt(game, st0.copy(), max_nodes, deadline, greedy=0)
    else:
        raise ValueError(f"unknown algorithm {algorithm!r}")
    elapsed = time.perf_counter() - start
    # a game's macro move (Grand Duchess transfers) is written as several lines
    moves = [line for m in raw for line in game.move_text(m).split("\n")]
    if status == WON:
        check = replay(game_name, variant, [int(c) for c in deck], moves, ranks=ranks, columns=columns)
        if not check.won:
            raise RuntimeError(f"solver bug: its solution does not replay: {check.error}")
    return SolveResult(RESULT_NAMES[status], moves, int(nodes), elapsed)
