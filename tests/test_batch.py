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
        stop = "nodes" if result == "unknown" else ""
        proof = ("dead_end" if first % 2 else "search") if result == "lost" else ""
        return SolveResult(result, moves, nodes=100 + first, seconds=0.001 * first, stop=stop, proof=proof)

    monkeypatch.setattr(solve_mod, "solve_deal", solve_deal)
    # the default limits, which the rows must record when none are given
    monkeypatch.setattr(solve_mod, "MAX_NODES", 5000)
    monkeypatch.setattr(solve_mod, "SECONDS", 2.0)
    monkeypatch.setattr(solve_mod, "TT_MB", 16)
    monkeypatch.setattr(solve_mod, "ensure_compiled", lambda game_name, announce=None: None)
    monkeypatch.setattr(solve_mod, "check_memory", lambda *a, **kw: None)
    return calls


def run(out, n=30, start=0, variant=(), jobs=1, max_nodes=None, seconds=None, **kw):
    return batch.run_winrate(
        GAME, list(variant), start, n, jobs, "dfs", max_nodes, seconds, out,
        progress=False, command=f"patience winrate {GAME} --deals {n}", **kw,
    )


def folder(out, vstr="standard"):
    return batch.variant_folder(out, GAME, vstr)


def all_rows(out, vstr="standard"):
    """Every row on disk (deals and superseded, parts merged), without the choice of
    one row per seed."""
    return batch.read_all_rows(folder(out, vstr))


def seeds_solved(calls, seeds):
    from solver.deals import seeded_deck

    return {seed for seed in seeds if tuple(int(c) for c in seeded_deck(seed)) in set(calls)}


def test_run_then_rerun_recomputes_nothing(tmp_path, fake_solver, capsys):
    s = run(tmp_path, chunk_size=7)
    assert len(fake_solver) == 30 and s["n"] == 30 and s["solved_now"] == 30
    f = folder(tmp_path)
    # the finished run folded its parts into the two files
    assert batch.part_files(f) == [] and (f / batch.DEALS).exists() and (f / batch.SUPERSEDED).exists()
    rows = pd.read_parquet(f / batch.DEALS)
    assert list(rows["seed"]) == list(range(30))  # one row per seed, sorted
    assert list(rows.columns) == batch.COLUMNS
    # The limits recorded are solve_deal's defaults (none were given).
    assert set(rows["max_nodes"]) == {5000} and set(rows["max_seconds"]) == {2.0} and set(rows["tt_mb"]) == {16}
    won = rows[rows["result"] == "won"]
    assert (won["solution_length"] > 0).all()
    assert (rows[rows["result"] != "won"]["solution_length"] == -1).all()

    before = batch.read_rows(f)
    fake_solver.clear()
    s2 = run(tmp_path)
    assert fake_solver == [] and s2["solved_now"] == 0
    pd.testing.assert_frame_equal(batch.read_rows(f), before)
    assert "nothing to solve" in capsys.readouterr().out


def test_rerun_with_nothing_to_do_returns_normally(tmp_path, fake_solver, capsys):
    """The same command again, with several jobs (once: Pool(0) raised ValueError),
    and a retry with nothing left to retry: both print so, rebuild the report and
    return."""
    run(tmp_path, n=10, jobs=2, max_nodes=100)
    md = batch.report_folder(tmp_path, GAME) / "winrates.md"
    md.unlink()
    fake_solver.clear()
    s = run(tmp_path, n=10, jobs=2, max_nodes=100)
    assert s["solved_now"] == 0 and fake_solver == [] and md.exists()
    assert "nothing to solve" in capsys.readouterr().out
    md.unlink()
    s = run(tmp_path, n=10, jobs=2, max_nodes=100, retry_unknown=True)  # the same budget: nothing bigger
    out = capsys.readouterr().out
    assert s["solved_now"] == 0 and fake_solver == [] and md.exists()
    assert "nothing to retry" in out and "every deal is on disk" in out


def test_provenance_columns(tmp_path, fake_solver):
    import solver

    run(tmp_path, n=20, max_nodes=100)
    rows = batch.read_rows(folder(tmp_path))
    assert set(rows["code_version"].astype(str)) == {solver.SOURCE_HASH}
    assert set(rows["code_basis"].astype(str)) == {"recorded"}
    assert set(rows["package_version"].astype(str)) == {solver.__version__}
    assert set(rows["algorithm"].astype(str)) == {"dfs"}
    unknown = rows[rows["result"] == "unknown"]
    assert len(unknown) and set(unknown["stop"].astype(str)) == {"nodes"}
    assert set(rows.loc[rows["result"] != "unknown", "stop"].astype(str)) == {""}
    lost = rows[rows["result"] == "lost"]
    assert len(lost) and set(lost["proof"].astype(str)) <= {"search", "dead_end"}
    assert set(rows.loc[rows["result"] != "lost", "proof"].astype(str)) == {""}
    # compact types
    assert str(rows["seconds"].dtype) == "float32" and str(rows["solution_length"].dtype) == "int16"
    assert isinstance(rows["result"].dtype, pd.CategoricalDtype)
    meta = batch.read_command(folder(tmp_path))
    (record,) = meta["runs"]
    assert record["max_nodes"] == 100 and record["start"] == 0 and record["deals"] == 20
    assert record["code_version"] == solver.SOURCE_HASH and record["when"] and not record["retry_unknown"]


def test_killed_run_leaves_parts_that_readers_merge_and_the_next_run_folds(tmp_path, fake_solver, monkeypatch):
    """A run killed mid-way leaves complete part files (and perhaps a half-written
    temporary file); readers merge the parts, and the next run solves exactly the
    missing seeds and folds everything."""
    real = batch.run.solve_chunk
    done = []

    def dies_after_two_chunks(task):
        if len(done) == 2:
            raise KeyboardInterrupt  # as if killed here
        done.append(task)
        return real(task)

    monkeypatch.setattr(batch.run, "solve_chunk", dies_after_two_chunks)
    with pytest.raises(KeyboardInterrupt):
        run(tmp_path, chunk_size=8)
    f = folder(tmp_path)
    assert len(batch.part_files(f)) == 2 and not (f / batch.DEALS).exists()
    stray = f / f"{batch.TMP_PREFIX}deadbeef.parquet"
    stray.write_bytes(b"PAR1 half a file")
    assert list(batch.read_rows(f)["seed"]) == list(range(16))  # the stray is not read

    monkeypatch.setattr(batch.run, "solve_chunk", real)
    fake_solver.clear()
    s = run(tmp_path)
    assert seeds_solved(fake_solver, range(30)) == set(range(16, 30)) and len(fake_solver) == 14
    assert batch.part_files(f) == [] and not stray.exists()
    rows = all_rows(tmp_path)
    assert sorted(rows["seed"]) == list(range(30))  # every seed exactly once
    assert s["n"] == 30


def test_rerun_with_more_deals_extends(tmp_path, fake_solver):
    run(tmp_path, n=10)
    fake_solver.clear()
    s = run(tmp_path, n=25)
    assert len(fake_solver) == 15 and s["n"] == 25
    run(tmp_path, n=5, start=40)
    rows = all_rows(tmp_path)
    assert sorted(rows["seed"]) == list(range(25)) + list(range(40, 45))


def test_fold_drops_repeats_and_keeps_superseded(tmp_path, fake_solver):
    """Two overlapping runs that stored the same seeds twice (the same search, only
    the time differs): readers and the fold keep one; a row a deeper one replaced is
    kept in superseded.parquet."""
    run(tmp_path, n=10, max_nodes=100)
    f = folder(tmp_path)
    deals = batch.read_rows(f)
    again = deals.assign(seconds=deals["seconds"] * 2 + 1)  # the same searches, slower
    deeper = deals[deals["result"] == "unknown"].assign(result="won", max_nodes=1000, solution_length=3)
    batch.write_part(f, again.to_dict("records"))
    batch.write_part(f, deeper.to_dict("records"))
    assert len(batch.read_rows(f)) == 10
    with batch.folder_lock(f):
        assert batch.fold(f) == 2
    assert batch.part_files(f) == []
    got = pd.read_parquet(f / batch.DEALS)
    sup = pd.read_parquet(f / batch.SUPERSEDED)
    assert list(got["seed"]) == list(range(10))
    assert set(got.loc[got["seed"].isin(deeper["seed"]), "max_nodes"]) == {1000}
    assert sorted(sup["seed"]) == sorted(deeper["seed"]) and set(sup["result"]) == {"unknown"}
    pd.testing.assert_series_equal(got["seconds"], deals["seconds"])  # the first of the repeats kept
    # folding again changes nothing
    with batch.folder_lock(f):
        assert batch.fold(f) == 0


def test_old_part_files_are_read(tmp_path):
    """Parts of the layout before provenance (ten columns) still read, with the
    values that say what is not known."""
    f = folder(tmp_path)
    f.mkdir(parents=True)
    pd.DataFrame({"seed": [1, 2, 3], "game": GAME, "variant": "standard", "algorithm": "auto",
                  "result": ["won", "lost", "unknown"], "nodes": [10, 1, 100], "seconds": [0.1, 0.01, 1.0],
                  "solution_length": [90, -1, -1], "max_nodes": 100, "max_seconds": 10.0}).to_parquet(
        f / "part-1-3-00000000.parquet", index=False)
    rows = batch.read_rows(f)
    assert list(rows["proof"].astype(str)) == ["", "unrecorded", ""]
    assert list(rows["stop"].astype(str)) == ["", "", "unrecorded"]
    assert set(rows["code_version"].astype(str)) == {"unknown"}


def test_lock_refuses_a_second_run(tmp_path, fake_solver):
    from solver.errors import PatienceError

    run(tmp_path, n=5)
    f = folder(tmp_path)
    with batch.folder_lock(f):  # another run holds the folder
        fake_solver.clear()
        with pytest.raises(PatienceError, match="another run is writing .*standard"):
            run(tmp_path, n=10)
        assert fake_solver == []
    assert run(tmp_path, n=10)["solved_now"] == 5  # free again


def test_lock_is_held_across_processes(tmp_path):
    f = tmp_path / "folder"
    f.mkdir()
    code = ("import sys, time; from solver.batch import folder_lock\n"
            "with folder_lock(sys.argv[1]):\n    print('held', flush=True); time.sleep(30)\n")
    proc = subprocess.Popen([sys.executable, "-c", code, str(f)], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "held"
        from solver.errors import PatienceError

        with pytest.raises(PatienceError, match="another run is writing"):
            with batch.folder_lock(f):
                pass
    finally:
        proc.kill()
        proc.wait()
        proc.stdout.close()
    with batch.folder_lock(f):
        pass  # released with its holder


def test_unwritable_out_is_a_one_line_error(tmp_path, fake_solver, monkeypatch):
    from solver.errors import PatienceError

    plain = tmp_path / "plain"
    plain.write_text("not a folder")
    for out in (plain, plain / "under"):
        with pytest.raises(PatienceError) as e:
            run(out, n=3)
        assert str(plain) in str(e.value) and "\n" not in str(e.value)
    assert fake_solver == []
    # a read-only folder (the tests run as root, which chmod does not stop)
    real_access = os.access
    ro = tmp_path / "ro"
    ro.mkdir()
    monkeypatch.setattr(os, "access", lambda p, mode, **kw: False if str(p).startswith(str(ro)) else real_access(p, mode))
    with pytest.raises(PatienceError, match="cannot write to .*ro.*read-only"):
        run(ro, n=3)
    # write_report: runs on disk, but the report folder is blocked by a plain file
    run(tmp_path / "ok", n=3)
    rep = batch.report_folder(tmp_path / "ok", GAME)
    for p in rep.iterdir():
        p.unlink()
    rep.rmdir()
    rep.write_text("in the way")
    with pytest.raises(PatienceError, match=f"cannot write to {rep}"):
        batch.write_report(GAME, tmp_path / "ok")


def test_retry_unknown_resolves_only_the_unknowns(tmp_path, fake_solver, monkeypatch):
    """--retry-unknown solves again exactly the deals stored as unknown; the decided
    new rows replace them in every reader, and an unknown retried row with the larger
    budget replaces the old unknown; the old rows stay in superseded."""
    run(tmp_path, n=30, max_nodes=100)
    before = batch.read_rows(folder(tmp_path))
    unknown = set(before.loc[before["result"] == "unknown", "seed"])
    assert unknown
    fake_solver.clear()

    def bigger(game_name, variant, deck, algorithm="dfs", max_nodes=5000, seconds=2.0, tt_mb=16):
        fake_solver.append(tuple(int(c) for c in deck))
        first = int(deck[0])
        result = "won" if first % 2 else "unknown"  # some decided now, some still not
        return SolveResult(result, ["c1 F AC"] if result == "won" else [], nodes=max_nodes, seconds=0.01,
                           stop="nodes" if result == "unknown" else "")

    monkeypatch.setattr(solve_mod, "solve_deal", bigger)
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
    # what stopped the retried unknowns is stored
    assert set(after.loc[after["result"] == "unknown", "stop"].astype(str)) == {"nodes"}
    assert len(all_rows(tmp_path)) == 30 + len(unknown)
    sup = pd.read_parquet(folder(tmp_path) / batch.SUPERSEDED)
    assert set(sup["seed"]) == unknown and set(sup["max_nodes"]) == {100}
    # a second retry under the same budget has nothing left to try
    fake_solver.clear()
    run(tmp_path, n=30, max_nodes=1000, retry_unknown=True)
    assert fake_solver == []


def test_retry_with_more_seconds_only_is_kept_and_not_repeated(tmp_path, fake_solver, monkeypatch):
    """A retry that raises only the time budget (the same nodes) and stays unknown:
    its row replaces the old one, and the same retry again has nothing to do (it
    used to rank below the row it retried, so every resume solved it once more);
    the same for budgets neither of which contains the other."""
    run(tmp_path, n=30, max_nodes=100, seconds=1.0)
    unknown = set(batch.read_rows(folder(tmp_path)).query("result == 'unknown'")["seed"])
    assert unknown

    def still_unknown(game_name, variant, deck, algorithm="dfs", max_nodes=5000, seconds=2.0, tt_mb=16):
        fake_solver.append(tuple(int(c) for c in deck))
        return SolveResult("unknown", [], nodes=7, seconds=seconds, stop="time")

    monkeypatch.setattr(solve_mod, "solve_deal", still_unknown)
    fake_solver.clear()
    run(tmp_path, n=30, max_nodes=100, seconds=5.0, retry_unknown=True)
    assert len(fake_solver) == len(unknown)
    after = batch.read_rows(folder(tmp_path)).set_index("seed")
    assert set(after.loc[sorted(unknown), "max_seconds"]) == {5.0}
    fake_solver.clear()
    run(tmp_path, n=30, max_nodes=100, seconds=5.0, retry_unknown=True)
    assert fake_solver == []
    # budgets neither of which contains the other: more nodes and fewer seconds is
    # retried once, and then neither command solves anything again
    run(tmp_path, n=30, max_nodes=1000, seconds=1.0, retry_unknown=True)
    assert len(fake_solver) == len(unknown)
    fake_solver.clear()
    run(tmp_path, n=30, max_nodes=100, seconds=5.0, retry_unknown=True)
    run(tmp_path, n=30, max_nodes=1000, seconds=1.0, retry_unknown=True)
    assert fake_solver == []


def test_summary_and_report(tmp_path, fake_solver, capsys):
    s = run(tmp_path, n=40)
    out = capsys.readouterr().out
    assert s["unknown"] > 0 and s["rate"] is None
    assert f"won {s['won']}, lost {s['lost']} (" in out and f"unknown {s['unknown']}" in out
    assert "win rate between" in out and "deals/s" in out
    run(tmp_path, n=30, start=10, variant=["empty=any"])

    rep = batch.report_folder(tmp_path, GAME)
    table = pd.read_csv(rep / "winrates.csv")
    assert list(table["variant"]) == ["standard", "empty=any"]
    assert list(table["deals"]) == [40, 30]
    std = table.iloc[0]
    assert std["won"] + std["lost"] + std["unknown"] == 40
    assert std["lost_search"] + std["lost_dead_end"] == std["lost"] and std["lost_dead_end"] > 0
    assert std["command"] == f"patience winrate {GAME} --deals 40"
    # while deals are unknown there is no rate: its columns are empty, the bounds' are not
    assert pd.isna(std["rate"]) and pd.isna(std["rate_lo"]) and pd.isna(std["rate_hi"])
    assert std["lower_bound_lo"] <= std["lower_bound"] <= std["lower_bound_hi"]
    assert std["upper_bound_lo"] <= std["upper_bound"] <= std["upper_bound_hi"]
    assert "wilson_lo" not in table.columns
    assert (rep / "winrates.png").stat().st_size > 1000

    md = (rep / "winrates.md").read_text()
    assert md.startswith("# Baker's Dozen: win rates")
    assert "| standard | 40 |" in md and "| empty=any | 30 |" in md
    assert f"search {std['lost_search']}, dead-end test at the root {std['lost_dead_end']}" in md
    assert f"`patience winrate {GAME} --deals 30`" in md
    import solver

    assert f"| standard | `{solver.SOURCE_HASH}` | recorded | 40 |" in md
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
    return pd.DataFrame([{"seed": k, "result": r, "max_nodes": b, "proof": "search" if r == "lost" else ""}
                         for k, (r, b) in sorted(results.items())])


FIRST = "patience winrate bakers-dozen --deals 200 --start 1 --max-nodes 1000"
DEEP = "patience winrate bakers-dozen --deals 100 --start 1 --max-nodes 50000 --retry-unknown"


def records(*commands):
    return [batch.record_from_command(c) for c in commands]


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


def test_record_from_command():
    r = batch.record_from_command(DEEP)
    assert (r["start"], r["deals"], r["max_nodes"], r["retry_unknown"], r["algorithm"]) == (1, 100, 50000, True, "auto")
    assert r["seconds"] == 60.0 and r["tt_mb"] == 64  # the solver's defaults
    r = batch.record_from_command("patience winrate capricieuse redeals=0 --deals 10 --jobs 1 --tt-mb 2048 "
                                  "--max-nodes=5 --seconds 30 --retry-unknown")
    assert (r["start"], r["tt_mb"], r["max_nodes"], r["seconds"]) == (1, 2048, 5, 30.0)
    assert batch.record_from_command("patience winrate --bogus") is None
    assert batch.record_from_command("patience report bakers-dozen") is None


def test_retry_sample_is_the_whole_retried_range():
    """The sample is all of seeds 1..100 (the deals decided in the first pass too), not
    only the retried ones; its bounds (60%..90%) are tighter than the run's (35%..95%)."""
    sample = batch.retry_sample(_rows(_first_pass_and_retry()), records(FIRST, DEEP))
    assert sample["seeds"] == "1..100" and sample["budget"] == 50000 and sample["tighter"]
    assert (sample["n"], sample["won"], sample["lost"], sample["unknown"]) == (100, 60, 10, 30)
    assert sample["lower_bound"] == 0.6 and sample["upper_bound"] == 0.9
    assert sample["lost_search"] == 10


def test_retry_sample_counts_only_rows_at_its_own_limits():
    """A later retry of every seed at 1,000,000 nodes wins 20 of the sample's 30
    unknown deals: the sample at 50,000 nodes still reads 60 won, 30 unknown, from the
    superseded rows (as the Parisienne sample: 9,963 won at 300,000 nodes, not the
    9,999 that the later 1,000,000-node retry made of it)."""
    rows = _first_pass_and_retry()
    later = {k: ("won", 1_000_000) for k in range(71, 91)}
    deals = _rows({**rows, **later})
    superseded = _rows({k: rows[k] for k in later})
    runs = records(FIRST, DEEP, FIRST.replace("--max-nodes 1000", "--max-nodes 1000000") + " --retry-unknown")
    sample = batch.retry_sample(deals, runs, superseded)
    assert (sample["seeds"], sample["budget"]) == ("1..100", 50000)
    assert (sample["won"], sample["lost"], sample["unknown"]) == (60, 10, 30)
    # without the superseded rows the seeds have no row at that budget: no sample
    assert batch.retry_sample(deals, runs) is None


def test_retry_sample_skips_unfinished_picked_and_whole_ranges():
    rows = _first_pass_and_retry()
    assert batch.retry_sample(_rows(rows), records(FIRST, DEEP))["won"] == 60
    unfinished = {**rows, 100: ("unknown", 1000)}  # the retry stopped before seed 100
    assert batch.retry_sample(_rows(unfinished), records(FIRST, DEEP)) is None
    # a retry over every seed is the run itself
    assert batch.retry_sample(_rows(rows), records(FIRST, DEEP.replace("--deals 100", "--deals 200"))) is None
    # retried range by range at one budget until every seed was: the run itself again
    whole_later = DEEP.replace("--deals 100", "--deals 200")
    assert batch.retry_sample(_rows(rows), records(FIRST, DEEP, whole_later)) is None
    # a few seeds retried by hand (picked for being unknown), or a range not from the first seed
    assert batch.retry_sample(_rows(rows), records(FIRST, DEEP.replace("--deals 100", "--deals 99"))) is None
    assert batch.retry_sample(_rows(rows), records(FIRST, DEEP.replace("--start 1", "--start 2"))) is None
    # no tighter than the run's bounds: with 101..170 won and 171..200 lost the run has
    # 65%..80%, the sample 60%..90%: given, but marked
    decided = {**rows, **{k: ("won", 1000) for k in range(101, 171)}, **{k: ("lost", 1000) for k in range(171, 201)}}
    assert batch.retry_sample(_rows(decided), records(FIRST, DEEP))["tighter"] is False
    # no retry at all
    assert batch.retry_sample(_rows(rows), records(FIRST)) is None


def test_retry_sample_joins_one_budgets_ranges(monkeypatch):
    """A retry at one budget run as two commands side by side (seeds 1..50 and 51..100,
    SAMPLE_MIN set to 50 here) is one sample of 1..100, as one command over 1..100
    would be; with a gap between them the sample is the first range only."""
    import solver.batch.report as report
    monkeypatch.setattr(report, "SAMPLE_MIN", 50)
    rows = _first_pass_and_retry()
    halves = [DEEP.replace("--deals 100", "--deals 50"),
              DEEP.replace("--deals 100 --start 1", "--deals 50 --start 51")]
    joined = batch.retry_sample(_rows(rows), records(FIRST, *halves))
    assert joined == batch.retry_sample(_rows(rows), records(FIRST, DEEP))
    assert (joined["seeds"], joined["won"], joined["lost"], joined["unknown"]) == ("1..100", 60, 10, 30)
    gap = batch.retry_sample(_rows(rows), records(FIRST, halves[0], halves[1].replace("--start 51", "--start 52")))
    assert (gap["seeds"], gap["won"], gap["lost"], gap["unknown"]) == ("1..50", 50, 0, 0)
    # a picked retry (under SAMPLE_MIN seeds) joins nothing: 1..100 and 101..110 stay 1..100
    picked = DEEP.replace("--deals 100 --start 1", "--deals 10 --start 101")
    assert batch.retry_sample(_rows(rows), records(FIRST, DEEP, picked))["seeds"] == "1..100"


def _write_rows(where: Path, game: str, vstr: str, rows: dict, commands: list[str]) -> None:
    where.mkdir(parents=True)
    batch.write_part(where, [
        {"seed": k, "game": game, "variant": vstr, "algorithm": "auto", "result": r, "nodes": 1,
         "seconds": 0.01, "solution_length": 5 if r == "won" else -1, "max_nodes": b, "max_seconds": 10.0,
         "proof": "dead_end" if r == "lost" else "", "stop": "nodes" if r == "unknown" else ""}
        for k, (r, b) in sorted(rows.items())
    ])
    with batch.folder_lock(where):
        batch.fold(where)
    for c in commands:
        batch.write_command(where, game, vstr, {}, c, batch.record_from_command(c))


def test_report_shows_the_deeper_sample(tmp_path):
    """The report (table and csv) from the files holding that first pass and retry."""
    _write_rows(folder(tmp_path), GAME, "standard", _first_pass_and_retry(), [FIRST, DEEP])
    md = batch.write_report(GAME, tmp_path).read_text()
    assert "## Deeper search on a sample of seeds" in md
    # 70 won, 10 lost, 120 unknown of 200: bounds only, no interval of a rate there is not
    assert ("| standard | 200 | 1..200 | 70 | 10 | dead-end test at the root 10 | 120 | - | - | 35.0%..95.0% ("
            in md)
    assert "| standard | 1..100 | 50000 | 100 | 60 | 10 | 30 | 60.0% |" in md
    table = pd.read_csv(batch.report_folder(tmp_path, GAME) / "winrates.csv")
    assert table.loc[0, "won"] == 70 and table.loc[0, "sample_won"] == 60 and table.loc[0, "sample_seeds"] == "1..100"
    assert table.loc[0, "lost_dead_end"] == 10 and table.loc[0, "lost_search"] == 0


def test_lost_rows_are_counted_by_each_proof():
    """Each proof has its own count and words, Baker's Dozen's root test among them; a
    value the report does not know reads as unrecorded rather than vanish."""
    from solver.batch import report

    proofs = ["search", "dead_end", "dead_end", "root_dead", "root_dead", "root_dead", "unrecorded", "odd"]
    df = pd.DataFrame({"result": ["lost"] * len(proofs) + ["won", "unknown"], "proof": proofs + ["", ""]})
    s = report.summarize_rows(df)
    assert (s["lost"], s["lost_search"], s["lost_dead_end"], s["lost_root_dead"], s["lost_unrecorded"]) == (8, 1, 2, 3, 2)
    assert report.proof_text(s) == ("search 1, dead-end test at the root 2, root test (Baker's Dozen: the host count) 3,"
                                    " proof unrecorded 2")


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


def _group_alive(pgid: int, seconds: float) -> bool:
    """Whether a process of group ``pgid`` is still there after up to ``seconds``."""
    deadline = time.time() + seconds
    while True:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return False
        if time.time() > deadline:
            return True
        time.sleep(0.05)


def _signal_after_first_part(tmp_path, n: int, sig) -> tuple[int, str, bool]:
    """Start a real parallel run of seeds 1..n and send ``sig`` to its parent process
    once the first part file is written.  Check that the kill landed mid-run and that
    the same command then completes the run with every seed exactly once; return the
    killed run's exit status, its standard error and whether any process it started
    outlived it."""
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
        proc.send_signal(sig)  # the parent only
        proc.wait(timeout=30)
        status, stderr = proc.returncode, proc.stderr.read().decode()
        group_left = _group_alive(proc.pid, seconds=10)
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
    rows = all_rows(tmp_path)
    assert sorted(rows["seed"]) == list(range(1, n + 1))  # all present, none twice
    assert not list(f.glob(f"{batch.TMP_PREFIX}*")) and batch.part_files(f) == []
    assert f"{n} deals" in done.stdout
    return status, stderr, group_left


@pytest.mark.slow
def test_sigkill_then_resume(tmp_path):
    """SIGKILL to the parent (its workers are orphaned): the same command resumes."""
    status, _, _ = _signal_after_first_part(tmp_path, 300, signal.SIGKILL)
    assert status == -signal.SIGKILL


@pytest.mark.slow
def test_sigterm_stops_cleanly_then_resume(tmp_path):
    """SIGTERM to the parent stops it as Ctrl-C does: one line, exit status 143, no
    traceback from the workers (which the parent shuts down: none is left), and the
    same command resumes."""
    status, stderr, group_left = _signal_after_first_part(tmp_path, 300, signal.SIGTERM)
    assert status == 143, stderr
    assert not group_left
    assert "Traceback" not in stderr and "Error" not in stderr, stderr
    assert stderr.splitlines()[-1].startswith("patience: terminated (finished work is saved")
