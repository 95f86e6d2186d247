"""The exact ceiling of reduced Duchess deals: the optimal win probability of a player
who sees only what a player sees, beside the thoughtful value and every strategy's exact
value on the same deals (solver/play/stock_exact.py says why each is exact).

    python experiments/stock_exact_ceiling.py [--ranks 5] [--deals 40] [--redeals 0 1] [--write FILE]

Prints one line per variant: the mean over deals of each value, the number of deals
where the optimum is below the thoughtful value, views searched and seconds.  With
--write the table goes to FILE as markdown (results/duchess/hidden-ceiling.md).
"""

from __future__ import annotations

import argparse
import sys
import time
from fractions import Fraction


def main(argv=None) -> int:
    import solver
    from solver.deals import seeded_deck
    from solver.play import stock_exact as E
    from solver.play.players import GAME_STRATEGIES, parse_options

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ranks", type=int, default=5)
    ap.add_argument("--deals", type=int, default=40)
    ap.add_argument("--redeals", type=int, nargs="+", default=[0, 1])
    ap.add_argument("--write", help="also write the table as markdown to this file")
    args = ap.parse_args(argv)
    if not 4 <= args.ranks <= 6 or args.deals < 1 or any(r not in (0, 1) for r in args.redeals):
        ap.error("--ranks 4..6 (the stock must stay small enough to enumerate), --deals at least 1, --redeals 0 or 1")
    strategies = list(GAME_STRATEGIES["duchess"])
    head = ["variant", "deals", "optimum", "thoughtful", "optimum < thoughtful"] + [f"`{s}`" for s in strategies]
    lines = ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    for redeals in args.redeals:
        variant = {"redeals": redeals}
        t0 = time.perf_counter()
        total = {k: Fraction(0) for k in ["optimum", "thoughtful"] + strategies}
        below = views = 0
        for seed in range(1, args.deals + 1):
            deck = [int(c) for c in seeded_deck(seed, 1, ranks=args.ranks)]
            opt, v = E.optimal_value(deck, variant, args.ranks)
            th = E.thoughtful_value(deck, variant, args.ranks)
            total["optimum"] += opt
            total["thoughtful"] += th
            below += opt < th
            views += v
            for s in strategies:
                val = E.strategy_value(deck, variant, args.ranks, s, parse_options(s, []), seed)
                if val > opt:
                    raise SystemExit(f"seed {seed}: {s} is worth {val} above the optimum {opt}: a bug")
                total[s] += val
        mean = {k: float(v / args.deals) for k, v in total.items()}
        print(f"redeals={redeals}, {args.ranks} ranks, seeds 1..{args.deals}: "
              + ", ".join(f"{k} {v:.4f}" for k, v in mean.items())
              + f"; optimum below thoughtful on {below}; {views:,} views; {time.perf_counter() - t0:.0f} s", flush=True)
        lines.append(f"| `redeals={redeals}` | {args.deals} | {mean['optimum']:.4f} | {mean['thoughtful']:.4f} | "
                     f"{below} | " + " | ".join(f"{mean[s]:.4f}" for s in strategies) + " |")
    if args.write:
        text = "\n".join([
            "# Duchess: the exact ceiling on reduced deals",
            "",
            f"Reduced Duchess deals of {args.ranks} ranks (the layout takes 16 cards, the stock holds the rest), "
            f"seeds 1..{args.deals}, every strategy at its defaults with the deal's seed as its random seed.  "
            "Each value is the exact mean over the deals of a win probability over every order of the stock "
            "(solver/play/stock_exact.py): the optimum of a player who sees only what a player sees, the "
            "thoughtful value (every card known), and each strategy's.  No strategy may exceed the optimum "
            "(the script stops if one does).",
            "",
            *lines,
            "",
            f"Made by `python experiments/stock_exact_ceiling.py {' '.join(sys.argv[1:])}` with code version "
            f"`{solver.SOURCE_HASH}`.",
            "",
        ])
        with open(args.write, "w") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
