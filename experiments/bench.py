"""Benchmark: solve seeded deals of one or more games on one core.

Prints, per game and algorithm: deals decided (won / lost), unknown (with what stopped
them), deals per second, median and maximum seconds per deal, nodes per second, the
median solution length, and the seeds left unknown.

    python experiments/bench.py bakers-dozen --algorithms auto,dfs          # seeds 1..1000
    python experiments/bench.py grand-duchess,parisienne                     # both games, auto
    python experiments/bench.py grand-duchess redeals=0 --seeds 1..200 --seconds 10
    python experiments/bench.py capricieuse deal_plays=false --algorithms dfs,auto
    python experiments/bench.py duchess moves=whole --seeds 1..1000
    python experiments/bench.py russian-patience redeals=0               # redeal seed = deal seed

Defaults per game: Baker's Dozen ``--algorithms dfs,astar --seconds 10``, the others
``--algorithms auto --seconds 30``; ``--max-nodes`` 50,000,000 (A*: ``--astar-max-nodes``
2,000,000 stored nodes).  Wins are shortened as the batch runs shorten them
(``--shorten quick``); the solutions' line gives their length as found and shortened,
and the time shortening took.  A deal's seconds are the search alone (solve_deal's clock);
a warm-up deal is solved first so that deals/s, measured on the wall clock, leaves out
numba's one-off loading or compilation.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections import Counter

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

DEFAULTS = {"bakers-dozen": ("dfs,astar", 10.0)}  # game -> (algorithms, seconds)
OTHERS = ("auto", 30.0)


def bench(game_name: str, algorithm: str, seeds: range, variant: dict, max_nodes: int, seconds: float,
          shorten: str = "quick") -> dict:
    from solver.deals import seeded_deck, setup_kwargs
    from solver.games import get_game
    from solver.solve import ensure_compiled, solve_deal

    packs = get_game(game_name).PACKS
    ensure_compiled(game_name, announce=sys.stderr)  # both engines, if numba's cache is cold
    solve_deal(game_name, variant, seeded_deck(seeds.start, packs), algorithm, max_nodes=1000, seconds=seconds,
               **setup_kwargs(game_name, seeds.start))
    rows = []
    wall = time.perf_counter()
    for seed in seeds:
        # a seeded deal's redeal seed (Russian Patience) is its seed
        r = solve_deal(game_name, variant, seeded_deck(seed, packs), algorithm, max_nodes=max_nodes, seconds=seconds,
                       shorten=shorten, **setup_kwargs(game_name, seed))
        rows.append((seed, r.result, r.nodes, r.seconds, len(r.moves), r.stop, r.found, r.shorten_seconds))
    wall = time.perf_counter() - wall
    times = [row[3] for row in rows]
    won = [row for row in rows if row[1] == "won"]
    return {
        "algorithm": algorithm,
        "deals": len(rows),
        "won": len(won),
        "lost": sum(row[1] == "lost" for row in rows),
        "unknown": [row[0] for row in rows if row[1] == "unknown"],
        "stops": Counter(row[5] for row in rows if row[1] == "unknown"),
        "deals_per_s": len(rows) / wall,
        "median_s": statistics.median(times),
        "max_s": max(times),
        "nodes_per_s": sum(row[2] for row in rows) / max(sum(times), 1e-9),
        "median_moves": statistics.median(row[4] for row in won) if won else 0,
        "max_moves": max((row[4] for row in won), default=0),
        "median_found": statistics.median(row[6] for row in won) if won else 0,
        "max_found": max((row[6] for row in won), default=0),
        "shorten": shorten,
        "median_shorten_s": statistics.median(row[7] for row in won) if won else 0,
        "max_shorten_s": max((row[7] for row in won), default=0),
    }


def header(game_name: str, variant_text: str, seeds: range, seconds: float, out=sys.stdout) -> None:
    print(f"{game_name} {variant_text}, seeds {seeds.start}..{seeds.stop - 1}, "
          f"one core, {seconds:g} s per deal at most", file=out, flush=True)


def report(results: list[dict], out=sys.stdout) -> None:
    for s in results:
        decided = s["won"] + s["lost"]
        stops = ", ".join(f"{k} {v}" for k, v in sorted(s["stops"].items()))
        print(f"{s['algorithm']:6s} decided {decided}/{s['deals']} (won {s['won']}, lost {s['lost']}), "
              f"unknown {len(s['unknown'])}{f' ({stops})' if stops else ''}, {s['deals_per_s']:.1f} deals/s, "
              f"median {1000 * s['median_s']:.2f} ms, max {s['max_s']:.2f} s, "
              f"{s['nodes_per_s'] / 1e3:.0f}k nodes/s, median solution {s['median_moves']:g} moves",
              file=out, flush=True)
        if s["won"]:
            print(f"       solutions: found median {s['median_found']:g}, max {s['max_found']}; "
                  f"shortened ({s['shorten']}) median {s['median_moves']:g}, max {s['max_moves']}, "
                  f"in median {1000 * s['median_shorten_s']:.1f} ms, max {s['max_shorten_s']:.2f} s",
                  file=out, flush=True)
        if s["unknown"]:
            print(f"       unknown seeds: {' '.join(map(str, s['unknown'][:50]))}"
                  + (" ..." if len(s["unknown"]) > 50 else ""), file=out, flush=True)


def seed_range(text: str) -> range:
    """``A..B`` (both included) or a single seed."""
    try:
        first, _, last = text.partition("..")
        a, b = int(first), int(last or first)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected seeds as A..B, e.g. 1..1000, not {text!r}") from None
    if not 0 <= a <= b:
        raise argparse.ArgumentTypeError(f"expected 0 <= A <= B in A..B, not {text!r}")
    return range(a, b + 1)


def parser() -> argparse.ArgumentParser:
    from solver.solve import SHORTEN

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", help="game name, or several separated by commas")
    ap.add_argument("variant", nargs="*", help="variant options key=value")
    ap.add_argument("--seeds", type=seed_range, default=range(1, 1001), help="A..B (default 1..1000)")
    ap.add_argument("--deals", type=int, help="number of deals (with --start: seeds START..START+DEALS-1)")
    ap.add_argument("--start", type=int, help="first seed (with --deals)")
    ap.add_argument("--variant", dest="variant_opt", nargs="*", default=[], help="key=value options (as positional)")
    ap.add_argument("--algorithms", help="comma-separated (default per game, see above)")
    ap.add_argument("--max-nodes", type=int, default=50_000_000, help="per deal")
    ap.add_argument("--astar-max-nodes", type=int, default=2_000_000, help="A*'s node store")
    ap.add_argument("--seconds", type=float, help="per deal (default per game, see above)")
    ap.add_argument("--shorten", choices=SHORTEN, default="quick",
                    help="how wins are shortened (solve_deal's; default line, as the batch runs)")
    return ap


def main(argv: list[str] | None = None) -> None:
    from solver.games import get_game
    from solver.variants import parse_variant, variant_str

    args = parser().parse_args(argv)
    seeds = args.seeds
    if args.deals is not None or args.start is not None:
        start = args.start if args.start is not None else seeds.start
        seeds = range(start, start + (args.deals if args.deals is not None else len(seeds)))
    for game_name in args.games.split(","):
        game = get_game(game_name)
        variant = parse_variant(game_name, game.VARIANTS, list(args.variant) + list(args.variant_opt))
        algorithms, seconds = DEFAULTS.get(game_name, OTHERS)
        algorithms = (args.algorithms or algorithms).split(",")
        seconds = args.seconds if args.seconds is not None else seconds
        header(game_name, variant_str(variant, game.VARIANTS), seeds, seconds)
        for algorithm in algorithms:
            nodes = args.astar_max_nodes if algorithm == "astar" else args.max_nodes
            report([bench(game_name, algorithm, seeds, variant, nodes, seconds, args.shorten)])


if __name__ == "__main__":
    main()
