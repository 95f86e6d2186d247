"""Benchmark: ``auto`` without and with its NRPA attempts (AUTO_NRPA), on the same deals.

    python experiments/auto_nrpa.py grand-duchess foundation_transfer=true --seeds 1..300 --max-nodes 100000
    python experiments/auto_nrpa.py parisienne redeals=2 --seeds 1..50 --max-nodes 200000

Node-limited (``--seconds`` 600 by default, so that the node budget decides): the two
runs see the same budget, and each is repeatable.  Prints bench.py's lines for each.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

os.environ.setdefault("NUMBA_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).parent))

from bench import bench, header, report, seed_range  # noqa: E402


def main(argv=None) -> int:
    from solver.errors import PatienceError
    from solver.games import get_game
    from solver.variants import parse_variant

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game", choices=("grand-duchess", "parisienne"))
    ap.add_argument("variant", nargs="*", help="variant options key=value")
    ap.add_argument("--seeds", type=seed_range, default=range(1, 101), help="A..B (default 1..100)")
    ap.add_argument("--max-nodes", type=int, default=100_000, help="per deal (default 100,000)")
    ap.add_argument("--seconds", type=float, default=600.0, help="per deal (default 600)")
    args = ap.parse_args(argv)
    try:
        variant = parse_variant(args.game, get_game(args.game).VARIANTS, args.variant)
    except PatienceError as e:
        print(f"auto_nrpa: {e}", file=sys.stderr)
        return 2
    modules = [get_game("grand-duchess"), get_game("parisienne")]  # Parisienne re-exports the flag
    header(args.game, " ".join(args.variant) or "standard", args.seeds, args.seconds)
    for on in (False, True):
        for m in modules:
            m.AUTO_NRPA = on
        print(f"AUTO_NRPA={on}, {args.max_nodes:,} nodes a deal", flush=True)
        report([bench(args.game, "auto", args.seeds, variant, args.max_nodes, args.seconds, "none")])
    return 0


if __name__ == "__main__":
    sys.exit(main())
