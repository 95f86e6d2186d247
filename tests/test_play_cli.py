"""``patience play``: one deal (what the player saw before each move, the moves as a
solution file that ``patience check`` accepts, --json), the batch through the command
line, and bad input as one line with exit status 2."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pandas as pd

import solver
from solver import batch, cli
from solver.cards import card_str, parse_card
from solver.checker import replay
from solver.deals import seeded_deck

GAME = "bakers-dozen"
ROOT = Path(__file__).resolve().parents[1]


def run(capsys, *argv):
    rc = cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return rc, out, err


def easy_deck(tmp_path) -> Path:
    """A deal any sensible player wins: column c holds the four cards of rank 13 - c,
    the aces on top of c13, so a foundation move is always there (52 of them)."""
    deck = [suit * 13 + (13 - i % 13) - 1 for i in range(52) for suit in [i // 13]]
    p = tmp_path / "easy.deck"
    p.write_text(" ".join(card_str(c) for c in deck) + "\n")
    return p


def moves_of(text: str) -> list[str]:
    return [line for line in text.splitlines() if line and not line.startswith("#")]


# ------------------------------------------------------------------ one deal


def test_a_won_game_prints_what_was_seen_and_passes_check(tmp_path, capsys):
    deck = easy_deck(tmp_path)
    for variant in ([], ["face_down=true"]):
        rc, out, err = run(capsys, "play", GAME, *variant, "--strategy", "greedy", "--deck", deck)
        assert rc == 0, err
        lines = out.splitlines()
        assert lines[0] == f"# {GAME} {'face_down=true' if variant else 'standard'}, deck file {deck}"
        assert "# strategy: greedy (max_moves=1000), rng seed 0" in lines  # a deck file: rng seed 0
        assert "# result: won" in lines and lines[-1] == "# result: won" and "# moves: 52" in lines
        assert f"# code version: {solver.SOURCE_HASH} (package {solver.__version__})" in lines
        moves = moves_of(out)
        assert len(moves) == 52 and moves[0] == "c13 F AS"
        # what the player saw before the first move: the foundations, every column
        first = lines.index("# seen before move 1: foundations -C -D -H -S")
        assert lines[first + 13] == "#   c13 " + ("?? ?? ?? AS" if variant else "AC AD AH AS")
        assert lines[first + 14] == "c13 F AS"
        second = lines.index("# seen before move 2: foundations -C -D -H AS")
        assert lines[second + 13] == "#   c13 " + ("?? ?? AH" if variant else "AC AD AH")
        # the output is a solution file as it stands
        sol = tmp_path / "won.txt"
        sol.write_text(out)
        rc, checked, _ = run(capsys, "check", GAME, *variant, "--deck", deck, "--solution", sol)
        assert rc == 0 and checked.strip() == "legal and won (52 moves)"


def test_a_lost_game_face_down_shows_hidden_cards(capsys):
    rc, out, _ = run(capsys, "play", GAME, "face_down=true", "--strategy", "random", "--seed", 7,
                     "--option", "max_moves=5")
    assert rc == 0
    lines = out.splitlines()
    assert "# strategy: random (max_moves=5), rng seed 7" in lines  # rng seed: the deal's seed
    assert lines[3] in ("# result: lost (stopped after max_moves=5 moves)", "# result: lost (no legal move left)")
    assert len(moves_of(out)) <= 5 and "# seen before move 1: foundations" in out
    assert sum("??" in line for line in lines) >= 13  # every column had hidden cards at the deal


def test_json_schema_rng_seed_and_the_moves_replay(tmp_path, capsys):
    rc, out, _ = run(capsys, "play", GAME, "--strategy", "greedy", "--seed", 3, "--json", "--option", "max_moves=40")
    assert rc == 0
    obj = json.loads(out)
    assert set(obj) == {"game", "variant", "seed", "deck", "strategy", "options", "rng_seed", "won", "moves",
                        "decisions", "stopped", "seconds", "code_version", "package_version"}
    assert obj["game"] == GAME and obj["seed"] == 3 and obj["rng_seed"] == 3 and obj["strategy"] == "greedy"
    assert obj["options"] == {"max_moves": 40} and obj["variant"]["face_down"] is False
    assert obj["code_version"] == solver.SOURCE_HASH and isinstance(obj["seconds"], float)
    assert obj["deck"] == [card_str(int(c)) for c in seeded_deck(3)]
    assert len(obj["moves"]) <= 40 and obj["stopped"] == (not obj["won"] and len(obj["moves"]) == 40)
    r = replay(GAME, obj["variant"], [parse_card(c) for c in obj["deck"]], obj["moves"])
    assert r.legal and r.won == obj["won"]
    # --rng-seed changes the player's stream only; the same value replays the same game
    rc, out2, _ = run(capsys, "play", GAME, "--strategy", "random", "--seed", 3, "--json", "--rng-seed", 11)
    rc, out3, _ = run(capsys, "play", GAME, "--strategy", "random", "--seed", 3, "--json", "--rng-seed", 11)
    a, b = json.loads(out2), json.loads(out3)
    assert a["rng_seed"] == 11 and a["moves"] == b["moves"]
    # a won game's JSON is itself a solution file
    rc, out, _ = run(capsys, "play", GAME, "--strategy", "greedy", "--deck", easy_deck(tmp_path), "--json")
    sol = tmp_path / "won.json"
    sol.write_text(out)
    rc, checked, _ = run(capsys, "check", GAME, "--deck", tmp_path / "easy.deck", "--solution", sol)
    assert json.loads(out)["won"] and rc == 0 and checked.startswith("legal and won")


def test_one_deal_is_the_batch_row_of_its_seed(tmp_path, capsys):
    rc, out, err = run(capsys, "play", GAME, "face_down=true", "--strategy", "greedy", "--option", "max_moves=60",
                       "--deals", 3, "--start", 4, "--jobs", 1, "--out", tmp_path, "--no-progress")
    assert rc == 0, err
    rows = batch.read_play_rows(batch.play_folder(tmp_path, GAME, "face_down=true", "greedy", "max_moves=60"))
    for row in rows.itertuples():
        rc, out, _ = run(capsys, "play", GAME, "face_down=true", "--strategy", "greedy", "--option", "max_moves=60",
                         "--seed", row.seed, "--rng-seed", row.rng_seed, "--json")
        obj = json.loads(out)
        assert (obj["won"], len(obj["moves"]), obj["decisions"], obj["stopped"]) == (
            row.won, row.moves, row.decisions, row.stopped)


# ------------------------------------------------------------------ the batch


def test_batch_command_rows_rerun_and_report(tmp_path, capsys):
    argv = ["play", GAME, "--strategy", "random", "--option", "max_moves=30", "--deals", 5, "--jobs", 1,
            "--out", tmp_path, "--no-progress"]
    rc, out, err = run(capsys, *argv)
    assert rc == 0, err
    assert f"{GAME} standard, random (max_moves=30), seeds 1..5: 5 deals" in out and "played 5 deals" in out
    f = tmp_path / "runs" / GAME / "standard" / "play" / "random-max_moves=30"
    rows = pd.read_parquet(f / "deals.parquet")
    assert list(rows["seed"]) == [1, 2, 3, 4, 5] and list(rows["rng_seed"]) == [1, 2, 3, 4, 5]
    meta = json.loads((f / "command.json").read_text())
    assert meta["command"] == f"patience play {GAME} --strategy random --option max_moves=30 --deals 5 --jobs 1 " \
                              f"--out {tmp_path} --no-progress"
    md = tmp_path / GAME / "strategies.md"
    assert md.exists() and f"report: {md}" in out
    rc, out, _ = run(capsys, *argv)
    assert rc == 0 and "nothing to play: every deal was already on disk" in out
    # `patience report` rebuilds it; with no solver rows it says so and writes no winrate report
    md.unlink()
    rc, out, err = run(capsys, "report", GAME, "--out", tmp_path)
    assert rc == 0, err
    assert md.exists() and "| standard | random max_moves=30 | 5 | 1..5 |" in out and "no solver rows" in out
    assert not (tmp_path / GAME / "winrates.md").exists()


def test_report_refuses_an_impossible_win_in_one_line(tmp_path, capsys):
    sys.path.insert(0, str(ROOT / "tests"))
    try:
        from test_play_batch import ladder_dataset, write_play_rows
    finally:
        sys.path.pop(0)
    ladder_dataset(tmp_path)
    write_play_rows(tmp_path, "standard", "random", "max_moves=9", {19: True, 20: False})
    rc, out, err = run(capsys, "report", GAME, "--out", tmp_path)
    assert rc == 2 and err.count("\n") == 1 and err.startswith("patience: error: impossible wins")
    assert "random max_moves=9 on standard won 1 deal that the solver proved lost" in err and "seeds 19" in err
    assert not (tmp_path / GAME / "strategies.md").exists()


# ------------------------------------------------------------------ bad input


def bad_inputs(tmp_path):
    deck = easy_deck(tmp_path)
    return [
        (["play", GAME, "--strategy", "clever", "--seed", 1], "unknown strategy 'clever'; choose from"),
        (["play", GAME, "--strategy", "greedy", "--seed", 1, "--option", "depth=3"], "bad --option 'depth=3'"),
        (["play", GAME, "--strategy", "greedy", "--seed", 1, "--option", "max_moves"], "expected key=value"),
        (["play", GAME, "--strategy", "greedy", "--seed", 1, "--option", "max_moves=lots"], "takes int values"),
        (["play", GAME, "--strategy", "greedy", "--seed", 1, "--option", "max_moves=-3"], "must not be negative"),
        (["play", GAME, "--strategy", "greedy", "--seed", 1, "--option", "max_moves=3", "--option", "max_moves=4"],
         "given twice"),
        (["play", "capricieuse", "--strategy", "greedy", "--seed", 1], "no player for capricieuse yet"),
        (["play", "duchess", "--strategy", "rollout", "--option", "level=2", "--seed", 1], "duchess has rollout level 1 only"),
        (["play", "no-such-game", "--strategy", "greedy", "--seed", 1], "unknown game"),
        (["play", GAME, "colour=red", "--strategy", "greedy", "--seed", 1], "unknown variant"),
        (["play", GAME, "--strategy", "greedy"], "one of the arguments --seed --deck --deals is required"),
        (["play", GAME, "--seed", 1], "--strategy"),
        (["play", GAME, "--strategy", "greedy", "--seed", 1, "--deals", 3], "not allowed with"),
        (["play", GAME, "--strategy", "greedy", "--seed", 1, "--deck", deck], "not allowed with"),
        (["play", GAME, "--strategy", "greedy", "--deals", 3, "--json"], "--json is for one deal"),
        (["play", GAME, "--strategy", "greedy", "--seed", 1, "--start", 5], "--start is for a batch"),
        (["play", GAME, "--strategy", "greedy", "--seed", 1, "--jobs", 2, "--out", tmp_path], "--jobs, --out are"),
        (["play", GAME, "--strategy", "greedy", "--deals", 0], "at least 1"),
        (["play", GAME, "--strategy", "greedy", "--seed", 2**64], "2**64-1"),
        (["play", GAME, "--strategy", "greedy", "--seed", 1, "--rng-seed", -1], "at least 0"),
        (["play", GAME, "--strategy", "greedy", "--deals", 2, "--start", 2**64 - 1, "--out", tmp_path], "2**64-1"),
        (["play", GAME, "--strategy", "greedy", "--deals", 1, "--out", deck], "is a file"),
        (["play", GAME, "--strategy", "greedy", "--deals", 1, "--out", tmp_path, "--publish"], "not allowed"),
        (["play", GAME, "--strategy", "greedy", "--deck", tmp_path / "missing.deck"], "not found"),
        (["play", GAME, "--strategy", "greedy", "--seed", 1, "--pysol", 3], "unrecognized arguments"),
    ]


def test_bad_input_is_one_line_and_exit_2(tmp_path, capsys):
    for argv, words in bad_inputs(tmp_path):
        rc, out, err = run(capsys, *argv)
        assert rc == 2, (argv, out, err)
        assert err.endswith("\n") and err.count("\n") == 1, (argv, err)
        assert err.startswith("patience: error: "), (argv, err)
        assert words in err, (argv, err)
        assert "Traceback" not in err + out


def test_bad_input_in_a_real_process_has_no_traceback():
    for argv in (["play", GAME, "--strategy", "clever", "--seed", "1"],
                 ["play", "capricieuse", "--strategy", "random", "--deals", "2"]):
        p = subprocess.run([sys.executable, "-m", "solver.cli", *argv], cwd=ROOT, capture_output=True, text=True,
                           env={**os.environ, "PYTHONPATH": str(ROOT)})
        assert p.returncode == 2 and p.stderr.count("\n") == 1 and p.stderr.startswith("patience: error: ")


def test_help_lists_play(capsys):
    rc, out, _ = run(capsys, "--help")
    assert rc == 0 and "play" in out
    rc, out, _ = run(capsys, "play", "--help")
    flat = " ".join(out.split())
    assert rc == 0 and "--strategy" in flat and "--rng-seed" in flat and "SplitMix64" in flat and "--deals" in flat


def test_a_winrate_run_rebuilds_the_strategy_report_with_its_bounds(tmp_path, capsys):
    common = ["--deals", 3, "--jobs", 1, "--out", tmp_path, "--no-progress"]
    rc, _, err = run(capsys, "play", GAME, "face_down=true", "--strategy", "greedy", "--option", "max_moves=30",
                     *common)
    assert rc == 0, err
    md = tmp_path / GAME / "strategies.md"
    assert "no solver rows" in md.read_text()
    rc, out, err = run(capsys, "winrate", GAME, *common, "--max-nodes", 200000)
    assert rc == 0, err
    assert f"report: {md}" in out
    row = next(line for line in md.read_text().splitlines() if line.startswith("| face_down=true | greedy"))
    assert "no solver rows" not in row and "| 3 |" in row  # three solver deals (face up) beside it
