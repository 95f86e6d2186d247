"""docs/CLUSTER.md's SLURM recipe, run as written with dask-jobqueue, on a machine
without SLURM: ``sbatch`` and ``scancel`` are stand-ins that run the job script
dask-jobqueue writes here (in its own process group) and kill it.  What this tests:
the recipe's Python (the cluster's arguments, ``run_winrate`` and ``Backend`` as it
calls them), the job script (its #SBATCH lines, the workers it starts) and a run on
those workers giving the process pool's rows.  Not tested: SLURM's own queueing.

Only the sizes are shrunk (2 workers of one job, 8 seeds); each substitution must
match the document exactly once, so a recipe edited out of shape fails here."""

import os
import re
import signal
import stat
from pathlib import Path

import pytest

from solver import batch

if os.environ.get("CI"):
    import dask_jobqueue  # noqa: F401 (CI installs the test extra, which has it: never skip there)
else:
    pytest.importorskip("dask_jobqueue")

ROOT = Path(__file__).resolve().parents[1]
GAME = "grand-duchess"
SEEDS = 8

SBATCH = """#!/bin/sh
# stand-in for SLURM's sbatch: keep a copy of the job script before returning (as
# sbatch does: dask-jobqueue deletes its file as soon as we return), then run the
# copy here as its own process group
job="$STAND_IN_LOGS/$(basename "$1")"
cp "$1" "$job" || exit 1
setsid sh "$job" > "$job.log" 2>&1 < /dev/null &
echo "Submitted batch job $!"
"""
TIMEOUT = 900  # s: the recipe's run waits for workers; a job that never starts fails here, not hangs
SCANCEL = """#!/bin/sh
# stand-in for SLURM's scancel: end the job's process group
for job in "$@"; do kill -TERM -- "-$job" 2> /dev/null; done
exit 0
"""


def recipe() -> str:
    """The Python block of the SLURM section of docs/CLUSTER.md."""
    text = (ROOT / "docs" / "CLUSTER.md").read_text()
    section = text.split("## SLURM through dask-jobqueue", 1)[1]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


def shrunk(code: str, out: Path) -> str:
    for old, new in [
        ("cores=16, processes=16,", "cores=2, processes=2,"),
        ('memory="32GiB",', 'memory="4GiB",'),
        ("cluster.scale(jobs=8)", "cluster.scale(jobs=1)"),
        ("1, 100_000, 1,", f"1, {SEEDS}, 1,"),
        ('out_dir="results-gd"', f"out_dir={str(out)!r}"),
    ]:
        assert code.count(old) == 1, f"docs/CLUSTER.md's SLURM recipe no longer has {old!r}"
        code = code.replace(old, new)
    return code


def stand_ins(bin_dir: Path) -> None:
    bin_dir.mkdir()
    for name, body in [("sbatch", SBATCH), ("scancel", SCANCEL)]:
        path = bin_dir / name
        path.write_text(body)
        path.chmod(path.stat().st_mode | stat.S_IXUSR)


@pytest.mark.slow
def test_the_slurm_recipe_runs_as_written(tmp_path, monkeypatch):
    from dask_jobqueue import SLURMCluster

    code = recipe()
    # the job script the document's arguments make: what its comments promise
    args = re.search(r"SLURMCluster\((.*?)\n    \)", code, re.S).group(1)
    script = eval(f"SLURMCluster({args})", {"SLURMCluster": SLURMCluster})  # noqa: S307 (our own document)
    try:
        job = script.job_script()
    finally:
        script.close()
    for line in ["#SBATCH -p compute", "#SBATCH -A my-project", "#SBATCH --cpus-per-task=16",
                 "#SBATCH -t 04:00:00", "#SBATCH --exclusive"]:
        assert line in job
    assert re.search(r"--nthreads 1 --memory-limit 2\.00GiB --nworkers 16", job), job

    # the recipe run, its workers started by the stand-in sbatch
    stand_ins(tmp_path / "bin")
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("STAND_IN_LOGS", str(tmp_path))  # the jobs' output
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "results-gd"

    def too_long(signum, frame):
        logs = "\n".join(p.read_text()[-2000:] for p in tmp_path.glob("*.log"))
        raise TimeoutError(f"the recipe did not finish in {TIMEOUT} s; the jobs' output:\n{logs}")

    old_handler = signal.signal(signal.SIGALRM, too_long)
    signal.alarm(TIMEOUT)
    try:
        exec(compile(shrunk(code, out), "slurm_winrate.py", "exec"), {"__name__": "__main__"})  # noqa: S102
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old_handler)
    rows = batch.read_rows(batch.variant_folder(out, GAME, "standard"))
    assert rows["seed"].tolist() == list(range(1, SEEDS + 1))
    record = batch.read_command(batch.variant_folder(out, GAME, "standard"))
    assert record["runs"][-1]["backend"].startswith("dask tcp://")

    # the same seeds by the process pool: the same verdicts
    pool = batch.run_winrate(GAME, [], 1, SEEDS, 1, out_dir=tmp_path / "pool", progress=False, command="pool")
    assert pool["won"] == int((rows["result"] == "won").sum())
    pool_rows = batch.read_rows(batch.variant_folder(tmp_path / "pool", GAME, "standard"))
    assert pool_rows["result"].tolist() == rows["result"].tolist()
