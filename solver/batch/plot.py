"""winrates.png: each variant's win rate (or, while deals are unknown, its lower bound
won / deals and how far up unknowns could take it), and the deeper samples."""

from __future__ import annotations

import pandas as pd

from .paths import game_title

CAPTION = "commands: see winrates.md"


def pyplot():
    import matplotlib

    matplotlib.use("Agg")  # files only: no display on servers and CI
    import matplotlib.pyplot as plt

    return plt


def percent_axis(ax) -> None:
    from matplotlib.ticker import PercentFormatter

    ax.yaxis.set_major_formatter(PercentFormatter(xmax=1, decimals=None))


def plot_report(game_name: str, table: pd.DataFrame, path) -> None:
    plt = pyplot()
    n = len(table)
    width = min(14.0, max(6.0, 1.5 * n + 2.5))
    fig, ax = plt.subplots(figsize=(width, 5.2))
    x = pd.Series(range(n), index=table.index, dtype=float)
    won = table["won"] / table["deals"]
    below = (won - table["lower_bound_lo"]).clip(lower=0)  # clip: rounding noise only
    above = (table["lower_bound_hi"] - won).clip(lower=0)
    decided = table["unknown"] == 0
    if decided.any():
        ax.errorbar(x[decided], won[decided], yerr=[below[decided], above[decided]], fmt="o", capsize=5,
                    color="C0", label="win rate (every deal decided), 95% Wilson")
    if (~decided).any():
        ax.errorbar(x[~decided], won[~decided], yerr=[below[~decided], above[~decided]], fmt="o", mfc="white",
                    capsize=5, color="C0", label="lower bound: won / deals (unknown counted lost), 95% Wilson")
        unk = table[~decided]
        # Unknown deals could all be wins: show how far up the rate could go.
        ax.vlines(x[~decided], unk["lower_bound_hi"], unk["upper_bound_hi"], colors="grey", linestyles="dotted",
                  label="upper bound: unknown counted won (up to its Wilson upper end)")
        ax.plot(x[~decided], unk["upper_bound"], "^", color="grey")
    shown = table["sample_seeds"].notna() & table["sample_tighter"].fillna(False).astype(bool)
    samples = table[shown]
    if not samples.empty:
        beside = x[shown] + 0.18  # right of the run's own point
        share = samples["sample_lower_bound"]
        ax.errorbar(beside, share,
                    yerr=[(share - samples["sample_lower_bound_lo"]).clip(lower=0),
                          (samples["sample_lower_bound_hi"] - share).clip(lower=0)],
                    fmt="s", mfc="none", capsize=4, color="C1",
                    label="lower bound on a seed sample at a larger node budget (winrates.md), 95% Wilson")
        unsettled = (samples["sample_unknown"] > 0).to_numpy()
        if unsettled.any():
            # the sample's own ceiling (its unknowns counted won), often far below the run's
            open_rows = samples[unsettled]
            ax.vlines(beside[unsettled], open_rows["sample_lower_bound_hi"], open_rows["sample_upper_bound_hi"],
                      colors="C1", linestyles="dotted", label="upper bound on that sample")
            ax.plot(beside[unsettled], open_rows["sample_upper_bound"], "^", mfc="none", color="C1")
    ax.set_xticks(list(x), [f"{v}\n({d:,} deals)" for v, d in zip(table["variant"], table["deals"])])
    ax.set_xlim(-0.6, n - 0.4)
    ax.set_ylim(-0.03, 1.03)
    percent_axis(ax)
    ax.set_ylabel("win rate (every card known)")
    ax.set_title(f"{game_title(game_name)}: win rate by variant")
    ax.grid(axis="y", alpha=0.3)
    handles, labels = ax.get_legend_handles_labels()
    order = ("win rate", "lower bound: ", "upper bound: ", "lower bound on", "upper bound on")
    pairs = sorted(zip(handles, labels), key=lambda hl: next(i for i, o in enumerate(order + ("",))
                                                             if hl[1].startswith(o)))
    ax.legend([h for h, _ in pairs], [lab for _, lab in pairs], loc="best", fontsize="small", framealpha=0.85)
    fig.text(0.01, 0.01, CAPTION, fontsize=7, family="monospace", va="bottom")
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    fig.savefig(path, dpi=110, format="png")
    plt.close(fig)
