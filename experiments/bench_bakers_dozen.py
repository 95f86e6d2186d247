"""Benchmark: Baker's Dozen seeds 1..N on one core, for DFS and for A*.

Prints, per algorithm: deals decided (won / lost), unknowns, deals per second,
median and maximum seconds per deal, nodes per second, and the seeds left unknown.

    python experiments/bench_bakers_dozen.py                      # DFS and A*, seeds 1..1000
    python experiments/bench_bakers_dozen.py --algorithms dfs --deals 200
    python experiments/bench_bakers_dozen.py --algorithms astar --deals 100 --max-nodes 1000000

Timing excludes numba's one-off compilation (a warm-up deal is solved first).
"""

from __future__ import annotations

from benchlib import arguments, run


def main() -> None:
    args = arguments(__doc__.splitlines()[0], "dfs,astar", 10.0).parse_args()
    seeds = range(args.start, args.start + args.deals)
    run("bakers-dozen", args.algorithms.split(","), seeds, args.variant, args.max_nodes, args.astar_max_nodes,
        args.seconds)


if __name__ == "__main__":
    main()
