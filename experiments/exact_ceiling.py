"""The exact ceiling on reduced face-down Baker's Dozen deals: per deal, the optimal
hidden-information win probability, each strategy's exact win probability, and the
thoughtful (all cards known) value; then their means over the deals.

    python experiments/exact_ceiling.py                                  # 3 ranks, 4 columns, 200 deals
    python experiments/exact_ceiling.py --variant kings_to_bottom=false --deals 50 --out ceiling.md
    python experiments/exact_ceiling.py --ranks 4 --columns 8 --strategies greedy --option greedy:max_moves=300

Deal i is ``seeded_deck(i, ranks=R)`` for i = 1..N, played with ``face_down=true`` and the
game's other defaults unless ``--variant`` says otherwise; each strategy's random
stream is seeded with the deal's seed.  Every per-deal number is exact (solver/play/
exact.py); the means are over a sample of deals, so they carry a standard error (over
deals, not over play), printed as +-.  A strategy's gap is the mean of optimum less its
value, deal by deal, with the standard error of that paired difference.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shlex
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from fractions import Fraction


def _value(text: str):
    low = text.lower()
    if low in ("true", "false"):
        return low == "true"
    return text


_PREPARED: set = set()


def _prepare(strategies) -> None:
    """Load the players' compiled kernels once per process, before any clock starts."""
    from solver.play.players import prepare

    for name in strategies:
        if name not in _PREPARED:
            prepare("bakers-dozen", name, announce=lambda text: print(text, file=sys.stderr, flush=True))
            _PREPARED.add(name)


def one_deal(job) -> dict:
    """Every exact number of one deal, with the seconds each took."""
    from solver.deals import seeded_deck
    from solver.play import exact

    seed, ranks, columns, variant, strategies, options = job
    _prepare(strategies)
    exact.clear_cache()
    deck = [int(c) for c in seeded_deck(seed, ranks=ranks)]
    obs = exact.initial_observation(deck, variant, ranks=ranks, columns=columns)
    row = {"seed": seed, "values": {}, "seconds": {}}
    t = time.perf_counter()
    row["optimum"] = exact.optimal_value(obs)
    row["seconds"]["optimum"] = time.perf_counter() - t
    t = time.perf_counter()
    row["thoughtful"] = exact.thoughtful_value(obs)
    row["seconds"]["thoughtful"] = time.perf_counter() - t
    for name in strategies:
        t = time.perf_counter()
        row["values"][name] = exact.strategy_value(obs, name, options[name], seed)
        row["seconds"][name] = time.perf_counter() - t
    exact.clear_cache()
    return row


def _config_text(config: dict) -> str:
    return json.dumps(config, sort_keys=True)


def load_rows(path, config: dict) -> dict:
    """seed -> row, from a --rows file: the rows made with the same size, variant and
    options (Fractions kept as "p/q" strings)."""
    if not path or not os.path.exists(path):
        return {}
    want = _config_text(config)
    out = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            rec = json.loads(line)
            if _config_text(rec["config"]) != want:
                continue
            row = rec["row"]
            row["optimum"], row["thoughtful"] = Fraction(row["optimum"]), Fraction(row["thoughtful"])
            row["values"] = {k: Fraction(v) for k, v in row["values"].items()}
            out[row["seed"]] = row
    return out


def save_row(path, config: dict, row: dict) -> None:
    if not path:
        return
    plain = {**row, "optimum": str(row["optimum"]), "thoughtful": str(row["thoughtful"]),
             "values": {k: str(v) for k, v in row["values"].items()}}
    with open(path, "a", encoding="utf-8") as f:
        f.write(json.dumps({"config": config, "row": plain}, sort_keys=True) + "\n")


def mean_se(xs) -> tuple[float, float]:
    xs = [float(x) for x in xs]
    m = sum(xs) / len(xs)
    if len(xs) < 2:
        return m, float("nan")
    var = sum((x - m) ** 2 for x in xs) / (len(xs) - 1)
    return m, math.sqrt(var / len(xs))


def table(rows: list[dict], strategies: list[str]) -> list[str]:
    """The summary as markdown table lines."""
    opt = [r["optimum"] for r in rows]
    lines = ["| player | mean win probability | gap to the optimum | deals below the optimum | seconds per deal |",
             "|---|---|---|---|---|"]

    def secs(key):
        return f"{sum(r['seconds'][key] for r in rows) / len(rows):.2f}"

    m, se = mean_se(opt)
    lines.append(f"| optimum (hidden information) | {m:.4f} +- {se:.4f} | 0 | - | {secs('optimum')} |")
    th = [r["thoughtful"] for r in rows]
    m, se = mean_se(th)
    gm, gse = mean_se([a - b for a, b in zip(th, opt)])
    below = sum(a > b for a, b in zip(th, opt))
    lines.append(f"| thoughtful (every card known) | {m:.4f} +- {se:.4f} | {gm:+.4f} +- {gse:.4f} (above) "
                 f"| {below} above | {secs('thoughtful')} |")
    for name in strategies:
        vals = [r["values"][name] for r in rows]
        m, se = mean_se(vals)
        gm, gse = mean_se([b - a for a, b in zip(vals, opt)])
        below = sum(a < b for a, b in zip(vals, opt))
        lines.append(f"| {name} | {m:.4f} +- {se:.4f} | {gm:.4f} +- {gse:.4f} | {below} | {secs(name)} |")
    return lines


def main(argv=None) -> int:
    from solver import SOURCE_HASH
    from solver.play.players import STRATEGY_OPTIONS, options_text, parse_options

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ranks", type=int, default=3, help="ranks per suit, the highest plays the king (default 3)")
    ap.add_argument("--columns", type=int, default=4, help="columns (default 4)")
    ap.add_argument("--deals", type=int, default=200, help="deals: seeds 1..N (default 200)")
    ap.add_argument("--strategies", default=",".join(STRATEGY_OPTIONS),
                    help=f"comma-separated (default all: {','.join(STRATEGY_OPTIONS)})")
    ap.add_argument("--option", action="append", default=[], metavar="STRATEGY:KEY=VALUE",
                    help="a strategy's option, e.g. random:max_moves=300 (repeatable)")
    ap.add_argument("--variant", action="append", default=[], metavar="KEY=VALUE",
                    help="a variant setting, e.g. kings_to_bottom=false (face_down=true unless given)")
    ap.add_argument("--jobs", type=int, default=1, help="processes (default 1; seconds are per process)")
    ap.add_argument("--per-deal", action="store_true", help="also list every deal's exact values")
    ap.add_argument("--out", help="write the table (markdown) to this file too")
    ap.add_argument("--rows", help="keep every deal's exact values in this JSON-lines file as they come, and "
                                   "reuse the ones already there (same size, variant and options): a killed run resumes")
    args = ap.parse_args(argv)

    strategies = [s for s in args.strategies.split(",") if s]
    per_strategy: dict[str, list[str]] = {s: [] for s in strategies}
    for item in args.option:
        name, colon, rest = item.partition(":")
        if not colon or name not in per_strategy:
            ap.error(f"--option {item!r}: expected STRATEGY:KEY=VALUE with STRATEGY one of {', '.join(strategies)}")
        per_strategy[name].append(rest)
    options = {s: parse_options(s, per_strategy[s]) for s in strategies}
    variant = {"face_down": True}
    for item in args.variant:
        key, eq, value = item.partition("=")
        if not eq:
            ap.error(f"--variant {item!r}: expected KEY=VALUE")
        variant[key] = _value(value)

    config = {"ranks": args.ranks, "columns": args.columns, "variant": variant, "options": options}
    done = load_rows(args.rows, config)
    jobs = [(seed, args.ranks, args.columns, variant, strategies, options)
            for seed in range(1, args.deals + 1) if seed not in done or not set(strategies) <= set(done[seed]["values"])]
    wall = time.perf_counter()
    fresh = map(one_deal, jobs)
    pool = ProcessPoolExecutor(args.jobs) if args.jobs > 1 else None
    if pool:
        fresh = pool.map(one_deal, jobs)
    for n, row in enumerate(fresh, start=1):
        row["code_version"] = SOURCE_HASH
        done[row["seed"]] = row
        save_row(args.rows, config, row)
        if n % 20 == 0:
            print(f"... {n} of {len(jobs)} deals, {time.perf_counter() - wall:.0f} s", file=sys.stderr, flush=True)
    if pool:
        pool.shutdown()
    wall = time.perf_counter() - wall
    rows = [done[seed] for seed in range(1, args.deals + 1)]

    variant_text = ",".join(f"{k}={str(v).lower()}" for k, v in sorted(variant.items()))
    opts_text = "; ".join(f"{s}: {options_text(options[s])}" for s in strategies)
    command = "python experiments/exact_ceiling.py " + " ".join(shlex.quote(a) for a in (argv or sys.argv[1:]))
    lines = [f"# Exact ceiling: Baker's Dozen, {args.ranks} ranks, {args.columns} columns, {variant_text}", "",
             f"{len(rows)} deals (seeds 1..{args.deals}); strategy options: {opts_text}.  Every per-deal value is "
             "exact; +- is the standard error over deals.", ""]
    lines += table(rows, strategies)
    if args.per_deal:
        lines += ["", "| seed | optimum | thoughtful | " + " | ".join(strategies) + " |",
                  "|---" * (3 + len(strategies)) + "|"]
        for r in rows:
            cells = [str(r["seed"]), str(r["optimum"]), str(r["thoughtful"])] + [str(r["values"][s]) for s in strategies]
            lines.append("| " + " | ".join(cells) + " |")
    versions = sorted({r.get("code_version", "unknown") for r in rows})
    lines += ["", f"Command: `{command}`; code version (solver.SOURCE_HASH) {', '.join(versions)}; "
              f"{len(jobs)} deals computed in this run ({len(rows) - len(jobs)} read from --rows), "
              f"{wall:.0f} s wall clock, {args.jobs} process(es); seconds per deal are per process."]
    text = "\n".join(lines) + "\n"
    print(text, end="")
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
