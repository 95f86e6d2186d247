"""A game's report from the rows on disk: winrates.csv, winrates.md, winrates.png."""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd

from ..stats import mcnemar_p, summarize
from . import monotone, store
from .paths import DEFAULT_OUT, game_title, report_folder

# a lost row's proof -> its words, in the report's order ("unrecorded": rows older than the column)
PROOFS = {"search": "search", "dead_end": "dead-end test at the root",
          "root_dead": "root test (Baker's Dozen: the host count)",
          "relaxation": "relaxation (Duchess: a bag for a tableau)", "unrecorded": "proof unrecorded"}


class Variant(tuple):
    """(rows, meta, superseded) of one variant folder: one row per seed, command.json,
    and the rows better ones replaced."""

    def __new__(cls, rows, meta, superseded):
        return super().__new__(cls, (rows, meta, superseded))

    rows = property(lambda self: self[0])
    meta = property(lambda self: self[1])
    superseded = property(lambda self: self[2])


def load_variants(out_dir, game_name: str) -> dict[str, Variant]:
    """variant string -> Variant(rows, command.json, superseded) for every variant of
    the game on disk, "standard" first."""
    base = Path(out_dir) / "runs" / game_name
    found = {}
    for folder in sorted(p for p in base.glob("*") if p.is_dir()) if base.exists() else []:
        df, sup = store.read_store(folder)
        if df.empty:
            continue
        meta = store.read_command(folder)
        vstr = meta.get("variant") or str(df["variant"].iloc[0])
        found[vstr] = Variant(df, meta, sup)
    # "standard" first: the other variants are compared with it.
    return dict(sorted(found.items(), key=lambda kv: (kv[0] != "standard", kv[0])))


# ------------------------------------------------------------------ numbers and words


def summarize_rows(df: pd.DataFrame) -> dict:
    """stats.summarize of the rows' results, plus the lost rows counted by proof."""
    s = summarize(df["result"])
    proof = df.loc[df["result"] == "lost", "proof"].astype(object) if len(df) else pd.Series([], dtype=object)
    for kind in PROOFS:
        s[f"lost_{kind}"] = int((proof == kind).sum())
    # any other value (none is written) counts as unrecorded rather than vanish
    s["lost_unrecorded"] += s["lost"] - sum(s[f"lost_{kind}"] for kind in PROOFS)
    return s


def pct(x) -> str:
    """A percentage to one decimal, or to as many more (up to three) as keep a rate
    that is not exactly 0 or 1 from reading as 0.0% or 100.0%."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-"
    for digits in (1, 2, 3):
        text = f"{100 * x:.{digits}f}"
        if 0 < x < 1 and float(text) in (0.0, 100.0):
            continue
        break
    return f"{text}%"


def proof_text(s: dict) -> str:
    """'search 3, dead-end test at the root 4' (the proofs of the lost deals), or ''."""
    return ", ".join(f"{label} {s[f'lost_{kind}']}" for kind, label in PROOFS.items() if s.get(f"lost_{kind}", 0))


def lost_text(s: dict) -> str:
    """'lost 7 (search 3, dead-end test at the root 4)'."""
    detail = proof_text(s)
    return f"lost {s['lost']}" + (f" ({detail})" if detail else "")


def rate_text(s: dict) -> str:
    """The win rate in words: one rate when all is decided, else the two bounds."""
    if s["n"] == 0:
        return "no deals"
    if s["unknown"] == 0:
        return f"win rate {pct(s['rate'])} (95% Wilson interval {pct(s['rate_lo'])} to {pct(s['rate_hi'])})"
    return (
        f"win rate between {pct(s['lower_bound'])} (unknown counted lost; Wilson lower end "
        f"{pct(s['lower_bound_lo'])}) and {pct(s['upper_bound'])} (unknown counted won; Wilson upper end "
        f"{pct(s['upper_bound_hi'])})"
    )


def _solver_text(df: pd.DataFrame) -> str:
    """The algorithm and limits used, e.g. 'dfs, 1000000 nodes, 10 s'."""
    combos = df[["algorithm", "max_nodes", "max_seconds"]].drop_duplicates()
    texts = []
    for alg, nodes, secs in combos.itertuples(index=False):
        parts = [str(alg)]
        if nodes is not None and nodes >= 0:
            parts.append(f"{int(nodes)} nodes")
        if secs is not None and not math.isnan(secs):
            parts.append(f"{float(secs):g} s")
        texts.append(", ".join(parts))
    return "; ".join(texts)


def _seed_range(seeds: pd.Series) -> str:
    lo, hi = int(seeds.min()), int(seeds.max())
    # An interrupted run can leave holes; say so rather than imply a full range.
    return f"{lo}..{hi}" if hi - lo + 1 == len(seeds) else f"{lo}..{hi} with gaps"


SUMMARY_COLUMNS = ("rate", "rate_lo", "rate_hi", "lower_bound", "lower_bound_lo", "lower_bound_hi",
                   "upper_bound", "upper_bound_lo", "upper_bound_hi")
SAMPLE_KEYS = ("seeds", "budget", "n", "won", "lost", "unknown") + SUMMARY_COLUMNS[3:] + ("tighter",)


def report_table(variants: dict) -> pd.DataFrame:
    rows = []
    for vstr, (df, meta, sup) in variants.items():
        s = summarize_rows(df)
        rows.append(
            {
                "variant": vstr,
                "deals": s["n"],
                "seeds": _seed_range(df["seed"]),
                "won": s["won"],
                "lost": s["lost"],
                **{f"lost_{kind}": s[f"lost_{kind}"] for kind in PROOFS},
                "unknown": s["unknown"],
                **{k: s[k] for k in SUMMARY_COLUMNS},
                "median_seconds": float(df["seconds"].median()),
                "max_seconds": float(df["seconds"].max()),
                "solver": _solver_text(df),
                "code_versions": code_version_text(df),
                "command": meta.get("command", ""),
                **_sample_columns(retry_sample(df, meta.get("runs", []), sup)),
            }
        )
    return pd.DataFrame(rows)


def _sample_columns(sample: dict | None) -> dict:
    """report_table's columns for retry_sample (empty when there is none)."""
    if sample is None:
        return {f"sample_{k}": None for k in SAMPLE_KEYS}
    return {f"sample_{k}": sample[k] for k in SAMPLE_KEYS}


def code_versions(df: pd.DataFrame) -> pd.DataFrame:
    """code_version, code_basis -> rows, most rows first."""
    if df.empty:
        return pd.DataFrame(columns=["code_version", "code_basis", "rows"])
    counts = (df.assign(code_version=df["code_version"].astype(str), code_basis=df["code_basis"].astype(str))
              .groupby(["code_version", "code_basis"]).size().rename("rows").reset_index())
    return counts.sort_values(["rows", "code_version"], ascending=[False, True], ignore_index=True)


def code_version_text(df: pd.DataFrame) -> str:
    return "; ".join(f"{r.code_version} ({r.code_basis}): {r.rows}" for r in code_versions(df).itertuples())


def paired_table(variants: dict) -> list[dict]:
    """Deal-by-deal comparison on common seeds: standard against each other variant
    (or every pair when there is no standard run)."""
    names = list(variants)
    if "standard" in variants:
        pairs = [("standard", v) for v in names if v != "standard"]
    else:
        pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1 :]]
    out = []
    for a, b in pairs:
        counts = _paired(variants[a][0], variants[b][0])
        if counts["common"]:
            out.append({"a": a, "b": b, **counts})
    return out


def _paired(da: pd.DataFrame, db: pd.DataFrame) -> dict:
    """stats.paired_counts of two variants' rows, on whole columns at once."""
    m = pd.merge(pd.DataFrame({"seed": da["seed"], "a": da["result"].astype(object)}),
                 pd.DataFrame({"seed": db["seed"], "b": db["result"].astype(object)}), on="seed")
    a, b = m["a"].to_numpy(), m["b"].to_numpy()
    decided = (a != "unknown") & (b != "unknown")
    a_only = int((decided & (a == "won") & (b == "lost")).sum())
    b_only = int((decided & (b == "won") & (a == "lost")).sum())
    both = int((decided & (a == "won") & (b == "won")).sum())
    return {"common": len(m), "decided": int(decided.sum()), "unknown": int(len(m) - decided.sum()),
            "both_won": both, "neither_won": int(decided.sum()) - both - a_only - b_only,
            "a_only": a_only, "b_only": b_only, "p": mcnemar_p(a_only, b_only)}


# ------------------------------------------------------------------ samples


def _retry_ranges(runs: list[dict]):
    """(node budget, first seed, number of seeds) of each ``--retry-unknown`` run
    record, deepest budget first."""
    found = set()
    for r in runs:
        if not isinstance(r, dict) or not r.get("retry_unknown") or r.get("max_nodes") is None:
            continue
        try:
            found.add((int(r["max_nodes"]), int(r["start"]), int(r["deals"])))
        except (KeyError, TypeError, ValueError):
            continue  # a record this version cannot read names no sample
    return sorted(found, key=lambda f: (-f[0], -f[2], f[1]))


SAMPLE_MIN = 100  # a retried range smaller than this is taken for a hand-picked retry


def _sample_ranges(ranges, first: int, all_seeds: set):
    """The (budget, first seed, count) a sample may be, in the order retry_sample tries
    them: deepest budget first; within one, the seeds its ranges cover together without
    a gap from the run's first seed (a pass run as two commands side by side, 1..5,000
    and 5,001..10,000, is one sample of 1..10,000), then each of its ranges that starts
    there, the largest first.  Ranges under SAMPLE_MIN seeds (picked seeds) count in
    none; a budget whose ranges reach every seed is the run itself, no sample."""
    by_budget: dict[int, list] = {}
    for b, s, c in ranges:
        if c >= SAMPLE_MIN:
            by_budget.setdefault(b, []).append((s, c))
    for budget in sorted(by_budget, reverse=True):
        covered = set()
        for s, c in by_budget[budget]:
            covered.update(range(s, s + c))
        if covered >= all_seeds:
            continue
        count = 0
        while first + count in covered:
            count += 1
        joined = [count] if count >= SAMPLE_MIN else []
        alone = [c for s, c in sorted(by_budget[budget], key=lambda r: -r[1]) if s == first]
        for c in dict.fromkeys(joined + alone):  # each count once, in this order
            yield budget, first, c


def retry_sample(df: pd.DataFrame, runs: list[dict], superseded: pd.DataFrame | None = None) -> dict | None:
    """The seed range of the deepest finished ``--retry-unknown`` run that covered only
    part of the seeds, summarised over all its seeds at its own limits: for each seed
    its best row among those (in ``df`` and ``superseded``) made with at most the
    retry's node budget, so that a later, deeper retry does not count.  Only ranges
    that hold at least SAMPLE_MIN seeds count (a retry of a few seeds picked because
    they were unknown is no sample); those of one budget count together, from the run's
    first seed up to the first seed none of them covers.

    Such a range was fixed before any result was known, and after the retry every
    deal in it is decided or unknown at the retry's budget; so its won share estimates
    how often the solver wins at that budget: a lower bound on the win rate, often far
    tighter than the first pass over every seed gives.  A range the retry did not
    finish (a seed's best row there is unknown under a smaller budget, or missing) is
    skipped: counting only the deals it reached would favour the decided ones, and so
    is every range of a budget that a retry later took to every seed (a run retried
    range by range, 1..10,000 then 1..20,000 and so on, is no sample).  None
    if there is no such run.  ``tighter`` says whether its bounds are tighter than
    those over all the seeds (a sample searched at a budget that later retries over
    every seed exceeded, or by an older solver, can be looser; the plots leave those
    out)."""
    if df.empty:
        return None
    all_seeds = set(df["seed"].tolist())
    first = int(df["seed"].min())
    whole = summarize(df["result"])
    rows = store._concat([df] + ([superseded] if superseded is not None and len(superseded) else []))
    budgets = rows["max_nodes"].fillna(-1)
    for budget, start, count in _sample_ranges(_retry_ranges(runs), first, all_seeds):
        seeds = set(range(start, start + count))
        # rows without a node limit (-1) were searched past any budget: not at these limits
        cand = rows[rows["seed"].isin(seeds) & (budgets >= 0) & (budgets <= budget)]
        best = cand.loc[store.rank_order(cand)].drop_duplicates("seed", keep="first")
        if len(best) != count:
            continue
        open_budget = best.loc[best["result"] == "unknown", "max_nodes"]
        if (open_budget < budget).any():
            continue
        sample = summarize_rows(best)
        tighter = sample["lower_bound"] > whole["lower_bound"] or sample["upper_bound"] < whole["upper_bound"]
        return {"seeds": f"{start}..{start + count - 1}", "budget": int(budget), "tighter": bool(tighter), **sample}
    return None


# ------------------------------------------------------------------ the files


def _lost_cell(r) -> str:
    return proof_text({f"lost_{kind}": getattr(r, f"lost_{kind}") for kind in PROOFS}) or "-"


def _markdown(game_name: str, table: pd.DataFrame, pairs: list[dict], commands: list[str],
              versions: dict[str, pd.DataFrame], variants: dict) -> str:
    lines = [
        f"# {game_title(game_name)}: win rates",
        "",
        "Rate = won / deals with its 95% Wilson interval, given only when every deal is decided. "
        "While some deals are unknown (not decided within the solver's limits) the rate is given "
        "as bounds instead: lower = unknown counted lost, upper = unknown counted won, and in "
        "brackets the lower end of the lower bound's Wilson interval and the upper end of the "
        "upper bound's.  Lost deals are counted by their proof: the search exhausted every "
        "reachable state, the game's dead-end test fired at the root, or its costlier root "
        "test did (Baker's Dozen's host count).",
        "",
        "| variant | deals | seeds | won | lost | lost by proof | unknown | rate | 95% interval | lower..upper | median s | max s | solver |",
        "| --- | ---: | --- | ---: | ---: | --- | ---: | ---: | --- | --- | ---: | ---: | --- |",
    ]
    for r in table.itertuples(index=False):
        if r.unknown == 0:
            interval, bounds = f"{pct(r.rate_lo)}..{pct(r.rate_hi)}", "-"
        else:
            # no rate, so no interval of it: the Wilson interval of won/deals would read
            # as one (0%..0.004% for a run left all unknown); the bounds carry its ends
            interval = "-"
            bounds = (f"{pct(r.lower_bound)}..{pct(r.upper_bound)} "
                      f"({pct(r.lower_bound_lo)}..{pct(r.upper_bound_hi)})")
        lines.append(
            f"| {r.variant} | {r.deals} | {r.seeds} | {r.won} | {r.lost} | {_lost_cell(r)} | {r.unknown} "
            f"| {pct(r.rate)} | {interval} | {bounds} | {r.median_seconds:.3f} | {r.max_seconds:.3f} | {r.solver} |"
        )
    samples = table[table["sample_seeds"].notna()]
    if not samples.empty:
        lines += [
            "",
            "## Deeper search on a sample of seeds",
            "",
            "Where a `--retry-unknown` run at a larger node budget covered only some of the "
            "seeds, its whole seed range (fixed before any result was known) is summarised "
            "here at that budget: each seed's best row among those made with at most that many "
            "nodes (a later, deeper retry does not count).  Its won share estimates how often "
            "the solver wins at that budget, a lower bound on the win rate (95% Wilson "
            "interval); won plus unknown, an upper bound.  \"tighter\": whether these bounds are "
            "tighter than the row above (only those are plotted).",
            "",
            "| variant | seeds | node budget | deals | won | lost | unknown | won share | 95% interval | lower..upper | tighter |",
            "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- | --- |",
        ]
        for r in samples.itertuples(index=False):
            n = int(r.sample_n)
            lines.append(
                f"| {r.variant} | {r.sample_seeds} | {int(r.sample_budget)} | {n} | {int(r.sample_won)} "
                f"| {int(r.sample_lost)} | {int(r.sample_unknown)} | {pct(r.sample_lower_bound)} "
                f"| {pct(r.sample_lower_bound_lo)}..{pct(r.sample_lower_bound_hi)} "
                f"| {pct(r.sample_lower_bound)}..{pct(r.sample_upper_bound)} | {'yes' if r.sample_tighter else 'no'} |"
            )
    if pairs:
        lines += [
            "",
            "## Paired comparison on common seeds",
            "",
            "Same shuffles under both variants. Discordant deals are won in one and lost in "
            "the other; deals unknown in either are left out of them. p: exact two-sided "
            "McNemar test on the discordant deals.",
            "",
            "| A | B | common seeds | won in A only | won in B only | both won | neither | unknown in either | p |",
            "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        ]
        for p in pairs:
            lines.append(
                f"| {p['a']} | {p['b']} | {p['common']} | {p['a_only']} | {p['b_only']} | {p['both_won']} "
                f"| {p['neither_won']} | {p['unknown']} | {p['p']:.3g} |"
            )
    lines += monotone.markdown(variants, pct, game_name)
    lines += [
        "",
        "## Code versions",
        "",
        "The code that made each deal's row (the one counted above): `code_version` is "
        "`solver.SOURCE_HASH`, a hash of the solver's sources.  Basis: recorded by the run; "
        "history: established from the git history for rows older than the field "
        "(experiments/compact_results.py says how); unknown: not established.",
        "",
        "| variant | code version | basis | rows |",
        "| --- | --- | --- | ---: |",
    ]
    for vstr, counts in versions.items():
        for r in counts.itertuples(index=False):
            lines.append(f"| {vstr} | `{r.code_version}` | {r.code_basis} | {r.rows} |")
    lines += ["", "## Commands", "", "The runs behind these rows, in the order each was first used:", ""]
    lines += [f"- `{c}`" for c in commands]
    return "\n".join(lines) + "\n"


def write_report(game_name: str, out_dir=DEFAULT_OUT) -> Path | None:
    """Rebuild winrates.csv / .md / .png for ``game_name`` from the runs on disk.
    Returns the markdown path, or None when the game has no runs yet.  A report
    folder that cannot be written is a PatienceError."""
    from .plot import plot_report

    variants = load_variants(out_dir, game_name)
    if not variants:
        return None
    table = report_table(variants)
    commands = []
    for v in variants.values():
        for c in v.meta.get("commands", []):
            if c not in commands:
                commands.append(c)
    versions = {vstr: code_versions(v.rows) for vstr, v in variants.items()}
    folder = store.ensure_writable_dir(report_folder(out_dir, game_name))
    csv_text = table.to_csv(index=False)
    store.atomic_write(folder / "winrates.csv", lambda tmp: Path(tmp).write_text(csv_text))
    md = folder / "winrates.md"
    text = _markdown(game_name, table, paired_table(variants), commands, versions, variants)
    store.atomic_write(md, lambda tmp: Path(tmp).write_text(text))
    png = folder / "winrates.png"
    store.atomic_write(png, lambda tmp: plot_report(game_name, table, tmp))
    return md
