"""Benchmark: throughput of the Dask backend (issue 20) with 1 and with 2 workers.

The same seeds are solved (``winrate``) or played (``play --deals``, with
``--strategy``) once per configuration, each into a fresh temporary results folder:
a local Dask cluster of each worker count given (``--cluster-workers N``) and, with
``--pool``, the process pool with as many jobs.  Prints deals/s for each and the
ratio of each to the first (the target of issue 20: 2 workers at least 1.8 times 1
worker on the same seeds).

    python experiments/bench_cluster.py bakers-dozen --seeds 1..2000 --max-nodes 200000
    python experiments/bench_cluster.py bakers-dozen --seeds 1..400 --max-nodes 20000 --pool
    python experiments/bench_cluster.py grand-duchess --seeds 1..300 --workers 1,2,4
    python experiments/bench_cluster.py bakers-dozen face_down=true --strategy greedy --seeds 1..20000

deals/s is measured as the runs measure it (``elapsed`` of run_winrate / run_play):
from the first chunk handed out to the last part file written, so it leaves out
starting the cluster and warming its workers (both once per run), but includes
everything per chunk (submitting, solving, sending the rows back, writing the part).
The wall time of the whole command, start-up included, is shown beside it.  Measure
on a quiet machine with at least as many free cores as the largest worker count:
a core busy with something else makes 2 workers look worse than they are.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
import tempfile
import time

os.environ.setdefault("NUMBA_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from bench import seed_range  # noqa: E402  (experiments/bench.py: A..B, one clear error)


def one_run(args, seeds: range, workers: int, pool: bool) -> dict:
    from solver.batch import run_play, run_winrate
    from solver.batch.cluster import Backend

    backend = None if pool else Backend(workers=workers)
    sink = io.StringIO()  # the run's own summary and report lines
    with tempfile.TemporaryDirectory(prefix="bench-cluster-") as out:
        t0 = time.perf_counter()
        if args.strategy:
            s = run_play(args.game, list(args.variant), args.strategy, list(args.option), seeds.start, len(seeds),
                         workers, out, progress=False, chunk_size=args.chunk_size, out=sink, backend=backend)
            done = s["played_now"]
        else:
            s = run_winrate(args.game, list(args.variant), seeds.start, len(seeds), workers, args.algorithm,
                            args.max_nodes, args.seconds, out, progress=False, chunk_size=args.chunk_size,
                            out=sink, backend=backend)
            done = s["solved_now"]
        wall = time.perf_counter() - t0
    return {"label": f"{'process pool, --jobs' if pool else 'Dask local cluster,'} {workers}", "deals": done,
            "elapsed": s["elapsed"], "wall": wall, "rate": done / s["elapsed"] if s["elapsed"] > 0 else float("inf"),
            "workers": workers, "pool": pool}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("game")
    p.add_argument("variant", nargs="*", help="variant words key=value")
    p.add_argument("--seeds", type=seed_range, default=seed_range("1..1000"), help="FIRST..LAST (default 1..1000)")
    p.add_argument("--workers", default="1,2", help="worker counts to compare, the first being the base (default 1,2)")
    p.add_argument("--pool", action="store_true", help="also the process pool with --jobs of each worker count")
    p.add_argument("--algorithm", default="auto")
    p.add_argument("--max-nodes", type=int, help="node budget per deal (default: the solver's)")
    p.add_argument("--seconds", type=float, help="time budget per deal (default: the solver's)")
    p.add_argument("--chunk-size", type=int, help="deals per chunk (default: the runs' automatic size)")
    p.add_argument("--strategy", help="benchmark `play --deals` with this strategy instead of the solver")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="a strategy option")
    args = p.parse_args(argv)
    counts = [int(w) for w in args.workers.split(",") if w.strip()]

    from solver.cli import usable_cpus

    what = f"play --strategy {args.strategy}" if args.strategy else f"winrate --algorithm {args.algorithm}"
    budget = "" if args.strategy else f", --max-nodes {args.max_nodes or 'default'}, --seconds {args.seconds or 'default'}"
    print(f"{args.game} {' '.join(args.variant) or 'standard'}, seeds {args.seeds.start}..{args.seeds.stop - 1}: "
          f"{what}{budget}; {usable_cpus()} usable CPUs, load average {os.getloadavg()[0]:.2f}", flush=True)
    results = []
    for workers in counts:
        for pool in ([False, True] if args.pool else [False]):
            r = one_run(args, args.seeds, workers, pool)
            results.append(r)
            print(f"  {r['label']:<28} {r['deals']:>7} deals in {r['elapsed']:8.1f} s: {r['rate']:8.2f} deals/s "
                  f"(wall {r['wall']:.1f} s with start-up)", flush=True)
    for pool in ([False, True] if args.pool else [False]):
        mine = [r for r in results if r["pool"] == pool]
        base = mine[0]
        for r in mine[1:]:
            print(f"{'process pool' if pool else 'Dask'}: {r['workers']} / {base['workers']} workers: "
                  f"{r['rate'] / base['rate']:.2f}x")
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
