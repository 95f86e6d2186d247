"""Benchmark: Baker's Dozen seeds 1..N on one core, for DFS and for A*.

Prints, per algorithm: deals decided (won / lost), unknowns, deals per second,
median and maximum seconds per deal, nodes per second, and the seeds left unknown.

    python experiments/bench_bakers_dozen.py                      # DFS and A*, seeds 1..1000
    python experiments/bench_bakers_dozen.py --algorithms dfs --deals 200
    python experiments/bench_bakers_dozen.py --algorithms astar --deals 100 --max-nodes 1000000

Timing excludes numba's one-off compilation (a warm-up deal is solved first).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

from solver.deals import seeded_deck  # noqa: E402
from solver.solve import solve_deal  # noqa: E402

STANDARD = {"kings_to_bottom": True, "face_down": False, "empty": "none"}


def bench(algorithm: str, seeds: range, variant: dict, max_nodes: int, seconds: float) -> dict:
    solve_deal("bakers-dozen", variant, seeded_deck(1), algorithm, max_nodes=1000, seconds=seconds)  # warm-up
    rows = []
    wall = time.perf_counter()
    for seed in seeds:
        r = solve_deal("bakers-dozen", variant, seeded_deck(seed), algorithm, max_nodes=max_nodes, seconds=seconds)
        rows.append((seed, r.result, r.nodes, r.seconds, len(r.moves)))
    wall = time.perf_counter() - wall
    times = [row[3] for row in rows]
    won = [row for row in rows if row[1] == "won"]
    return {
        "algorithm": algorithm,
        "deals": len(rows),
        "won": len(won),
        "lost": sum(row[1] == "lost" for row in rows),
        "unknown": [row[0] for row in rows if row[1] == "unknown"],
        "deals_per_s": len(rows) / wall,
        "median_s": statistics.median(times),
        "max_s": max(times),
        "nodes_per_s": sum(row[2] for row in rows) / max(sum(times), 1e-9),
        "median_moves": statistics.median(row[4] for row in won) if won else 0,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--start", type=int, default=1)
    ap.add_argument("--algorithms", default="dfs,astar")
    ap.add_argument("--max-nodes", type=int, default=50_000_000, help="per deal (A*: stored nodes)")
    ap.add_argument("--astar-max-nodes", type=int, default=2_000_000)
    ap.add_argument("--seconds", type=float, default=10.0, help="per deal")
    ap.add_argument("--variant", nargs="*", default=[], help="key=value options")
    args = ap.parse_args()
    variant = dict(STANDARD)
    for word in args.variant:
        key, _, value = word.partition("=")
        variant[key] = value == "true" if value in ("true", "false") else value
    seeds = range(args.start, args.start + args.deals)
    print(f"Baker's Dozen {variant}, seeds {seeds.start}..{seeds.stop - 1}, one core, "
          f"{args.seconds:g} s per deal at most")
    for algorithm in args.algorithms.split(","):
        nodes = args.astar_max_nodes if algorithm == "astar" else args.max_nodes
        s = bench(algorithm, seeds, variant, nodes, args.seconds)
        decided = s["won"] + s["lost"]
        print(f"{algorithm:6s} decided {decided}/{s['deals']} (won {s['won']}, lost {s['lost']}), "
              f"unknown {len(s['unknown'])}, {s['deals_per_s']:.1f} deals/s, "
              f"median {1000 * s['median_s']:.2f} ms, max {s['max_s']:.2f} s, "
              f"{s['nodes_per_s'] / 1e3:.0f}k nodes/s, median solution {s['median_moves']:g} moves")
        if s["unknown"]:
            print(f"       unknown seeds: {' '.join(map(str, s['unknown'][:50]))}"
                  + (" ..." if len(s["unknown"]) > 50 else ""))


if __name__ == "__main__":
    main()
