"""`patience merge`: rows of other results folders folded into one, with their run
records.  The answer known for a reason: two shards merged equal one run over both
ranges, row for row, and merging again changes nothing.  Real solver, Baker's Dozen,
small budgets."""

import json
import shutil

import numpy as np
import pandas as pd

from solver import batch
from solver.batch import play, store
from solver.cli import main

GAME = "bakers-dozen"


def winrate(out, start, deals, *more):
    argv = ["winrate", GAME, "--start", str(start), "--deals", str(deals), "--jobs", "1", "--max-nodes", "20000",
            "--out", str(out), "--no-progress", *more]
    assert main(argv) == 0


def rows(out, vstr="standard"):
    deals, sup = store.read_store(batch.variant_folder(out, GAME, vstr))
    key = [c for c in store.REPEAT_KEY]
    return deals[key].astype(str).reset_index(drop=True), sup[key].astype(str).reset_index(drop=True)


def meta(out, vstr="standard"):
    return json.loads((batch.variant_folder(out, GAME, vstr) / store.COMMAND).read_text())


def test_shards_merged_equal_one_run_and_a_second_merge_adds_nothing(tmp_path, capsys):
    a, b, whole, merged = (tmp_path / n for n in ("a", "b", "whole", "merged"))
    winrate(a, 1, 8)
    winrate(b, 9, 8)
    winrate(whole, 1, 16)
    capsys.readouterr()
    assert main(["merge", str(a), str(b), "--out", str(merged)]) == 0
    said = capsys.readouterr().out
    assert "8 rows read, 8 new seeds" in said and "16 seeds" in said
    assert (merged / GAME / "winrates.md").exists()
    pd.testing.assert_frame_equal(rows(merged)[0], rows(whole)[0])
    m = meta(merged)
    assert [r["start"] for r in m["runs"]] == [1, 9]  # both shards' commands, in order
    assert [x["from"] for x in m["merges"]] == [str(a.resolve()), str(b.resolve())]
    files = {p.name: p.read_bytes() for p in batch.variant_folder(merged, GAME, "standard").glob("*.*")}
    assert main(["merge", str(b), "--out", str(merged)]) == 0
    said = capsys.readouterr().out
    assert "1 folder already held every row read" in said and "report:" not in said  # nothing to rebuild
    # rows and command.json untouched
    assert files == {p.name: p.read_bytes() for p in batch.variant_folder(merged, GAME, "standard").glob("*.*")}
    assert len(meta(merged)["merges"]) == 2  # a merge that brought nothing is not recorded
    winrate(merged, 1, 20)  # a later run keeps the merge records
    assert len(meta(merged)["merges"]) == 2 and len(meta(merged)["runs"]) == 3


def test_a_deeper_search_elsewhere_replaces_rows_and_keeps_the_old_ones(tmp_path, capsys):
    shallow, deep = tmp_path / "shallow", tmp_path / "deep"
    assert main(["winrate", GAME, "--deals", "30", "--jobs", "1", "--max-nodes", "300", "--out", str(shallow),
                 "--no-progress"]) == 0
    before = store.read_rows(batch.variant_folder(shallow, GAME, "standard"))
    unknown = set(before.loc[before["result"] == "unknown", "seed"])
    assert unknown, "the shallow budget must leave some deal unknown for this test to mean anything"
    winrate(deep, 1, 30)
    assert main(["merge", str(deep), "--out", str(shallow)]) == 0
    assert "30 seeds with a better row" in capsys.readouterr().out  # a larger budget ranks first
    deals, sup = rows(shallow)
    pd.testing.assert_frame_equal(deals, rows(deep)[0])
    assert len(sup) == 30 and set(sup["max_nodes"]) == {"300"}  # the shallow sample is still there


def test_strategy_folders_are_merged(tmp_path, capsys):
    a, b = tmp_path / "a", tmp_path / "b"
    for out, start in ((a, 1), (b, 6)):
        assert main(["play", GAME, "--strategy", "greedy", "--start", str(start), "--deals", "5", "--jobs", "1",
                     "--out", str(out), "--no-progress"]) == 0
    other = "russian-patience"  # a second game: the page of every hidden-information game is written once
    assert main(["play", other, "--strategy", "greedy", "--start", "1", "--deals", "3", "--jobs", "1",
                 "--out", str(b), "--no-progress"]) == 0
    capsys.readouterr()
    assert main(["merge", str(b), "--out", str(a)]) == 0
    said = capsys.readouterr().out
    assert said.count("strategies.md") == 2 and said.count("hidden-information.md") == 1
    assert f"`patience merge {b} --out {a}`" in (a / "hidden-information.md").read_text()  # what made it
    (pfolder,) = batch.play_folders(a, GAME)
    assert batch.read_play_rows(pfolder)["seed"].tolist() == list(range(1, 11))
    assert len(store.read_command(pfolder)["runs"]) == 2
    (pfolder,) = batch.play_folders(a, other)
    assert batch.read_play_rows(pfolder)["seed"].tolist() == [1, 2, 3]


def test_bad_input_is_one_line_and_exit_2(tmp_path, capsys):
    a, b = tmp_path / "a", tmp_path / "b"
    winrate(a, 1, 3)
    capsys.readouterr()
    (tmp_path / "file").write_text("x")
    (tmp_path / "empty" / "runs").mkdir(parents=True)
    for argv, says in [
        (["merge", str(tmp_path / "nothere"), "--out", str(a)], "no such results folder"),
        (["merge", str(tmp_path), "--out", str(a)], "has no runs/ folder"),
        (["merge", str(a), "--out", str(a)], "is the destination itself"),
        (["merge", str(a), "--out", str(tmp_path / "file")], "is a file, not a folder"),
        (["merge", str(tmp_path / "empty"), "--out", str(b)], "nothing to merge"),
    ]:
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert says in err and len(err.strip().splitlines()) == 1, err


def test_rows_of_another_variant_or_a_locked_destination_are_refused(tmp_path, capsys):
    a, b, c = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    winrate(a, 1, 3)
    winrate(c, 4, 3)
    # a folder whose rows say another variant than its name: refused, nothing written
    wrong = batch.variant_folder(b, GAME, "kings_to_bottom=false")
    wrong.mkdir(parents=True)
    shutil.copy(batch.variant_folder(a, GAME, "standard") / store.DEALS, wrong / store.DEALS)
    capsys.readouterr()
    assert main(["merge", str(b), "--out", str(c)]) == 2
    assert "not merged" in capsys.readouterr().err
    assert not batch.variant_folder(c, GAME, "kings_to_bottom=false").exists()
    # a run record of another variant, no rows: refused too
    (wrong / store.DEALS).unlink()
    shutil.copy(batch.variant_folder(a, GAME, "standard") / store.COMMAND, wrong / store.COMMAND)
    assert main(["merge", str(b), "--out", str(c)]) == 2
    assert "not merged" in capsys.readouterr().err
    with batch.folder_lock(batch.variant_folder(c, GAME, "standard")):
        assert main(["merge", str(a), "--out", str(c)]) == 2
    assert "another run is writing" in capsys.readouterr().err
    assert main(["merge", str(a), "--out", str(c)]) == 0


def test_a_folder_of_no_known_game_is_refused(tmp_path, capsys):
    src = tmp_path / "src" / "runs" / "no-such-game" / "standard"
    src.mkdir(parents=True)
    (src / store.COMMAND).write_text("{}")
    assert main(["merge", str(tmp_path / "src"), "--out", str(tmp_path / "dst")]) == 2
    assert "unknown game" in capsys.readouterr().err


def _random_rows(rng, n):
    """Rows of a few seeds with repeats, ties and every kind of result: what the
    folding rule has to order."""
    result = rng.choice(["won", "lost", "unknown"], n)
    return store.normalise(pd.DataFrame({
        "seed": rng.integers(1, 6, n), "game": GAME, "variant": "standard", "algorithm": "dfs",
        "result": result, "proof": ["search" if r == "lost" else "" for r in result],
        "stop": ["nodes" if r == "unknown" else "" for r in result], "nodes": rng.integers(1, 4, n),
        "seconds": rng.random(n), "solution_length": -1, "max_nodes": rng.choice([100, 1000], n),
        "max_seconds": rng.choice([60.0, 61.0], n), "tt_mb": 64.0, "code_version": rng.choice(["a", "b"], n),
        "code_basis": "recorded", "package_version": "0"}))


def _random_play_rows(rng, n):
    return play.normalise_play(pd.DataFrame({
        "seed": rng.integers(1, 6, n), "game": GAME, "variant": "standard", "strategy": "greedy",
        "options": rng.choice(["", "x=1"], n), "rng_seed": rng.integers(0, 3, n).astype("uint64"),
        "won": rng.random(n) < 0.5, "moves": rng.integers(1, 3, n), "decisions": 1, "stopped": False,
        "seconds": rng.random(n), "code_version": rng.choice(["a", "b"], n), "package_version": "0"}))


def test_folding_the_source_into_the_folded_destination_equals_folding_everything():
    """merge_folder folds the destination once, then folds the source into that; the
    rows must be those of one fold of all (the best row per seed, ties to the earlier
    row, the rest superseded in the same order)."""
    rng = np.random.default_rng(19)
    for _ in range(200):
        mine = [_random_rows(rng, int(rng.integers(0, 12))) for _ in range(3)]
        src = [_random_rows(rng, int(rng.integers(0, 12))) for _ in range(2)]
        before, before_sup, _ = store.merge(mine)
        once = store.merge([before, before_sup] + src)[:2]
        for got, want in zip(once, store.merge(mine + src)[:2]):
            pd.testing.assert_frame_equal(got, want)
        pmine = [_random_play_rows(rng, int(rng.integers(0, 12))) for _ in range(3)]
        psrc = [_random_play_rows(rng, int(rng.integers(0, 12))) for _ in range(2)]
        for got, want in zip(play.merge_play(list(play.merge_play(pmine)) + psrc), play.merge_play(pmine + psrc)):
            pd.testing.assert_frame_equal(got, want)
