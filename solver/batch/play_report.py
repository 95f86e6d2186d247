"""A game's strategy report: the ladder of strategy win rates beside the thoughtful
bounds on the same seeds, the paired comparisons, and the plot.

    out_dir/<game>/strategies.md          the ladder, the paired tables, code versions, commands
    out_dir/<game>/strategies.csv         the ladder, one row per variant and strategy folder
    out_dir/<game>/strategies-paired.csv  the paired comparisons
    out_dir/<game>/strategies.png         bars with Wilson intervals and the thoughtful band

next to ``winrates.{md,csv,png}``.  Rebuilt after every ``patience play --deals`` run
and by ``patience report GAME``.

The thoughtful rows of a strategy folder are those of its variant's winrate folder,
except that ``face_down=true`` reads the same variant with ``face_down=false``: with
every card known the two games are the same game.  A strategy win of a deal those rows
say is lost (lost by a proof: exhausted search or the dead-end test) is impossible;
the report raises ``PlayerBug`` naming the seeds and writes nothing.
"""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd

import solver

from ..stats import mcnemar_p, summarize, summarize_counts, wilson
from . import store
from .paths import DEFAULT_OUT, game_title, report_folder, variant_folder
from .play import PlayerBug, play_folders, read_play_rows
from .report import pct

LADDER = "strategies"


# ------------------------------------------------------------------ statistics


def paired_difference_ci(both: int, a_only: int, b_only: int, neither: int, z: float = 1.96) -> tuple[float, float]:
    """95% interval (z=1.96) for the difference of two paired win rates, rate A - rate
    B = (a_only - b_only) / n: Newcombe's method 10 (Newcombe 1998, Statistics in
    Medicine 17:2635), the two Wilson intervals of the marginal rates combined with
    their correlation phi (corrected as Newcombe does: ad - bc above n/2 is reduced by
    n/2, from 0 to n/2 counts as 0, below 0 is kept).  Stays inside [-1, 1] and
    behaves well near 0 and 1, where these rates live; (-1, 1) for no deals."""
    n = both + a_only + b_only + neither
    if n <= 0:
        return (-1.0, 1.0)
    wa, wb = both + a_only, both + b_only
    p1, p2 = wa / n, wb / n
    l1, u1 = wilson(wa, n, z)
    l2, u2 = wilson(wb, n, z)
    denom = wa * (n - wa) * wb * (n - wb)
    phi = 0.0
    if denom > 0:
        ad_bc = both * neither - a_only * b_only
        corrected = ad_bc - n / 2 if ad_bc > n / 2 else (ad_bc if ad_bc < 0 else 0)
        phi = corrected / math.sqrt(denom)
    d = p1 - p2
    lo = d - math.sqrt(max(0.0, (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2))
    hi = d + math.sqrt(max(0.0, (p2 - l2) ** 2 - 2 * phi * (p2 - l2) * (u1 - p1) + (u1 - p1) ** 2))
    return (max(-1.0, min(lo, d)), min(1.0, max(hi, d)))


def paired_play(da: pd.DataFrame, db: pd.DataFrame) -> dict:
    """Two strategy runs deal by deal on their common seeds (columns seed, won).
    b = ``a_only`` (won by A, lost by B), c = ``b_only``; p: exact two-sided McNemar;
    diff = rate A - rate B on the common seeds, with Newcombe's interval."""
    m = pd.merge(pd.DataFrame({"seed": da["seed"].to_numpy(), "a": da["won"].astype(bool).to_numpy()}),
                 pd.DataFrame({"seed": db["seed"].to_numpy(), "b": db["won"].astype(bool).to_numpy()}), on="seed")
    a, b = m["a"].to_numpy(), m["b"].to_numpy()
    n = len(m)
    both = int((a & b).sum())
    a_only = int((a & ~b).sum())
    b_only = int((~a & b).sum())
    neither = n - both - a_only - b_only
    lo, hi = paired_difference_ci(both, a_only, b_only, neither)
    return {"common": n, "a_won": both + a_only, "b_won": both + b_only, "both_won": both, "a_only": a_only,
            "b_only": b_only, "neither": neither, "p": mcnemar_p(a_only, b_only),
            "diff": (a_only - b_only) / n if n else math.nan, "diff_lo": lo, "diff_hi": hi}


# ------------------------------------------------------------------ what is on disk


def thoughtful_variant(variant: dict) -> dict:
    """The variant whose solver rows give the thoughtful answer: every card known, so
    ``face_down`` makes no difference (Baker's Dozen) and reads as false."""
    return {**variant, "face_down": False} if "face_down" in variant else dict(variant)


# One strategy folder: a dict of folder, rows (one per seed), meta (command.json),
# variant (full dict), vstr, strategy, options (text), rng_seed, label, thoughtful
# (the variant string of its thoughtful rows).
Run = dict


def load_play_runs(out_dir, game_name: str) -> list[Run]:
    """Every strategy folder of the game with rows, its variant dict (full) and the
    thoughtful variant string."""
    folders = play_folders(out_dir, game_name)
    if not folders:
        return []
    from ..games import get_game
    from ..play import players
    from ..variants import full_variant, parse_variant, variant_str

    spec = get_game(game_name).VARIANTS
    runs = []
    for folder in folders:
        rows = read_play_rows(folder)
        if rows.empty:
            continue
        meta = store.read_command(folder)
        vstr = meta.get("variant") or str(rows["variant"].iloc[0])
        if isinstance(meta.get("variant_options"), dict):
            variant = full_variant(game_name, spec, meta["variant_options"])
        else:
            variant = parse_variant(game_name, spec, [] if vstr == "standard" else vstr.split())
        strategy = meta.get("strategy") or str(rows["strategy"].iloc[0])
        otext = meta.get("options_text") or str(rows["options"].iloc[0])
        runs.append(dict(game=game_name, folder=folder.relative_to(out_dir).as_posix(), rows=rows, meta=meta, variant=variant, vstr=vstr, strategy=strategy,
                        options=otext, rng_seed=meta.get("rng_seed"),
                        label=_label(players, strategy, meta.get("strategy_options"), otext, meta.get("rng_seed")),
                        thoughtful=variant_str(thoughtful_variant(variant), spec)))
    # two folders that read the same against today's defaults: name them in full
    keys = [(r["vstr"], r["label"]) for r in runs]
    for r, k in zip(runs, keys):
        if keys.count(k) > 1:
            r["label"] = " ".join([r["strategy"], r["options"]] + ([] if r["rng_seed"] is None
                                                                    else [f"rng{r['rng_seed']}"]))
    return runs


def _label(players, strategy: str, options, otext: str, rng_seed) -> str:
    """The strategy's name with the options that differ from today's defaults (all of
    them when the strategy is no longer known), and the batch rng seed if any."""
    words = [strategy]
    if strategy in players.STRATEGY_OPTIONS and isinstance(options, dict):
        table = players.option_table(strategy)
        changed = {k: v for k, v in options.items() if k not in table or table[k][1] != v}
        if changed:
            words.append(players.options_text(changed))
    elif otext:
        words.append(otext)
    if rng_seed is not None:
        words.append(f"rng{rng_seed}")
    return " ".join(words)


def _variant_order(vstr: str) -> tuple:
    return (vstr != "standard", vstr)


# ------------------------------------------------------------------ the tables


def ladder_table(runs: list[Run], thoughtful: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """One row per strategy folder: the strategy's rate and Wilson interval, and the
    thoughtful bounds on the same seeds (those with a solver row).  Raises PlayerBug
    if a strategy won a deal its thoughtful rows say is lost."""
    rows, impossible = [], []
    for r in runs:
        df = r["rows"]
        n = len(df)
        won = int(df["won"].sum())
        s = summarize_counts(won, n - won, 0)
        t = thoughtful.get(r["thoughtful"])
        t = t if t is not None else store.empty_rows()
        common = pd.merge(df[["seed", "won"]], pd.DataFrame({"seed": t["seed"].to_numpy(),
                                                             "result": t["result"].astype(object).to_numpy()}),
                          on="seed")
        bad = common[common["won"] & (common["result"] == "lost")]
        if len(bad):
            seeds = ", ".join(str(int(x)) for x in bad["seed"][:20]) + (" ..." if len(bad) > 20 else "")
            impossible.append(f"{r['label']} on {r['vstr']} won {len(bad)} deal{'s' if len(bad) > 1 else ''} "
                              f"that the solver proved lost (runs/{r['game']}/{r['thoughtful']}; seeds {seeds})")
        ts = summarize(common["result"]) if len(common) else None
        t_won = ts["won"] if ts else 0
        t_unknown = ts["unknown"] if ts else 0
        s_won_common = int(common["won"].sum())
        rows.append({
            "variant": r["vstr"], "strategy": r["strategy"], "label": r["label"], "options": r["options"],
            "rng_seed": r["rng_seed"], "deals": n, "seeds": _seed_range(df["seed"]), "won": won,
            "rate": s["rate"], "rate_lo": s["rate_lo"], "rate_hi": s["rate_hi"],
            "stopped": int(df["stopped"].sum()), "median_moves": float(df["moves"].median()),
            "median_decisions": float(df["decisions"].median()), "median_seconds": float(df["seconds"].median()),
            "thoughtful_variant": r["thoughtful"], "thoughtful_deals": len(common),
            "thoughtful_won": t_won, "thoughtful_lost": ts["lost"] if ts else 0, "thoughtful_unknown": t_unknown,
            "thoughtful_lower": ts["lower_bound"] if ts else math.nan,
            "thoughtful_lower_lo": ts["lower_bound_lo"] if ts else math.nan,
            "thoughtful_upper": ts["upper_bound"] if ts else math.nan,
            "thoughtful_upper_hi": ts["upper_bound_hi"] if ts else math.nan,
            "won_on_thoughtful_seeds": s_won_common,
            "won_where_solver_unknown": int((common["won"] & (common["result"] == "unknown")).sum()),
            # rate / thoughtful rate on the common seeds: between these two while unknowns remain
            "of_thoughtful_lo": s_won_common / (t_won + t_unknown) if t_won + t_unknown else math.nan,
            "of_thoughtful_hi": s_won_common / t_won if t_won else math.nan,
            "code_versions": "; ".join(f"{v}: {k}" for v, k in
                                       df["code_version"].astype(str).value_counts().sort_index().items()),
            "command": r["meta"].get("command", ""),
            "folder": str(r["folder"]),
        })
    if impossible:
        raise PlayerBug("impossible wins, a bug in a player, the referee or the solver (the strategy report is "
                        "not written): " + "; ".join(impossible))
    table = pd.DataFrame(rows)
    if table.empty:
        return table
    table["_v"] = table["variant"].map(_variant_order)
    table = table.sort_values(["_v", "rate", "label"], ascending=[True, False, True], kind="stable")
    return table.drop(columns="_v").reset_index(drop=True)


def _seed_range(seeds: pd.Series) -> str:
    lo, hi = int(seeds.min()), int(seeds.max())
    return f"{lo}..{hi}" if hi - lo + 1 == len(seeds) else f"{lo}..{hi} with gaps"


def pairs_table(runs: list[Run], table: pd.DataFrame) -> pd.DataFrame:
    """Paired comparisons on common seeds: every two strategy runs of one variant (A
    the higher on the ladder), and each strategy face up (A) against face down (B),
    same options, same rng rule ("what seeing the cards is worth")."""
    by_folder = {str(r["folder"]): r for r in runs}
    order = [by_folder[f] for f in table["folder"]] if len(table) else []
    out = []
    for i, a in enumerate(order):
        for b in order[i + 1:]:
            if a["vstr"] == b["vstr"]:
                out.append(("strategies", a, b))
    for a in order:
        if a["variant"].get("face_down") is not False:
            continue
        for b in order:
            if (b["variant"] == {**a["variant"], "face_down": True} and b["strategy"] == a["strategy"]
                    and b["options"] == a["options"] and b["rng_seed"] == a["rng_seed"]):
                out.append(("face up vs face down", a, b))
    rows = []
    for kind, a, b in out:
        p = paired_play(a["rows"], b["rows"])
        if p["common"]:
            rows.append({"comparison": kind, "variant_a": a["vstr"], "a": a["label"], "variant_b": b["vstr"],
                         "b": b["label"], **p})
    return pd.DataFrame(rows)


# ------------------------------------------------------------------ the files


def _markdown(game_name: str, table: pd.DataFrame, pairs: pd.DataFrame, runs: list[Run]) -> str:
    face_down = [v for v in table["variant"].unique() if "face_down=true" in str(v).split()]
    lines = [
        f"# {game_title(game_name)}: strategy win rates",
        "",
        "Each strategy plays seeded deals seeing only what a player sees (docs/PLAYERS.md); the "
        "decks are those of the win-rate runs (`seeded_deck(seed)`), so every comparison below is "
        "paired.  Rate = won / deals with its 95% Wilson interval (a game that hit `max_moves` "
        "counts as lost).  Beside it, the thoughtful solver's answer on the same seeds (every card "
        "known): lower bound = unknown counted lost, upper bound = unknown counted won, in brackets "
        "the outer ends of their Wilson intervals, over the seeds that have a solver row "
        "(\"solver deals\"; fewer than the strategy's when the win-rate run covered fewer seeds).  "
        "\"of thoughtful\": the strategy's wins on those seeds over the solver's wins there (a range "
        "while the solver left deals unknown).",
    ]
    if face_down:
        lines += ["", "For `face_down=true` the thoughtful bounds are read from the same variant with "
                  "`face_down=false`: with every card known the two games are the same game."]
    lines += [
        "",
        "## The strategy ladder",
        "",
        "| variant | strategy | deals | seeds | won | rate | 95% interval | stopped | thoughtful lower..upper "
        "| solver deals | of thoughtful | won where solver unknown | median moves | median s |",
        "| --- | --- | ---: | --- | ---: | ---: | --- | ---: | --- | ---: | --- | ---: | ---: | ---: |",
    ]
    for r in table.itertuples(index=False):
        lines.append(
            f"| {r.variant} | {r.label} | {r.deals} | {r.seeds} | {r.won} | {pct(r.rate)} "
            f"| {pct(r.rate_lo)}..{pct(r.rate_hi)} | {r.stopped} | {_thoughtful_cell(r)} | {r.thoughtful_deals} "
            f"| {_ratio_cell(r.of_thoughtful_lo, r.of_thoughtful_hi)} | {r.won_where_solver_unknown} "
            f"| {r.median_moves:g} | {r.median_seconds:.4f} |"
        )
    best = _best_lines(table)
    if best:
        lines += ["", "## The best strategy against the thoughtful rate", ""] + best
    for kind, title, text in (
        ("strategies", "Paired comparisons on common seeds",
         "Two strategies on the same variant, A the higher on the ladder.  b: deals won by A and lost "
         "by B; c: won by B and lost by A; p: exact two-sided McNemar test (binomial on the b + c "
         "discordant deals); A - B: the difference of the win rates on the common seeds, with its 95% "
         "interval (Newcombe's method 10 for paired rates)."),
        ("face up vs face down", "What seeing the cards is worth",
         "The same strategy and options face up (A, every card known) and face down (B), on the "
         "same seeds; columns as above."),
    ):
        part = pairs[pairs["comparison"] == kind] if len(pairs) else pairs
        if part.empty:
            continue
        lines += ["", f"## {title}", "", text, "",
                  "| A | B | common seeds | A won | B won | b (A only) | c (B only) | p | A - B | 95% interval |",
                  "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"]
        for p in part.itertuples(index=False):
            lines.append(
                f"| {p.variant_a}: {p.a} | {p.variant_b}: {p.b} | {p.common} | {p.a_won} | {p.b_won} | {p.a_only} "
                f"| {p.b_only} | {_p_text(p.p)} | {_signed_pct(p.diff)} | {_signed_pct(p.diff_lo)}..{_signed_pct(p.diff_hi)} |"
            )
    lines += ["", "## Code versions", "",
              "The code that made each strategy row (`solver.SOURCE_HASH`), and the rows it made; the "
              "thoughtful rows' own versions are in winrates.md.", "",
              "| variant | strategy | code version | rows |", "| --- | --- | --- | ---: |"]
    for r in runs:
        for version, k in r["rows"]["code_version"].astype(str).value_counts().sort_index().items():
            lines.append(f"| {r['vstr']} | {r['label']} | `{version}` | {k} |")
    commands = []
    for r in runs:
        for c in r["meta"].get("commands", []):
            if c not in commands:
                commands.append(c)
    lines += ["", "## Commands", "", "The runs behind these rows, in the order each was first used "
              "(the thoughtful rows: see winrates.md):", ""]
    lines += [f"- `{c}`" for c in commands]
    lines += ["", f"Report written by code version `{solver.SOURCE_HASH}` (package {solver.__version__})."]
    return "\n".join(lines) + "\n"


def _thoughtful_cell(r) -> str:
    if not r.thoughtful_deals:
        return "no solver rows"
    if r.thoughtful_unknown == 0:
        return f"{pct(r.thoughtful_lower)} ({pct(r.thoughtful_lower_lo)}..{pct(r.thoughtful_upper_hi)})"
    return (f"{pct(r.thoughtful_lower)}..{pct(r.thoughtful_upper)} "
            f"({pct(r.thoughtful_lower_lo)}..{pct(r.thoughtful_upper_hi)})")


def _ratio_cell(lo, hi) -> str:
    if lo is None or (isinstance(lo, float) and math.isnan(lo)):
        return "-"
    if hi is None or (isinstance(hi, float) and math.isnan(hi)):
        return f"at least {pct(lo)}"
    return pct(lo) if abs(hi - lo) < 1e-12 else f"{pct(lo)}..{pct(hi)}"


def _p_text(p: float) -> str:
    """A p-value as text; one too small for a float prints as a bound, not as 0."""
    return "< 1e-300" if p < 1e-300 else f"{p:.3g}"


def _signed_pct(x) -> str:
    """+3.1%, -0.5%, 0.0%."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-"
    if x == 0:
        return pct(0.0)
    return ("+" if x > 0 else "-") + pct(abs(x))


def _best_lines(table: pd.DataFrame) -> list[str]:
    out = []
    for vstr in table["variant"].unique():
        part = table[(table["variant"] == vstr) & (table["thoughtful_deals"] > 0)]
        if part.empty:
            continue
        r = part.iloc[0]  # the ladder is sorted by rate within a variant
        out.append(f"- {vstr}: {r['label']} wins {pct(r['rate'])} of {r['deals']} deals; on the "
                   f"{r['thoughtful_deals']} with a solver row that is "
                   f"{_ratio_cell(r['of_thoughtful_lo'], r['of_thoughtful_hi'])} of the solver's wins "
                   f"(thoughtful {_thoughtful_cell(r)}).")
    return out


def _thoughtful_rows(out_dir, game_name: str, runs: list[Run]) -> dict[str, pd.DataFrame]:
    found = {}
    for r in runs:
        v = r["thoughtful"]
        if v not in found:
            found[v] = store.read_rows(variant_folder(out_dir, game_name, v))
    return found


def build_play_report(out_dir, game_name: str):
    """(ladder, pairs, runs) from disk, or None when the game has no strategy runs;
    PlayerBug if a strategy won a deal the solver proved lost."""
    runs = load_play_runs(out_dir, game_name)
    if not runs:
        return None
    table = ladder_table(runs, _thoughtful_rows(out_dir, game_name, runs))
    return table, pairs_table(runs, table), runs


def write_play_report(game_name: str, out_dir=DEFAULT_OUT) -> Path | None:
    """Rebuild strategies.md / .csv / -paired.csv / .png from the strategy runs on
    disk; the markdown path, or None when the game has none.  Nothing is written when
    a strategy won a deal the solver proved lost (PlayerBug)."""
    built = build_play_report(out_dir, game_name)
    if built is None:
        return None
    table, pairs, runs = built
    rank = {f: i for i, f in enumerate(table["folder"])}
    runs = sorted(runs, key=lambda r: rank[str(r["folder"])])
    folder = store.ensure_writable_dir(report_folder(out_dir, game_name))
    for name, df in ((f"{LADDER}.csv", table), (f"{LADDER}-paired.csv", pairs)):
        text = df.to_csv(index=False)
        store.atomic_write(folder / name, lambda tmp, text=text: Path(tmp).write_text(text))
    md = folder / f"{LADDER}.md"
    text = _markdown(game_name, table, pairs, runs)
    store.atomic_write(md, lambda tmp: Path(tmp).write_text(text))
    store.atomic_write(folder / f"{LADDER}.png", lambda tmp: plot_ladder(game_name, table, tmp))
    return md


# ------------------------------------------------------------------ the plot


def plot_ladder(game_name: str, table: pd.DataFrame, path) -> None:
    """strategies.png: a bar per ladder row (its win rate, 95% Wilson interval), and
    behind it the thoughtful band on the same seeds: shaded from the lower to the
    upper bound, dotted out to their Wilson ends."""
    from .plot import percent_axis, pyplot

    plt = pyplot()
    n = len(table)
    fig, ax = plt.subplots(figsize=(min(18.0, max(8.0, 1.6 * n + 3.0)), 5.8))
    xs, x, last = [], 0.0, None
    for v in table["variant"]:
        if last is not None and v != last:
            x += 0.6  # a gap between variants
        xs.append(x)
        x, last = x + 1.0, v
    variants = list(dict.fromkeys(table["variant"]))
    colours = {v: f"C{i % 10}" for i, v in enumerate(variants)}
    band_done = line_done = False
    for xi, r in zip(xs, table.itertuples(index=False)):
        if r.thoughtful_deals:
            ax.fill_between([xi - 0.45, xi + 0.45], r.thoughtful_lower, r.thoughtful_upper, color="grey",
                            alpha=0.3, lw=0, label=None if band_done else
                            "thoughtful, same seeds: lower..upper bound (a line when all decided)")
            ax.hlines([r.thoughtful_lower, r.thoughtful_upper], xi - 0.45, xi + 0.45, colors="grey", lw=1)
            ax.hlines([r.thoughtful_lower_lo, r.thoughtful_upper_hi], xi - 0.45, xi + 0.45, colors="grey",
                      linestyles="dotted", lw=1, label=None if line_done else "their outer 95% Wilson ends")
            band_done = line_done = True
    rate = table["rate"].astype(float)
    err = [(rate - table["rate_lo"]).clip(lower=0), (table["rate_hi"] - rate).clip(lower=0)]
    seen = set()
    for xi, r, lo, hi in zip(xs, table.itertuples(index=False), err[0], err[1]):
        label = None if r.variant in seen else f"{r.variant}: strategy win rate, 95% Wilson"
        seen.add(r.variant)
        ax.bar(xi, r.rate, width=0.6, color=colours[r.variant], alpha=0.85, label=label)
        ax.errorbar(xi, r.rate, yerr=[[lo], [hi]], fmt="none", ecolor="black", capsize=4, lw=1)
    # the strategy's name, its options and the variant on lines of their own
    ax.set_xticks(xs, ["\n".join(lab.split(" ") + [v, f"({d:,} deals)"]) for lab, v, d in
                       zip(table["label"], table["variant"], table["deals"])], fontsize="small")
    ax.set_xlim(-0.7, (xs[-1] if xs else 0) + 0.7)
    ax.set_ylim(0, 1.03)
    percent_axis(ax)
    ax.set_ylabel("win rate")
    ax.set_title(f"{game_title(game_name)}: strategy win rates, thoughtful on the same seeds behind")
    ax.grid(axis="y", alpha=0.3)
    ax.legend(loc="best", fontsize="small", framealpha=0.85)
    fig.text(0.01, 0.01, f"code {solver.SOURCE_HASH}; commands: see {LADDER}.md", fontsize=7,
             family="monospace", va="bottom")
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    fig.savefig(path, dpi=110, format="png")
    plt.close(fig)
