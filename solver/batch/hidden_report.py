"""Every game with hidden information on one page: for each, the best measured player
beside the thoughtful rate on the same seeds, and the casual player.

    out_dir/hidden-information.md   the table, how "best" is chosen, code versions
    out_dir/hidden-information.csv  the table
    out_dir/hidden-information.png  per game: casual player, best player, thoughtful rate

Read from the strategy ladders (``play_report.build_play_report``) of each game's
hidden-information variant: Baker's Dozen ``face_down=true``, and the standard rules of
Grand Duchess, Parisienne, Duchess and Russian Patience.  The best player of a game is
the ladder row with the highest lower end of its 95% Wilson interval (so a short run's
lucky rate does not outrank a long one's); the casual player is ``eager`` where the game
has it (plays each card the moment it can, deals otherwise), else ``greedy``.
``python experiments/hidden_information.py [--out DIR | --publish]`` writes them.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd

import solver

from . import store
from .paths import DEFAULT_OUT, game_title
from .play_report import build_play_report
from .report import pct

NAME = "hidden-information"
# (game, the variant whose player does not see every card)
HIDDEN = (("bakers-dozen", "face_down=true"), ("grand-duchess", "standard"), ("parisienne", "standard"),
          ("duchess", "standard"), ("russian-patience", "standard"))


def hidden_table(out_dir=DEFAULT_OUT) -> pd.DataFrame:
    """One row per game with strategy runs on its hidden-information variant."""
    rows = []
    for game, vstr in HIDDEN:
        built = build_play_report(out_dir, game)
        if built is None:
            continue
        table = built[0]
        t = table[table["variant"] == vstr]
        if t.empty:
            continue
        best = t.sort_values(["rate_lo", "deals"], ascending=False, kind="stable").iloc[0]
        casual = t[t["strategy"] == "eager"]
        casual = casual if len(casual) else t[t["strategy"] == "greedy"]
        c = casual.iloc[0] if len(casual) else None
        rows.append({
            "game": game, "title": game_title(game), "variant": vstr,
            "best": best["label"], "best_deals": int(best["deals"]), "best_rate": best["rate"],
            "best_lo": best["rate_lo"], "best_hi": best["rate_hi"],
            "thoughtful_deals": int(best["thoughtful_deals"]), "thoughtful_lower": best["thoughtful_lower"],
            "thoughtful_upper": best["thoughtful_upper"], "of_thoughtful_lo": best["of_thoughtful_lo"],
            "of_thoughtful_hi": best["of_thoughtful_hi"],
            "casual": None if c is None else c["label"], "casual_deals": None if c is None else int(c["deals"]),
            "casual_rate": None if c is None else c["rate"], "casual_lo": None if c is None else c["rate_lo"],
            "casual_hi": None if c is None else c["rate_hi"],
            "code_versions": best["code_versions"],
        })
    return pd.DataFrame(rows)


def _interval(rate, lo, hi) -> str:
    return f"{pct(rate)} ({pct(lo)} to {pct(hi)})"


def markdown(table: pd.DataFrame, command: str) -> str:
    lines = [
        "# Playing without seeing every card: every game on one page",
        "",
        "For each game with hidden information, the best measured player (the strategy whose 95% Wilson "
        "interval has the highest lower end), the thoughtful rate on the same seeds (every card known: an "
        "upper bound for any player), and the casual player (`eager`: each card played the moment it can "
        "go, a deal otherwise; `greedy` where a game has no `eager`).  Each game's ladder, with every "
        "strategy and the paired comparisons, is its `strategies.md`; docs/PLAYERS.md says what each "
        "player sees.",
        "",
        "| game | variant | best player | deals | its win rate (95%) | thoughtful, same seeds | of thoughtful "
        "| casual player | deals | its win rate (95%) |",
        "| --- | --- | --- | ---: | --- | --- | --- | --- | ---: | --- |",
    ]
    for r in table.itertuples(index=False):
        thought = (pct(r.thoughtful_lower) if r.thoughtful_lower == r.thoughtful_upper
                   else f"{pct(r.thoughtful_lower)} to {pct(r.thoughtful_upper)}") if r.thoughtful_deals else "-"
        ratio = (f"{r.of_thoughtful_lo:.2f}" if abs(r.of_thoughtful_lo - r.of_thoughtful_hi) < 0.005
                 else f"{r.of_thoughtful_lo:.2f} to {r.of_thoughtful_hi:.2f}") if r.thoughtful_deals else "-"
        casual = ("-", "", "-") if r.casual is None else (
            f"`{r.casual}`", f"{r.casual_deals:,}", _interval(r.casual_rate, r.casual_lo, r.casual_hi))
        lines.append(f"| {r.title} | `{r.variant}` | `{r.best}` | {r.best_deals:,} | "
                     f"{_interval(r.best_rate, r.best_lo, r.best_hi)} | {thought} | {ratio} | "
                     f"{casual[0]} | {casual[1]} | {casual[2]} |")
    lines += ["", f"![best against thoughtful]({NAME}.png)", "",
              f"Made by `{command}` with code version `{solver.SOURCE_HASH}` (package {solver.__version__}); "
              "the code versions of the rows are in each game's strategies.md.", ""]
    return "\n".join(lines)


def plot(table: pd.DataFrame, path) -> None:
    """Per game three bars: the casual player, the best player (each with its 95% Wilson
    interval) and the thoughtful rate on the same seeds (lower bound solid, up to the
    upper bound hatched)."""
    from .plot import percent_axis, pyplot

    plt = pyplot()
    fig, ax = plt.subplots(figsize=(max(7.0, 2.2 * len(table) + 2.0), 5.5))
    w = 0.26
    for i, r in enumerate(table.itertuples(index=False)):
        if r.casual is not None:
            ax.bar(i - w, r.casual_rate, w, color="C1", label="casual player" if i == 0 else None)
            ax.errorbar(i - w, r.casual_rate, yerr=[[r.casual_rate - r.casual_lo], [r.casual_hi - r.casual_rate]],
                        fmt="none", ecolor="black", capsize=3, lw=1)
            ax.text(i - w, 0.01, r.casual, rotation=90, ha="center", va="bottom", fontsize=7)
        ax.bar(i, r.best_rate, w, color="C0", label="best measured player" if i == 0 else None)
        ax.errorbar(i, r.best_rate, yerr=[[r.best_rate - r.best_lo], [r.best_hi - r.best_rate]], fmt="none",
                    ecolor="black", capsize=3, lw=1)
        ax.text(i, 0.01, r.best, rotation=90, ha="center", va="bottom", fontsize=7, color="white")
        if r.thoughtful_deals:
            ax.bar(i + w, r.thoughtful_lower, w, color="grey", label="thoughtful (every card known)" if i == 0 else None)
            ax.bar(i + w, r.thoughtful_upper - r.thoughtful_lower, w, bottom=r.thoughtful_lower, color="white",
                   edgecolor="grey", hatch="///", label="thoughtful: still unknown" if i == 0 else None)
    ax.set_xticks(range(len(table)), [f"{r.title}\n{r.variant}" for r in table.itertuples(index=False)],
                  fontsize="small")
    ax.set_ylim(0, 1.05)
    percent_axis(ax)
    ax.set_ylabel("win rate, the same seeds")
    ax.set_title("Seeing only what a player sees: the best measured player against the thoughtful rate")
    ax.grid(axis="y", alpha=0.3)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.12), ncol=4, fontsize="small", frameon=False)
    fig.text(0.01, 0.01, f"code {solver.SOURCE_HASH}; see {NAME}.md", fontsize=7, family="monospace", va="bottom")
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    fig.savefig(path, dpi=110, format="png")
    plt.close(fig)


def write_hidden_report(out_dir=DEFAULT_OUT, command: str | None = None) -> Path | None:
    """hidden-information.{md,csv,png} in out_dir; None when no game has strategy runs."""
    table = hidden_table(out_dir)
    if table.empty:
        return None
    command = command or " ".join(["python"] + sys.argv)
    folder = store.ensure_writable_dir(Path(out_dir))
    text = table.to_csv(index=False)
    store.atomic_write(folder / f"{NAME}.csv", lambda tmp: Path(tmp).write_text(text))
    md = markdown(table, command)
    store.atomic_write(folder / f"{NAME}.md", lambda tmp: Path(tmp).write_text(md))
    store.atomic_write(folder / f"{NAME}.png", lambda tmp: plot(table, tmp))
    return folder / f"{NAME}.md"
