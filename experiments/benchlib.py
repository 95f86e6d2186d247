"""Shared by the benchmark scripts: solve seeds 1..N of one game on one core and
print deals decided, unknowns, deals per second, median and maximum seconds per
deal and nodes per second.  Timing excludes numba's one-off compilation (a
warm-up deal is solved first)."""

from __future__ import annotations

import os
import statistics
import time

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

from solver.deals import seeded_deck  # noqa: E402
from solver.games import get_game  # noqa: E402
from solver.solve import solve_deal  # noqa: E402
from solver.variants import parse_variant, variant_str  # noqa: E402


def bench(game_name: str, algorithm: str, seeds: range, variant: dict, max_nodes: int, seconds: float) -> dict:
    packs = get_game(game_name).PACKS
    solve_deal(game_name, variant, seeded_deck(seeds.start, packs), algorithm, max_nodes=1000, seconds=seconds)
    rows = []
    wall = time.perf_counter()
    for seed in seeds:
        r = solve_deal(game_name, variant, seeded_deck(seed, packs), algorithm, max_nodes=max_nodes, seconds=seconds)
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


def run(game_name: str, algorithms: list[str], seeds: range, variant_words: list[str], max_nodes: int,
        astar_max_nodes: int, seconds: float) -> None:
    game = get_game(game_name)
    variant = parse_variant(game_name, game.VARIANTS, variant_words)
    print(f"{game_name} {variant_str(variant, game.VARIANTS)}, seeds {seeds.start}..{seeds.stop - 1}, "
          f"one core, {seconds:g} s per deal at most", flush=True)
    for algorithm in algorithms:
        nodes = astar_max_nodes if algorithm == "astar" else max_nodes
        s = bench(game_name, algorithm, seeds, variant, nodes, seconds)
        decided = s["won"] + s["lost"]
        print(f"{algorithm:6s} decided {decided}/{s['deals']} (won {s['won']}, lost {s['lost']}), "
              f"unknown {len(s['unknown'])}, {s['deals_per_s']:.1f} deals/s, "
              f"median {1000 * s['median_s']:.2f} ms, max {s['max_s']:.2f} s, "
              f"{s['nodes_per_s'] / 1e3:.0f}k nodes/s, median solution {s['median_moves']:g} moves", flush=True)
        if s["unknown"]:
            print(f"       unknown seeds: {' '.join(map(str, s['unknown'][:50]))}"
                  + (" ..." if len(s["unknown"]) > 50 else ""), flush=True)


def arguments(description: str, algorithms: str, seconds: float):
    import argparse

    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--start", type=int, default=1)
    ap.add_argument("--algorithms", default=algorithms)
    ap.add_argument("--max-nodes", type=int, default=50_000_000, help="per deal (A*: stored nodes)")
    ap.add_argument("--astar-max-nodes", type=int, default=2_000_000)
    ap.add_argument("--seconds", type=float, default=seconds, help="per deal")
    ap.add_argument("--variant", nargs="*", default=[], help="key=value options")
    return ap
