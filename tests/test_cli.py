"""The patience command: bad input is one line and exit 2; solve/check/deal round trips
through the real solver and the independent checker (solver.checker)."""

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from solver import cli
from solver.cards import deck_str, parse_card
from solver.deals import seeded_deck
from solver.checker import replay

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
        (["solve", GAME, "--seed", 2**64], "2**64-1"),
        (["deal", GAME, "--seed", 2**70], "2**64-1"),
        (["winrate", GAME, "--deals", 2, "--start", 2**64 - 1, "--out", tmp_path], "2**64-1"),
        (["deal", GAME, "empty=any", "--seed", 1, "empty=king"], "given twice"),
        (["deal", "grand-duchess", "--pysol", 1], "no variant covers"),
        (["deal", "russian-patience", "--pysol", 1], "PySolFC has no game matching"),
        (["solve", "duchess", "moves=any", "--pysol", 1], "needs moves=whole"),
        (["check", GAME, "--deck", "-", "--solution", "-"], "standard input"),
        (["solve", GAME, "--seed", 1, "--max-nodes", 0], "at least 1"),
        (["solve", GAME, "--seed", 1, "--seconds", "soon"], "number"),
        (["solve", GAME, "--seed", 1, "--algorithm", "bfs"], "invalid choice"),
        (["solve", GAME, "--seed", 1, "--bogus"], "unrecognized"),
        (["winrate", GAME, "--deals", 0], "at least 1"),
        (["winrate", GAME, "colour=red", "--deals", 3, "--out", tmp_path], "unknown variant"),
        (["winrate", GAME], "--deals"),
        (["report", "no-such-game"], "unknown game"),
        (["report", GAME, "--out", tmp_path / "empty"], "no runs"),
        (["report", GAME, "--out", deck], "is a file"),
        (["winrate", GAME, "--deals", 1, "--out", deck], "is a file"),
        (["winrate", GAME, "--deals", 1, "--out", deck / "sub"], "cannot write to"),
        (["winrate", GAME, "--deals", 1, "--out", tmp_path, "--publish"], "not allowed"),
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
    assert rc == 0 and "solve" in out and "winrate" in out and "games" in out


def test_help_shows_the_solver_defaults(capsys):
    from solver.solve import MAX_NODES, SECONDS, TT_MB, solve_deal
    import inspect

    params = inspect.signature(solve_deal).parameters  # batch reads them from here too
    assert (params["max_nodes"].default, params["seconds"].default, params["tt_mb"].default) == (MAX_NODES, SECONDS, TT_MB)
    rc, out, _ = run(capsys, "solve", "--help")
    flat = " ".join(out.split())
    assert rc == 0 and f"default {MAX_NODES}" in flat and f"default {SECONDS:g}" in flat and f"default {TT_MB}" in flat
    rc, out, _ = run(capsys, "winrate", "--help")
    flat = " ".join(out.split())
    assert rc == 0 and "default patience-results" in flat and "--publish" in flat and f"default {MAX_NODES}" in flat


def test_version(capsys):
    import solver

    rc, out, _ = run(capsys, "--version")
    assert rc == 0 and out.strip() == f"patience {solver.__version__} (source {solver.SOURCE_HASH})"


def test_games_lists_variants_defaults_and_deck_sources(capsys):
    rc, out, _ = run(capsys, "games")
    assert rc == 0
    lines = out.splitlines()
    bd = lines.index("bakers-dozen (1 pack)")
    assert "empty=none|any|king (default none)" in lines[bd + 1]
    assert "kings_to_bottom=true|false (default true)" in lines[bd + 1]
    assert lines[bd + 2].strip() == "decks: --seed N, --deck FILE, --pysol N (PySolFC's game 31, Baker's Dozen)"
    gd = lines.index("grand-duchess (2 packs)")
    assert "redeals=0..3 (default 3)" in lines[gd + 1]
    assert lines[gd + 2].strip() == "decks: --seed N, --deck FILE (--pysol refused: PySolFC's game 557 has other rules)"
    du = lines.index("duchess (1 pack)")
    assert lines[du + 2].strip() == ("decks: --seed N, --deck FILE, --pysol N (PySolFC's game 282, Glenwood; "
                                     "played as moves=whole)")
    rp = lines.index("russian-patience (2 packs)")
    assert "redeals=0..2 (default 2)" in lines[rp + 1]
    assert "--redeal-seed N" in lines[rp + 3]


def test_commands_that_solve_nothing_do_not_import_numba():
    """--version, --help and bad usage answer without loading numpy or numba."""
    code = ("import sys; from solver import cli; rc = cli.main(sys.argv[1:]); "
            "print('numpy' in sys.modules, 'numba' in sys.modules, file=sys.stderr); sys.exit(rc)")
    for argv in (["--version"], ["--help"], ["solve", GAME, "--seed", "x"]):
        p = subprocess.run([sys.executable, "-c", code, *argv], cwd=ROOT, capture_output=True, text=True,
                           env={**os.environ, "PYTHONPATH": str(ROOT)})
        assert p.stderr.splitlines()[-1] == "False False", (argv, p.stderr)


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
    assert set(obj) == {"game", "variant", "deck", "result", "moves", "nodes", "seconds", "stop", "proof",
                        "found_length", "shorten_seconds"}
    assert obj["found_length"] >= len(obj["moves"])  # the search's line, then shortened
    assert obj["stop"] == "" and obj["proof"] == ""
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


@pytest.mark.parametrize("game,number,variant", [("duchess", 1, "moves=whole"),
                                                  ("capricieuse", 2, "redeals=0 deal_plays=false")])
def test_pysol_picks_pysolfc_variant_and_its_solution_checks(tmp_path, capsys, game, number, variant):
    rc, out, _ = run(capsys, "solve", game, "--pysol", number, "--seconds", 20)
    assert rc == 0 and out.startswith(f"# {game} {variant}, PySolFC game {number}\n# in PySolFC: ")
    assert "# result: won" in out
    sol = tmp_path / "sol.txt"
    sol.write_text(out)  # the text output is a solution file
    rc, out, _ = run(capsys, "check", game, "--pysol", number, "--solution", sol)
    assert rc == 0 and out.startswith("legal and won")


def test_solve_reports_what_stopped_it(capsys):
    rc, out, _ = run(capsys, "solve", GAME, "kings_to_bottom=false", "--seed", 1)
    assert rc == 0 and "# result: lost" in out and "# proof: dead_end" in out
    rc, out, _ = run(capsys, "solve", GAME, "--seed", 6, "--max-nodes", 10, "--json")
    obj = json.loads(out)
    assert obj["result"] == "unknown" and obj["stop"] == "nodes" and obj["proof"] == ""


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


# ------------------------------------------------------------------ standard input, limits, folders


def test_deck_and_solution_from_standard_input(tmp_path, capsys, monkeypatch):
    rc, out, _ = run(capsys, "solve", GAME, "--seed", 5)
    assert rc == 0
    monkeypatch.setattr(sys, "stdin", io.StringIO(good_deck_text(5)))
    rc, out2, _ = run(capsys, "solve", GAME, "--deck", "-")
    assert rc == 0 and "deck from standard input" in out2 and "# result: won" in out2
    monkeypatch.setattr(sys, "stdin", io.StringIO(out))
    rc, checked, _ = run(capsys, "check", GAME, "--seed", 5, "--solution", "-")
    assert rc == 0 and checked.startswith("legal and won")
    sol = tmp_path / "s5.txt"
    sol.write_text(out)
    monkeypatch.setattr(sys, "stdin", io.StringIO(good_deck_text(5)))
    rc, checked, _ = run(capsys, "check", GAME, "--deck", "-", "--solution", sol)
    assert rc == 0 and checked.startswith("legal and won")
    monkeypatch.setattr(sys, "stdin", io.StringIO("AS KS"))
    rc, _, err = run(capsys, "deal", GAME, "--deck", "-")
    assert rc == 2 and err.count("\n") == 1 and "standard input" in err and "wrong number of cards" in err


@pytest.mark.parametrize("argv,words", [
    (["--tt-mb", 1_000_000], "--tt-mb 1000000 needs"),
    (["--algorithm", "astar", "--max-nodes", 10**11], "--max-nodes 100000000000 with --algorithm astar needs"),
])
def test_memory_beyond_the_machine_is_one_line(capsys, argv, words):
    rc, out, err = run(capsys, "solve", GAME, "--seed", 7, *argv)
    assert rc == 2 and out == ""
    assert err.startswith("patience: error: ") and err.count("\n") == 1 and "Traceback" not in err
    assert words in err and "available" in err and "fits" in err


def test_memory_suggestion_fits():
    """The limit the message suggests is accepted."""
    import re

    from solver.errors import PatienceError
    from solver.solve import check_memory

    for kwargs, option in (({"tt_mb": 10**6}, "--tt-mb"), ({"algorithm": "astar", "max_nodes": 10**11}, "--max-nodes")):
        with pytest.raises(PatienceError) as e:
            check_memory(GAME, **kwargs)
        fit = int(re.search(option + r" (\d+) fits", str(e.value)).group(1))
        check_memory(GAME, **{**kwargs, option.strip("-").replace("-", "_"): fit})


def test_winrate_into_a_read_only_folder_is_one_line(tmp_path, capsys):
    if os.geteuid() == 0:
        ro = Path("/proc")  # root ignores permissions; nothing can be created under /proc
    else:
        ro = tmp_path / "ro"
        ro.mkdir()
        ro.chmod(0o555)
    for argv in (["winrate", GAME, "--deals", 1, "--out", ro], ["winrate", GAME, "--deals", 1, "--out", ro / "sub"],
                 ["report", GAME, "--out", ro]):
        rc, out, err = run(capsys, *argv)
        assert rc == 2 and err.count("\n") == 1 and str(ro) in err, (argv, err)


def test_oserror_is_one_line(capsys, monkeypatch):
    def fails(*a, **k):
        raise OSError(28, "No space left on device", "/some/where")

    monkeypatch.setattr(cli, "cmd_deal", fails)
    rc, _, err = run(capsys, "deal", GAME, "--seed", 1)
    assert rc == 2 and err == "patience: error: /some/where: No space left on device\n"


def test_default_out_is_outside_the_published_results(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    args = cli.parse_args(["winrate", GAME, "--deals", "1"])
    assert cli.out_dir(args) == "patience-results"
    args = cli.parse_args(["report", GAME, "--publish"])
    assert Path(cli.out_dir(args)) == ROOT / "results"


def test_compiling_is_announced_only_when_the_cache_is_cold(capsys, monkeypatch):
    from solver import solve
    from solver.search import portfolio

    solve.ensure_compiled(GAME)  # warm now, whatever it was
    assert not solve.ensure_compiled(GAME, announce=sys.stderr)
    rc, _, err = run(capsys, "solve", GAME, "--seed", 7)
    assert rc == 0 and "compiling" not in err
    monkeypatch.setattr(portfolio, "is_cold", lambda game: True)
    monkeypatch.setattr(portfolio.WORKSPACE, "warm", set())
    rc, _, err = run(capsys, "solve", GAME, "--seed", 7)
    assert rc == 0 and err == f"patience: compiling the solver for {GAME} (once)\n"
