"""Win rates over many seeded deals: a resumable parallel run, and its report.

On disk (``out_dir`` defaults to ``results``)::

    out_dir/runs/<game>/<variant, spaces as _>/part-<first>-<last>-<id>.parquet
    out_dir/runs/<game>/<variant, spaces as _>/command.json
    out_dir/<game>/winrates.csv, winrates.md, winrates.png

Each part file holds one finished chunk of deals, one row per deal (``COLUMNS``).
A part is written under a temporary name in the same folder and then renamed
(``os.replace`` is atomic), so a run killed at any moment, even by SIGKILL, leaves
only complete parts plus perhaps a stray temporary file, which readers ignore and
the next run deletes.  Only the parent process writes parts, so workers orphaned by
a killed parent can never add a row behind the back of the next run.  A rerun skips
the seeds already on disk and solves the rest; readers still deduplicate by seed.
"""

from __future__ import annotations

import inspect
import json
import math
import multiprocessing as mp
import os
import shlex
import signal
import sys
import time
import uuid
from pathlib import Path

import pandas as pd

from . import deals
from . import solve as solve_mod
from .games import get_game
from .stats import paired_counts, summarize
from .variants import parse_variant, variant_str

COLUMNS = [
    "seed",
    "game",
    "variant",
    "algorithm",
    "result",
    "nodes",
    "seconds",
    "solution_length",  # number of moves of a win, -1 otherwise
    "max_nodes",  # the limits the deal was solved under (-1 / NaN: no limit)
    "max_seconds",
]
TMP_PREFIX = ".tmp-"
PART_PREFIX = "part-"
MAX_CHUNK = 100


# ------------------------------------------------------------------ where things go


def variant_folder(out_dir, game_name: str, vstr: str) -> Path:
    return Path(out_dir) / "runs" / game_name / vstr.replace(" ", "_")


def report_folder(out_dir, game_name: str) -> Path:
    return Path(out_dir) / game_name


def _atomic_write_bytes(path: Path, write) -> None:
    """Call ``write(tmp_path)`` then rename onto ``path``: readers see all or nothing."""
    tmp = path.parent / f"{TMP_PREFIX}{uuid.uuid4().hex}{path.suffix}"
    try:
        write(tmp)
        # fsync so that a rename that survives a crash never points at missing data.
        with open(tmp, "rb") as f:
            os.fsync(f.fileno())
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()


def write_part(folder: Path, rows: list[dict]) -> Path:
    """Write one finished chunk as its own Parquet part file, atomically."""
    df = pd.DataFrame(rows, columns=COLUMNS)
    seeds = df["seed"]
    path = folder / f"{PART_PREFIX}{seeds.min()}-{seeds.max()}-{uuid.uuid4().hex[:8]}.parquet"
    _atomic_write_bytes(path, lambda tmp: df.to_parquet(tmp, index=False))
    return path


def part_files(folder: Path) -> list[Path]:
    return sorted(folder.glob(f"{PART_PREFIX}*.parquet"))


def read_rows(folder: Path) -> pd.DataFrame:
    """Every deal on disk for one variant folder, one row per seed, sorted by seed."""
    parts = part_files(folder)
    if not parts:
        return pd.DataFrame(columns=COLUMNS)
    df = pd.concat([pd.read_parquet(p) for p in parts], ignore_index=True)
    # A seed has several rows after --retry-unknown (or two runs started by hand on
    # one folder).  A decided row wins over an unknown one (won comes with a checked
    # solution, lost with an exhausted search, so either is final); among unknowns the
    # larger node budget wins; then the first part file, so that every reader agrees.
    decided = (df["result"] != "unknown").astype(int)
    budget = df["max_nodes"].fillna(-1)
    order = pd.DataFrame({"seed": df["seed"], "d": -decided, "b": -budget, "i": range(len(df))})
    keep = order.sort_values(["seed", "d", "b", "i"]).drop_duplicates("seed", keep="first").index
    return df.loc[keep].sort_values("seed", ignore_index=True)


def remove_stray_temps(folder: Path) -> int:
    """Delete temporary files left by a killed run (one run per folder at a time)."""
    stray = list(folder.glob(f"{TMP_PREFIX}*"))
    for p in stray:
        p.unlink(missing_ok=True)
    return len(stray)


def write_command(folder: Path, game_name: str, vstr: str, variant: dict, command: str) -> None:
    """Record the command in ``command.json``: the latest one, and every distinct one."""
    path = folder / "command.json"
    history = []
    if path.exists():
        try:
            history = json.loads(path.read_text()).get("commands", [])
        except (json.JSONDecodeError, OSError, AttributeError):
            history = []  # a damaged sidecar only loses the command history
    if command not in history:
        history.append(command)
    meta = {"game": game_name, "variant": vstr, "options": variant, "command": command, "commands": history}
    text = json.dumps(meta, indent=1) + "\n"
    _atomic_write_bytes(path, lambda tmp: Path(tmp).write_text(text))


def read_command(folder: Path) -> dict:
    try:
        return json.loads((folder / "command.json").read_text())
    except (OSError, json.JSONDecodeError):
        return {}


# ------------------------------------------------------------------ solving


def solver_defaults() -> dict:
    """solve_deal's own default limits, so that rows record the limits actually used
    without a second copy of the numbers here."""
    params = inspect.signature(solve_mod.solve_deal).parameters
    return {
        name: params[name].default
        for name in ("max_nodes", "seconds", "tt_mb")
        if name in params and params[name].default is not inspect.Parameter.empty
    }


def solve_limits(max_nodes=None, seconds=None, tt_mb=None) -> dict:
    """Keyword limits for solve_deal: the given ones over solve_deal's defaults."""
    limits = solver_defaults()
    given = {"max_nodes": max_nodes, "seconds": seconds, "tt_mb": tt_mb}
    limits.update({k: v for k, v in given.items() if v is not None})
    return limits


def solve_chunk(task: tuple) -> list[dict]:
    """Solve a list of seeds (runs in a worker process, or in-process for jobs=1)."""
    game_name, variant, vstr, seeds, algorithm, limits = task
    game = get_game(game_name)
    max_nodes = limits.get("max_nodes")
    max_seconds = limits.get("seconds")
    rows = []
    for seed in seeds:
        deck = deals.seeded_deck(seed, game.PACKS)
        r = solve_mod.solve_deal(game_name, variant, deck, algorithm=algorithm, **limits)
        rows.append(
            {
                "seed": int(seed),
                "game": game_name,
                "variant": vstr,
                "algorithm": algorithm,
                "result": r.result,
                "nodes": int(r.nodes),
                "seconds": float(r.seconds),
                "solution_length": len(r.moves) if r.result == "won" else -1,
                "max_nodes": -1 if max_nodes is None else int(max_nodes),
                "max_seconds": math.nan if max_seconds is None else float(max_seconds),
            }
        )
    return rows


def _worker_init() -> None:
    # Ctrl-C reaches the whole process group; only the parent should react to it
    # (it stops the pool), otherwise every worker prints its own traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _mp_context():
    """forkserver (or spawn): forking a parent that may hold numba/LLVM threads is unsafe."""
    methods = mp.get_all_start_methods()
    ctx = mp.get_context("forkserver" if "forkserver" in methods else "spawn")
    if ctx.get_start_method() == "forkserver":
        # Workers fork from a server that has already imported the solver (numba, numpy).
        ctx.set_forkserver_preload(["solver.batch"])
    return ctx


def chunk_seeds(seeds: list[int], jobs: int, chunk_size: int | None = None) -> list[list[int]]:
    """Split the seeds to do into chunks: small enough that each worker gets several
    (progress and load balance) and that a kill loses little, at most MAX_CHUNK."""
    if not seeds:
        return []
    if chunk_size is None:
        chunk_size = max(1, min(MAX_CHUNK, math.ceil(len(seeds) / (4 * max(1, jobs)))))
    return [seeds[i : i + chunk_size] for i in range(0, len(seeds), chunk_size)]


def _run_chunks(tasks: list[tuple], jobs: int):
    """Yield each chunk's rows as it finishes (in-process for jobs=1, else a pool)."""
    if jobs <= 1:
        for task in tasks:
            yield solve_chunk(task)
        return
    with _mp_context().Pool(min(jobs, len(tasks)), initializer=_worker_init) as pool:
        yield from pool.imap_unordered(solve_chunk, tasks)


# ------------------------------------------------------------------ the run


def run_winrate(
    game_name: str,
    variant,
    start: int,
    n_deals: int,
    jobs: int,
    algorithm: str = "auto",
    max_nodes=None,
    seconds=None,
    out_dir="results",
    progress: bool = True,
    command: str = "",
    tt_mb=None,
    chunk_size: int | None = None,
    out=None,
    retry_unknown: bool = False,
) -> dict:
    """Solve seeds start..start+n_deals-1 that are not on disk yet (with
    ``retry_unknown``, also those on disk as unknown that had a smaller node or time
    budget than the one given now); print a
    summary and rebuild the report.  ``variant`` is a variant dict or a list of
    key=value words.  Returns the summary of the requested seeds (stats.summarize
    keys plus run info)."""
    from tqdm import tqdm

    out = out or sys.stdout
    game = get_game(game_name)
    if not isinstance(variant, dict):
        variant = parse_variant(game_name, game.VARIANTS, list(variant))
    vstr = variant_str(variant, game.VARIANTS)
    folder = variant_folder(out_dir, game_name, vstr)
    folder.mkdir(parents=True, exist_ok=True)
    remove_stray_temps(folder)
    write_command(folder, game_name, vstr, variant, command)

    limits = solve_limits(max_nodes, seconds, tt_mb)
    wanted = range(start, start + n_deals)
    on_disk = read_rows(folder)
    if retry_unknown:
        # an unknown deal is tried again only under a larger budget than it has had
        bigger = (on_disk["max_nodes"].fillna(-1) < limits.get("max_nodes", -1)) | (
            on_disk["max_seconds"].fillna(-1) < limits.get("seconds", -1))
        on_disk = on_disk[(on_disk["result"] != "unknown") | ~bigger]
    done = set(on_disk["seed"].tolist())
    todo = [s for s in wanted if s not in done]
    tasks = [(game_name, variant, vstr, chunk, algorithm, limits) for chunk in chunk_seeds(todo, jobs, chunk_size)]

    t0 = time.perf_counter()
    tally = {"won": 0, "lost": 0, "unknown": 0}
    with tqdm(
        total=n_deals, initial=n_deals - len(todo), desc=f"{game_name} {vstr}", unit="deal",
        disable=not progress, file=sys.stderr,
    ) as bar:
        for rows in _run_chunks(tasks, jobs):
            write_part(folder, rows)
            for row in rows:
                tally[row["result"]] += 1
            bar.update(len(rows))
            bar.set_postfix(tally, refresh=False)
    elapsed = time.perf_counter() - t0

    df = read_rows(folder)
    mine = df[df["seed"].between(start, start + n_deals - 1)]
    summary = summarize(mine["result"])
    summary.update(solved_now=len(todo), elapsed=elapsed, folder=str(folder))
    _warn_mixed_settings(mine, algorithm, limits)
    print_summary(game_name, vstr, start, n_deals, summary, out)
    md = write_report(game_name, out_dir)
    print(f"report: {md}", file=out)
    return summary


def _warn_mixed_settings(df: pd.DataFrame, algorithm: str, limits: dict) -> None:
    """Deals solved earlier under another algorithm or limits are kept, not redone:
    say so, because then the rate mixes budgets."""
    if df.empty:
        return
    other = df["algorithm"] != algorithm
    if limits.get("max_nodes") is not None:
        other |= df["max_nodes"] != int(limits["max_nodes"])
    if limits.get("seconds") is not None:
        other |= df["max_seconds"] != float(limits["seconds"])
    if other.any():
        print(
            f"patience: note: {int(other.sum())} of these deals were solved earlier with another "
            "algorithm or limits; they are kept (use another --out to start afresh)",
            file=sys.stderr,
        )


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


def rate_text(s: dict) -> str:
    """The win rate in words: one rate when all is decided, else the two bounds."""
    if s["n"] == 0:
        return "no deals"
    if s["unknown"] == 0:
        return f"win rate {pct(s['rate'])} (95% Wilson interval {pct(s['lo'])} to {pct(s['hi'])})"
    return (
        f"win rate between {pct(s['lower'])} (unknown counted lost; Wilson lower end {pct(s['lower_lo'])}) "
        f"and {pct(s['upper'])} (unknown counted won; Wilson upper end {pct(s['upper_hi'])})"
    )


def print_summary(game_name: str, vstr: str, start: int, n_deals: int, s: dict, out) -> None:
    print(f"{game_name} {vstr}, seeds {start}..{start + n_deals - 1}: {s['n']} deals", file=out)
    print(f"won {s['won']}, lost {s['lost']}, unknown {s['unknown']}", file=out)
    print(rate_text(s), file=out)
    if s["solved_now"]:
        speed = s["solved_now"] / s["elapsed"] if s["elapsed"] > 0 else float("inf")
        print(f"solved {s['solved_now']} deals in {s['elapsed']:.1f} s ({speed:.1f} deals/s)", file=out)
    else:
        print("nothing to solve: every deal was already on disk", file=out)


# ------------------------------------------------------------------ the report


def load_variants(out_dir, game_name: str) -> dict[str, tuple[pd.DataFrame, dict]]:
    """variant string -> (rows, command.json) for every variant of the game on disk."""
    base = Path(out_dir) / "runs" / game_name
    found = {}
    for folder in sorted(p for p in base.glob("*") if p.is_dir()) if base.exists() else []:
        df = read_rows(folder)
        if df.empty:
            continue
        meta = read_command(folder)
        vstr = meta.get("variant") or str(df["variant"].iloc[0])
        found[vstr] = (df, meta)
    # "standard" first: the other variants are compared with it.
    return dict(sorted(found.items(), key=lambda kv: (kv[0] != "standard", kv[0])))


def _solver_text(df: pd.DataFrame) -> str:
    """The algorithm and limits used, e.g. 'dfs, 1000000 nodes, 10 s'."""
    combos = df[["algorithm", "max_nodes", "max_seconds"]].drop_duplicates()
    texts = []
    for alg, nodes, secs in combos.itertuples(index=False):
        parts = [str(alg)]
        if nodes is not None and nodes >= 0:
            parts.append(f"{int(nodes)} nodes")
        if secs is not None and not math.isnan(secs):
            parts.append(f"{secs:g} s")
        texts.append(", ".join(parts))
    return "; ".join(texts)


def _seed_range(seeds: pd.Series) -> str:
    lo, hi = int(seeds.min()), int(seeds.max())
    # An interrupted run can leave holes; say so rather than imply a full range.
    return f"{lo}..{hi}" if hi - lo + 1 == len(seeds) else f"{lo}..{hi} with gaps"


def report_table(variants: dict) -> pd.DataFrame:
    rows = []
    for vstr, (df, meta) in variants.items():
        s = summarize(df["result"])
        rows.append(
            {
                "variant": vstr,
                "deals": s["n"],
                "seeds": _seed_range(df["seed"]),
                "won": s["won"],
                "lost": s["lost"],
                "unknown": s["unknown"],
                "rate": s["rate"],
                "wilson_lo": s["lo"],
                "wilson_hi": s["hi"],
                "lower": s["lower"],
                "upper": s["upper"],
                "lower_lo": s["lower_lo"],
                "upper_hi": s["upper_hi"],
                "median_seconds": float(df["seconds"].median()),
                "max_seconds": float(df["seconds"].max()),
                "solver": _solver_text(df),
                "command": meta.get("command", ""),
                **_sample_columns(retry_sample(df, meta.get("commands", []))),
            }
        )
    return pd.DataFrame(rows)


def _sample_columns(sample: dict | None) -> dict:
    """report_table's columns for retry_sample (empty when there is none)."""
    keys = ("seeds", "budget", "n", "won", "lost", "unknown", "lo", "hi", "upper", "upper_hi")
    if sample is None:
        return {f"sample_{k}": None for k in keys}
    return {f"sample_{k}": sample[k] for k in keys}


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
        ra = dict(zip(variants[a][0]["seed"], variants[a][0]["result"]))
        rb = dict(zip(variants[b][0]["seed"], variants[b][0]["result"]))
        counts = paired_counts(ra, rb)
        if counts["common"]:
            out.append({"a": a, "b": b, **counts})
    return out


def _retry_ranges(commands: list[str]):
    """(node budget, first seed, number of seeds) of each ``winrate --retry-unknown``
    command in ``commands``, deepest budget first."""
    from .cli import UsageError, build_parser

    parser = build_parser()
    found = []
    for command in commands:
        try:
            args = parser.parse_args(shlex.split(command)[1:])
        except (UsageError, ValueError):
            continue  # not a command this version can read: it names no sample
        if args.command != "winrate" or not args.retry_unknown:
            continue
        budget = args.max_nodes if args.max_nodes is not None else solver_defaults()["max_nodes"]
        found.append((budget, args.start, args.deals))
    return sorted(found, key=lambda f: (-f[0], -f[2]))


SAMPLE_MIN = 100  # a retried range smaller than this is taken for a hand-picked retry


def retry_sample(df: pd.DataFrame, commands: list[str]) -> dict | None:
    """The seed range of the deepest finished ``--retry-unknown`` run that covered only
    part of the seeds, summarised over all its seeds.  Only ranges that start at the
    run's first seed and hold at least SAMPLE_MIN seeds count: a retry of a few seeds
    picked because they were unknown is no sample.

    Such a range was fixed before any result was known, and after the retry every
    deal in it is decided or unknown at the larger budget; so its won share estimates
    how often the solver wins at that budget: a lower bound on the win rate, often far
    tighter than the first pass over every seed gives.  A range the retry did not
    finish (an unknown deal in it still has a smaller budget) is skipped: counting only
    the deals it reached would favour the decided ones.  None if there is no such run,
    or if its bounds are no tighter than those over all the seeds (a sample searched
    deeper by an older solver can be worse than the newer solver's first pass)."""
    all_seeds = set(df["seed"])
    whole = summarize(df["result"])
    for budget, start, count in _retry_ranges(commands):
        seeds = set(range(start, start + count))
        if start != df["seed"].min() or count < SAMPLE_MIN or seeds >= all_seeds:
            continue  # picked seeds, or the whole run (which the main row already gives)
        part = df[df["seed"].isin(seeds)]
        if len(part) != count:
            continue
        unknown_budget = part.loc[part["result"] == "unknown", "max_nodes"].fillna(-1)
        if ((unknown_budget >= 0) & (unknown_budget < budget)).any():
            continue  # (a negative budget is no node limit at all)
        sample = summarize(part["result"])
        if sample["lower"] > whole["lower"] or sample["upper"] < whole["upper"]:
            return {"seeds": f"{start}..{start + count - 1}", "budget": int(budget), **sample}
        return None
    return None


def _markdown(game_name: str, table: pd.DataFrame, pairs: list[dict], commands: list[str]) -> str:
    lines = [
        f"# {game_name}: win rates",
        "",
        "Rate = won / deals with its 95% Wilson interval. While some deals are unknown "
        "(not decided within the solver's limits) the rate is given as bounds instead: "
        "lower = unknown counted lost, upper = unknown counted won.",
        "",
        "| variant | deals | seeds | won | lost | unknown | rate | 95% interval | lower..upper | median s | max s | solver |",
        "| --- | ---: | --- | ---: | ---: | ---: | ---: | --- | --- | ---: | ---: | --- |",
    ]
    for r in table.itertuples(index=False):
        if r.unknown == 0:
            interval, bounds = f"{pct(r.wilson_lo)}..{pct(r.wilson_hi)}", "-"
        else:
            # no rate, so no interval of it: the Wilson interval of won/deals would read
            # as one (0%..0.004% for a run left all unknown); the bounds carry its ends
            interval = "-"
            bounds = f"{pct(r.lower)}..{pct(r.upper)} ({pct(r.lower_lo)}..{pct(r.upper_hi)})"
        lines.append(
            f"| {r.variant} | {r.deals} | {r.seeds} | {r.won} | {r.lost} | {r.unknown} | {pct(r.rate)} "
            f"| {interval} | {bounds} | {r.median_seconds:.3f} | {r.max_seconds:.3f} | {r.solver} |"
        )
    samples = table[table["sample_seeds"].notna()]
    if not samples.empty:
        lines += [
            "",
            "## Deeper search on a sample of seeds",
            "",
            "Where a `--retry-unknown` run at a larger node budget covered only some of the "
            "seeds, its whole seed range (fixed before any result was known) is summarised "
            "here, if its bounds are tighter than those of the row above.  Its won share "
            "estimates how often the solver wins at that budget, a lower bound on the win "
            "rate (95% Wilson interval); won plus unknown, an upper bound.",
            "",
            "| variant | seeds | node budget | deals | won | lost | unknown | won share | 95% interval | lower..upper |",
            "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |",
        ]
        for r in samples.itertuples(index=False):
            n = int(r.sample_n)
            lines.append(
                f"| {r.variant} | {r.sample_seeds} | {int(r.sample_budget)} | {n} | {int(r.sample_won)} "
                f"| {int(r.sample_lost)} | {int(r.sample_unknown)} | {pct(r.sample_won / n)} "
                f"| {pct(r.sample_lo)}..{pct(r.sample_hi)} | {pct(r.sample_won / n)}..{pct(r.sample_upper)} |"
            )
    lines += ["", "Commands:", ""] + [f"- `{c}`" for c in commands]
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
    return "\n".join(lines) + "\n"


def _caption(commands: list[str], width_in: float, most: int = 8) -> list[str]:
    """The commands (at most ``most``) as caption lines wrapped to the figure width
    (7 pt monospace)."""
    import textwrap

    chars = max(40, int((width_in - 0.2) / 0.075))
    shown = commands[:most] + (["..."] if len(commands) > most else [])
    return [line for c in shown for line in textwrap.wrap(c, chars, subsequent_indent="    ", break_on_hyphens=False)]


def _plot(game_name: str, table: pd.DataFrame, commands: list[str], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")  # files only: no display on servers and CI
    import matplotlib.pyplot as plt

    n = len(table)
    longest = max((len(c) for c in commands), default=0)
    width = min(14.0, max(5.0, 1.3 * n + 2, 0.075 * longest + 0.3))
    caption = _caption(commands, width)
    fig, ax = plt.subplots(figsize=(width, 4.5 + 0.13 * len(caption)))
    x = list(range(n))
    won = table["won"] / table["deals"]
    below = (won - table["wilson_lo"]).clip(lower=0)  # clip: rounding noise only
    above = (table["wilson_hi"] - won).clip(lower=0)
    ax.errorbar(x, won, yerr=[below, above], fmt="o", capsize=5, label="won / deals, 95% Wilson interval")
    unk = table[table["unknown"] > 0]
    if not unk.empty:
        # Unknown deals could all be wins: show how far up the rate could go.
        idx = list(unk.index)
        ax.vlines(idx, unk["wilson_hi"], unk["upper_hi"], colors="grey", linestyles="dotted",
                  label="up to: unknown counted won (Wilson upper end)")
        ax.plot(idx, unk["upper"], "^", color="grey")
    samples = table[table["sample_seeds"].notna()]
    if not samples.empty:
        beside = samples.index + 0.15  # right of the run's own point
        share = samples["sample_won"] / samples["sample_n"]
        ax.errorbar(beside, share,
                    yerr=[(share - samples["sample_lo"]).clip(lower=0), (samples["sample_hi"] - share).clip(lower=0)],
                    fmt="s", mfc="none", capsize=4, color="C1",
                    label="won on a seed sample at a larger budget (see winrates.md), 95% Wilson")
        unsettled = (samples["sample_unknown"] > 0).to_numpy()
        if unsettled.any():
            # the sample's own ceiling (its unknowns counted won), often far below the run's
            open_rows = samples[unsettled]
            ax.vlines(beside[unsettled], open_rows["sample_hi"], open_rows["sample_upper_hi"], colors="C1",
                      linestyles="dotted", label="up to, on that sample")
            ax.plot(beside[unsettled], open_rows["sample_upper"], "^", mfc="none", color="C1")
    ax.set_xticks(x, [f"{v}\n({d} deals)" for v, d in zip(table["variant"], table["deals"])])
    ax.set_xlim(-0.6, n - 0.4)
    ax.set_ylabel("win rate")
    ax.set_title(f"{game_name}: win rate by variant")
    ax.grid(axis="y", alpha=0.3)
    ax.legend(loc="best", fontsize="small", framealpha=0.8)
    fig.text(0.01, 0.01, "\n".join(caption), fontsize=7, family="monospace", va="bottom")
    height = fig.get_size_inches()[1]
    fig.tight_layout(rect=(0, (0.15 + 0.13 * len(caption)) / height, 1, 1))
    fig.savefig(path, dpi=110)
    plt.close(fig)


def write_report(game_name: str, out_dir="results") -> Path | None:
    """Rebuild winrates.csv / .md / .png for ``game_name`` from the runs on disk.
    Returns the markdown path, or None when the game has no runs yet."""
    variants = load_variants(out_dir, game_name)
    if not variants:
        return None
    table = report_table(variants)
    commands = []
    for _, meta in variants.values():
        for c in meta.get("commands", []):
            if c not in commands:
                commands.append(c)
    folder = report_folder(out_dir, game_name)
    folder.mkdir(parents=True, exist_ok=True)
    table.to_csv(folder / "winrates.csv", index=False)
    md = folder / "winrates.md"
    md.write_text(_markdown(game_name, table, paired_table(variants), commands))
    _plot(game_name, table, commands, folder / "winrates.png")
    return md
