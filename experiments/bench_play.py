"""Benchmark: the players (every playable game) on one core.

Prints, per strategy and variant: games won of games played, games per second and
decisions per second (wall clock, after a warm-up game so that numba's loading or
compiling is left out), median and maximum seconds per game, and the mean number of
moves and decisions of a game.

    python experiments/bench_play.py                               # every strategy, face down
    python experiments/bench_play.py --strategies greedy,random --games 2000
    python experiments/bench_play.py --strategies pimc --games 50 --option samples=8
    python experiments/bench_play.py --variant face_down=false
    python experiments/bench_play.py --game russian-patience --strategies greedy,rollout,pimc
    python experiments/bench_play.py --game grand-duchess      # also parisienne, duchess

Default games per strategy: 2,000 for random, eager and greedy, 100 for rollout, 30 for pimc
and ismcts; seeds 1.. (the decks of the thoughtful runs).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

GAMES = {"random": 2000, "eager": 2000, "greedy": 2000, "rollout": 100, "pimc": 30, "ismcts": 30}


def bench(game: str, strategy: str, variant: dict, games: int, option_words: list[str]) -> dict:
    from solver.deals import seeded_deck, setup_kwargs
    from solver.games import get_game
    from solver.play.players import parse_options, play_deal, prepare

    packs = get_game(game).PACKS
    options = parse_options(strategy, option_words)
    prepare(game, strategy, announce=lambda t: print(f"bench_play: {t}", file=sys.stderr))
    play_deal(game, seeded_deck(0, packs), variant, strategy, options, 0, **setup_kwargs(game, 0))  # warm-up
    rows = []
    wall = time.perf_counter()
    for seed in range(1, games + 1):
        # a seeded deal's redeal seed (Russian Patience) is its seed
        r = play_deal(game, seeded_deck(seed, packs), variant, strategy, options, seed, **setup_kwargs(game, seed))
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
    ap.add_argument("--game", default="bakers-dozen", help="bakers-dozen (default), russian-patience, grand-duchess, parisienne or duchess")
    ap.add_argument("--strategies", help="comma-separated (default: all the game has)")
    ap.add_argument("--variant", action="append", default=[],
                    help="key=value (repeat); default face_down=true for Baker's Dozen, the standard rules otherwise")
    ap.add_argument("--games", type=int, help="games per strategy (default: per strategy, see above)")
    ap.add_argument("--option", action="append", default=[], help="strategy option key=value (repeat)")
    args = ap.parse_args(argv)
    from solver.games import get_game
    from solver.play.players import GAME_STRATEGIES
    from solver.variants import parse_variant

    words = args.variant or (["face_down=true"] if args.game == "bakers-dozen" else [])
    variant = parse_variant(args.game, get_game(args.game).VARIANTS, words)
    strategies = args.strategies.split(",") if args.strategies else list(GAME_STRATEGIES[args.game])
    print(f"{args.game} {' '.join(words) or 'standard'}, one core")
    print(f"{'strategy':<10}{'won':>12}{'games/s':>10}{'decisions/s':>13}{'median s':>10}{'max s':>9}"
          f"{'moves':>8}{'decisions':>11}")
    for strategy in strategies:
        b = bench(args.game, strategy, variant, args.games or GAMES[strategy], args.option)
        print(f"{b['strategy']:<10}{b['won']:>6}/{b['games']:<5}{b['games_per_s']:>10.2f}{b['decisions_per_s']:>13.0f}"
              f"{b['median_s']:>10.4f}{b['max_s']:>9.3f}{b['moves']:>8.1f}{b['decisions']:>11.1f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
