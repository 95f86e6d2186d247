"""What Baker's Dozen's host count (solver/games/bakers_dozen_hosts.py) decides at the
root, by the stored verdict of each deal (issue 19).

    python experiments/bd_host_count.py [kings_to_bottom=false] [--seeds 1..10000] [--results results]

reads the variant's stored rows (results/runs/bakers-dozen/<variant>/), runs the count
on the deal as dealt for each seed of the range, and prints, per stored verdict (won,
lost, unknown), how many deals it calls lost, beside the fixpoint test (is_dead), with
the time a deal.  A won deal called lost would be a bug (its solution was replayed).

Measured (2026-12-05, two other solver processes on the 2 cores): without the king rule,
seeds 1..10,000: unknown 119 of 199 called lost (3.8 ms a deal on average, at most 102
ms), won 0 of 1,019 (5.6 ms, at most 129 ms), lost 8,772 of 8,782 (is_dead 8,779).
Without the last step (the choice of prefixes, a commit before this one) it called 102
of the 199 lost, at 0.2 ms a deal.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from solver.batch.store import read_rows  # noqa: E402
from solver.deals import seeded_deck  # noqa: E402
from solver.games import bakers_dozen as bd  # noqa: E402
from solver.variants import parse_variant  # noqa: E402


def seed_range(text: str) -> range:
    lo, _, hi = text.partition("..")
    return range(int(lo), int(hi or lo) + 1)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("variant", nargs="*", default=["kings_to_bottom=false"])
    ap.add_argument("--seeds", default="1..10000")
    ap.add_argument("--results", default="results")
    args = ap.parse_args(argv)
    try:
        variant = parse_variant(bd.NAME, bd.VARIANTS, args.variant)
        seeds = seed_range(args.seeds)
    except Exception as e:  # noqa: BLE001  (one line, status 2)
        print(f"bd_host_count: {e}", file=sys.stderr)
        return 2
    vstr = "_".join(args.variant) if args.variant else "standard"
    folder = Path(args.results) / "runs" / bd.NAME / vstr
    if not folder.is_dir():
        print(f"bd_host_count: no stored rows in {folder}", file=sys.stderr)
        return 2
    rows = read_rows(folder)
    rows = rows[rows["seed"].isin(seeds)]
    bd.hosts_dead(bd.initial_state(seeded_deck(1), variant))  # compile before the clock
    print(f"{bd.NAME} {vstr}, seeds {seeds.start}..{seeds.stop - 1}: {len(rows)} stored rows")
    for verdict in ("won", "lost", "unknown"):
        part = rows[rows["result"] == verdict]["seed"].tolist()
        hosts = fixpoint = 0
        times = [0.0]
        for seed in part:
            st = bd.initial_state(seeded_deck(seed), variant)
            fixpoint += bool(bd.is_dead(st.copy()))
            t0 = time.perf_counter()
            hosts += bool(bd.hosts_dead(st))
            times.append(time.perf_counter() - t0)
        t = np.array(times[1:] or times) * 1e3
        print(f"  {verdict:8s} {len(part):6d} deals: host count calls {hosts} lost, is_dead {fixpoint}; "
              f"host count {t.mean():.3f} ms a deal (median {np.median(t):.3f}, max {t.max():.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
