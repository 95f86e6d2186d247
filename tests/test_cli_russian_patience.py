"""The patience command for Russian Patience: the redeal seed goes with every deal and
every solution (--redeal-seed, the seed itself, a '# redeal-seed: N' line of a deck or
solution file), and a missing or contradictory one is one line and exit 2."""

import json

from solver import cli
from solver.checker import replay
from solver.deals import seeded_deck

GAME = "russian-patience"


def run(capsys, *argv):
    rc = cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return rc, out, err


def test_seeded_solve_names_its_redeal_seed_and_checks(capsys, tmp_path):
    rc, out, _ = run(capsys, "solve", GAME, "--seed", 3)
    assert rc == 0 and "# redeal-seed: 3" in out.splitlines()
    solution = tmp_path / "s.txt"
    solution.write_text(out)
    assert run(capsys, "check", GAME, "--seed", 3, "--solution", solution)[0] == 0
    rc, out, _ = run(capsys, "solve", GAME, "--seed", 3, "--json")
    obj = json.loads(out)
    assert obj["redeal_seed"] == 3 and obj["result"] == "won"
    assert replay(GAME, {}, seeded_deck(3, 2), obj["moves"], redeal_seed=3).won


def test_a_deck_file_carries_its_redeal_seed(capsys, tmp_path):
    rc, out, _ = run(capsys, "deal", GAME, "--seed", 5)
    assert rc == 0 and "# redeal-seed: 5" in out.splitlines()
    deck = tmp_path / "d.deck"
    deck.write_text(out)
    rc, solved, _ = run(capsys, "solve", GAME, "--deck", deck)
    assert rc == 0 and "# redeal-seed: 5" in solved.splitlines()
    solution = tmp_path / "s.txt"
    solution.write_text(solved)
    # the seed from the solution's header alone, with a bare deck file
    bare = tmp_path / "bare.deck"
    bare.write_text("\n".join(line for line in out.splitlines() if "redeal-seed" not in line))
    assert run(capsys, "check", GAME, "--deck", bare, "--solution", solution)[0] == 0
    assert run(capsys, "check", GAME, "--deck", bare, "--redeal-seed", 5, "--solution", solution)[0] == 0


def test_a_win_that_redeals_fails_under_another_redeal_seed(capsys, tmp_path):
    """The redeal seed decides the new stock: a solution that redeals replays only with
    its own seed (under another it goes wrong once the new rows differ)."""
    from solver.solve import solve_deal

    for seed in range(1, 60):
        deck = seeded_deck(seed, 2)
        if solve_deal(GAME, {"redeals": 0}, deck, max_nodes=300_000, seconds=20).result != "lost":
            continue
        r = solve_deal(GAME, {}, deck, max_nodes=300_000, seconds=20, redeal_seed=seed)
        if r.result != "won":
            continue
        assert "redeal" in r.moves and replay(GAME, {}, deck, r.moves, redeal_seed=seed).won
        assert not replay(GAME, {}, deck, r.moves, redeal_seed=seed + 1).won
        solution = tmp_path / "s.txt"
        solution.write_text("\n".join(r.moves))
        rc, out, _ = run(capsys, "check", GAME, "--seed", seed, "--redeal-seed", seed + 1, "--solution", solution)
        assert rc == 1 and ("illegal" in out or "not won" in out)  # --redeal-seed outranks --seed
        return
    raise AssertionError("no deal of seeds 1..59 needs its redeal")


def test_bad_redeal_seeds_are_one_line_and_exit_2(capsys, tmp_path):
    bare = tmp_path / "bare.deck"
    _, out, _ = run(capsys, "deal", GAME, "--seed", 5)
    bare.write_text("\n".join(line for line in out.splitlines() if "redeal-seed" not in line))
    two = tmp_path / "two.deck"
    two.write_text(out + "\n# redeal-seed: 6\n")
    cases = [
        (["solve", GAME, "--deck", bare], "redeal seed"),
        (["solve", GAME, "--deck", bare, "--redeal-seed", -1], "redeal"),
        (["solve", GAME, "--deck", two], "two different redeal seeds"),
        (["solve", GAME, "--seed", 5, "--redeal-seed", 6], None),  # allowed: the seed given wins
        (["solve", "bakers-dozen", "--seed", 5, "--redeal-seed", 6], "no such shuffle"),
        (["play", GAME, "--strategy", "greedy", "--deals", 3, "--redeal-seed", 6], "for one deal"),
        (["play", GAME, "--strategy", "pimc", "--option", "samples=17", "--seed", 3], "at most 16"),
    ]
    for argv, words in cases:
        rc, out, err = run(capsys, *argv)
        if words is None:
            assert rc == 0 and "# redeal-seed: 6" in out.splitlines()
            continue
        assert rc == 2, argv
        assert len(err.strip().splitlines()) == 1 and words in err, (argv, err)
    # redeals=0 needs no seed at all
    rc, out, _ = run(capsys, "solve", GAME, "redeals=0", "--deck", bare)
    assert rc == 0 and "redeal-seed" not in out


def test_play_one_deal_prints_a_solution_that_checks(capsys, tmp_path):
    rc, out, err = run(capsys, "play", GAME, "--strategy", "pimc", "--option", "samples=2", "--option", "budget=60",
                       "--seed", 7)
    assert rc == 0 and "# redeal-seed: 7" in out.splitlines()
    assert "stock" in out and "(order unseen)" in out  # what the player saw, without the stock's order
    solution = tmp_path / "p.txt"
    solution.write_text(out)
    won = "# result: won" in out
    assert run(capsys, "check", GAME, "--seed", 7, "--solution", solution)[0] == (0 if won else 1)
    rc, out, err = run(capsys, "play", GAME, "--strategy", "scout", "--seed", 7)
    assert rc == 2 and "not written for russian-patience" in err
