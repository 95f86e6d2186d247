"""Benchmark: the Baker's Dozen players on one core.

Prints, per strategy and variant: games won of games played, games per second and
decisions per second (wall clock, after a warm-up game so that numba's loading or
compiling is left out), median and maximum seconds per game, and the mean number of
moves and decisions of a game.

    python experiments/bench_play.py                               # every strategy, face down
    python experiments/bench_play.py --strategies greedy,random --games 2000
    python experiments/bench_play.py --strategies pimc --games 50 --option samples=8
    python experiments/bench_play.py --variant face_down=false

Default games per strategy: 2,000 for random and greedy, 100 for rollout, 30 for pimc
and ismcts; seeds 1.. (the decks of the thoughtful runs).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

GAMES = {"random": 2000, "greedy": 2000, "rollout": 100, "pimc": 30, "ismcts": 30}


def bench(strategy: str, variant: dict, games: int, option_words: list[str]) -> dict:
    from solver.deals import seeded_deck
    from solver.play.players import parse_options, play_deal, prepare

    options = parse_options(strategy, option_words)
    prepare("bakers-dozen", strategy, announce=lambda t: print(f"bench_play: {t}", file=sys.stderr))
    play_deal("bakers-dozen", seeded_deck(0), variant, strategy, options, 0)  # warm-up
    rows = []
    wall = time.perf_counter()
    for seed in range(1, games + 1):
        r = play_deal("bakers-dozen", seeded_deck(seed), variant, strategy, options, seed)
        rows.append((r.won, r.seconds, len(r.moves), r.decisions))
    wall = time.perf_counter() - wall
    times = [row[1] for row in rows]
    return {
        "strategy": strategy, "games": games, "won": sum(row[0] for row in rows),
        "games_per_s": games / wall, "decisions_per_s": sum(row[3] for row in rows) / wall,
        "median_s": statistics.median(times), "max_s": max(times),
        "moves": statistics.mean(row[2] for row in rows), "decisions": statistics.mean(row[3] for row in rows),
    }


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--strategies", default=",".join(GAMES), help="comma-separated (default: all)")
    ap.add_argument("--variant", action="append", default=[], help="key=value (repeat), default face_down=true")
    ap.add_argument("--games", type=int, help="games per strategy (default: per strategy, see above)")
    ap.add_argument("--option", action="append", default=[], help="strategy option key=value (repeat)")
    args = ap.parse_args(argv)
    from solver.checker.bakers_dozen import _bakers_dozen_variant

    words = args.variant or ["face_down=true"]
    variant = _bakers_dozen_variant({k: (v == "true" if v in ("true", "false") else v)
                                     for k, v in (w.split("=", 1) for w in words)})
    print(f"Baker's Dozen {' '.join(words)}, one core")
    print(f"{'strategy':<10}{'won':>12}{'games/s':>10}{'decisions/s':>13}{'median s':>10}{'max s':>9}"
          f"{'moves':>8}{'decisions':>11}")
    for strategy in args.strategies.split(","):
        b = bench(strategy, variant, args.games or GAMES[strategy], args.option)
        print(f"{b['strategy']:<10}{b['won']:>6}/{b['games']:<5}{b['games_per_s']:>10.2f}{b['decisions_per_s']:>13.0f}"
              f"{b['median_s']:>10.4f}{b['max_s']:>9.3f}{b['moves']:>8.1f}{b['decisions']:>11.1f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
