"""Benchmark: Grand Duchess and Parisienne seeds 1..N on one core.

Prints, per game and algorithm: deals decided (won / lost), unknowns, deals per
second, median and maximum seconds per deal, nodes per second, and the seeds left
unknown.

    python experiments/bench_grand_duchess.py                         # both games, auto, seeds 1..1000
    python experiments/bench_grand_duchess.py --games parisienne --algorithms dfs --deals 200
    python experiments/bench_grand_duchess.py --variant redeals=0 --deals 200

Timing excludes numba's one-off compilation (a warm-up deal is solved first).
"""

from __future__ import annotations

from benchlib import arguments, run


def main() -> None:
    ap = arguments(__doc__.splitlines()[0], "auto", 30.0)
    ap.add_argument("--games", default="grand-duchess,parisienne")
    args = ap.parse_args()
    seeds = range(args.start, args.start + args.deals)
    for game in args.games.split(","):
        run(game, args.algorithms.split(","), seeds, args.variant, args.max_nodes, args.astar_max_nodes, args.seconds)


if __name__ == "__main__":
    main()
