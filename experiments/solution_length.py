"""Solution lengths against each deal's own A* bound (issue 19, "Shorter solutions").

For each seed: the deal is solved with ``solve_deal(..., shorten=MODE)`` for each
``--shorten`` mode, and exact A* is run from the deal with a node store of
``--astar-nodes`` and ``--astar-seconds`` at most.  When A* finishes, its length is the
shortest solution; when it stops, its floor (solver.search.astar.ASTAR_FLOOR, the
largest f = g + h it popped) is a proven lower bound on it.  Either way a won
deal's solution of L moves is within L / floor of the shortest, at most.

Prints, per mode: deals, won, median and maximum solution length, the median floor
(and how many deals A* finished, where the floor is the shortest length), how many
solutions exceed twice the floor (and which seeds), the largest ratio length / floor,
and the time per deal (solving, shortening, A*).  ``--per-deal`` prints a row a seed.

    python experiments/solution_length.py bakers-dozen --seeds 1..200
    python experiments/solution_length.py bakers-dozen --seeds 1..50 --shorten full,quick --per-deal
    python experiments/solution_length.py bakers-dozen kings_to_bottom=false --astar-nodes 2000000

One core.  The numbers are lengths, not times: no timing is asserted anywhere.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

from bench import seed_range  # noqa: E402  (experiments/bench.py: A..B, one clear error)


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line on stderr, status 2 (argparse prints the usage too)
        print(f"{self.prog}: error: {message}", file=sys.stderr)
        sys.exit(2)


def _positive(kind):
    def parse(text):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number, not {text!r}") from None
        if not value > 0:
            raise argparse.ArgumentTypeError(f"expected a number above 0, not {text!r}")
        return value
    return parse


def parser() -> argparse.ArgumentParser:
    ap = _Parser(prog="solution_length.py", description=__doc__.splitlines()[0])
    ap.add_argument("game", nargs="?", default="bakers-dozen", help="game name (default bakers-dozen)")
    ap.add_argument("variant", nargs="*", help="variant options key=value")
    ap.add_argument("--seeds", type=seed_range, default=range(1, 201), help="A..B (default 1..200)")
    ap.add_argument("--shorten", default="full", help="comma-separated modes of solve_deal (default full)")
    ap.add_argument("--algorithm", default="auto", help="solve_deal's (default auto)")
    ap.add_argument("--max-nodes", type=_positive(int), default=2_000_000, help="solving, per deal")
    ap.add_argument("--seconds", type=_positive(float), default=60.0, help="solving, per deal")
    ap.add_argument("--astar-nodes", type=_positive(int), default=1_000_000, help="exact A*'s node store")
    ap.add_argument("--astar-seconds", type=_positive(float), default=10.0, help="exact A*'s time, per deal")
    ap.add_argument("--per-deal", action="store_true", help="print a row per seed")
    return ap


def floor_of(game, st0, nodes: int, seconds: float) -> tuple[int, bool, float]:
    """(floor, exact, seconds): exact A*'s bound on the shortest solution (the length
    itself, exact=True, when it finishes won); floor 0 if it proved the deal lost."""
    from solver.search import portfolio
    from solver.search.dfs import LOST, WON

    t0 = time.perf_counter()
    a = portfolio.best_first_attempt(portfolio.WORKSPACE, game, st0.copy(), nodes, portfolio.Clock(seconds), greedy=0)
    took = time.perf_counter() - t0
    if a.status == LOST:
        return 0, True, took
    return a.floor, a.status == WON, took


def measure(game_name: str, variant: dict, seeds: range, modes: list[str], algorithm: str, max_nodes: int,
            seconds: float, astar_nodes: int, astar_seconds: float, per_deal=False, out=sys.stdout) -> dict:
    from solver.deals import seeded_deck, setup_kwargs
    from solver.games import get_game
    from solver.solve import ensure_compiled, prepare, solve_deal

    game = get_game(game_name)
    prepare(game_name, "astar", astar_nodes)  # the A* store: memory checked, allocated once
    ensure_compiled(game_name, announce=sys.stderr)
    rows = []
    for seed in seeds:
        deck = seeded_deck(seed, game.PACKS)
        setup = setup_kwargs(game_name, seed)
        row = {"seed": seed}
        for mode in modes:
            t0 = time.perf_counter()
            r = solve_deal(game_name, variant, deck, algorithm, max_nodes=max_nodes, seconds=seconds,
                           shorten=mode, **setup)
            row[mode] = (r.result, len(r.moves), r.found, r.seconds, r.shorten_seconds, time.perf_counter() - t0)
        st0 = game.initial_state(deck, variant, **setup)
        row["floor"], row["exact"], row["astar_s"] = floor_of(game, st0, astar_nodes, astar_seconds)
        rows.append(row)
        if per_deal:
            cells = " ".join(f"{mode} {row[mode][0]} {row[mode][1]} (found {row[mode][2]}, {row[mode][5]:.1f} s)"
                             for mode in modes)
            print(f"seed {seed}: floor {row['floor']}{' (shortest)' if row['exact'] else ''} "
                  f"[{row['astar_s']:.1f} s]; {cells}", file=out, flush=True)
    return {"rows": rows, "modes": modes}


def report(game_name: str, variant_text: str, res: dict, astar_nodes: int, astar_seconds: float,
           out=sys.stdout) -> None:
    rows, modes = res["rows"], res["modes"]
    print(f"{game_name} {variant_text}, seeds {rows[0]['seed']}..{rows[-1]['seed']}, one core; exact A* "
          f"{astar_nodes:,} nodes / {astar_seconds:g} s a deal for the floor", file=out)
    floors = [row["floor"] for row in rows if row["floor"] > 0]
    exact = sum(row["exact"] and row["floor"] > 0 for row in rows)
    astar_s = [row["astar_s"] for row in rows]
    print(f"floor: median {statistics.median(floors) if floors else 0:g}, min {min(floors, default=0)}, "
          f"max {max(floors, default=0)}; A* finished (floor = shortest) on {exact} of {len(rows)}; "
          f"A* median {statistics.median(astar_s):.1f} s, max {max(astar_s):.1f} s a deal", file=out)
    head = (f"{'shorten':8s} {'deals':>5s} {'won':>5s} {'median':>6s} {'max':>5s} {'>2xfloor':>8s} "
            f"{'max L/floor':>11s} {'solve s':>7s} {'short s':>7s} {'max s':>6s}")
    print(head, file=out)
    for mode in modes:
        won = [row for row in rows if row[mode][0] == "won" and row["floor"] > 0]
        lengths = [row[mode][1] for row in won]
        over = [row["seed"] for row in won if row[mode][1] > 2 * row["floor"]]
        ratio, worst = max(((row[mode][1] / row["floor"], row["seed"]) for row in won), default=(0.0, None))
        walls = [row[mode][5] for row in rows]
        print(f"{mode:8s} {len(rows):5d} {len(won):5d} {statistics.median(lengths) if lengths else 0:6g} "
              f"{max(lengths, default=0):5d} {len(over):8d} {ratio:11.2f} "
              f"{statistics.mean(row[mode][3] for row in rows):7.2f} "
              f"{statistics.mean(row[mode][4] for row in rows):7.2f} {max(walls):6.1f}", file=out)
        if over:
            print(f"         over 2 x floor: " + ", ".join(
                f"{row['seed']} ({row[mode][1]} > 2 x {row['floor']})" for row in won if row["seed"] in over),
                file=out)
        if worst is not None:
            print(f"         largest ratio: seed {worst}", file=out)
    print("(solve s, short s: mean seconds a deal searching and shortening; max s: the longest deal's wall time, "
          "A* for the floor apart)", file=out, flush=True)


def main(argv: list[str] | None = None) -> None:
    from solver.errors import PatienceError
    from solver.games import get_game
    from solver.solve import ALGORITHMS, SHORTEN
    from solver.variants import parse_variant, variant_str

    ap = parser()
    args = ap.parse_args(argv)
    modes = [m for m in args.shorten.split(",") if m]
    bad = [m for m in modes if m not in SHORTEN]
    if bad or not modes:
        ap.error(f"--shorten: expected modes of {', '.join(SHORTEN)} separated by commas, not {args.shorten!r}")
    if args.algorithm not in ALGORITHMS:
        ap.error(f"--algorithm: expected one of {', '.join(ALGORITHMS)}, not {args.algorithm!r}")
    try:
        game = get_game(args.game)
        variant = parse_variant(args.game, game.VARIANTS, list(args.variant))
        res = measure(args.game, variant, args.seeds, modes, args.algorithm, args.max_nodes, args.seconds,
                      args.astar_nodes, args.astar_seconds, args.per_deal)
    except PatienceError as e:
        ap.error(str(e))
    report(args.game, variant_str(variant, game.VARIANTS), res, args.astar_nodes, args.astar_seconds)


if __name__ == "__main__":
    main()
