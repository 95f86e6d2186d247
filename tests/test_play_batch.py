"""The strategy batch (``patience play --deals``): rows on disk, resume after an
interruption, the rng-seed rule, the strategy report (ladder, McNemar pairs, the
thoughtful bounds on the same seeds) and its loud refusal of impossible wins.

The bookkeeping tests use a stand-in player (fast, with chosen outcomes); the rest play
the cheap real strategies with a small ``max_moves``."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

import solver
from solver import batch
from solver.batch import play as play_mod
from solver.batch.play_report import paired_difference_ci, paired_play
from solver.deals import seeded_deck
from solver.play import players
from solver.stats import mcnemar_p

GAME = "bakers-dozen"
ROOT = Path(__file__).resolve().parents[1]
FAST = {"max_moves": 30}


@pytest.fixture
def fake_player(monkeypatch):
    """Replace players.play_deal: a loss, except that a deck whose first card is an
    ace is "won" with no moves (the checker replay is replaced as well); logs
    (first card, rng seed) of each game played."""
    calls = []

    def play_deal(game_name, deck, variant, strategy, options, rng_seed, *, trace=False, ranks=13, columns=13):
        calls.append((int(deck[0]), int(rng_seed)))
        won = int(deck[0]) % 13 == 0
        return players.PlayOutcome(won, [] if won else ["c1 c2 AS"] * 3, 2, False, 0.001)

    class Replayed:
        legal = won = True
        error = None

    monkeypatch.setattr(players, "play_deal", play_deal)
    monkeypatch.setattr(players, "prepare", lambda *a, **k: None)
    monkeypatch.setattr("solver.checker.replay", lambda *a, **k: Replayed())
    return calls


def run(out, n=20, start=1, variant=(), strategy="greedy", options=None, jobs=1, **kw):
    return batch.run_play(GAME, list(variant), strategy, dict(FAST) if options is None else options, start, n, jobs,
                          out, progress=False, command=f"patience play {GAME} --strategy {strategy} --deals {n}", **kw)


def folder(out, vstr="standard", strategy="greedy", options="max_moves=30", rng=None):
    return batch.play_folder(out, GAME, vstr, strategy, options, rng)


def played_seeds(calls, seeds):
    """The seeds played (without --rng-seed the rng seed of a deal is its seed), each
    checked against the deck it was given."""
    by_rng = dict((rng, first) for first, rng in calls)
    assert all(int(seeded_deck(rng)[0]) == first for rng, first in by_rng.items())
    return {s for s in seeds if s in by_rng}


# ------------------------------------------------------------------ rows and resume


def test_rows_layout_and_rerun_does_nothing(tmp_path, fake_player, capsys):
    s = run(tmp_path, n=20, chunk_size=6)
    f = folder(tmp_path)
    assert f == tmp_path / "runs" / GAME / "standard" / "play" / "greedy-max_moves=30"
    assert (f / "deals.parquet").exists() and batch.part_files(f) == [] and not (f / "superseded.parquet").exists()
    rows = pd.read_parquet(f / "deals.parquet")
    assert list(rows.columns) == batch.PLAY_COLUMNS
    assert list(rows["seed"]) == list(range(1, 21)) and list(rows["rng_seed"]) == list(range(1, 21))
    assert set(rows["strategy"].astype(str)) == {"greedy"} and set(rows["options"].astype(str)) == {"max_moves=30"}
    assert set(rows["variant"].astype(str)) == {"standard"}
    assert set(rows["code_version"].astype(str)) == {solver.SOURCE_HASH}
    assert set(rows["package_version"].astype(str)) == {solver.__version__}
    aces = {seed for seed in range(1, 21) if int(seeded_deck(seed)[0]) % 13 == 0}
    assert set(rows.loc[rows["won"], "seed"]) == aces
    assert (rows.loc[~rows["won"], "moves"] == 3).all() and (rows["decisions"] == 2).all()
    assert s["n"] == 20 and s["won"] == len(aces) and s["played_now"] == 20
    meta = batch.read_command(f)
    assert meta["strategy"] == "greedy" and meta["strategy_options"] == {"max_moves": 30}
    assert meta["variant"] == "standard" and meta["variant_options"]["face_down"] is False
    assert meta["rng_seed"] is None and meta["options_text"] == "max_moves=30"
    (record,) = meta["runs"]
    assert record["start"] == 1 and record["deals"] == 20 and record["code_version"] == solver.SOURCE_HASH
    out = capsys.readouterr().out
    assert "seeds 1..20: 20 deals" in out and "played 20 deals" in out
    assert (tmp_path / GAME / "strategies.md").exists() and (tmp_path / GAME / "strategies.png").exists()

    before = batch.read_play_rows(f)
    fake_player.clear()
    s2 = run(tmp_path, n=20)
    assert fake_player == [] and s2["played_now"] == 0 and s2["n"] == 20
    pd.testing.assert_frame_equal(batch.read_play_rows(f), before)
    assert "nothing to play: every deal was already on disk" in capsys.readouterr().out
    assert len(batch.read_command(f)["runs"]) == 1  # a run that played nothing is not recorded


def test_more_deals_extends_and_options_and_variants_have_their_own_folders(tmp_path, fake_player):
    run(tmp_path, n=5)
    fake_player.clear()
    run(tmp_path, n=12)
    assert played_seeds(fake_player, range(1, 13)) == set(range(6, 13)) and len(fake_player) == 7
    run(tmp_path, n=3, options={"max_moves": 40})
    run(tmp_path, n=3, variant=["face_down=true"])
    run(tmp_path, n=3, strategy="random", options=[])  # words, the defaults filled in
    base = tmp_path / "runs" / GAME
    found = sorted(str(p.relative_to(base)) for p in batch.play_folders(tmp_path, GAME))
    assert found == ["face_down=true/play/greedy-max_moves=30", "standard/play/greedy-max_moves=30",
                     "standard/play/greedy-max_moves=40", "standard/play/random-max_moves=1000"]
    assert len(batch.read_play_rows(folder(tmp_path))) == 12


def test_interrupted_run_resumes_with_nothing_lost_or_repeated(tmp_path, fake_player, monkeypatch):
    real = play_mod.play_chunk
    done = []

    def dies_after_two_chunks(task):
        if len(done) == 2:
            raise KeyboardInterrupt  # as if Ctrl-C (or a kill) landed here
        done.append(task)
        return real(task)

    monkeypatch.setattr(play_mod, "play_chunk", dies_after_two_chunks)
    with pytest.raises(KeyboardInterrupt):
        run(tmp_path, n=30, chunk_size=7)
    f = folder(tmp_path)
    assert len(batch.part_files(f)) == 2 and not (f / "deals.parquet").exists()
    stray = f / f"{batch.TMP_PREFIX}deadbeef.parquet"
    stray.write_bytes(b"PAR1 half a file")
    assert list(batch.read_play_rows(f)["seed"]) == list(range(1, 15))  # the parts are read, the stray is not

    monkeypatch.setattr(play_mod, "play_chunk", real)
    fake_player.clear()
    s = run(tmp_path, n=30)
    assert played_seeds(fake_player, range(1, 31)) == set(range(15, 31)) and len(fake_player) == 16
    assert batch.part_files(f) == [] and not stray.exists()
    deals, sup = batch.read_play_store(f)
    assert list(deals["seed"]) == list(range(1, 31)) and sup.empty and s["n"] == 30


def test_a_second_run_on_the_same_folder_is_refused(tmp_path, fake_player):
    f = folder(tmp_path)
    f.mkdir(parents=True)
    with batch.folder_lock(f):
        with pytest.raises(solver.errors.PatienceError, match="another run is writing"):
            run(tmp_path, n=3)


def test_a_win_that_does_not_replay_stops_the_run(tmp_path, monkeypatch):
    def cheat(game_name, deck, variant, strategy, options, rng_seed, **kw):
        return players.PlayOutcome(True, ["c1 F AS"], 0, False, 0.0)

    monkeypatch.setattr(players, "play_deal", cheat)
    with pytest.raises(batch.PlayerBug, match="seed 1, .*does not|seed 1,.*checker says"):
        run(tmp_path, n=2)
    assert batch.read_play_rows(folder(tmp_path)).empty  # no row of it was written


def test_bad_strategy_option_and_game_are_one_line_errors(tmp_path):
    from solver.errors import PatienceError

    for kwargs, words in (({"strategy": "nope"}, "unknown strategy"), ({"options": {"depth": 3}}, "unknown options"),
                          ({"options": ["max_moves=x"]}, "int")):
        with pytest.raises(PatienceError, match=words):
            run(tmp_path, n=2, **kwargs)
    with pytest.raises(PatienceError, match="no player for capricieuse"):
        batch.run_play("capricieuse", [], "greedy", None, 1, 2, 1, tmp_path, progress=False)


# ------------------------------------------------------------------ the rng-seed rule


def test_rng_seed_rule():
    from solver.deals import _splitmix64

    g = lambda x: next(_splitmix64(x))  # noqa: E731
    assert [batch.deal_rng_seed(s) for s in (0, 1, 7, 2**64 - 1)] == [0, 1, 7, 2**64 - 1]
    assert batch.deal_rng_seed(7, 5) == g(g(7) ^ 5)
    assert len({batch.deal_rng_seed(7, k) for k in range(50)}) == 50
    assert len({batch.deal_rng_seed(s, 3) for s in range(1000)}) == 1000
    assert all(0 <= batch.deal_rng_seed(s, 2**64 - 1) < 2**64 for s in range(100))


def test_rng_seed_batch_has_its_own_folder_and_rows(tmp_path, fake_player):
    run(tmp_path, n=4, rng_seed=5)
    f = folder(tmp_path, rng=5)
    assert f.name == "greedy-max_moves=30-rng5"
    rows = batch.read_play_rows(f)
    assert list(rows["rng_seed"]) == [batch.deal_rng_seed(s, 5) for s in range(1, 5)]
    assert sorted(r for _, r in fake_player) == sorted(batch.deal_rng_seed(s, 5) for s in range(1, 5))
    assert batch.read_command(f)["rng_seed"] == 5
    assert not folder(tmp_path).exists()


# ------------------------------------------------------------------ real strategies


def test_real_rows_replay_the_single_deal_and_parallel_matches(tmp_path):
    """The rows of the real greedy player: jobs=2 through the pool gives the rows of
    jobs=1, and each row is the single game play_deal plays with rng seed = seed."""
    run(tmp_path / "one", n=8, jobs=1)
    run(tmp_path / "two", n=8, jobs=2, chunk_size=2)
    one = batch.read_play_rows(folder(tmp_path / "one"))
    two = batch.read_play_rows(folder(tmp_path / "two"))
    cols = ["seed", "rng_seed", "won", "moves", "decisions", "stopped"]
    pd.testing.assert_frame_equal(one[cols], two[cols])
    for seed in (1, 5):
        o = players.play_deal(GAME, [int(c) for c in seeded_deck(seed)], {}, "greedy",
                              players.parse_options("greedy", ["max_moves=30"]), seed)
        row = one[one["seed"] == seed].iloc[0]
        assert (bool(row["won"]), int(row["moves"]), int(row["decisions"]), bool(row["stopped"])) == (
            o.won, len(o.moves), o.decisions, o.stopped)


@pytest.mark.slow
def test_sigkill_then_resume(tmp_path):
    """Kill a real parallel play run with SIGKILL after its first part file; the same
    command completes it with every seed exactly once."""
    n = 200
    cmd = [sys.executable, "-m", "solver.cli", "play", GAME, "--strategy", "random", "--option", "max_moves=200",
           "--deals", str(n), "--jobs", "2", "--chunk-size", "5", "--out", str(tmp_path), "--no-progress"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    f = batch.play_folder(tmp_path, GAME, "standard", "random", "max_moves=200")
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True)
    try:
        deadline = time.time() + 120
        while not (f.exists() and batch.part_files(f)):
            assert proc.poll() is None, proc.stderr.read().decode()
            assert time.time() < deadline, "no part file within 120 s"
            time.sleep(0.01)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.stderr.close()
    done_before = len(batch.read_play_rows(f))
    assert 0 < done_before < n, "the kill should land mid-run"
    done = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    deals, sup = batch.read_play_store(f)
    assert list(deals["seed"]) == list(range(1, n + 1)) and sup.empty
    assert batch.part_files(f) == [] and not list(f.glob(f"{batch.TMP_PREFIX}*"))
    assert f"played {n - done_before} deals" in done.stdout


# ------------------------------------------------------------------ paired statistics


def _won(seeds_won: dict[int, bool]) -> pd.DataFrame:
    return pd.DataFrame({"seed": list(seeds_won), "won": list(seeds_won.values())})


def test_paired_play_counts_b_and_c_on_common_seeds():
    # 10 common seeds: both won 1..3, A only 4..10 (b = 7), B only 11..12 (c = 2), neither 13..20;
    # seeds 21..25 are A's alone and do not count
    a = {s: s <= 10 for s in range(1, 26)}
    b = {s: s <= 3 or s in (11, 12) for s in range(1, 21)}
    p = paired_play(_won(a), _won(b))
    assert (p["common"], p["both_won"], p["a_only"], p["b_only"], p["neither"]) == (20, 3, 7, 2, 8)
    assert (p["a_won"], p["b_won"]) == (10, 5)
    assert p["p"] == pytest.approx(2 * (1 + 9 + 36) / 2**9) == mcnemar_p(7, 2)
    assert p["diff"] == pytest.approx(5 / 20)
    assert p["diff_lo"] < 0.25 < p["diff_hi"] and -1 <= p["diff_lo"] and p["diff_hi"] <= 1


def test_paired_difference_interval():
    assert paired_difference_ci(0, 0, 0, 0) == (-1.0, 1.0)
    lo, hi = paired_difference_ci(3, 7, 2, 8)
    lo2, hi2 = paired_difference_ci(3, 2, 7, 8)  # A and B swapped: the interval mirrored
    assert (lo2, hi2) == pytest.approx((-hi, -lo))
    # identical players: a narrow interval around 0 (not Wald's zero width), narrowing with more deals
    lo, hi = paired_difference_ci(40, 0, 0, 60)
    assert lo == pytest.approx(-hi) and 0 < hi < 0.03
    w1 = paired_difference_ci(50, 5, 5, 40)
    w2 = paired_difference_ci(500, 50, 50, 400)
    assert w1[0] < 0 < w1[1] and w2[1] - w2[0] < w1[1] - w1[0]
    # large counts: close to the Wald interval of (b - c) / n
    both, b, c, neither = 5000, 400, 250, 4350
    n = both + b + c + neither
    d = (b - c) / n
    half = 1.96 * ((b + c) / n - d * d) ** 0.5 / n ** 0.5
    lo, hi = paired_difference_ci(both, b, c, neither)
    assert lo == pytest.approx(d - half, abs=2e-3) and hi == pytest.approx(d + half, abs=2e-3)
    # always inside [-1, 1] and around the estimate, even at the edges
    for cell in ((0, 10, 0, 0), (0, 0, 10, 0), (10, 0, 0, 0), (0, 3, 0, 7)):
        lo, hi = paired_difference_ci(*cell)
        d = (cell[1] - cell[2]) / sum(cell)
        assert -1 <= lo <= d <= hi <= 1


# ------------------------------------------------------------------ the report


def write_play_rows(out, vstr, strategy, otext, won: dict[int, bool], variant=None, rng=None):
    f = batch.play_folder(out, GAME, vstr, strategy, otext, rng)
    f.mkdir(parents=True)
    play_mod.write_play_part(f, [
        {"seed": s, "game": GAME, "variant": vstr, "strategy": strategy, "options": otext,
         "rng_seed": s, "won": w, "moves": 52 if w else 100, "decisions": 10, "stopped": not w, "seconds": 0.01,
         "code_version": "abc", "package_version": "0.1.0"} for s, w in sorted(won.items())])
    with batch.folder_lock(f):
        play_mod.fold_play(f)
    variant = {"kings_to_bottom": True, "face_down": vstr == "face_down=true", "empty": "none", **(variant or {})}
    play_mod.write_play_command(f, {"game": GAME, "variant": vstr, "variant_options": variant, "strategy": strategy,
                                    "strategy_options": {"max_moves": int(otext.split("=")[1])},
                                    "options_text": otext, "rng_seed": rng},
                                f"patience play {GAME} {'' if vstr == 'standard' else vstr + ' '}"
                                f"--strategy {strategy} --deals {len(won)}")
    return f


def write_solver_rows(out, vstr, results: dict[int, str]):
    f = batch.variant_folder(out, GAME, vstr)
    f.mkdir(parents=True, exist_ok=True)
    batch.write_part(f, [
        {"seed": s, "game": GAME, "variant": vstr, "algorithm": "auto", "result": r, "nodes": 1, "seconds": 0.01,
         "solution_length": 5 if r == "won" else -1, "max_nodes": 1000, "max_seconds": 10.0,
         "proof": "search" if r == "lost" else "", "stop": "nodes" if r == "unknown" else ""}
        for s, r in sorted(results.items())])
    with batch.folder_lock(f):
        batch.fold(f)
    batch.write_command(f, GAME, vstr, {}, f"patience winrate {GAME} --deals {len(results)}")


def ladder_dataset(out):
    """Seeds 1..20.  Solver: 1..16 won, 17..18 unknown, 19..20 lost.  greedy wins
    1..10 and 17 (an unknown deal); random wins 1..3 and 11..12 (so b = 7, c = 2 for
    greedy against random); greedy face down wins 1..4."""
    write_solver_rows(out, "standard", {s: "won" if s <= 16 else "unknown" if s <= 18 else "lost"
                                        for s in range(1, 21)})
    write_play_rows(out, "standard", "greedy", "max_moves=1000", {s: s <= 10 or s == 17 for s in range(1, 21)})
    write_play_rows(out, "standard", "random", "max_moves=1000", {s: s <= 3 or s in (11, 12) for s in range(1, 21)})
    write_play_rows(out, "face_down=true", "greedy", "max_moves=1000", {s: s <= 4 for s in range(1, 21)})


def test_report_ladder_pairs_and_the_face_down_bounds(tmp_path):
    ladder_dataset(tmp_path)
    md_path = batch.write_play_report(GAME, tmp_path)
    assert md_path == tmp_path / GAME / "strategies.md"
    md = md_path.read_text()
    # the ladder: greedy above random on standard; face down read against the face-up solver rows
    assert "| standard | greedy | 20 | 1..20 | 11 | 55.0% | " in md
    assert "| 55.0% | 34.2%..74.2% | 9 | 80.0%..90.0% (58.4%..97.2%) | 20 | 61.1%..68.8% | 1 |" in md  # 11/18..11/16
    assert "| standard | random | 20 | 1..20 | 5 | 25.0% | " in md
    assert "| face_down=true | greedy | 20 | 1..20 | 4 | 20.0% | " in md
    assert "read from the same variant with `face_down=false`" in md
    lines = md.splitlines()
    assert lines.index(next(x for x in lines if x.startswith("| standard | greedy"))) < lines.index(
        next(x for x in lines if x.startswith("| standard | random")))
    # McNemar: greedy against random b = 8 (4..10 and 17), c = 2
    p = mcnemar_p(8, 2)
    assert f"| standard: greedy | standard: random | 20 | 11 | 5 | 8 | 2 | {p:.3g} | +30.0% |" in md
    # face up against face down: b = 7 (5..10, 17), c = 0
    assert "## What seeing the cards is worth" in md
    assert (f"| standard: greedy | face_down=true: greedy | 20 | 11 | 4 | 7 | 0 | {mcnemar_p(7, 0):.3g} | +35.0% |"
            in md)
    assert "- standard: greedy wins 55.0% of 20 deals" in md
    assert f"`patience play {GAME} face_down=true --strategy greedy --deals 20`" in md
    assert f"code version `{solver.SOURCE_HASH}`" in md and "| standard | greedy | `abc` | 20 |" in md

    table = pd.read_csv(tmp_path / GAME / "strategies.csv")
    g = table[(table["variant"] == "standard") & (table["strategy"] == "greedy")].iloc[0]
    assert g["thoughtful_variant"] == "standard" and g["won_where_solver_unknown"] == 1
    fd = table[table["variant"] == "face_down=true"].iloc[0]
    assert fd["thoughtful_variant"] == "standard" and fd["thoughtful_won"] == 16 and fd["thoughtful_unknown"] == 2
    pairs = pd.read_csv(tmp_path / GAME / "strategies-paired.csv")
    gr = pairs[(pairs["a"] == "greedy") & (pairs["b"] == "random")].iloc[0]
    assert (gr["a_only"], gr["b_only"], gr["common"]) == (8, 2, 20) and gr["p"] == pytest.approx(p)
    assert gr["diff"] == pytest.approx(0.3)
    assert (tmp_path / GAME / "strategies.png").stat().st_size > 1000


def test_a_win_of_a_proved_lost_deal_fails_loudly(tmp_path):
    ladder_dataset(tmp_path)
    write_play_rows(tmp_path, "standard", "greedy", "max_moves=50", {s: s in (5, 19, 20) for s in range(1, 21)})
    with pytest.raises(batch.PlayerBug) as e:
        batch.write_play_report(GAME, tmp_path)
    msg = str(e.value)
    assert "proved lost" in msg and "seeds 19, 20" in msg and "greedy max_moves=50" in msg and "\n" not in msg
    assert not (tmp_path / GAME / "strategies.md").exists() and not (tmp_path / GAME / "strategies.csv").exists()


def test_face_down_win_of_a_deal_lost_face_up_fails_loudly(tmp_path):
    ladder_dataset(tmp_path)
    write_play_rows(tmp_path, "face_down=true", "random", "max_moves=1000", {s: s == 20 for s in range(1, 21)})
    with pytest.raises(batch.PlayerBug, match=r"face_down=true won 1 deal that the solver proved lost "
                                              r"\(runs/bakers-dozen/standard; seeds 20\)"):
        batch.write_play_report(GAME, tmp_path)


def test_report_without_solver_rows_and_without_runs(tmp_path):
    assert batch.write_play_report(GAME, tmp_path) is None
    write_play_rows(tmp_path, "standard", "greedy", "max_moves=1000", {1: True, 2: False})
    md = batch.write_play_report(GAME, tmp_path).read_text()
    assert "| standard | greedy | 2 | 1..2 | 1 | 50.0% |" in md and "no solver rows" in md
    assert batch.write_report(GAME, tmp_path) is None  # the winrate report sees no solver rows
