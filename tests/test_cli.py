"""The patience command: bad input is one line and exit 2; solve/check/deal round trips
through the real solver and the independent checker (solver.replay)."""

import json
import os
import subprocess
import sys
from pathlib import Path

from solver import cli
from solver.cards import deck_str, parse_card
from solver.deals import seeded_deck
from solver.replay import replay

GAME = "bakers-dozen"
ROOT = Path(__file__).resolve().parents[1]
STANDARD = {"kings_to_bottom": True, "face_down": False, "empty": "none"}


def run(capsys, *argv):
    rc = cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return rc, out, err


def deck_file(tmp_path, text, name="deck.txt"):
    p = tmp_path / name
    p.write_text(text)
    return p


def good_deck_text(seed=1):
    return deck_str(seeded_deck(seed))


def bad_inputs(tmp_path):
    """(argv, words the message must contain) for each kind of user error."""
    codes = good_deck_text().split()
    short = deck_file(tmp_path, " ".join(codes[:-1]), "short.txt")
    unknown = deck_file(tmp_path, " ".join(codes[:-1] + ["XX"]), "unknown.txt")
    dup = deck_file(tmp_path, " ".join(codes[:-1] + [codes[0]]), "dup.txt")
    deck = deck_file(tmp_path, " ".join(codes), "good.txt")
    badjson = deck_file(tmp_path, "[1, 2", "bad.json")
    return [
        (["solve", "no-such-game", "--seed", 1], "unknown game"),
        (["solve", GAME, "colour=red", "--seed", 1], "unknown variant"),
        (["solve", GAME, "empty=maybe", "--seed", 1], "empty"),
        (["deal", GAME, "face_down=perhaps", "--seed", 1], "face_down"),
        (["deal", GAME, "--seed", 1, "junk"], "key=value"),
        (["solve", GAME, "--deck", short], "wrong number of cards"),
        (["solve", GAME, "--deck", unknown], "XX"),
        (["deal", GAME, "--deck", dup], "duplicate"),
        (["solve", GAME, "--deck", tmp_path / "missing.txt"], "not found"),
        (["check", GAME, "--deck", deck, "--solution", tmp_path / "missing.sol"], "does not exist"),
        (["check", GAME, "--deck", deck, "--solution", badjson], "JSON"),
        (["check", GAME, "--deck", deck], "--solution"),
        (["solve", GAME], "required"),
        (["solve", GAME, "--seed", 1, "--pysol", 2], "not allowed"),
        (["solve", GAME, "--seed", "abc"], "whole number"),
        (["solve", GAME, "--seed", -1], "at least 0"),
        (["solve", GAME, "--seed", 1, "--max-nodes", 0], "at least 1"),
        (["solve", GAME, "--seed", 1, "--seconds", "soon"], "number"),
        (["solve", GAME, "--seed", 1, "--algorithm", "bfs"], "invalid choice"),
        (["solve", GAME, "--seed", 1, "--bogus"], "unrecognized"),
        (["winrate", GAME, "--deals", 0], "at least 1"),
        (["winrate", GAME, "colour=red", "--deals", 3, "--out", tmp_path], "unknown variant"),
        (["winrate", GAME], "--deals"),
        (["report", "no-such-game"], "unknown game"),
        (["report", GAME, "--out", tmp_path / "empty"], "no runs"),
        (["frobnicate"], "invalid choice"),
        ([], "required"),
    ]


def test_bad_input_is_one_line_and_exit_2(tmp_path, capsys):
    for argv, words in bad_inputs(tmp_path):
        rc, out, err = run(capsys, *argv)
        assert rc == 2, (argv, out, err)
        assert err.endswith("\n") and err.count("\n") == 1, (argv, err)
        assert err.startswith("patience: error: "), (argv, err)
        assert words in err, (argv, err)
        assert "Traceback" not in err + out


def test_bad_input_in_a_real_process_has_no_traceback(tmp_path):
    """The same through `python -m solver.cli`: what a user at a shell sees."""
    for argv in (["solve", "no-such-game", "--seed", "1"], ["deal", GAME, "--deck", str(tmp_path / "nope")]):
        p = subprocess.run([sys.executable, "-m", "solver.cli", *argv], cwd=ROOT, capture_output=True, text=True,
                           env={**os.environ, "PYTHONPATH": str(ROOT)})
        assert p.returncode == 2
        assert p.stderr.count("\n") == 1 and p.stderr.startswith("patience: error: ")
        assert "Traceback" not in p.stderr


def test_help_exits_0(capsys):
    rc, out, _ = run(capsys, "--help")
    assert rc == 0 and "solve" in out and "winrate" in out


def test_keyboard_interrupt_is_one_line_and_130(capsys, monkeypatch):
    def interrupted(*a, **k):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "cmd_deal", interrupted)
    rc, _, err = run(capsys, "deal", GAME, "--seed", 1)
    assert rc == 130 and err.count("\n") == 1 and "interrupted" in err


# ------------------------------------------------------------------ the real solver


def test_solve_json_schema_and_moves_replay(capsys):
    rc, out, _ = run(capsys, "solve", GAME, "--seed", 3, "--json")
    assert rc == 0
    obj = json.loads(out)
    assert set(obj) == {"game", "variant", "deck", "result", "moves", "nodes", "seconds"}
    assert obj["game"] == GAME and obj["variant"] == STANDARD
    assert obj["deck"] == deck_str(seeded_deck(3)).split()
    assert obj["result"] == "won"
    assert isinstance(obj["nodes"], int) and isinstance(obj["seconds"], float)
    assert all(isinstance(m, str) for m in obj["moves"]) and obj["moves"]
    r = replay(GAME, obj["variant"], [parse_card(c) for c in obj["deck"]], obj["moves"])
    assert r.legal and r.won


def test_solve_json_with_variant_words_after_options(capsys):
    rc, out, _ = run(capsys, "solve", GAME, "--seed", 3, "--json", "empty=any", "kings_to_bottom=false")
    obj = json.loads(out)
    assert rc == 0 and obj["variant"] == {"kings_to_bottom": False, "face_down": False, "empty": "any"}
    if obj["result"] == "won":
        assert replay(GAME, obj["variant"], seeded_deck(3), obj["moves"]).won


def test_plain_solution_checks_and_truncated_fails(tmp_path, capsys):
    rc, out, _ = run(capsys, "solve", GAME, "--seed", 5)
    assert rc == 0
    assert "# result: won" in out and "# nodes: " in out and "# seconds: " in out
    sol = tmp_path / "s5.txt"
    sol.write_text(out)  # the plain output is itself a solution file
    moves = [line for line in out.splitlines() if line and not line.startswith("#")]

    rc, out, _ = run(capsys, "check", GAME, "--seed", 5, "--solution", sol)
    assert rc == 0 and out.strip() == f"legal and won ({len(moves)} moves)"

    short = tmp_path / "short.txt"
    short.write_text("\n".join(moves[:-1]) + "\n")
    rc, out, _ = run(capsys, "check", GAME, "--seed", 5, "--solution", short)
    assert rc == 1 and out.startswith("legal but not won")


def test_check_names_the_illegal_move(tmp_path, capsys):
    rc, out, _ = run(capsys, "solve", GAME, "--seed", 5, "--json")
    good = json.loads(out)["moves"][:3]
    bad = "c1 c1 AS"  # a column onto itself: illegal in every deal
    sol = tmp_path / "bad.txt"
    sol.write_text("# three good moves, then a bad one\n" + "\n".join(good + [bad]) + "\n")
    rc, out, err = run(capsys, "check", GAME, "--seed", 5, "--solution", sol)
    assert rc == 1 and err == ""
    assert out.startswith("illegal move 4") and bad in out


def test_deal_output_is_a_deck_file(tmp_path, capsys):
    rc, out, _ = run(capsys, "deal", GAME, "--seed", 9)
    assert rc == 0 and "c13" in out
    saved = deck_file(tmp_path, out)
    rc, out2, _ = run(capsys, "deal", GAME, "--deck", saved, "--json")
    obj = json.loads(out2)
    assert obj == {"game": GAME, "variant": STANDARD, "deck": deck_str(seeded_deck(9)).split()}


def test_pysol_solve_then_check_with_its_deck(tmp_path, capsys):
    rc, out, _ = run(capsys, "solve", GAME, "--pysol", 1234, "--json")
    obj = json.loads(out)
    assert rc == 0 and len(obj["deck"]) == 52
    if obj["result"] == "won":
        deck = deck_file(tmp_path, " ".join(obj["deck"]))
        sol = tmp_path / "sol.json"
        sol.write_text(out)  # the --json object is accepted as a solution file too
        rc, out, _ = run(capsys, "check", GAME, "--deck", deck, "--solution", sol)
        assert rc == 0 and out.startswith("legal and won")
        rc, _, _ = run(capsys, "check", GAME, "--pysol", 1234, "--solution", sol)
        assert rc == 0


def test_winrate_and_report_commands(tmp_path, capsys):
    rc, out, err = run(capsys, "winrate", GAME, "--deals", 6, "--start", 2, "--jobs", 1, "--out", tmp_path,
                       "--no-progress", "--max-nodes", 200000)
    assert rc == 0, err
    assert "seeds 2..7: 6 deals" in out
    md = tmp_path / GAME / "winrates.md"
    assert md.exists() and (tmp_path / GAME / "winrates.png").exists()
    meta = json.loads((tmp_path / "runs" / GAME / "standard" / "command.json").read_text())
    assert meta["command"].startswith(f"patience winrate {GAME} --deals 6")
    md.unlink()
    rc, out, _ = run(capsys, "report", GAME, "--out", tmp_path)
    assert rc == 0 and md.exists() and "| standard | 6 |" in out
