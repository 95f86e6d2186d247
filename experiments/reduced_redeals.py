"""Win rates of reduced deals (fewer ranks) by number of redeals: where one redeal stops
being enough.  One line per ranks and redeals: won, lost, unknown, seconds, nodes.

    python experiments/reduced_redeals.py grand-duchess --ranks 6 8 10 --redeals 1 --seeds 1..20

The complete DFS (no shortening; ``--algorithm nrpa`` or ``auto`` instead, to see whether
the unknown deals are wins hard to find), node- and time-limited per deal: a won deal
carries a solution the checker replayed, a lost one is proved; an unknown one hit a limit.  Rank
``ranks`` plays the king's part (the tests' reduced deals); the full game is ranks 13,
whose rows are the published tables'.  A trend over ranks is a hint about the full game,
not a bound on it.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

from bench import seed_range  # noqa: E402  (experiments/bench.py: A..B, one clear error)


def main(argv=None) -> int:
    from solver.deals import seeded_deck, setup_kwargs
    from solver.errors import PatienceError
    from solver.games import get_game
    from solver.solve import solve_deal
    from solver.variants import parse_variant

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game", help="grand-duchess or parisienne (any game with redeals and ranks)")
    ap.add_argument("variant", nargs="*", help="other variant options key=value")
    ap.add_argument("--ranks", type=int, nargs="+", required=True)
    ap.add_argument("--redeals", type=int, nargs="+", required=True)
    ap.add_argument("--seeds", type=seed_range, default=seed_range("1..20"), help="A..B (default 1..20)")
    ap.add_argument("--algorithm", choices=("dfs", "auto", "nrpa"), default="dfs",
                    help="dfs (complete: proves losses), auto, or nrpa (finds wins only); default dfs")
    ap.add_argument("--max-nodes", type=int, default=2_000_000, help="a deal (default 2,000,000)")
    ap.add_argument("--seconds", type=float, default=60.0, help="a deal (default 60)")
    args = ap.parse_args(argv)
    print("| ranks | redeals | deals | won | lost | unknown | seconds | median nodes | max nodes |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for ranks in args.ranks:
        for redeals in args.redeals:
            try:
                game = get_game(args.game)
                variant = parse_variant(args.game, game.VARIANTS, [*args.variant, f"redeals={redeals}"])
                counts, nodes, t0 = {"won": 0, "lost": 0, "unknown": 0}, [], time.perf_counter()
                for seed in args.seeds:
                    deck = [int(c) for c in seeded_deck(seed, game.PACKS, ranks=ranks)]
                    r = solve_deal(args.game, variant, deck, algorithm=args.algorithm, max_nodes=args.max_nodes,
                                   seconds=args.seconds, ranks=ranks, shorten="none", **setup_kwargs(args.game, seed))
                    counts[r.result] += 1
                    nodes.append(r.nodes)
            except (PatienceError, ValueError) as e:
                print(f"reduced_redeals: {e}", file=sys.stderr)
                return 2
            nodes.sort()
            print(f"| {ranks} | {redeals} | {len(nodes)} | {counts['won']} | {counts['lost']} | {counts['unknown']} | "
                  f"{time.perf_counter() - t0:.1f} | {nodes[len(nodes) // 2]:,} | {nodes[-1]:,} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
