"""NRPA on chosen seeds, one line each: seed, result, moves played, seconds.

    python experiments/nrpa_seeds.py grand-duchess redeals=2 --max-nodes 20000000 --seeds 3 13 18

Node-limited (600 s a deal unless --seconds says otherwise), so a line is repeatable:
run it from two checkouts (PYTHONPATH=...) to compare two versions of the engine on
the same deals, e.g. on the seeds a published row's NRPA retry left unknown.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys

os.environ.setdefault("NUMBA_NUM_THREADS", "1")


def main(argv=None) -> int:
    from solver.deals import seeded_deck, setup_kwargs
    from solver.errors import PatienceError
    from solver.games import get_game
    from solver.solve import solve_deal
    from solver.variants import parse_variant

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("variant", nargs="*", help="variant options key=value")
    ap.add_argument("--seeds", type=int, nargs="+", required=True)
    ap.add_argument("--max-nodes", type=int, default=20_000_000, help="moves a deal (default 20,000,000)")
    ap.add_argument("--seconds", type=float, default=600.0, help="a deal (default 600)")
    args = ap.parse_args(argv)
    try:
        game = get_game(args.game)
        variant = parse_variant(args.game, game.VARIANTS, args.variant)
    except PatienceError as e:
        print(f"nrpa_seeds: {e}", file=sys.stderr)
        return 2
    won = []
    for seed in args.seeds:
        try:
            r = solve_deal(args.game, variant, seeded_deck(seed, game.PACKS), algorithm="nrpa",
                           max_nodes=args.max_nodes, seconds=args.seconds, shorten="none",
                           **setup_kwargs(args.game, seed))
        except (PatienceError, ValueError, OverflowError) as e:
            print(f"nrpa_seeds: seed {seed}: {e}", file=sys.stderr)
            return 2
        print(seed, r.result, r.nodes, f"{r.seconds:.1f}", flush=True)
        if r.result == "won":
            won.append(r.nodes)
    median = f", median {statistics.median(won):,.0f} moves" if won else ""
    print(f"# {len(won)} of {len(args.seeds)} won{median}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
