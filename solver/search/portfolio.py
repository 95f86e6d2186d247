"""The restart portfolio over the numba engines, and the arrays it works in.

``search(game, st0, algorithm, max_nodes, seconds, tt_mb)`` runs one deal:

* ``astar``: exact A* (a shortest solution; ``max_nodes`` is the size of its node
  store).
* ``dfs``: depth-first search as a portfolio of restarts drawn from two schedules
  that share the nodes equally (the one that has spent fewer goes next):

  - long attempts: attempt i orders moves by the game's profile i (its fixed
    profiles first, then noisy variants); the first round of profiles gets a small
    node budget each, and from then on each attempt doubles the budget;
  - short attempts: each in its own noisy order, with budgets that follow the Luby
    sequence (SHORT_BUDGET x 1 1 2 1 1 2 4 ...); for a game that sets
    ``RANDOM_SHORT``, each in its own random order (common.RANDOM_ORDER) instead.

  Which deal is hard depends on the move order far more than on the deal: many
  deals that a long attempt misses within 100k nodes fall to some short one within
  a few thousand (Grand Duchess: 163 of 202 such deals), while the long attempts
  keep loss proofs cheap.  Every attempt is a complete graph search: one that ends
  without hitting its budget has seen every reachable state, so its LOST is a
  proof; an attempt cut by its budget proves nothing and the next one starts
  afresh.  The answer is UNKNOWN only when the total node or time budget runs out.
* ``auto`` (the default) alternates the long DFS attempts with greedy best-first
  attempts (the A* engine ordered by depth + the game's move-ordering score, not
  exact, complete within its node store): the two fail on different deals, so
  together they leave fewer unknown.  Once a deal has cost BEAM_AFTER nodes, a
  third schedule joins them: beam searches (solver.search.beam) of width
  BEAM_WIDTH, three times wider each attempt up to BEAM_MAX_WIDTH, each in the order
  of the next profile, taking a third of the nodes.  A beam proves nothing lost
  unless it never had to drop a state, but it wins deals whose first moves a
  depth-first order ranks low (issue 19: Grand Duchess seeds 235, 317 and 373, and
  seven Baker's Dozen seeds that Freecell Solver wins and the DFS portfolio left
  unknown, fall to widths of 100 to 10,000).  The price: a lost deal past
  BEAM_AFTER nodes needs half again as many nodes for its proof.  In a game that
  sets ``AUTO_NRPA``, once a deal has cost NRPA_AFTER nodes, NRPA attempts
  (solver.search.nrpa) join too, each twice as long as the one before, in their own
  random streams, their moves charged NRPA_MOVES_PER_NODE to a node and kept to as
  many nodes as the other schedules together: like a beam they prove nothing lost.

A game that sets ``SPLIT_FIRST_MOVE`` gets one such portfolio per first move, run
side by side.

What stopped an undecided search is reported (``Outcome.stop``): ``nodes`` (the
node budget), ``time`` (the time budget), ``memory`` (A*'s node store full, for
``astar``; for ``auto``, the store its next best-first attempt needs does not fit
in the memory available), or ``depth``: an attempt went through every state it could reach and
was cut only at MAX_DEPTH moves (DFS's ctx[INCOMPLETE]), so it could not prove the
loss; ``depth`` is reported over ``nodes``/``time`` since it is what a larger budget
cannot fix.

All arrays live in one ``Workspace`` per process (``WORKSPACE``), allocated once
and reused across deals: the transposition table (each search takes a new
generation number instead of clearing it), the DFS arrays, the A* node store.
Memory is checked before anything is allocated (solver.memory), and everything a
search needs is allocated, and the engines loaded from numba's cache, before its
clock starts: ``seconds`` measures search alone.
"""

from __future__ import annotations

import time
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np

from .. import memory
from ..solve import ALGORITHMS
from . import astar as astar_engine
from . import dfs as dfs_engine
from . import beam as beam_engine
from . import nrpa as nrpa_engine
from .astar import AStarWork
from .beam import BeamWork
from .nrpa import NrpaWork
from .dfs import LOST, RUNNING, UNKNOWN, WON, DfsWork
from .table import new_table
from ..games.common import RANDOM_ORDER

MAX_DEPTH = 3000
FIRST_BUDGET = 1500  # nodes of each attempt of the first round
# the dead-end memo (dfs.dfs_dead) of a game that sets DEAD_MEMO: at most this (1 M
# states), where Grand Duchess redeals=1 seed 2 reaches 0.36 M at round one's stock-out
DEAD_MEMO_BYTES = 32 << 20
SLICE = 20_000  # at most this many nodes between looks at the clock
# ... and about this long: a node's cost ranges from microseconds to tens of
# milliseconds (Grand Duchess with a redeal to come, where each state at the stock's
# end gets redeal_dead), so slices are sized from the rate each engine has shown
SLICE_SECONDS = 0.05
FIRST_SLICE = 16  # nodes of an engine's first slice in a deal's search
# a slice is at most this many times the one before: the rate a slice shows does not
# foretell the next one's (Grand Duchess redeals=1: 16 round-one nodes take microseconds,
# the stock-out states after them 20 to 40 ms each), so a slice may overrun the clock by
# up to GROWTH times the nodes that ran within it; 8 let a 1 s budget run 5 s
GROWTH = 2
SHORT_BUDGET = 1000  # nodes of the shortest attempts of the Luby schedule (0: none)
SHORT_PROFILES = 10_000  # its attempts' profile numbers start here (noisy orders)
BEAM_AFTER = 200_000  # nodes a deal costs before auto's beam attempts start (below it, restarts win more)
BEAM_WIDTH = 100  # of the first beam attempt
BEAM_MAX_WIDTH = 30_000
BEAM_LAYERS = 1000  # the beam's record holds width x BEAM_LAYERS nodes (a solution's moves)
NRPA_LEVELS = 2  # --algorithm nrpa: levels of each search, and N, the searches of
NRPA_ITERATIONS = 100  # level l-1 a level-l search runs (Rosin's N; 10,000 playouts a search)
# auto's NRPA attempts, in games that set AUTO_NRPA (the redeal games, where a DFS node
# costs a playout move's time 30 to 60 times over: its dead-end tests look through a redeal)
NRPA_AFTER = 20_000  # nodes a deal costs the other schedules before they start
NRPA_FIRST = 1_000_000  # moves of the first; each next one plays twice as many
NRPA_MOVES_PER_NODE = 32  # moves charged as one node of the deal's budget


# ------------------------------------------------------------------ numba's cache


def _light_cache_loads() -> None:
    """Load cached kernels without numba's full context refresh.

    Before loading anything from its cache numba "refreshes" its target context: it
    imports and registers every lowering implementation it has (arrays, unicode,
    typed containers, random, linear algebra...), some 150-250 ms in every fresh
    process, although machine code loaded from the cache needs none of it; only the
    runtime (NRT) must be initialised.  Here a cache load initialises the runtime
    and loads; only when the cache has no entry (numba will compile) does it refresh
    as numba would, and numba's compiler refreshes again by itself.  The machine
    code run is the same either way.  Skipped silently if numba's internals differ.
    """
    try:
        from numba.core import caching
        from numba.core.runtime import rtsys

        cache_cls = caching.Cache
        original = cache_cls.load_overload
        cache_cls._load_overload  # noqa: B018 (present in the numba versions this knows)
    except (ImportError, AttributeError):
        return
    if getattr(original, "_patience_light", False):
        return

    def load_overload(self, sig, target_context):
        rtsys.initialize(target_context)
        with self._guard_against_spurious_io_errors():
            cres = self._load_overload(sig, target_context)
            if cres is not None:
                return cres
        target_context.refresh()
        return None

    load_overload._patience_light = True
    cache_cls.load_overload = load_overload


_light_cache_loads()


def _cache_entries(dispatcher) -> int:
    """How many compiled signatures numba's on-disk cache holds for ``dispatcher``
    (fresh ones only: numba drops an index whose source stamp or version differ);
    -1 when it cannot tell."""
    try:
        cache = dispatcher._cache
        if type(cache).__name__ == "NullCache":
            return 0
        return len(cache._cache_file._load_index())
    except Exception:  # noqa: BLE001 - numba internals: never fail a solve over this
        return -1


ENGINES = ("dfs", "astar", "beam", "nrpa")


def is_cold(game) -> bool:
    """True when loading the game's engines would compile them (nothing in numba's
    cache for one of ENGINES): a cheap look at their index files, no compilation."""
    return any(_cache_entries(getattr(game, name)) == 0 for name in ENGINES)


# ------------------------------------------------------------------ the clock


class Clock:
    """Search time: perf_counter from ``start()``, minus the spans run inside
    ``paused()`` (loading an engine first used mid-search); and the size of the next
    slice of each engine (``run``), so that the clock is looked at about every
    SLICE_SECONDS whatever a node costs."""

    def __init__(self, seconds: float):
        self.seconds = seconds
        self.begin = time.perf_counter()
        self.excluded = 0.0
        self.slices: dict[str, int] = {}

    def run(self, engine: str, step, done) -> int:
        """Call ``step(n)`` (one slice of at most n more nodes; returns the engine's
        status) and size ``engine``'s next slice from how fast this one went:
        ``done()`` reads the engine's node counter.  The size grows at most GROWTH-fold
        a slice, from FIRST_SLICE, up to SLICE."""
        n = self.slices.get(engine, FIRST_SLICE)
        before = done()
        t = time.perf_counter()
        status = step(n)
        spent = time.perf_counter() - t
        ran = done() - before
        if ran > 0:
            fit = int(ran * SLICE_SECONDS / spent) if spent > 0 else SLICE
            self.slices[engine] = max(1, min(SLICE, GROWTH * n, fit))
        return status

    def elapsed(self) -> float:
        return time.perf_counter() - self.begin - self.excluded

    def expired(self) -> bool:
        return self.elapsed() > self.seconds

    @contextmanager
    def paused(self):
        t = time.perf_counter()
        try:
            yield
        finally:
            self.excluded += time.perf_counter() - t


# ------------------------------------------------------------------ the workspace


def _work_bytes(make, scaled: dict) -> tuple[int, dict]:
    """bytes(n) of the arrays ``make(n)`` allocates, from one small instance: an array
    whose first dimension is one of ``scaled``'s sample sizes grows with that size."""
    sample = make()
    fixed, per = 0, {k: 0.0 for k in scaled}
    for value in vars(sample).values():
        if not isinstance(value, np.ndarray):
            continue
        for key, n0 in scaled.items():
            if value.ndim and value.shape[0] == n0:
                per[key] += value.nbytes / n0
                break
        else:
            fixed += value.nbytes
    return fixed, per


def held_bytes(work) -> int:
    """bytes of the arrays a work object (AStarWork, BeamWork) holds; 0 for None."""
    if work is None:
        return 0
    return sum(v.nbytes for v in vars(work).values() if isinstance(v, np.ndarray))


def _slots(capacity: int) -> int:
    tsize = 1
    while tsize < 2 * capacity:
        tsize <<= 1
    return tsize


def _store_depth(capacity: int) -> int:
    # A*'s solution path: g of a stored node is below its index (its parent is stored
    # before it), so a path never has more than ``capacity`` moves
    return max(MAX_DEPTH, capacity)


class Workspace:
    """Everything a process's searches work in, allocated once and reused."""

    def __init__(self):
        self.tt_mb = None
        self.table = None
        self.generation = 0
        self.dfs_work: dict[str, DfsWork] = {}
        self.store: AStarWork | None = None
        self.store_game = None
        self.beam: BeamWork | None = None
        self.beam_game = None
        self.nrpa: NrpaWork | None = None
        self.relax = None  # a game's relaxation's arrays (Duchess redeals=0: games/duchess_relax.py)
        # the dead-end memo of games that set DEAD_MEMO (dfs.dfs_dead), one number a deal
        self.dead = new_table(0)  # a placeholder until a game with the memo comes
        self.dead_full = False
        self.dead_gen = 0
        self.warm: set = set()  # (game name, engine) loaded from numba's cache
        self._store_sizes: dict[str, tuple] = {}

    # ---- sizes

    def store_bytes(self, game):
        """bytes(n) of an A* node store of n nodes for ``game``."""
        if game.NAME not in self._store_sizes:
            c0, t0 = 1001, _slots(1001)
            fixed, per = _work_bytes(lambda: AStarWork(c0, game.PACK_LEN, game.MAX_MOVES, 1003),
                                     {"nodes": c0, "slots": t0, "depth": 1003})
            self._store_sizes[game.NAME] = (fixed, per)
        fixed, per = self._store_sizes[game.NAME]
        return lambda n: int(fixed + per["nodes"] * n + per["slots"] * _slots(n) + per["depth"] * _store_depth(n))

    def _store_held(self) -> int:
        return held_bytes(self.store)

    # ---- allocation

    def needs(self, game, algorithm: str, max_nodes: int, tt_mb: float):
        """(table needed, store nodes needed, DFS arrays needed, NRPA arrays needed)
        beyond what is held: ``nrpa``'s, and auto's in a game that sets AUTO_NRPA."""
        need_table = algorithm in ("dfs", "auto") and self.tt_mb != tt_mb
        # auto's best-first attempts grow the store as their budgets grow (grow_store)
        store_nodes = max_nodes if algorithm == "astar" else 0
        need_store = store_nodes > 0 and not self.has_store(game, store_nodes)
        need_dfs = algorithm in ("dfs", "auto") and game.NAME not in self.dfs_work
        uses_nrpa = algorithm == "nrpa" or (algorithm == "auto" and getattr(game, "AUTO_NRPA", False))
        need_nrpa = uses_nrpa and (self.nrpa is None or self.nrpa.moves.size < game.MAX_MOVES)
        need_memo = algorithm in ("dfs", "auto") and getattr(game, "DEAD_MEMO", False) and not self.dead_full
        relax = getattr(game, "relaxation", None)  # counted for every variant: it may apply
        need_relax = relax is not None and (self.relax is None
                                            or self.relax.capacity < min(max_nodes, relax.MAX_STATES))
        return need_table, (store_nodes if need_store else 0), need_dfs, need_nrpa, need_memo, need_relax

    @staticmethod
    def nrpa_bytes(game) -> int:
        return ((NRPA_LEVELS + 1) * ((1 << nrpa_engine.POLICY_BITS) * 8 + MAX_DEPTH * 8 + 32)
                + game.MAX_MOVES * 16 + (1 << nrpa_engine.SEEN_BITS) * 24 + MAX_DEPTH * 8 + 8 * nrpa_engine.CTX_LEN)

    def check(self, game, algorithm: str, max_nodes: int, tt_mb: float, copies: int = 1) -> tuple:
        """PatienceError unless what ``prepare`` would allocate fits (see solver.memory)."""
        need_table, store_nodes, need_dfs, need_nrpa, need_memo, need_relax = self.needs(game, algorithm, max_nodes,
                                                                                        tt_mb)
        dfs_bytes = MAX_DEPTH * (game.MAX_MOVES + 4) * 8 if need_dfs else 0
        dfs_bytes += self.nrpa_bytes(game) if need_nrpa else 0
        dfs_bytes += DEAD_MEMO_BYTES if need_memo else 0
        dfs_bytes += game.relaxation.work_bytes(max_nodes) if need_relax else 0
        table_held = memory.table_bytes(self.tt_mb) if need_table and self.table is not None else 0
        store_held = self._store_held() if store_nodes else 0
        what = f"with --algorithm {algorithm} "
        memory.check(tt_mb if need_table else None, table_held, self.store_bytes(game), store_nodes, store_held,
                     other=dfs_bytes, what=what, copies=copies)
        return need_table, store_nodes, need_dfs, need_nrpa, need_memo, need_relax

    def has_store(self, game, capacity: int) -> bool:
        return self.store is not None and self.store_game == game.NAME and self.store.capacity >= capacity

    def grow_store(self, game, capacity: int) -> bool:
        """A node store of at least ``capacity`` nodes for auto's next best-first
        attempt; False (nothing allocated) if it would not fit in the memory available."""
        if self.has_store(game, capacity):
            return True
        need = self.store_bytes(game)(capacity)
        if need > memory.available_bytes() + self._store_held():
            return False
        self.store, self.store_game = None, None
        try:
            self.store = AStarWork(capacity, game.PACK_LEN, game.MAX_MOVES, _store_depth(capacity))
        except MemoryError:
            return False
        self.store_game = game.NAME
        return True

    @staticmethod
    def beam_bytes(game, width: int) -> int:
        """bytes of a BeamWork of ``width`` for ``game`` (its arrays, as BeamWork makes them)."""
        return (2 * width * game.PACK_LEN + 8 * width * BEAM_LAYERS + 20 * width * game.MAX_MOVES
                + game.MAX_MOVES * 8 + game.PACK_LEN * 8 + 8 * BEAM_LAYERS + 8 * beam_engine.CTX_LEN)

    def grow_beam(self, game, width: int) -> bool:
        """Beam arrays of at least ``width`` for auto's next beam attempt; False (nothing
        allocated) if they would not fit in the memory available."""
        if self.beam is not None and self.beam_game == game.NAME and self.beam.width >= width:
            return True
        if self.beam_bytes(game, width) > memory.available_bytes() + held_bytes(self.beam):
            return False
        self.beam, self.beam_game = None, None
        try:
            self.beam = BeamWork(width * BEAM_LAYERS, width, game.PACK_LEN, game.MAX_MOVES, BEAM_LAYERS)
        except MemoryError:
            return False
        self.beam_game = game.NAME
        return True

    def prepare(self, game, algorithm: str, max_nodes: int, tt_mb: float) -> None:
        """Check memory, then allocate what a search of ``algorithm`` needs: the
        table and the DFS arrays (dfs, auto), the node store of ``max_nodes`` (astar;
        auto's best-first attempts grow theirs as their budgets grow, each growth
        checked too).  The table is written through once so that its pages are in
        memory before the clock."""
        if not any(self.needs(game, algorithm, max_nodes, tt_mb)):
            return
        need_table, store_nodes, need_dfs, need_nrpa, need_memo, need_relax = self.check(game, algorithm, max_nodes,
                                                                                         tt_mb)
        if need_table:
            self.table, self.tt_mb = None, None  # freed before the new one is made
            table = new_table(tt_mb)
            table.fill(0)  # fault the pages in now (numpy's zeros are lazily mapped)
            self.table, self.tt_mb, self.generation = table, tt_mb, 0
        if store_nodes:
            self.store = None
            self.store = AStarWork(store_nodes, game.PACK_LEN, game.MAX_MOVES, _store_depth(store_nodes))
            self.store_game = game.NAME
        if need_nrpa:
            self.nrpa = None
            self.nrpa = NrpaWork(NRPA_LEVELS, MAX_DEPTH, game.MAX_MOVES)
        if need_memo:
            self.dead = new_table(DEAD_MEMO_BYTES / (1 << 20))
            self.dead.fill(0)
            self.dead_full = True
        if need_relax:
            self.relax = None
            self.relax = game.relaxation.RelaxWork(max_nodes)  # its pages mapped only where it runs
        if need_dfs:
            work = DfsWork(MAX_DEPTH, game.MAX_MOVES)
            work.moves.fill(0)  # its pages too (a few MB)
            self.dfs_work[game.NAME] = work

    def next_table(self):
        """The table and a new generation number: a new search, nothing to clear."""
        self.generation += 1
        return self.table, self.generation

    # ---- loading the engines

    def load(self, game, st0, engine: str) -> None:
        """Load (or, the first time, compile) one engine of ``game`` and the kernels
        the portfolio calls from Python, by running it on tiny arrays of its own."""
        key = (game.NAME, engine)
        if key in self.warm:
            return
        st = st0.copy()
        game.is_dead(st)  # solve_deal's dead-end tests of the root, before the clock
        game.root_dead(st)
        if getattr(game, "relaxation", None) is not None:
            game.relaxation.warm(st0, Clock(float("inf")))
        if engine == "dfs":
            w = DfsWork(2, game.MAX_MOVES)
            game.dfs(st, new_table(0), 1, new_table(0), 1, 1, SLICE, w.moves, w.count, w.nxt, w.scores, w.path, w.ctx)
            st = st0.copy()
            if getattr(game, "SPLIT_FIRST_MOVE", False):
                game.is_won(st)
                moves = np.zeros(game.MAX_MOVES, dtype=np.int64)
                if int(game.gen_moves(st, moves, 0)) > 0:
                    game.apply_move(st, moves[0])
        elif engine == "nrpa":
            w = NrpaWork(1, 4, game.MAX_MOVES, table_bits=4)
            w.reset(1, 1, 0)
            game.nrpa(st, 1, 1, w.pols, w.seqs, w.lens, w.scores, w.iters, w.moves, w.weights, w.seen, w.path,
                      w.ctx)
        elif engine == "beam":
            w = BeamWork(4, 2, game.PACK_LEN, game.MAX_MOVES, 4)
            w.reset(2, 1)
            game.beam(st, new_table(0), 1, 1, w.rows, w.parent, w.via, w.cscore, w.cparent, w.cmove, w.moves,
                      w.row, w.path, w.ctx)
        else:
            w = AStarWork(2, game.PACK_LEN, game.MAX_MOVES, 2)
            w.reset(2, 0)
            game.astar(st, 1, w.rows, w.g, w.parent, w.via, w.k1s, w.k2s, w.closed, w.slots, w.hkey, w.hidx,
                       w.moves, w.row, w.path, w.ctx)
        self.warm.add(key)


WORKSPACE = Workspace()


def check_memory(game, algorithm: str, max_nodes: int, tt_mb: float, processes: int = 1) -> None:
    """Would ``processes`` fresh workspaces for these limits fit?  Nothing is allocated."""
    Workspace().check(game, algorithm, max_nodes, tt_mb, copies=processes)


# ------------------------------------------------------------------ attempts


@dataclass
class Attempt:
    status: int
    nodes: int
    raw: list
    stop: str = ""  # why an UNKNOWN attempt ended: nodes, time, depth, memory
    # exact A* (best_first_attempt, greedy=0) only, else 0: a proven lower bound on the
    # shortest solution's length, however the attempt ended (its length if WON;
    # meaningless if LOST); see solver.search.astar.ASTAR_FLOOR
    floor: int = 0


def _loaded(ws: Workspace, game, st, engine: str, clock: Clock) -> None:
    """Load ``engine`` the first time one of auto's attempts needs it, off the clock."""
    if (game.NAME, engine) not in ws.warm:
        with clock.paused():
            ws.load(game, st, engine)


def dfs_attempt(ws: Workspace, game, st, budget: int, clock: Clock) -> Attempt:
    """One DFS run of at most ``budget`` nodes."""
    work = ws.dfs_work[game.NAME]
    table, gen = ws.next_table()
    work.reset()
    status = RUNNING
    while status == RUNNING:
        if clock.expired():
            return Attempt(UNKNOWN, int(work.ctx[dfs_engine.NODES]), [], "time")
        status = clock.run("dfs", lambda n: game.dfs(st, table, gen, ws.dead, ws.dead_gen, budget, n, work.moves,
                                                     work.count, work.nxt, work.scores, work.path, work.ctx),
                           lambda: work.ctx[dfs_engine.NODES])
    nodes = int(work.ctx[dfs_engine.NODES])
    if status == WON:
        return Attempt(WON, nodes, [int(m) for m in work.path[: work.ctx[dfs_engine.LENGTH]]])
    if status == UNKNOWN:
        # the engine returns UNKNOWN at its budget, or at the end of a search that
        # was cut at the depth limit somewhere
        cut = nodes < budget and work.ctx[dfs_engine.INCOMPLETE]
        return Attempt(UNKNOWN, nodes, [], "depth" if cut else "nodes")
    return Attempt(status, nodes, [])


def best_first_attempt(ws: Workspace, game, st, capacity: int, clock: Clock, greedy: int) -> Attempt:
    """One A* (greedy=0) or best-first (greedy=k>0) run over at most ``capacity`` stored nodes."""
    _loaded(ws, game, st, "astar", clock)
    if not ws.has_store(game, capacity):
        with clock.paused():  # auto's store grows with its attempts' budgets
            if not ws.grow_store(game, capacity):
                return Attempt(UNKNOWN, 0, [], "no memory")
    w = ws.store
    w.reset(capacity, greedy)
    status = RUNNING
    while status == RUNNING:
        if clock.expired():
            return Attempt(UNKNOWN, w.expanded, [], "time", int(w.ctx[astar_engine.FLOOR]))
        status = clock.run("astar", lambda n: game.astar(st, n, w.rows, w.g, w.parent, w.via, w.k1s, w.k2s,
                                                         w.closed, w.slots, w.hkey, w.hidx, w.moves, w.row,
                                                         w.path, w.ctx),
                           lambda: w.expanded)
    floor = int(w.ctx[astar_engine.FLOOR])
    if status == WON:
        return Attempt(WON, w.expanded, [int(m) for m in w.path[: w.ctx[astar_engine.LENGTH]]], "", floor)
    return Attempt(status, w.expanded, [], "memory" if status == UNKNOWN else "", floor)


def beam_attempt(ws: Workspace, game, st, width: int, budget: int, clock: Clock) -> Attempt:
    """One beam search of ``width`` (narrower if memory is short) and at most
    ``budget`` scored children; UNKNOWN "no memory" if not even BEAM_WIDTH fits."""
    _loaded(ws, game, st, "beam", clock)
    with clock.paused():
        while not ws.grow_beam(game, width):
            if width <= BEAM_WIDTH:
                return Attempt(UNKNOWN, 0, [], "no memory")
            width //= 3
    w = ws.beam
    table, gen = ws.next_table()
    w.reset(width, budget)
    status = RUNNING
    while status == RUNNING:
        if clock.expired():
            return Attempt(UNKNOWN, w.nodes, [], "time")
        status = game.beam(st, table, gen, 1, w.rows, w.parent, w.via, w.cscore, w.cparent, w.cmove, w.moves,
                           w.row, w.path, w.ctx)
    if status == WON:
        return Attempt(WON, w.nodes, [int(m) for m in w.path[: w.ctx[beam_engine.LENGTH]]])
    return Attempt(status, w.nodes, [], "nodes" if status == UNKNOWN else "")


def nrpa_stream(budget: int) -> int:
    """The random stream of ``--algorithm nrpa`` at a budget of ``budget`` moves.  With one
    stream for every budget, a deeper retry of a deal a shallower pass left unknown
    replayed that pass's moves before anything new (the first 20,000,000 of a
    150,000,000-move retry: 13% of it).  Picked by the budget, a retry plays other lines
    from its first move, and the same command still repeats itself."""
    return int(budget)


def nrpa_attempt(ws: Workspace, game, st, budget: int, clock: Clock, seed: int = 0) -> Attempt:
    """NRPA searches (NRPA_LEVELS, NRPA_ITERATIONS, restarted until the budget) playing at
    most ``budget`` moves in all; WON or UNKNOWN (it proves nothing)."""
    _loaded(ws, game, st, "nrpa", clock)
    w = ws.nrpa
    w.reset(NRPA_LEVELS, NRPA_ITERATIONS, seed)
    status = RUNNING
    while status == RUNNING:
        if clock.expired():
            return Attempt(UNKNOWN, w.nodes, [], "time")
        status = clock.run("nrpa", lambda n: game.nrpa(st, budget, n, w.pols, w.seqs, w.lens, w.scores, w.iters,
                                                       w.moves, w.weights, w.seen, w.path, w.ctx),
                           lambda: w.ctx[nrpa_engine.NODES])
    if status == WON:
        return Attempt(WON, w.nodes, [int(m) for m in w.path[: w.ctx[nrpa_engine.LENGTH]]])
    return Attempt(UNKNOWN, w.nodes, [], "nodes")


# ------------------------------------------------------------------ restarts


def luby(i: int) -> int:
    """The Luby sequence 1 1 2 1 1 2 4 1 1 2 1 1 2 4 8 ... (i from 1)."""
    k = 1
    while (1 << k) - 1 < i:
        k += 1
    if (1 << k) - 1 == i:
        return 1 << (k - 1)
    return luby(i - (1 << (k - 1)) + 1)


class Restarts:
    """The restart schedule from one state (see the module docstring): each call to
    ``step`` runs the next attempt, from whichever of the two schedules has spent
    fewer nodes so far."""

    def __init__(self, ws, game, st0, best_first):
        self.ws = ws
        self.game = game
        self.st0 = st0
        self.best_first = best_first
        self.attempt = 0
        self.short = 0
        self.long_nodes = 0
        self.short_nodes = 0
        self.beams = 0  # beam attempts made (auto only)
        self.beam_nodes = 0
        self.beam_off = False  # set when not even the narrowest beam fits in memory
        self.nrpas = 0  # NRPA attempts made (auto, in a game that sets AUTO_NRPA)
        self.nrpa_nodes = 0  # their moves, charged NRPA_MOVES_PER_NODE to a node

    @property
    def nodes(self):
        return self.long_nodes + self.short_nodes + self.beam_nodes + self.nrpa_nodes

    def step(self, max_budget, clock) -> Attempt:
        game = self.game
        st = self.st0.copy()
        others = self.long_nodes + self.short_nodes
        if (self.best_first and getattr(game, "AUTO_NRPA", False) and others >= NRPA_AFTER
                and self.nrpa_nodes < others + self.beam_nodes):
            # NRPA, as many nodes as the others together, each attempt twice as long
            budget = min(NRPA_FIRST << min(self.nrpas, 20), max_budget * NRPA_MOVES_PER_NODE)
            a = nrpa_attempt(self.ws, game, st, budget, clock, seed=self.nrpas)
            self.nrpas += 1
            a.nodes = -(-a.nodes // NRPA_MOVES_PER_NODE)
            self.nrpa_nodes += a.nodes
            return a
        if self.best_first and not self.beam_off and others >= BEAM_AFTER and 2 * self.beam_nodes < others:
            # a beam, each three times wider up to the widest, in the next profile's order
            width = min(BEAM_MAX_WIDTH, BEAM_WIDTH * 3 ** min(self.beams, 12))
            game.set_profile(st, self.beams)
            a = beam_attempt(self.ws, game, st, width, max_budget, clock)
            self.beams += 1
            self.beam_nodes += a.nodes
            if a.stop == "no memory":
                self.beam_off = True
                a.stop = "nodes"
            return a
        if SHORT_BUDGET > 0 and self.short_nodes < self.long_nodes:
            # short attempts, Luby-sized, each in its own noisy (or random) order
            self.short += 1
            budget = min(max_budget, SHORT_BUDGET * luby(self.short))
            first = RANDOM_ORDER if getattr(game, "RANDOM_SHORT", False) else SHORT_PROFILES
            game.set_profile(st, first + self.short)
            a = dfs_attempt(self.ws, game, st, budget, clock)
            self.short_nodes += a.nodes
        else:
            nprof = len(game.PROFILES)
            round_no = self.attempt // 2 if self.best_first else self.attempt
            budget = min(max_budget, FIRST_BUDGET << min(max(0, round_no - nprof + 1), 40))
            game.set_profile(st, round_no)
            if self.best_first and self.attempt % 2 == 1:
                a = best_first_attempt(self.ws, game, st, budget, clock, greedy=1)
            else:
                a = dfs_attempt(self.ws, game, st, budget, clock)
            self.long_nodes += a.nodes
            self.attempt += 1
        return a


def run_portfolio(ws, game, st0, max_nodes, clock, best_first, lost_first=frozenset()):
    """Restarts with differently ordered searches (see the module docstring), one
    schedule per first move for a game that sets ``SPLIT_FIRST_MOVE``, run side by
    side: the one with the fewest nodes spent goes next.  For a game whose first
    move is a choice that decides the rest (Duchess's base rank), one DFS attempt
    would spend its whole budget under whichever first move its ordering tries
    first.  A win is the schedule's first move followed by its line; the deal is
    lost when every schedule's search ends without hitting its budget, each a proof
    for its own subtree; ``lost_first`` names first moves already proved lost (by the
    game's relaxation), which get no schedule.  Returns (status, nodes, raw moves, stop)."""
    children = []  # (moves leading to the schedule's start, its schedule)
    if getattr(game, "SPLIT_FIRST_MOVE", False) and not game.is_won(st0):
        moves = np.zeros(game.MAX_MOVES, dtype=np.int64)
        # gen_moves prunes only moves a win can do without: none at all means lost
        for i in range(int(game.gen_moves(st0, moves, 0))):
            if int(moves[i]) in lost_first:
                continue
            st = st0.copy()
            game.apply_move(st, moves[i])
            children.append(([int(moves[i])], Restarts(ws, game, st, best_first)))
    else:
        children.append(([], Restarts(ws, game, st0, best_first)))
    total = 0
    depth_cut = False
    while children and total < max_nodes and not clock.expired():
        k = min(range(len(children)), key=lambda j: children[j][1].nodes)
        prefix, restarts = children[k]
        a = restarts.step(max_nodes - total, clock)
        total += a.nodes
        if a.status == WON:
            return WON, total, prefix + a.raw, ""
        if a.status == LOST:
            del children[k]
        elif a.stop == "depth":
            depth_cut = True
        elif a.stop == "no memory":  # the next best-first attempt's store does not fit
            return UNKNOWN, total, [], "memory"
    if not children:
        return LOST, total, [], ""
    stop = "depth" if depth_cut else "time" if clock.expired() else "nodes"
    return UNKNOWN, total, [], stop


# ------------------------------------------------------------------ one deal


@dataclass
class Outcome:
    status: int
    nodes: int
    raw: list
    seconds: float
    stop: str  # "" when decided, else nodes | time | depth | memory
    dead_end: bool  # the game's dead-end test holds for the root state
    root_test: bool = False  # its costlier root test (``root_dead``) proved the deal lost
    relaxed: bool = False  # lost, and the game's relaxation proved some first move lost (all, or the rest by search)


def search(game, st0, algorithm: str, max_nodes: int, seconds: float, tt_mb: float,
           ws: Workspace | None = None) -> Outcome:
    """Solve from ``st0``: memory checked and allocated, engines loaded, then the clock."""
    if algorithm not in ALGORITHMS:
        raise ValueError(f"unknown algorithm {algorithm!r}")
    ws = WORKSPACE if ws is None else ws
    ws.prepare(game, algorithm, max_nodes, tt_mb)
    ws.load(game, st0, algorithm if algorithm in ("astar", "nrpa") else "dfs")
    ws.dead_gen += 1  # a new deal: the memo's dead ends are of the last one
    dead_end = bool(game.is_dead(st0.copy()))
    # the root's costlier test, if the game has one; a loss it proves needs no search
    root_lost = not dead_end and bool(game.root_dead(st0.copy()))
    dead_end = dead_end or root_lost
    clock = Clock(seconds)
    lost_first, relax_states, relax_all, relax_line = frozenset(), 0, False, None
    relax = getattr(game, "relaxation", None)
    if relax is not None and not dead_end and relax.applies(st0):
        # only a proof of every first move is of use to the searches that do not split them
        # A*'s lines are its own (shortest): no real line is made from the relaxation's wins for it
        lost_first, relax_all, relax_states, relax_line = relaxed_first_moves(ws, game, st0, max_nodes, clock,
                                                                              every=algorithm in ("dfs", "auto"),
                                                                              lines=algorithm != "astar")
    if relax_line is not None:  # a real win, made from the relaxation's
        status, nodes, raw, stop = WON, 0, relax_line, ""
    elif root_lost or relax_all:
        status, nodes, raw, stop = LOST, 0, [], ""
    elif algorithm == "astar":
        a = best_first_attempt(ws, game, st0.copy(), max_nodes, clock, greedy=0)
        status, nodes, raw, stop = a.status, a.nodes, a.raw, a.stop
    elif algorithm == "nrpa":
        # the root's dead-end tests (and a relaxation's), run above, are the proofs open to it
        a = (Attempt(LOST, 0, []) if dead_end
             else nrpa_attempt(ws, game, st0.copy(), max_nodes, clock, seed=nrpa_stream(max_nodes)))
        status, nodes, raw, stop = a.status, a.nodes, a.raw, a.stop
    else:
        status, nodes, raw, stop = run_portfolio(ws, game, st0, max_nodes, clock, best_first=algorithm == "auto",
                                                 lost_first=lost_first)
    elapsed = clock.elapsed()
    return Outcome(status, int(nodes) + relax_states, raw, elapsed, stop if status == UNKNOWN else "", dead_end,
                   root_lost, status == LOST and bool(lost_first))


def relaxed_first_moves(ws, game, st0, max_nodes, clock, every: bool, lines: bool = True):
    """The game's relaxation (``game.relaxation``: Duchess redeals=0's, in
    solver/games/duchess_relax.py) run on each first move of ``st0``, at most
    ``max_nodes`` states each, on ``clock``: (the first moves it proved lost, whether
    that is all of them, the states it spent, a real winning line or None).  With
    ``lines``, a win of the relaxation that ``game.relaxation.won_line`` turns into a
    real line (replayed in the checker there) ends it.  Unless ``every``, it stops at
    the first move it cannot prove lost."""
    relax = game.relaxation
    moves = np.zeros(game.MAX_MOVES, dtype=np.int64)
    n = int(game.gen_moves(st0, moves, 0))
    lost, states = set(), 0
    for i in range(n):
        st = st0.copy()
        game.apply_move(st, moves[i])
        verdict = relax.search(ws.relax, st, max_nodes, clock)
        states += int(ws.relax.ctx[relax.STATES])
        if verdict == relax.LOST:
            lost.add(int(moves[i]))
            continue
        if verdict == relax.WON_R and lines:
            line = relax.won_line(ws.relax, st0, int(moves[i]))
            if line is not None:
                return frozenset(lost), False, states, line
        if not every:
            break
    return frozenset(lost), len(lost) == n, states, None
