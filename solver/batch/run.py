"""A resumable parallel win-rate run over seeded deals (``patience winrate``).

Only the parent process writes (part files, then the fold, under the folder's lock),
so workers orphaned by a killed parent can never add a row behind the back of the
next run.  A rerun skips the seeds already on disk and solves the rest.

The chunks run in a process pool (``jobs``), or with a ``backend`` on a Dask cluster
(solver.batch.cluster: ``--scheduler``, ``--cluster-workers``); either way the parent
writes each finished chunk the same way.
"""

from __future__ import annotations

import contextlib
import math
import multiprocessing as mp
import signal
import sys
import time

import pandas as pd

import solver

from .. import deals
from .. import solve as solve_mod
from ..games import get_game
from ..variants import parse_variant, variant_str
from . import store
from .paths import DEFAULT_OUT, variant_folder

MAX_CHUNK = 100


# ------------------------------------------------------------------ solving


def solver_defaults() -> dict:
    """solve_deal's own default limits (solver.solve holds the numbers), so that rows
    record the limits actually used."""
    return {"max_nodes": solve_mod.MAX_NODES, "seconds": solve_mod.SECONDS, "tt_mb": solve_mod.TT_MB}


def solve_limits(max_nodes=None, seconds=None, tt_mb=None) -> dict:
    """Keyword limits for solve_deal: the given ones over solve_deal's defaults."""
    limits = solver_defaults()
    given = {"max_nodes": max_nodes, "seconds": seconds, "tt_mb": tt_mb}
    limits.update({k: v for k, v in given.items() if v is not None})
    return limits


def solve_chunk(task: tuple) -> list[dict]:
    """Solve a list of seeds (runs in a worker process, or in-process for jobs=1)."""
    game_name, variant, vstr, seeds, algorithm, limits = task
    game = get_game(game_name)
    max_nodes = limits.get("max_nodes")
    max_seconds = limits.get("seconds")
    tt_mb = limits.get("tt_mb")
    rows = []
    for seed in seeds:
        deck = deals.seeded_deck(seed, game.PACKS)
        # a seeded deal's redeal seed is its seed (games whose redeals shuffle)
        r = solve_mod.solve_deal(game_name, variant, deck, algorithm=algorithm, **limits,
                                 **deals.setup_kwargs(game_name, int(seed)))
        rows.append(
            {
                "seed": int(seed),
                "game": game_name,
                "variant": vstr,
                "algorithm": algorithm,
                "result": r.result,
                "proof": r.proof,
                "stop": r.stop,
                "nodes": int(r.nodes),
                "seconds": float(r.seconds),
                "solution_length": len(r.moves) if r.result == "won" else -1,
                "max_nodes": -1 if max_nodes is None else int(max_nodes),
                "max_seconds": math.nan if max_seconds is None else float(max_seconds),
                "tt_mb": math.nan if tt_mb is None else float(tt_mb),
                # the code this worker imported: the code that made the row
                "code_version": solver.SOURCE_HASH,
                "code_basis": "recorded",
                "package_version": solver.__version__,
            }
        )
    return rows


def _worker_init() -> None:
    # Ctrl-C reaches the whole process group; only the parent should react to it
    # (it stops the pool), otherwise every worker prints its own traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _mp_context():
    """forkserver (or spawn): forking a parent that may hold numba/LLVM threads is unsafe."""
    methods = mp.get_all_start_methods()
    ctx = mp.get_context("forkserver" if "forkserver" in methods else "spawn")
    if ctx.get_start_method() == "forkserver":
        # Workers fork from a server that has already imported the solver (numba, numpy).
        ctx.set_forkserver_preload(["solver.batch"])
    return ctx


def chunk_seeds(seeds: list[int], jobs: int, chunk_size: int | None = None) -> list[list[int]]:
    """Split the seeds to do into chunks: small enough that each worker gets several
    (progress and load balance) and that a kill loses little, at most MAX_CHUNK."""
    if not seeds:
        return []
    if chunk_size is None:
        chunk_size = max(1, min(MAX_CHUNK, math.ceil(len(seeds) / (4 * max(1, jobs)))))
    return [seeds[i : i + chunk_size] for i in range(0, len(seeds), chunk_size)]


def _seeds_text(task: tuple) -> str:
    seeds = task[3]
    return f"seeds {seeds[0]}..{seeds[-1]}"


def _run_chunks(tasks: list[tuple], jobs: int, session=None, warm_key: tuple | None = None):
    """Yield each chunk's rows as it finishes (on the Dask ``session`` if given, else
    in-process for jobs=1 or a single chunk, else a pool; nothing at all for no
    chunks)."""
    if not tasks:
        return
    if session is not None:
        yield from session.map_unordered(solve_chunk, warm_key, tasks, _seeds_text)
        return
    if jobs <= 1 or len(tasks) == 1:
        for task in tasks:
            yield solve_chunk(task)
        return
    with _mp_context().Pool(min(jobs, len(tasks)), initializer=_worker_init) as pool:
        yield from pool.imap_unordered(solve_chunk, tasks)


def _to_do(on_disk: pd.DataFrame, wanted: range, limits: dict, retry_unknown: bool) -> list[int]:
    """The seeds of ``wanted`` to solve now: those not on disk, and with
    ``retry_unknown`` those on disk only as unknown under a smaller node or time
    budget than the one given now.  ``on_disk`` holds every row (superseded ones
    too): a seed is kept if any row of it is decided or has both limits at least as
    large, so that of two unknown rows with budgets neither of which contains the
    other (more nodes, fewer seconds), rerunning either command finds its own."""
    if retry_unknown and len(on_disk):
        covered = (on_disk["max_nodes"].fillna(-1) >= limits.get("max_nodes", -1)) & (
            on_disk["max_seconds"].fillna(-1) >= limits.get("seconds", -1))
        on_disk = on_disk[(on_disk["result"] != "unknown") | covered]
    done = set(on_disk["seed"].tolist())
    return [s for s in wanted if s not in done]


def _prepare_solver(game_name: str, algorithm: str, limits: dict, processes: int | None) -> None:
    """Before the pool starts: a PatienceError now if ``processes`` solvers with these
    limits do not fit in memory (None: no check here, the solvers run on other
    machines), and the game's kernels compiled once (saying so), so that the workers
    find a warm cache instead of all compiling at the same time."""
    if processes is not None:
        solve_mod.check_memory(game_name, algorithm, limits.get("max_nodes"), limits.get("tt_mb"), processes)
    solve_mod.ensure_compiled(game_name, announce=sys.stderr)


def _open_backend(stack: contextlib.ExitStack, backend, game_name: str, algorithm: str, limits: dict):
    """A Dask session for ``backend`` (entered on ``stack``), its workers warmed: a local
    cluster's N solvers checked against this machine's memory before it starts, the
    kernels compiled here first (the workers load them from the cache)."""
    from . import cluster

    if backend.local:
        _prepare_solver(game_name, algorithm, limits, backend.workers)
    session = stack.enter_context(cluster.open_session(backend))
    if not backend.local:  # each worker checks its own machine's memory when it warms
        _prepare_solver(game_name, algorithm, limits, None)
    key = cluster.warm_key_solve(game_name, algorithm, limits)
    session.warm(key)
    return session, key


# ------------------------------------------------------------------ the run


def run_winrate(
    game_name: str,
    variant,
    start: int,
    n_deals: int,
    jobs: int,
    algorithm: str = "auto",
    max_nodes=None,
    seconds=None,
    out_dir=DEFAULT_OUT,
    progress: bool = True,
    command: str = "",
    tt_mb=None,
    chunk_size: int | None = None,
    out=None,
    retry_unknown: bool = False,
    backend=None,
) -> dict:
    """Solve seeds start..start+n_deals-1 that are not on disk yet (with
    ``retry_unknown``, also those on disk as unknown that had a smaller node or time
    budget than the one given now); print a summary and rebuild the report.
    ``variant`` is a variant dict or a list of key=value words.  Returns the summary
    of the requested seeds (stats.summarize keys plus run info).  A folder that
    cannot be written, or one another run is writing, is a PatienceError.
    ``backend``: a cluster.Backend to run the chunks on Dask (``jobs`` is then the
    number of its workers), or None for the process pool of ``jobs`` processes."""
    from tqdm import tqdm

    from .report import summarize_rows, write_report

    out = out or sys.stdout
    game = get_game(game_name)
    if not isinstance(variant, dict):
        variant = parse_variant(game_name, game.VARIANTS, list(variant))
    vstr = variant_str(variant, game.VARIANTS)
    store.ensure_writable_dir(out_dir)  # the folder the user named, in the message
    folder = store.ensure_writable_dir(variant_folder(out_dir, game_name, vstr))
    limits = solve_limits(max_nodes, seconds, tt_mb)
    wanted = range(start, start + n_deals)

    with store.folder_lock(folder), contextlib.ExitStack() as stack:
        store.remove_stray_temps(folder)
        todo = _to_do(store.read_all_rows(folder), wanted, limits, retry_unknown)
        session = warm_key = None
        if todo and backend is not None:
            session, warm_key = _open_backend(stack, backend, game_name, algorithm, limits)
            jobs = session.n_workers
        if todo:
            record = {
                "command": command, "start": int(start), "deals": int(n_deals), "retry_unknown": bool(retry_unknown),
                "algorithm": algorithm, "max_nodes": limits.get("max_nodes"), "seconds": limits.get("seconds"),
                "tt_mb": limits.get("tt_mb"), "code_version": solver.SOURCE_HASH,
                "package_version": solver.__version__, "when": store.now_iso(), "jobs": int(jobs),
                "chunk_size": chunk_size, "to_solve": len(todo),
                "backend": "process-pool" if session is None else session.describe(),
            }
        tasks = [(game_name, variant, vstr, chunk, algorithm, limits) for chunk in chunk_seeds(todo, jobs, chunk_size)]
        if todo:
            if session is None:
                _prepare_solver(game_name, algorithm, limits, min(jobs, len(tasks)))
            store.write_command(folder, game_name, vstr, variant, command, record)
        elif not (folder / store.COMMAND).exists():
            store.write_command(folder, game_name, vstr, variant, command)

        t0 = time.perf_counter()
        tally = {"won": 0, "lost": 0, "unknown": 0}
        with tqdm(
            total=n_deals, initial=n_deals - len(todo), desc=f"{game_name} {vstr}", unit="deal",
            disable=not progress, file=sys.stderr,
        ) as bar:
            for rows in _run_chunks(tasks, jobs, session, warm_key):
                store.write_part(folder, rows)
                for row in rows:
                    tally[row["result"]] += 1
                bar.update(len(rows))
                bar.set_postfix(tally, refresh=False)
        elapsed = time.perf_counter() - t0
        # the run is finished: its parts (and any a killed run left) go into the two files
        store.fold(folder)
        df = store.read_rows(folder)

    mine = df[df["seed"].between(start, start + n_deals - 1)]
    summary = summarize_rows(mine)
    summary.update(solved_now=len(todo), elapsed=elapsed, folder=str(folder), retry_unknown=retry_unknown)
    _warn_mixed_settings(mine, algorithm, limits)
    print_summary(game_name, vstr, start, n_deals, summary, out)
    md = write_report(game_name, out_dir)
    print(f"report: {md}", file=out)
    # the strategy report reads these rows for its thoughtful bounds: rebuilt too, if there is one
    from .play_report import write_play_report

    played = write_play_report(game_name, out_dir)
    if played is not None:
        print(f"report: {played}", file=out)
    return summary


def _warn_mixed_settings(df: pd.DataFrame, algorithm: str, limits: dict) -> None:
    """Deals solved earlier under another algorithm or limits are kept, not redone:
    say so, because then the rate mixes budgets."""
    if df.empty:
        return
    other = df["algorithm"] != algorithm
    if limits.get("max_nodes") is not None:
        other |= df["max_nodes"] != int(limits["max_nodes"])
    if limits.get("seconds") is not None:
        other |= df["max_seconds"] != float(limits["seconds"])
    if other.any():
        print(
            f"patience: note: {int(other.sum())} of these deals were solved earlier with another "
            "algorithm or limits; they are kept (use another --out to start afresh)",
            file=sys.stderr,
        )


def print_summary(game_name: str, vstr: str, start: int, n_deals: int, s: dict, out) -> None:
    from .report import lost_text, rate_text

    print(f"{game_name} {vstr}, seeds {start}..{start + n_deals - 1}: {s['n']} deals", file=out)
    print(f"won {s['won']}, {lost_text(s)}, unknown {s['unknown']}", file=out)
    print(rate_text(s), file=out)
    if s["solved_now"]:
        speed = s["solved_now"] / s["elapsed"] if s["elapsed"] > 0 else float("inf")
        print(f"solved {s['solved_now']} deals in {s['elapsed']:.1f} s ({speed:.1f} deals/s)", file=out)
    elif s.get("retry_unknown"):
        print("nothing to retry: every unknown deal on disk already has limits at least as large; "
              "every deal is on disk", file=out)
    else:
        print("nothing to solve: every deal was already on disk", file=out)
