"""The win-rate runner: part files, resume after kills, no duplicates, the report.

The bookkeeping tests use a stand-in solver (fast and with chosen verdicts, including
unknowns); the parallel and SIGKILL tests run the real solver on Baker's Dozen.
"""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from solver import batch
from solver import solve as solve_mod
from solver.solve import SolveResult

GAME = "bakers-dozen"
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def fake_solver(monkeypatch):
    """Replace solve_deal: a verdict from the deck's first card, and a log of seeds
    solved (by first card, which the test maps back through seeded_deck)."""
    calls = []

    def solve_deal(game_name, variant, deck, algorithm="dfs", max_nodes=5000, seconds=2.0, tt_mb=16):
        calls.append(tuple(int(c) for c in deck))
        first = int(deck[0])
        if variant.get("empty") == "any":
            first += 1  # a different verdict pattern for the paired comparison
        result = ("won", "won", "lost", "won", "unknown")[first % 5]
        moves = ["c1 F AC"] * (first % 7 + 1) if result == "won" else []
        return SolveResult(result, moves, nodes=100 + first, seconds=0.001 * first)

    monkeypatch.setattr(solve_mod, "solve_deal", solve_deal, raising=False)
    return calls


def run(out, n=30, start=0, variant=(), jobs=1, max_nodes=None, **kw):
    return batch.run_winrate(
        GAME, list(variant), start, n, jobs, "dfs", max_nodes, None, out,
        progress=False, command=f"patience winrate {GAME} --deals {n}", **kw,
    )


def folder(out, vstr="standard"):
    return batch.variant_folder(out, GAME, vstr)


def all_part_rows(out, vstr="standard"):
    """Every row of every part file, without the readers' deduplication."""
    parts = batch.part_files(folder(out, vstr))
    return pd.concat([pd.read_parquet(p) for p in parts], ignore_index=True)


def test_run_then_rerun_recomputes_nothing(tmp_path, fake_solver, capsys):
    s = run(tmp_path, chunk_size=7)
    assert len(fake_solver) == 30 and s["n"] == 30 and s["solved_now"] == 30
    rows = all_part_rows(tmp_path)
    assert sorted(rows["seed"]) == list(range(30))
    assert list(rows.columns) == batch.COLUMNS
    assert len(batch.part_files(folder(tmp_path))) == 5  # chunks of 7: 7 7 7 7 2
    # The limits recorded are solve_deal's defaults (none were given).
    assert set(rows["max_nodes"]) == {5000} and set(rows["max_seconds"]) == {2.0}
    won = rows[rows["result"] == "won"]
    assert (won["solution_length"] > 0).all()
    assert (rows[rows["result"] != "won"]["solution_length"] == -1).all()

    before = batch.read_rows(folder(tmp_path))
    fake_solver.clear()
    s2 = run(tmp_path)
    assert fake_solver == [] and s2["solved_now"] == 0
    pd.testing.assert_frame_equal(batch.read_rows(folder(tmp_path)), before)
    assert "nothing to solve" in capsys.readouterr().out


def test_resume_fills_exactly_the_missing_seeds(tmp_path, fake_solver):
    run(tmp_path, chunk_size=8)
    parts = batch.part_files(folder(tmp_path))
    lost = parts[1]
    lost_seeds = set(pd.read_parquet(lost)["seed"])
    lost.unlink()
    # A killed run can leave a half-written temporary file behind.
    stray = folder(tmp_path) / f"{batch.TMP_PREFIX}deadbeef.parquet"
    stray.write_bytes(b"PAR1 half a file")
    assert len(batch.read_rows(folder(tmp_path))) == 30 - len(lost_seeds)  # the stray is not read

    fake_solver.clear()
    s = run(tmp_path)
    from solver.deals import seeded_deck

    solved = {seed for seed in range(30) if tuple(int(c) for c in seeded_deck(seed)) in set(fake_solver)}
    assert solved == lost_seeds and len(fake_solver) == len(lost_seeds)
    rows = all_part_rows(tmp_path)
    assert sorted(rows["seed"]) == list(range(30))  # every seed exactly once
    assert not stray.exists()
    assert s["n"] == 30


def test_rerun_with_more_deals_extends(tmp_path, fake_solver):
    run(tmp_path, n=10)
    fake_solver.clear()
    s = run(tmp_path, n=25)
    assert len(fake_solver) == 15 and s["n"] == 25
    run(tmp_path, n=5, start=40)
    rows = all_part_rows(tmp_path)
    assert sorted(rows["seed"]) == list(range(25)) + list(range(40, 45))


def test_readers_deduplicate_by_seed(tmp_path, fake_solver):
    run(tmp_path, n=10)
    f = folder(tmp_path)
    extra = pd.read_parquet(batch.part_files(f)[0])
    extra.to_parquet(f / "part-copy.parquet", index=False)  # as if two runs overlapped
    df = batch.read_rows(f)
    assert sorted(df["seed"]) == list(range(10))


def test_retry_unknown_resolves_only_the_unknowns(tmp_path, fake_solver, monkeypatch):
    """--retry-unknown solves again exactly the deals stored as unknown; the decided
    new rows replace them in every reader, and an unknown retried row with the larger
    budget replaces the old unknown."""
    run(tmp_path, n=30, max_nodes=100)
    before = batch.read_rows(folder(tmp_path))
    unknown = set(before.loc[before["result"] == "unknown", "seed"])
    assert unknown
    fake_solver.clear()

    def bigger(game_name, variant, deck, algorithm="dfs", max_nodes=5000, seconds=2.0, tt_mb=16):
        fake_solver.append(tuple(int(c) for c in deck))
        first = int(deck[0])
        result = "won" if first % 2 else "unknown"  # some decided now, some still not
        return SolveResult(result, ["c1 F AC"] if result == "won" else [], nodes=max_nodes, seconds=0.01)

    monkeypatch.setattr(solve_mod, "solve_deal", bigger, raising=False)
    run(tmp_path, n=30, max_nodes=1000, retry_unknown=True)
    assert len(fake_solver) == len(unknown)
    after = batch.read_rows(folder(tmp_path)).set_index("seed")
    old = before.set_index("seed")
    for seed in range(30):
        if seed not in unknown:
            assert after.loc[seed, "result"] == old.loc[seed, "result"]
            assert after.loc[seed, "max_nodes"] == 100
        else:
            assert after.loc[seed, "max_nodes"] == 1000  # the retry's row, decided or not
    assert len(all_part_rows(tmp_path)) == 30 + len(unknown)
    # a second retry under the same budget has nothing left to try
    fake_solver.clear()
    run(tmp_path, n=30, max_nodes=1000, retry_unknown=True)
    assert fake_solver == []


def test_summary_and_report(tmp_path, fake_solver, capsys):
    s = run(tmp_path, n=40)
    out = capsys.readouterr().out
    assert s["unknown"] > 0 and s["rate"] is None
    assert f"won {s['won']}, lost {s['lost']}, unknown {s['unknown']}" in out
    assert "win rate between" in out and "deals/s" in out
    run(tmp_path, n=30, start=10, variant=["empty=any"])

    rep = batch.report_folder(tmp_path, GAME)
    table = pd.read_csv(rep / "winrates.csv")
    assert list(table["variant"]) == ["standard", "empty=any"]
    assert list(table["deals"]) == [40, 30]
    std = table.iloc[0]
    assert std["won"] + std["lost"] + std["unknown"] == 40
    assert std["command"] == f"patience winrate {GAME} --deals 40"
    assert (rep / "winrates.png").stat().st_size > 1000

    md = (rep / "winrates.md").read_text()
    assert "| standard | 40 |" in md and "| empty=any | 30 |" in md
    assert f"`patience winrate {GAME} --deals 30`" in md
    # Paired comparison on the 30 common seeds (10..39), recomputed here by hand.
    a = batch.read_rows(folder(tmp_path)).set_index("seed")["result"]
    b = batch.read_rows(folder(tmp_path, "empty=any")).set_index("seed")["result"]
    common = [x for x in a.index if x in b.index]
    a_only = sum(1 for x in common if a[x] == "won" and b[x] == "lost")
    b_only = sum(1 for x in common if b[x] == "won" and a[x] == "lost")
    assert len(common) == 30
    assert "## Paired comparison" in md
    assert f"| standard | empty=any | 30 | {a_only} | {b_only} |" in md

    meta = json.loads((folder(tmp_path, "empty=any") / "command.json").read_text())
    assert meta["variant"] == "empty=any" and meta["options"]["empty"] == "any"


def _rows(results: dict[int, tuple[str, int]]) -> pd.DataFrame:
    """Rows as read_rows gives them: seed -> (result, node budget of that row)."""
    return pd.DataFrame([{"seed": k, "result": r, "max_nodes": b} for k, (r, b) in sorted(results.items())])


FIRST = "patience winrate bakers-dozen --deals 200 --start 1 --max-nodes 1000"
DEEP = "patience winrate bakers-dozen --deals 100 --start 1 --max-nodes 50000 --retry-unknown"


def _first_pass_and_retry() -> dict[int, tuple[str, int]]:
    """Seeds 1..200 had a first pass at 1,000 nodes (30 won); the 80 unknown ones of
    seeds 1..100 were retried at 50,000 nodes: 40 won, 10 lost, 30 still unknown."""
    rows = {k: ("won", 1000) for k in range(1, 21)}
    rows.update({k: ("won", 50000) for k in range(21, 61)})
    rows.update({k: ("lost", 50000) for k in range(61, 71)})
    rows.update({k: ("unknown", 50000) for k in range(71, 101)})
    rows.update({k: ("won", 1000) for k in range(101, 111)})
    rows.update({k: ("unknown", 1000) for k in range(111, 201)})
    return rows


def test_retry_sample_is_the_whole_retried_range():
    """The sample is all of seeds 1..100 (the deals decided in the first pass too), not
    only the retried ones; it is reported because its bounds (60%..90%) are tighter
    than the run's (35%..95%)."""
    sample = batch.retry_sample(_rows(_first_pass_and_retry()), [FIRST, DEEP])
    assert sample["seeds"] == "1..100" and sample["budget"] == 50000
    assert (sample["n"], sample["won"], sample["lost"], sample["unknown"]) == (100, 60, 10, 30)
    assert sample["lower"] == 0.6 and sample["upper"] == 0.9


def test_retry_sample_skips_unfinished_useless_picked_and_whole_ranges():
    rows = _first_pass_and_retry()
    assert batch.retry_sample(_rows(rows), [FIRST, DEEP])["won"] == 60
    unfinished = {**rows, 100: ("unknown", 1000)}  # the retry stopped before seed 100
    assert batch.retry_sample(_rows(unfinished), [FIRST, DEEP]) is None
    # a retry over every seed is the run itself
    assert batch.retry_sample(_rows(rows), [FIRST, DEEP.replace("--deals 100", "--deals 200")]) is None
    # a few seeds retried by hand (picked for being unknown), or a range not from the first seed
    assert batch.retry_sample(_rows(rows), [FIRST, DEEP.replace("--deals 100", "--deals 99")]) is None
    assert batch.retry_sample(_rows(rows), [FIRST, DEEP.replace("--start 1", "--start 2")]) is None
    # no tighter than the run's bounds: with 101..170 won and 171..200 lost the run has
    # 65%..80%, the sample 60%..90%
    decided = {**rows, **{k: ("won", 1000) for k in range(101, 171)}, **{k: ("lost", 1000) for k in range(171, 201)}}
    assert batch.retry_sample(_rows(decided), [FIRST, DEEP]) is None
    # no retry at all, or commands this version cannot read
    assert batch.retry_sample(_rows(rows), [FIRST, "patience winrate --bogus"]) is None


def _write_rows(where: Path, game: str, vstr: str, rows: dict, commands: list[str]) -> None:
    where.mkdir(parents=True)
    batch.write_part(where, [
        {"seed": k, "game": game, "variant": vstr, "algorithm": "auto", "result": r, "nodes": 1,
         "seconds": 0.01, "solution_length": 5 if r == "won" else -1, "max_nodes": b, "max_seconds": 10.0}
        for k, (r, b) in sorted(rows.items())
    ])
    for c in commands:
        batch.write_command(where, game, vstr, {}, c)


def test_report_shows_the_deeper_sample(tmp_path):
    """The report (table and csv) from part files holding that first pass and retry."""
    _write_rows(folder(tmp_path), GAME, "standard", _first_pass_and_retry(), [FIRST, DEEP])
    md = batch.write_report(GAME, tmp_path).read_text()
    assert "## Deeper search on a sample of seeds" in md
    # 70 won, 10 lost, 120 unknown of 200: bounds only, no interval of a rate there is not
    assert "| standard | 200 | 1..200 | 70 | 10 | 120 | - | - | 35.0%..95.0% (" in md
    assert "| standard | 1..100 | 50000 | 100 | 60 | 10 | 30 | 60.0% |" in md
    table = pd.read_csv(batch.report_folder(tmp_path, GAME) / "winrates.csv")
    assert table.loc[0, "won"] == 70 and table.loc[0, "sample_won"] == 60 and table.loc[0, "sample_seeds"] == "1..100"


def test_redeal_plot_marks_the_deeper_sample(tmp_path, monkeypatch):
    """experiments/plot_redeals.py: paired points over the common seeds, and the
    retried sample beside the redeals=2 point only."""
    monkeypatch.syspath_prepend(str(ROOT / "experiments"))
    from plot_redeals import redeal_points

    game = "grand-duchess"
    _write_rows(batch.variant_folder(tmp_path, game, "standard"), game, "standard",
                {k: ("won", 1000) for k in range(1, 201)}, [FIRST.replace("bakers-dozen", game)])
    _write_rows(batch.variant_folder(tmp_path, game, "redeals=2"), game, "redeals=2", _first_pass_and_retry(),
                [FIRST.replace("bakers-dozen", f"{game} redeals=2"), DEEP.replace("bakers-dozen", f"{game} redeals=2")])
    points = redeal_points(str(tmp_path), game)
    assert [(k, s["won"], s["n"]) for k, s, _, _ in points] == [(2, 70, 200), (3, 200, 200)]
    assert points[0][3]["won"] == 60 and points[0][3]["seeds"] == "1..100" and points[1][3] is None
    out = tmp_path / "redeals.png"
    subprocess.run([sys.executable, str(ROOT / "experiments" / "plot_redeals.py"), "--games", game,
                    "--results", str(tmp_path), "--out", str(out)], check=True, cwd=ROOT)
    assert out.stat().st_size > 1000


def test_write_report_without_runs(tmp_path):
    assert batch.write_report(GAME, tmp_path) is None


# ------------------------------------------------------------------ real solver


def test_parallel_matches_in_process(tmp_path):
    """jobs=2 through the process pool gives the same verdicts as jobs=1 in-process."""
    run(tmp_path / "one", n=12, jobs=1, max_nodes=200_000)
    run(tmp_path / "two", n=12, jobs=2, max_nodes=200_000)
    one = batch.read_rows(folder(tmp_path / "one"))
    two = batch.read_rows(folder(tmp_path / "two"))
    assert list(two["seed"]) == list(range(12))
    pd.testing.assert_series_equal(one["result"], two["result"])


def test_sigkill_then_resume(tmp_path):
    """Kill a real parallel run with SIGKILL after its first part file; the same
    command then completes it with every seed exactly once."""
    n = 300
    cmd = [
        sys.executable, "-m", "solver.cli", "winrate", GAME, "--deals", str(n), "--jobs", "2",
        "--chunk-size", "5", "--max-nodes", "20000", "--out", str(tmp_path), "--no-progress",
    ]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    f = folder(tmp_path)
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True)
    try:
        deadline = time.time() + 120
        while not (f.exists() and batch.part_files(f)):
            assert proc.poll() is None, proc.stderr.read().decode()
            assert time.time() < deadline, "no part file within 120 s"
            time.sleep(0.01)
        proc.send_signal(signal.SIGKILL)  # the parent only: its workers are orphaned
        proc.wait(timeout=30)
    finally:
        # Tidy up whatever the run started (its own session), killed or not.
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.stderr.close()
    done_before = len(batch.read_rows(f))
    assert 0 < done_before < n, "the kill should land mid-run"

    done = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    rows = all_part_rows(tmp_path)
    assert sorted(rows["seed"]) == list(range(1, n + 1))  # all present, none twice
    assert not list(f.glob(f"{batch.TMP_PREFIX}*"))
    assert f"{n} deals" in done.stdout
