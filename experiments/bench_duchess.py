"""Benchmark: Duchess seeds 1..N on one core.

Prints, per algorithm: deals decided (won / lost), unknowns, deals per second,
median and maximum seconds per deal, nodes per second, and the seeds left unknown.

    python experiments/bench_duchess.py                                  # standard rules, auto, seeds 1..1000
    python experiments/bench_duchess.py --variant redeals=0 --deals 200
    python experiments/bench_duchess.py --algorithms dfs,auto --variant moves=whole

Timing excludes numba's one-off compilation (a warm-up deal is solved first).
"""

from __future__ import annotations

from benchlib import arguments, run


def main() -> None:
    args = arguments(__doc__.splitlines()[0], "auto", 30.0).parse_args()
    seeds = range(args.start, args.start + args.deals)
    run("duchess", args.algorithms.split(","), seeds, args.variant, args.max_nodes, args.astar_max_nodes,
        args.seconds)


if __name__ == "__main__":
    main()
