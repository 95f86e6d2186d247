"""The Dask backend of ``winrate`` and ``play --deals`` (issue 20): the same runs on a
cluster, the same rows on disk (docs/CLUSTER.md).

    --scheduler ADDRESS    run the chunks on the Dask cluster whose scheduler is at
                           ADDRESS (tcp://host:8786): one started by hand, by
                           dask-jobqueue on SLURM, ...
    --cluster-workers N    start a Dask cluster of N worker processes on this machine
                           (one thread each) for the run, and stop it at the end

Without either the process pool of solver.batch.run runs the chunks, as before.

What stays as it is: the seeds to do are cut into the same chunks (``chunk_seeds``,
the workers counted as jobs), and the parent alone writes, each finished chunk as one
part file with the store's atomic protocol, then the fold under the folder's lock.
A chunk is one Dask future (``pure=False``); the parent takes the futures as they
finish (``distributed.as_completed``) and lets each go once written.  When a worker
dies, the scheduler gives its chunks to another worker (up to Dask's
``distributed.scheduler.allowed-failures`` deaths per chunk, 3 by default); the
future still finishes once, so every seed reaches the disk exactly once.  A parent
killed at any moment leaves complete part files only, and the same command resumes.

Workers: each is warmed before the first chunk (``client.run``): the game's engines
(or the strategy's kernels) loaded from numba's on-disk cache, which the parent has
filled first (so a worker on this machine, or one sharing the cache folder, never
compiles; one with its own cache compiles once), and, for ``winrate``, the solver's
arrays allocated.  A worker that joins or restarts later warms on its first chunk.
The solver keeps one workspace per process (solver.search.portfolio.WORKSPACE), so a
worker runs one chunk at a time whatever its threads (a process-wide lock): start
workers with ``--nthreads 1`` and as many processes as cores.  Every worker must run
the same code as the parent (the same ``solver.SOURCE_HASH``); a worker that does not
is refused before anything runs.

Memory: a local cluster is checked like the process pool (N solvers must fit in
this machine's memory, before it starts).  On a scheduler each worker allocates its
solver while warming (a PatienceError there, one line, if its machine has not the
memory), and a worker whose Dask memory limit its solver does not fit under (Dask
pauses a worker at 80% of its limit) is refused.

Dask is optional (``pip install ".[cluster]"``): this module imports it only when
a run asks for it, and without it the options are one line and exit status 2.
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import sys
import threading
from dataclasses import dataclass

from ..errors import PatienceError

INSTALL = ('pip install ".[cluster]" in the patience checkout, or pip install "dask[distributed]>=2024.1"')
CONNECT_TIMEOUT = "30s"  # to reach a scheduler
_LOCK = threading.Lock()  # one chunk at a time per worker process (one workspace per process)
_WARM: set = set()  # what this worker process has warmed: ("solve", game, ...), ("play", game, strategy)


@dataclass(frozen=True)
class Backend:
    """Where the chunks run: ``scheduler`` (an address) or ``workers`` (a local
    cluster of that many processes); exactly one."""

    scheduler: str | None = None
    workers: int | None = None

    def __post_init__(self):
        if (self.scheduler is None) == (self.workers is None):
            raise ValueError("a Dask backend is a scheduler address or a number of local workers")
        if self.workers is not None and self.workers < 1:
            raise ValueError("a local cluster needs at least one worker")

    @property
    def local(self) -> bool:
        return self.workers is not None

    def describe(self) -> str:
        """What command.json records as the run's backend."""
        return f"local-cluster {self.workers}" if self.local else f"dask {self.scheduler}"


def from_args(scheduler: str | None, workers: int | None) -> Backend | None:
    """The backend the command line asked for (None: the process pool); a
    PatienceError, naming the install command, when Dask is not installed, and one
    for a scheduler address that is not one or that nothing answers at."""
    if scheduler is None and workers is None:
        return None
    require_dask()
    if scheduler is not None:
        _probe(scheduler)  # a bad address now, before anything compiles
    return Backend(scheduler=scheduler, workers=workers)


def require_dask():
    """``distributed``, or a PatienceError saying how to install it."""
    try:
        import distributed
    except ImportError:
        raise PatienceError(f"--scheduler and --cluster-workers need Dask (dask.distributed), which is not "
                            f"installed: {INSTALL}") from None
    return distributed


# ------------------------------------------------------------------ in the workers


def _ignore_sigint() -> None:
    # Ctrl-C reaches the whole process group (a local cluster's workers too): only the
    # parent reacts to it, by closing the cluster.
    import signal

    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the main thread: nothing to do
        pass


def _warm_here(key: tuple) -> None:
    """Warm this process for ``key`` once (the caller holds _LOCK)."""
    if key in _WARM:
        return
    if key[0] == "solve":
        _, game_name, algorithm, limits = key
        limits = dict(limits)
        from .. import solve as solve_mod
        from ..deals import seeded_deck, setup_kwargs
        from ..games import get_game
        from ..search import portfolio

        solve_mod.ensure_compiled(game_name)  # compiles only if this worker's cache is cold
        game = get_game(game_name)
        st0 = game.initial_state(seeded_deck(1, game.PACKS), {}, **setup_kwargs(game_name, 1))
        for engine in portfolio.ENGINES:
            portfolio.WORKSPACE.load(game, st0, engine)
        solve_mod.prepare(game_name, algorithm, **limits)  # checks this machine's memory, allocates
    else:
        _, game_name, strategy = key
        from ..play import players

        players.prepare(game_name, strategy, None)
    _WARM.add(key)


def warm_worker(key: tuple, dask_worker=None) -> dict:
    """Run on every worker by ``client.run`` before the first chunk: warm it and say
    what it is.  Errors come back as text (``error``), not as a raised exception, so
    that the parent can say them in one line."""
    import solver

    _ignore_sigint()
    error = ""
    with _LOCK:
        try:
            _warm_here(key)
        except PatienceError as e:
            error = str(e)
        except Exception as e:  # noqa: BLE001 (said to the user, in one line)
            error = f"{type(e).__name__}: {e}"
    manager = getattr(dask_worker, "memory_manager", dask_worker)  # memory_manager: distributed >= 2022
    limit = getattr(manager, "memory_limit", None)
    threads = getattr(getattr(dask_worker, "state", dask_worker), "nthreads", 1)
    try:
        import psutil

        rss = psutil.Process().memory_info().rss
    except Exception:  # noqa: BLE001
        rss = None
    # the fraction of the limit at which this worker pauses (False: never; None: unknown)
    pause = getattr(manager, "memory_pause_fraction", None)
    return {"host": socket.gethostname(), "pid": os.getpid(), "code_version": solver.SOURCE_HASH,
            "memory_limit": int(limit) if limit else 0, "rss": rss, "pause": pause,
            "nthreads": int(threads or 1), "error": error}


def run_locked(fn, key: tuple, task: tuple) -> list[dict]:
    """One chunk in a worker: ``fn(task)`` (solve_chunk, play_chunk), one at a time per
    process, the process warmed first (a worker that joined or restarted after the
    start warms here)."""
    with _LOCK:
        _warm_here(key)
        return fn(task)


def worker_pids(client) -> list[int]:
    """The process ids of the client's workers (tests and benchmarks)."""
    return sorted(client.run(os.getpid).values())


# ------------------------------------------------------------------ in the parent


def warm_key_solve(game_name: str, algorithm: str, limits: dict) -> tuple:
    return ("solve", game_name, algorithm, tuple(sorted(limits.items())))


def warm_key_play(game_name: str, strategy: str) -> tuple:
    return ("play", game_name, strategy)


def _pause_fraction() -> float | None:
    """The fraction of a worker's memory limit at which Dask stops giving it work
    (or terminates it, when pausing is off), by this process's Dask configuration,
    for a worker that does not say its own; None: neither."""
    import dask

    for name in ("distributed.worker.memory.pause", "distributed.worker.memory.terminate"):
        value = dask.config.get(name, default=None)
        if value:
            return float(value)
    return None


class Session:
    """A connected client (and the local cluster it started, if any)."""

    def __init__(self, backend: Backend, client, cluster=None):
        self.backend = backend
        self.client = client
        self.cluster = cluster

    @property
    def n_workers(self) -> int:
        return max(1, len(self.client.nthreads()))

    def describe(self) -> str:
        return self.backend.describe()

    def warm(self, key: tuple) -> list[dict]:
        """Warm every worker (in parallel) and check it: the parent's code version,
        the solver allocated on its machine, within its Dask memory limit.  A
        PatienceError (one line) for the first worker that fails."""
        import solver

        try:
            facts = self.client.run(warm_worker, key)
        except Exception as e:  # noqa: BLE001 (it cannot unpickle the function: no patience there)
            raise PatienceError(f"the Dask workers of {self.describe()} cannot run patience ({type(e).__name__}: "
                                f"{_first_line(e)}): install this checkout on every worker (pip install -e .)") from None
        default = _pause_fraction()
        from ..memory import size_text

        for address, f in sorted(facts.items()):
            fraction = f.get("pause")
            fraction = default if fraction is None else (float(fraction) or None)
            where = f"Dask worker {address} (host {f['host']})"
            if f["code_version"] != solver.SOURCE_HASH:
                raise PatienceError(f"{where} runs patience code version {f['code_version']}, this command "
                                    f"{solver.SOURCE_HASH}: install the same checkout on every worker, and restart "
                                    "workers that were started before it changed")
            if f["error"]:
                raise PatienceError(f"{where}: {f['error']}")
            if fraction and f["memory_limit"] and f["rss"] and f["rss"] > fraction * f["memory_limit"]:
                raise PatienceError(
                    f"{where} uses {size_text(f['rss'])} with the solver allocated, over the "
                    f"{fraction:.0%} of its Dask memory limit ({size_text(f['memory_limit'])}) at which Dask "
                    "pauses it: give workers more memory (dask worker --memory-limit) or lower --tt-mb/--max-nodes")
        if any(f["nthreads"] > 1 for f in facts.values()):
            print("patience: note: some Dask workers have several threads; each runs one chunk at a time "
                  "(start workers with --nthreads 1, one process per core)", file=sys.stderr)
        return list(facts.values())

    def map_unordered(self, fn, key: tuple, tasks: list[tuple], describe_task):
        """Yield ``fn(task)`` for each task as its future finishes (each exactly once).
        ``describe_task(task)`` names a task in an error (its seeds)."""
        import distributed

        futures = [self.client.submit(run_locked, fn, key, task, pure=False) for task in tasks]
        which = {f.key: task for f, task in zip(futures, tasks)}
        done = distributed.as_completed(futures, loop=self.client.loop)
        del futures  # as_completed holds them until each is yielded, then we let it go
        try:
            for future in done:
                try:
                    rows = future.result()
                except distributed.KilledWorker as e:
                    raise PatienceError(
                        f"{describe_task(which[future.key])}: Dask gave up on this chunk, every worker that ran it "
                        f"died ({str(e).splitlines()[0]}); finished chunks are saved: the same command resumes"
                    ) from None
                future.release()
                yield rows
        finally:
            done.clear()


def _first_line(e: BaseException) -> str:
    return str(e).splitlines()[0] if str(e).strip() else type(e).__name__


def _probe(address: str) -> None:
    """A PatienceError at once for an address that is not one, or a tcp/tls port that
    nothing listens on (Dask's client would retry for CONNECT_TIMEOUT, then hang in
    its clean-up)."""
    from distributed.comm.addressing import get_address_host_port, parse_address

    try:
        scheme, _ = parse_address(address)
        if scheme not in ("tcp", "tls"):
            return
        host, port = get_address_host_port(address)
    except (ValueError, TypeError) as e:
        raise PatienceError(f"--scheduler {address}: not a Dask scheduler address ({_first_line(e)}); "
                            "expected e.g. tcp://host:8786") from None
    try:
        socket.create_connection((host, port), timeout=10).close()
    except OSError as e:
        reason = e.strerror or _first_line(e)
        raise PatienceError(f"cannot connect to the Dask scheduler at {address}: {reason}") from None


@contextlib.contextmanager
def open_session(backend: Backend):
    """Connect to the scheduler, or start the local cluster; close both at the end."""
    distributed = require_dask()
    cluster = None
    if backend.local:
        # memory_limit=0: no Dask limit, as the process pool has none (the memory of N
        # solvers was checked before); no dashboard (no port to take, no bokeh needed);
        # errors only in the log (not the warnings of the workers stopped mid-chunk at
        # the end of an interrupted run, nor a restarted worker's: the run says enough)
        cluster = distributed.LocalCluster(n_workers=backend.workers, threads_per_worker=1, processes=True,
                                           memory_limit=0, dashboard_address=None, silence_logs=logging.ERROR)
        try:
            client = distributed.Client(cluster, set_as_default=False)
        except BaseException:
            cluster.close()
            raise
    else:
        _probe(backend.scheduler)
        try:
            client = distributed.Client(backend.scheduler, timeout=CONNECT_TIMEOUT, set_as_default=False)
        except Exception as e:  # noqa: BLE001 (OSError, TimeoutError, ValueError for a bad address)
            raise PatienceError(f"cannot connect to the Dask scheduler at {backend.scheduler}: "
                                f"{_first_line(e)}") from None
    try:
        if not client.nthreads():
            print(f"patience: waiting for a Dask worker to join {backend.scheduler}", file=sys.stderr, flush=True)
            client.wait_for_workers(1)
        yield Session(backend, client, cluster)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
