"""Plot: win rate against the number of redeals, one line per game, from the runs
under results/runs/ (``patience winrate GAME redeals=K ...``).

    python experiments/plot_redeals.py                                   # Grand Duchess and Parisienne
    python experiments/plot_redeals.py --games capricieuse --out results/capricieuse/winrate_vs_redeals.png

Each point is won / deals with its 95% Wilson interval: the win rate where every deal
is decided (a filled dot), else a lower bound (unknown counted lost; a hollow dot),
with a dotted line up to the upper bound (every unknown counted won, to the Wilson
upper end of that bound), so the true rate lies between the point's interval and the
line's top.  Each game's points use the seeds that all its runs have, so every point
is the same decks (paired); the commands that made the runs are in each game's
winrates.md.  A hollow square is the won share on a seed sample that a
``--retry-unknown`` run searched with a larger budget, counted at that budget
(solver.batch.retry_sample), with its Wilson interval and its seeds and budget written
beside it: a tighter lower bound where the first pass was shallow.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from solver.batch import game_title, load_variants, retry_sample
from solver.batch.plot import percent_axis
from solver.games import get_game
from solver.stats import summarize


def redeal_points(out_dir: str, game_name: str) -> list[tuple[int, dict, list[str], dict | None]]:
    """(redeals, summary, commands, retry sample or None) for every run of the game
    that differs from the standard rules at most in ``redeals``, each summarised over
    the seeds that all of them have (paired: the same decks at every point).  The
    sample is given only where its bounds are tighter than its run's."""
    default = get_game(game_name).VARIANTS["redeals"][-1]
    runs = []
    for vstr, (df, meta, sup) in load_variants(out_dir, game_name).items():
        if vstr == "standard":
            k = default
        elif vstr.startswith("redeals=") and " " not in vstr:
            k = int(vstr.split("=")[1])
        else:
            continue
        sample = retry_sample(df, meta.get("runs", []), sup)
        runs.append((k, df, meta.get("commands", []), sample if sample and sample["tighter"] else None))
    if not runs:
        return []
    common = set.intersection(*(set(df["seed"]) for _, df, _, _ in runs))
    points = [(k, summarize(df[df["seed"].isin(common)]["result"]), cmds, sample)
              for k, df, cmds, sample in runs]
    return sorted(points, key=lambda p: p[0])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", default="grand-duchess,parisienne")
    ap.add_argument("--results", default="results", help="the results folder holding runs/")
    ap.add_argument("--out", default="results/grand-duchess/winrate_vs_redeals.png")
    args = ap.parse_args()

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    series = [(game, redeal_points(args.results, game)) for game in args.games.split(",")]
    made_by = "made by: python experiments/plot_redeals.py " + " ".join(
        f"--{k} {v}" for k, v in (("games", args.games), ("results", args.results), ("out", args.out)))
    fig, ax = plt.subplots(figsize=(7.5, 5.2))
    for i, (game, pts) in enumerate(series):
        if not pts:
            continue
        shift = (i - (len(series) - 1) / 2) * 0.06  # side by side, not on top of each other
        xs = [k + shift for k, _, _, _ in pts]
        won = [s["won"] / s["n"] for _, s, _, _ in pts]
        lo = [max(0.0, w - s["lower_bound_lo"]) for w, (_, s, _, _) in zip(won, pts)]
        hi = [max(0.0, s["lower_bound_hi"] - w) for w, (_, s, _, _) in zip(won, pts)]
        line = ax.errorbar(xs, won, yerr=[lo, hi], fmt="-", capsize=4,
                           label=f"{game_title(game)}: won / deals,\nthe same {pts[0][1]['n']:,} decks each, 95% Wilson")
        colour = line[0].get_color()
        for x, w, (_, s, _, sample) in zip(xs, won, pts):
            # a filled dot: the rate; hollow: a lower bound (unknown deals remain)
            ax.plot(x, w, "o", color=colour, mfc=colour if s["unknown"] == 0 else "white")
            if s["unknown"]:
                ax.vlines(x, s["lower_bound_hi"], s["upper_bound_hi"], colors=colour, linestyles="dotted")
                ax.plot(x, s["upper_bound"], "^", color=colour, alpha=0.6)
            if sample is not None:
                share = sample["lower_bound"]
                xsample = x + 0.12 * (1 if i % 2 else -1)
                ax.errorbar(xsample, share,
                            yerr=[[max(0.0, share - sample["lower_bound_lo"])],
                                  [max(0.0, sample["lower_bound_hi"] - share)]],
                            fmt="s", mfc="none", color=colour, capsize=3)
                if sample["unknown"]:
                    # the sample's own ceiling (its unknowns counted won), often far lower
                    ax.vlines(xsample, sample["lower_bound_hi"], sample["upper_bound_hi"], colors=colour,
                              linestyles="dotted")
                    ax.plot(xsample, sample["upper_bound"], "^", mfc="none", color=colour)
                ax.annotate(f"seeds {sample['seeds']}, {sample['budget']:,} nodes", (x, share),
                            xytext=(-8 if i % 2 == 0 else 8, 9), textcoords="offset points",
                            ha="right" if i % 2 == 0 else "left", va="center", fontsize=7, color=colour)
    # legend entries for the kinds of points drawn
    summaries = [s for _, pts in series for _, s, _, _ in pts]
    samples = [p for _, pts in series for _, _, _, p in pts if p is not None]
    if any(s["unknown"] == 0 for s in summaries):
        ax.plot([], [], "o", color="grey", label="win rate: every deal decided")
    if any(s["unknown"] for s in summaries):
        ax.plot([], [], "o", color="grey", mfc="white", label="lower bound: unknown deals counted lost")
        ax.plot([], [], "^:", color="grey", label="upper bound: unknown counted won")
    if samples:
        ax.plot([], [], "s", mfc="none", color="grey",
                label="lower bound on a seed sample searched\nwith a larger budget, 95% Wilson")
    if any(p["unknown"] for p in samples):
        ax.plot([], [], "^:", mfc="none", color="grey", label="upper bound on that sample")
    most = max((k for _, pts in series for k, _, _, _ in pts), default=3)
    ax.set_xticks(range(0, 1 + most))
    ax.set_xlim(-0.9, 0.9 + most)
    ax.set_xlabel("redeals allowed")
    ax.set_ylabel("win rate (every card known)")
    ax.set_ylim(-0.02, 1.02)
    percent_axis(ax)
    ax.set_title("Win rate against redeals")
    ax.grid(alpha=0.3)
    # left of the redeals=1 points, where nothing is drawn: "best" hid a sample's square
    ax.legend(loc="center left", bbox_to_anchor=(0.0, 0.62), fontsize="x-small", framealpha=0.8)
    fig.text(0.01, 0.01, made_by + "\ncommands: see each game's winrates.md", fontsize=6, family="monospace",
             va="bottom")
    fig.tight_layout(rect=(0, 0.045, 1, 1))
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(args.out, dpi=110)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
