"""The `redeals=1` sample of Grand Duchess and Parisienne, stretch by stretch, from the
rows themselves (issue 19): results/README.md's table of it is this script's output.

    python experiments/redeal_one_stretches.py                 # both games, results/
    python experiments/redeal_one_stretches.py parisienne --min-seconds 60 --out results

The sample is seeds 1..N, N the largest for which every seed has a row searched with
at least ``--min-seconds`` a deal (the complete DFS; the 100,000-deck row's first passes
ran at 10 to 150 s with small node budgets and prove nothing lost).  A stretch is the
rows of one code (source hash) at one budget, superseded rows included: a deal left
unknown and searched again later counts in both stretches, its better row in the
sample.  Printed per stretch: its seeds, rows, lost, median seconds of a loss, the
seconds spent; then the sample's counts and its upper bound on the win rate (no
`redeals=1` win is known, so the lower bound is the won count, 0 so far).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pandas as pd

from solver.batch import store
from solver.stats import summarize, summarize_counts

GAMES = ("grand-duchess", "parisienne")


def sample_end(deals: pd.DataFrame, min_seconds: float) -> int:
    """The largest N such that seeds 1..N all have a row of at least min_seconds."""
    seeds = set(deals.loc[deals["max_seconds"] >= min_seconds, "seed"].tolist())
    n = 0
    while n + 1 in seeds:
        n += 1
    return n


def stretches(out: Path, game: str, min_seconds: float) -> tuple[pd.DataFrame, dict]:
    folder = out / "runs" / game / "redeals=1"
    deals, sup = store.read_store(folder)
    n = sample_end(deals, min_seconds)
    rows = pd.concat([deals, sup], ignore_index=True)
    rows = rows[(rows["seed"] <= n) & (rows["max_seconds"] >= min_seconds)]
    lost = rows["result"] == "lost"
    table = (rows.assign(lost=lost, lost_s=rows["seconds"].where(lost))
             .groupby(["code_version", "max_seconds"], sort=False, observed=True)
             .agg(first=("seed", "min"), last=("seed", "max"), rows=("seed", "size"), lost=("lost", "sum"),
                  median_lost_s=("lost_s", "median"), seconds=("seconds", "sum"))
             .reset_index().sort_values(["first", "last"], kind="stable"))
    best = summarize(deals.loc[deals["seed"] <= n, "result"])
    return table, {"seeds": n, **{r: best[r] for r in ("won", "lost", "unknown")}}


def markdown(game: str, table: pd.DataFrame, total: dict) -> str:
    lines = [f"{game} `redeals=1`, seeds 1..{total['seeds']:,}:", "",
             "| code (source hash) | seconds a deal | seeds | deals | lost | median s of a loss | seconds |",
             "| --- | ---: | --- | ---: | ---: | ---: | ---: |"]
    for r in table.itertuples():
        share = f"{r.lost} ({r.lost / r.rows:.0%})"
        med = "" if pd.isna(r.median_lost_s) else f"{r.median_lost_s:.1f}"
        lines.append(f"| {r.code_version} | {r.max_seconds:g} | {r.first}..{r.last} | {r.rows} | {share} | {med} "
                     f"| {r.seconds:,.0f} |")
    n, won, unknown = total["seeds"], total["won"], total["unknown"]
    b = summarize_counts(won, total["lost"], unknown)
    lines += ["", f"sample: {won} won, {total['lost']} lost, {unknown} unknown of {n:,}: one redeal wins "
              f"{b['lower_bound']:.1%} to {b['upper_bound']:.1%} (upper end of Wilson {b['upper_bound_hi']:.1%})"
              if n else "sample: empty"]
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("games", nargs="*", metavar="GAME", help=f"of {', '.join(GAMES)} (default: both)")
    ap.add_argument("--out", default="results", help="the results folder (default: results)")
    ap.add_argument("--min-seconds", type=float, default=60.0)
    args = ap.parse_args()
    bad = [g for g in args.games if g not in GAMES]
    if bad:
        ap.error(f"no redeals=1 sample for {', '.join(bad)}: choose from {', '.join(GAMES)}")
    for game in args.games or GAMES:
        print(markdown(game, *stretches(Path(args.out), game, args.min_seconds)))
        print()


if __name__ == "__main__":
    main()
