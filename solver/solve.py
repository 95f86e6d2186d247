"""One deal in, one verdict out: the front end over the numba search engines.

    solve_deal(game_name, variant, deck, algorithm="auto", max_nodes=..., seconds=..., tt_mb=...)
        -> SolveResult(result="won"|"lost"|"unknown", moves=[move strings], nodes=int, seconds=float,
                       stop=""|"nodes"|"time"|"depth"|"memory", proof=""|"dead_end"|"root_dead"|"search")

The algorithms (``auto``, ``dfs``, ``astar``) and the restart portfolio are described
in solver/search/portfolio.py; ``nrpa``, a rare-win search that proves nothing lost, in
solver/search/nrpa.py.  Every "won" is replayed by the independent checker
(solver.checker) before it is returned; a solution it rejects is a bug and raises.

This module imports no numpy or numba until a deal is solved, so that the command
line can show its defaults (``MAX_NODES``, ``SECONDS``, ``TT_MB``: the one source of
those numbers) without loading the engines.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

ALGORITHMS = ("auto", "dfs", "astar", "nrpa")  # solver.search.portfolio.ALGORITHMS
MAX_NODES = 2_000_000  # node budget of a deal (A*: nodes stored)
SECONDS = 60.0  # time budget of a deal
TT_MB = 64  # transposition table, megabytes

STOPS = ("nodes", "time", "depth", "memory")
PROOFS = ("dead_end", "root_dead", "relaxation", "search")


@dataclass
class SolveResult:
    result: str
    moves: list[str] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0  # the search alone: not loading the engines, allocating, or replaying
    # "" when decided, else what stopped the search: "nodes" (node budget), "time"
    # (time budget), "depth" (an attempt cut only at the depth limit, so it could not
    # prove the loss), "memory" (A*'s node store full)
    stop: str = ""
    # "" unless lost, else "dead_end" (the game's dead-end test holds for the deal as
    # dealt), "root_dead" (its costlier test of the deal as dealt does: Baker's Dozen's
    # host count), "relaxation" (a relaxed game proved some first moves lost and the
    # searches the rest, if any: Duchess redeals=0) or "search" (the searches went
    # through every reachable state)
    proof: str = ""
    found: int = 0  # moves (lines) of the win as the search found it, before shortening (0: not won)
    shorten_seconds: float = 0.0  # shortening the win (not in ``seconds``)


def ensure_compiled(game_name: str, announce=None) -> bool:
    """Make sure numba's cache holds the game's engines, compiling them now if it does
    not (25-45 s, once per version of the sources); True if it compiled.  When it
    compiles it first says so on ``announce`` (a text stream, e.g. sys.stderr):
    ``patience: compiling the solver for GAME (once)``.  A warm cache costs a look at
    two index files and nothing is loaded."""
    from .deals import seeded_deck, setup_kwargs
    from .games import get_game
    from .search import portfolio

    game = get_game(game_name)
    if not portfolio.is_cold(game):
        return False
    if announce is not None:
        print(f"patience: compiling the solver for {game_name} (once)", file=announce, flush=True)
    st0 = game.initial_state(seeded_deck(1, game.PACKS), {}, **setup_kwargs(game_name, 1))
    for engine in portfolio.ENGINES:
        portfolio.WORKSPACE.load(game, st0, engine)
    return True


def prepare(game_name: str, algorithm: str = "auto", max_nodes: int = MAX_NODES, seconds: float = SECONDS,
            tt_mb: float = TT_MB) -> None:
    """Check memory for, and allocate, what ``solve_deal`` with these limits will use
    (PatienceError, one line, if it does not fit); ``solve_deal`` does it anyway."""
    from .games import get_game
    from .search import portfolio

    portfolio.WORKSPACE.prepare(get_game(game_name), algorithm, max_nodes, tt_mb)


def check_memory(game_name: str, algorithm: str = "auto", max_nodes: int | None = None,
                 tt_mb: float | None = None, processes: int = 1) -> None:
    """PatienceError (one line) unless ``processes`` solvers with these limits (None:
    solve_deal's defaults) fit in the memory available; nothing is allocated."""
    from .games import get_game
    from .search import portfolio

    portfolio.check_memory(get_game(game_name), algorithm, MAX_NODES if max_nodes is None else max_nodes,
                           TT_MB if tt_mb is None else tt_mb, processes)


def solve_deal(game_name: str, variant: dict, deck, algorithm: str = "auto", max_nodes: int = MAX_NODES,
               seconds: float = SECONDS, tt_mb: float = TT_MB, ranks: int = 13,
               columns: int | None = None, redeal_seed: int | None = None,
               shorten: str = "quick") -> SolveResult:
    """Solve one deal (``redeal_seed``: for the games whose redeals shuffle, see
    solver.deals.setup_kwargs); ``ranks``/``columns`` shrink the game for exhaustive tests
    (``columns=None``: the game's own number of piles).  Memory beyond what the
    machine has is a PatienceError before anything is allocated.

    A win is shortened before it is replayed (solver.search.shorten, ``_shorter``):
    ``shorten`` is "none", "quick" (in a game that sets SHORTEN_ASTAR, weighted A*
    from the deal tried with a small store, QUICK; then the loops and one-move
    detours of the shorter line cut, and the end of a line still over twice the
    deal's lower bound re-solved, QUICK_LONG_TAIL; a few hundredths of a second a
    Baker's Dozen deal) or "full" (larger and less weighted A* runs, FULL, then the
    line's end re-solved by exact A* while A* finishes within TAIL_NODES stored
    nodes, and by weighted A*, LONG_TAIL, if the line is still over twice the deal's
    lower bound; about a second a Baker's Dozen deal, FULL_SECONDS (+ LONG_SECONDS)
    at most for the A* runs).  Its time is ``shorten_seconds``, apart from the
    search's ``seconds``."""
    if algorithm not in ALGORITHMS:
        raise ValueError(f"unknown algorithm {algorithm!r}")
    from .deals import setup_kwargs
    from .games import get_game
    from .search import portfolio  # numba, and its cache loader, before the first kernel runs
    from .search.dfs import LOST, WON

    game = get_game(game_name)
    setup = setup_kwargs(game_name, redeal_seed)
    st0 = game.initial_state(deck, variant, ranks=ranks, columns=columns, **setup)
    out = portfolio.search(game, st0, algorithm, max_nodes, seconds, tt_mb)
    raw, shortening = out.raw, 0.0
    if out.status == WON and shorten != "none" and algorithm != "astar":  # A*'s line is shortest
        t0 = time.perf_counter()
        raw = _shorter(game, st0, raw, shorten, portfolio)
        shortening = time.perf_counter() - t0
    moves = _lines(game, raw)
    if out.status == WON:
        from .checker import replay

        check = replay(game_name, variant, [int(c) for c in deck], moves, ranks=ranks, columns=columns, **setup)
        if not check.won:
            raise RuntimeError(f"solver bug: its solution does not replay: {check.error}")
    result = {LOST: "lost", WON: "won"}.get(out.status, "unknown")
    proof = ("root_dead" if out.root_test else "relaxation" if out.relaxed else "dead_end" if out.dead_end
             else "search") if result == "lost" else ""
    found = len(_lines(game, out.raw)) if result == "won" else 0
    return SolveResult(result, moves, out.nodes, out.seconds, out.stop if result == "unknown" else "", proof,
                       found, shortening)


def _lines(game, raw) -> list[str]:
    """The move lines of kernel moves (a macro move, Grand Duchess's transfers, is several)."""
    return [line for m in raw for line in game.move_text(m).split("\n")]


SHORTEN = ("none", "quick", "full")
SHORTEN_SECONDS = 1.0  # for cutting loops and detours
# (10 x weight, stored nodes) of the weighted A* runs.  Quick: w = 2.5 rather than 3
# (issue 19, Baker's Dozen, 50,000 nodes, the same time): median line 78 moves against
# 80 on seeds 1..300 (266 runs finished against 265, mean 86.3 against 86.0) and 78
# against 79 on seeds 1,001..1,300 (275 against 269, mean 83.2 against 85.6); w = 2
# finishes fewer (247, 257) in more time.
QUICK = ((25, 50_000),)
FULL = ((30, 200_000), (20, 200_000), (15, 200_000))
TAIL_NODES = 100_000  # stored nodes of each exact A* run on the line's end
QUICK_SECONDS, FULL_SECONDS = 2.0, 5.0  # at most for all the A* runs of one win
# "full": a line still longer than twice the deal's lower_bound (which every A* floor,
# solver.search.astar.ASTAR_FLOOR, is at least) gets its end re-solved by weighted A*
# too, (10 x weight, stored nodes), LONG_SECONDS at most.  Issue 19, Baker's Dozen
# seeds 1..200: only seed 80 was over twice its floor (252 moves, floor 72 at
# 1,000,000 nodes), and no weighted A* from its deal finishes (w = 2 to 10, 1,000,000
# nodes); from the states along its line they finish far back: 118 moves, in 2.4 s.
LONG_TAIL = (30, 200_000)
LONG_SECONDS = 5.0
# "quick" does the same, smaller, in the games that set SHORTEN_ASTAR.  Issue 19, Baker's
# Dozen seeds 1..1000: 52 of the 992 quick lines were over twice the deal's lower bound
# (up to 496 moves); with QUICK_LONG_TAIL and at most 1 s a deal, 12 (up to 212), for
# about 0.5 s on each of those 52 deals (200,000 nodes and 2 s: 8, twice the time).
QUICK_LONG_TAIL = (30, 50_000)
QUICK_LONG_SECONDS = 1.0


def _shorter(game, st0, raw, how, portfolio):
    """The shortest of the search's line and the lines of weighted A* from the deal
    (each at most w times the shortest line when it finishes), with its loops and
    detours cut ("quick": only the shortest line is cut); for "full", its end then
    re-solved exactly, and, if it is still over twice the deal's lower bound, by
    weighted A* (LONG_TAIL) as far back as that finishes; "quick" likewise with
    QUICK_LONG_TAIL where the game uses A* at all (SHORTEN_ASTAR)."""
    from .search.dfs import WON
    from .search.shorten import resolve_tail, shorten

    if how not in SHORTEN:
        raise ValueError(f"unknown shorten {how!r}")
    ws = portfolio.WORKSPACE

    deadline = time.perf_counter() + (FULL_SECONDS if how == "full" else QUICK_SECONDS)

    def astar(st, weight, nodes):
        left = deadline - time.perf_counter()
        if left <= 0:
            return None
        a = portfolio.best_first_attempt(ws, game, st, nodes, portfolio.Clock(left), greedy=-weight)
        return a.raw if a.status == WON else None

    lines = [raw]
    # quick: weighted A* only in the games where it pays (SHORTEN_ASTAR; elsewhere its
    # lines are hardly shorter than the search's, at 100 to 600 times its time)
    quick = QUICK if getattr(game, "SHORTEN_ASTAR", False) else ()
    for weight, nodes in quick if how == "quick" else FULL:
        line = astar(st0.copy(), weight, nodes)
        if line is not None:
            lines.append(line)
    if how == "quick":  # only the shortest is cut (cutting a long line costs the most)
        lines = [min(lines, key=len)]
    depth = 1 if how == "quick" else 2  # 2 finds a little more (BD: 2% of the moves) at 8 times the cost
    best = min((shorten(game, st0, line, depth=depth, seconds=SHORTEN_SECONDS) for line in lines), key=len)
    if how == "full":
        best = resolve_tail(game, st0, best, lambda st: astar(st, 0, TAIL_NODES))
    long_tail, long_seconds = ((LONG_TAIL, LONG_SECONDS) if how == "full"
                               else (QUICK_LONG_TAIL, QUICK_LONG_SECONDS) if quick else (None, 0.0))
    if long_tail and len(best) > 2 * int(game.lower_bound(st0.copy())):
        deadline = time.perf_counter() + long_seconds  # astar() reads it
        weight, nodes = long_tail
        line = resolve_tail(game, st0, best, lambda st: astar(st, weight, nodes))
        if len(line) < len(best):
            best = shorten(game, st0, line, depth=depth, seconds=SHORTEN_SECONDS)
    return best
