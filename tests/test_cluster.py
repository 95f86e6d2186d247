"""The Dask backend of ``winrate`` and ``play --deals`` (solver/batch/cluster.py,
docs/CLUSTER.md): the same rows as the process pool, a worker killed mid-run, the
parent killed and the same command resumed, and the one-line errors.

The runs use real local Dask clusters of two worker processes on Baker's Dozen with
small budgets; the kill tests are in the slow tier."""

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pandas as pd
import pytest

from solver import batch, cli

if os.environ.get("CI"):
    import distributed  # noqa: F401 (CI installs the test extra, which has Dask: never skip there)
else:
    pytest.importorskip("distributed")

from solver.batch.cluster import Backend, worker_pids  # noqa: E402

GAME = "bakers-dozen"
ROOT = Path(__file__).resolve().parents[1]
LIMIT = 20_000  # --max-nodes: cheap deals, some of them unknown
PLAY_OPTIONS = {"max_moves": 200}


def winrate(out, n, backend=None, jobs=1, start=1, chunk_size=None):
    return batch.run_winrate(GAME, [], start, n, jobs, "auto", LIMIT, None, out, progress=False,
                             command=f"patience winrate {GAME} --deals {n}", chunk_size=chunk_size,
                             backend=backend)


def play(out, n, backend=None, jobs=1, strategy="random"):
    return batch.run_play(GAME, [], strategy, dict(PLAY_OPTIONS), 1, n, jobs, out, progress=False,
                          command=f"patience play {GAME} --strategy {strategy} --deals {n}", backend=backend)


def folder(out):
    return batch.variant_folder(out, GAME, "standard")


def play_folder(out, strategy="random"):
    return batch.play_folder(out, GAME, "standard", strategy, "max_moves=200")


def cli_run(capsys, *argv):
    rc = cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return rc, out, err


def local_cluster(n=2, memory_limit=0):
    from distributed import LocalCluster

    return LocalCluster(n_workers=n, threads_per_worker=1, processes=True, memory_limit=memory_limit,
                        dashboard_address=None)


# ------------------------------------------------------------------ the same rows


def test_local_cluster_gives_the_pool_rows(tmp_path):
    """winrate through a local cluster of 2 workers (--cluster-workers 2) gives the
    rows of the process pool, seed for seed, and records its backend."""
    n = 12
    winrate(tmp_path / "pool", n, jobs=2)
    s = winrate(tmp_path / "dask", n, backend=Backend(workers=2), chunk_size=3)
    assert s["solved_now"] == n
    pool, dask = batch.read_rows(folder(tmp_path / "pool")), batch.read_rows(folder(tmp_path / "dask"))
    assert list(dask["seed"]) == list(range(1, n + 1))
    cols = ["seed", "result", "proof", "stop", "nodes", "solution_length", "max_nodes"]
    pd.testing.assert_frame_equal(pool[cols], dask[cols])
    assert batch.part_files(folder(tmp_path / "dask")) == []
    (run,) = batch.read_command(folder(tmp_path / "dask"))["runs"]
    assert run["backend"] == "local-cluster 2" and run["jobs"] == 2
    (run,) = batch.read_command(folder(tmp_path / "pool"))["runs"]
    assert run["backend"] == "process-pool"


def test_play_on_a_scheduler_gives_the_pool_rows(tmp_path):
    """play --deals on an existing scheduler (--scheduler ADDRESS) gives the pool's rows;
    the workers' warming reads their Dask memory limit and threads."""
    from distributed import Client

    from solver.batch.cluster import warm_key_play, warm_worker

    n = 40
    play(tmp_path / "pool", n, jobs=2)
    with local_cluster(memory_limit="1GiB") as lc:
        s = play(tmp_path / "dask", n, backend=Backend(scheduler=lc.scheduler_address))
        with Client(lc, set_as_default=False) as client:
            facts = list(client.run(warm_worker, warm_key_play(GAME, "random")).values())
    assert len(facts) == 2
    assert all(f["memory_limit"] == 1 << 30 and f["nthreads"] == 1 and not f["error"] for f in facts), facts
    assert s["played_now"] == n
    pool, dask = batch.read_play_rows(play_folder(tmp_path / "pool")), batch.read_play_rows(play_folder(tmp_path / "dask"))
    cols = ["seed", "rng_seed", "won", "moves", "decisions", "stopped"]
    pd.testing.assert_frame_equal(pool[cols], dask[cols])
    meta = json.loads((play_folder(tmp_path / "dask") / batch.store.COMMAND).read_text())
    assert meta["runs"][0]["backend"] == f"dask {lc.scheduler_address}"


# ------------------------------------------------------------------ errors, one line each


def test_without_dask_the_options_say_how_to_install_it(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # `import distributed` fails as if not installed
    for argv in (["winrate", GAME, "--deals", 3, "--cluster-workers", 2],
                 ["play", GAME, "--strategy", "random", "--deals", 3, "--scheduler", "tcp://127.0.0.1:8786"]):
        rc, out, err = cli_run(capsys, *argv, "--out", tmp_path)
        assert rc == 2 and out == ""
        assert err.count("\n") == 1 and "need Dask" in err and 'pip install ".[cluster]"' in err
    assert not (tmp_path / "runs").exists()


def test_bad_cluster_options_are_one_line(tmp_path, capsys):
    cases = [
        (["winrate", GAME, "--deals", 3, "--jobs", 2, "--cluster-workers", 2], "give one or the other"),
        (["winrate", GAME, "--deals", 3, "--scheduler", "tcp://h:1", "--cluster-workers", 2], "not allowed with"),
        (["winrate", GAME, "--deals", 3, "--scheduler", "nonsense"], "not a Dask scheduler address"),
        (["winrate", GAME, "--deals", 3, "--scheduler", "tcp://127.0.0.1:1"], "cannot connect to the Dask scheduler"),
        (["play", GAME, "--strategy", "random", "--seed", 3, "--cluster-workers", 2], "for a batch"),
    ]
    for argv, words in cases:
        rc, out, err = cli_run(capsys, *argv, "--out", tmp_path)
        assert rc == 2 and err.count("\n") == 1 and words in err, (argv, err)
    assert not (tmp_path / "runs").exists()


class FakeClient:
    """Answers client.run(warm_worker, key) with the given workers' facts."""

    def __init__(self, **facts):
        self.facts = facts

    def run(self, fn, *args):
        import solver

        base = {"host": "h", "pid": 1, "code_version": solver.SOURCE_HASH, "memory_limit": 0, "rss": 300 << 20,
                "nthreads": 1, "error": ""}
        return {addr: {**base, **f} for addr, f in self.facts.items()}


def test_warming_refuses_workers_that_cannot_run_the_solver(capsys):
    """Each worker says its code version, its warming error and its memory: another
    code version, a solver that does not fit its machine, or one over Dask's pause
    threshold is one PatienceError line naming the worker."""
    from solver.batch.cluster import Session, warm_key_solve
    from solver.errors import PatienceError

    key = warm_key_solve(GAME, "auto", {"max_nodes": LIMIT, "seconds": 60.0, "tt_mb": 64})
    backend = Backend(scheduler="tcp://s:8786")
    ok = Session(backend, FakeClient(**{"tcp://a:1": {}, "tcp://b:1": {"memory_limit": 4 << 30}}))
    assert len(ok.warm(key)) == 2
    bad = [({"code_version": "0123456789abcdef"}, "runs patience code version 0123456789abcdef"),
           ({"error": "--tt-mb 64 needs 48.0 MiB but 10.0 MiB is available"}, "needs 48.0 MiB"),
           ({"memory_limit": 256 << 20}, "of its Dask memory limit (256.0 MiB)")]
    for facts, words in bad:
        with pytest.raises(PatienceError, match="Dask worker tcp://b:1") as e:
            Session(backend, FakeClient(**{"tcp://a:1": {}, "tcp://b:1": facts})).warm(key)
        assert words in str(e.value) and "\n" not in str(e.value)
    capsys.readouterr()
    Session(backend, FakeClient(**{"tcp://a:1": {"nthreads": 4}})).warm(key)
    assert "--nthreads 1" in capsys.readouterr().err


def test_record_from_command_knows_the_cluster_options():
    r = batch.record_from_command(f"patience winrate {GAME} --deals 5 --cluster-workers 2 --max-nodes 100")
    assert r is not None and r["deals"] == 5 and r["max_nodes"] == 100


# ------------------------------------------------------------------ kills


def _wait_for_part(f: Path, proc=None, timeout=120.0) -> None:
    deadline = time.time() + timeout
    while not (f.exists() and batch.part_files(f)):
        if proc is not None:
            assert proc.poll() is None, proc.stderr.read().decode()
        assert time.time() < deadline, f"no part file within {timeout:.0f} s"
        time.sleep(0.01)


@pytest.mark.slow
def test_a_killed_worker_loses_and_repeats_nothing(tmp_path):
    """SIGKILL one of two workers while the run goes: its chunk is done again by the
    other (or by the worker the nanny restarts), and every seed is on disk once."""
    n, chunk = 200, 5
    f = folder(tmp_path)
    killed = {}

    def kill_one(pid):
        try:
            _wait_for_part(f)
        except AssertionError as e:  # said by the main thread's assertions below
            killed["error"] = str(e)
            return
        killed["parts"] = len(batch.part_files(f))
        os.kill(pid, signal.SIGKILL)
        killed["pid"] = pid

    from distributed import Client
    from distributed.diagnostics.plugin import SchedulerPlugin

    class TakenBack(SchedulerPlugin):
        """The chunks a worker was running when it went away (processing -> released)."""

        def __init__(self):
            self.keys = []

        def transition(self, key, start, finish, *args, **kwargs):
            if start == "processing" and finish != "memory":
                self.keys.append(key)

    taken_back = TakenBack()
    with local_cluster() as lc:
        lc.scheduler.add_plugin(taken_back, name="taken-back")  # the scheduler runs in this process
        with Client(lc, set_as_default=False) as client:
            pids = worker_pids(client)
            assert len(pids) == 2
            killer = threading.Thread(target=kill_one, args=(pids[0],), daemon=True)
            killer.start()
            s = winrate(tmp_path, n, backend=Backend(scheduler=lc.scheduler_address), chunk_size=chunk)
            killer.join(timeout=10)
            assert killed.get("pid") == pids[0], killed
            assert killed["parts"] < n // chunk, "the kill should land mid-run"
            client.wait_for_workers(2, timeout=60)  # the nanny restarted the killed worker
            assert pids[0] not in worker_pids(client)
    assert taken_back.keys, "the killed worker was running no chunk"
    assert s["solved_now"] == n and s["n"] == n
    rows = batch.read_all_rows(f)  # deals and superseded: a seed written twice would show here
    assert sorted(rows["seed"]) == list(range(1, n + 1))
    assert batch.part_files(f) == [] and not list(f.glob(f"{batch.TMP_PREFIX}*"))


def _kill_and_resume(cmd, f, reader, n):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True)
    try:
        _wait_for_part(f, proc)
        proc.send_signal(signal.SIGKILL)  # the parent only: its cluster's workers are orphaned
        proc.wait(timeout=30)
    finally:
        try:  # tidy up whatever the run started (its own session), killed or not
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.stderr.close()
    done_before = len(reader(f))
    assert 0 < done_before < n, "the kill should land mid-run"
    done = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert batch.part_files(f) == [] and not list(f.glob(f"{batch.TMP_PREFIX}*"))
    return done_before, done


@pytest.mark.slow
def test_sigkill_parent_then_resume(tmp_path):
    """Kill `patience winrate ... --cluster-workers 2` with SIGKILL after its first part
    file; the same command completes it with every seed exactly once."""
    n = 200
    cmd = [sys.executable, "-m", "solver.cli", "winrate", GAME, "--deals", str(n), "--cluster-workers", "2",
           "--chunk-size", "5", "--max-nodes", str(LIMIT), "--out", str(tmp_path), "--no-progress"]
    f = folder(tmp_path)
    done_before, done = _kill_and_resume(cmd, f, batch.read_rows, n)
    rows = batch.read_all_rows(f)
    assert sorted(rows["seed"]) == list(range(1, n + 1))  # all present, none twice
    assert f"solved {n - done_before} deals" in done.stdout
    runs = batch.read_command(f)["runs"]
    assert len(runs) == 2 and {r["backend"] for r in runs} == {"local-cluster 2"}


@pytest.mark.slow
def test_play_sigkill_parent_then_resume(tmp_path):
    """The same for `patience play ... --deals N --cluster-workers 2`."""
    n = 300
    cmd = [sys.executable, "-m", "solver.cli", "play", GAME, "--strategy", "random", "--option", "max_moves=200",
           "--deals", str(n), "--cluster-workers", "2", "--chunk-size", "5", "--out", str(tmp_path),
           "--no-progress"]
    f = play_folder(tmp_path)
    done_before, done = _kill_and_resume(cmd, f, batch.read_play_rows, n)
    deals, sup = batch.read_play_store(f)
    assert list(deals["seed"]) == list(range(1, n + 1)) and sup.empty
    assert f"played {n - done_before} deals" in done.stdout
