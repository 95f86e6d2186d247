"""One-off migration of results/runs from one Parquet file per chunk to the compacted
layout of solver.batch.store (deals.parquet, superseded.parquet, command.json with
run records), with the provenance columns backfilled.  Idempotent: run it again and
it writes the same files (rows already in them are repeats and are dropped).

    python experiments/compact_results.py                  # write the new files, keep the parts
    python experiments/compact_results.py --delete-parts   # ... then, verified, delete the parts

Per folder it reads the old part files (sorted by name, as the old reader did),
backfills, merges them (solver.batch.store.merge: one row per seed by the old rule,
decided over unknown, then the larger node budget, then the first part; the replaced
rows kept in superseded.parquet; repeats of the same search dropped), checks that the
chosen row of every seed is the one the old reader chose, and writes the files.

Backfilled columns (old rows have seed, game, variant, algorithm, result, nodes,
seconds, solution_length, max_nodes, max_seconds):

* ``stop``: "" for a decided row, "unrecorded" for an unknown one.
* ``proof`` of a lost row: "search" when nodes > 1 (a dead root stops the first DFS
  attempt of the portfolio at nodes == 1: solver/search/dfs.py counts the root as node
  1 and returns LOST before expanding it when is_dead(root) holds, and the first
  attempt of every schedule is a DFS; any node beyond the root means the root was not
  dead and the loss came from exhausting the search).  For nodes == 1 the root was
  dead or had no move at all; today's kernels tell which: "dead_end" when today's
  is_dead holds at the root (``game.initial_state(deals.seeded_deck(seed, game.PACKS),
  variant)``) or the root has a move (so the search would have gone past node 1),
  "search" when the root has no move and is not dead.  Duchess searches each first move
  on its own (SPLIT_FIRST_MOVE: is_dead is never asked at the root itself), but its
  lost rows all have more than four nodes (one per first move), so they are "search".
  Every nodes == 1 root is checked (not a sample) and the counts printed.
* ``tt_mb``: the command's --tt-mb where the command with the row's limits gave one,
  else 64 (solve_deal's default in every version).
* ``code_version`` / ``code_basis`` / ``package_version``: from the git history.
  The rows of a folder with the same limits added by one commit C form a group.
  A group's code version is *established* ("history") when
    1. C does not change solver/;
    2. the solver sources (solver/**/*.py) at C equal those at T, where T is the
       latest of: the commit that added the game's module, the one that brought the
       rows' algorithm (``auto``), for a retry group (its limits are those of a
       ``--retry-unknown`` command only) the one that brought ``--retry-unknown`` (no
       run can be older than what it used), and the previous commit that added rows
       of the same folder and limits (a run series committed as it goes: rows
       committed later were solved after the earlier commit; check 3 tests that
       this fits); and
    3. the run fits after T: C's time minus the group's solving time (the sum of its
       rows' seconds divided by the largest --jobs of the commands with those limits,
       a lower bound on how long the run took) is not before T's time;
  and it is then solver.source_hash() of the sources at C (sha1 over the files' bytes
  in sorted path order, first 16 hex digits; read with git ls-tree and git cat-file).
  Otherwise the code version is "unknown" (basis "unknown").  The rule assumes a run
  ran committed code.  ``package_version`` is the version in pyproject.toml at C
  (0.1.0 throughout the history).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from solver.batch import store  # noqa: E402

OLD_COLUMNS = ["seed", "game", "variant", "algorithm", "result", "nodes", "seconds", "solution_length",
               "max_nodes", "max_seconds"]
GAME_MODULES = {"bakers-dozen": "bakers_dozen", "grand-duchess": "grand_duchess", "parisienne": "parisienne",
                "capricieuse": "capricieuse", "duchess": "duchess"}
SPLIT_GAMES = {"duchess"}


# ------------------------------------------------------------------ git, read only


def git(*args, input=None) -> bytes:
    return subprocess.run(["git", "-C", str(ROOT), *args], check=True, capture_output=True, input=input).stdout


class History:
    def __init__(self):
        self.time = {}
        self.order = {}
        lines = git("log", "--reverse", "--format=%H %ct").decode().splitlines()
        for i, line in enumerate(lines):
            h, t = line.split()
            self.time[h] = int(t)
            self.order[h] = i
        self.commits = [line.split()[0] for line in lines]
        self._hash = {}
        self._tree = {}

    def added(self, prefix: str) -> dict[str, str]:
        """path -> the commit that added it, for every file ever added under prefix."""
        out, commit = {}, None
        for line in git("log", "--diff-filter=A", "--name-only", "--format=C %H", "--", prefix).decode().splitlines():
            if line.startswith("C "):
                commit = line[2:]
            elif line.strip():
                out.setdefault(line.strip(), commit)  # newest first: a re-added path keeps its last add
        return out

    def features(self) -> dict[str, str]:
        """The commits that brought the auto algorithm and winrate --retry-unknown."""
        def first(*args):
            return git("log", "--reverse", "--format=%H", *args).decode().split()[0]
        return {"auto": first("-G\"auto\"", "--", "solver/solve.py"),
                "retry": first("-S--retry-unknown", "--", "solver/cli.py")}

    def changes_solver(self, commit: str) -> bool:
        return bool(git("diff-tree", "--root", "--no-commit-id", "--name-only", "-r", commit, "--", "solver/").strip())

    def solver_tree(self, commit: str) -> tuple:
        """((path, blob), ...) of solver/**/*.py at commit, in source_hash's order."""
        if commit not in self._tree:
            entries = []
            for line in git("ls-tree", "-r", "--full-tree", commit, "--", "solver/").decode().splitlines():
                meta, path = line.split("\t", 1)
                mode, kind, blob = meta.split()
                if kind == "blob" and path.endswith(".py"):
                    entries.append((path, blob))
            # sorted(Path.rglob(...)) orders paths by their parts
            self._tree[commit] = tuple(sorted(entries, key=lambda e: tuple(e[0].split("/"))))
        return self._tree[commit]

    def source_hash(self, commit: str) -> str:
        if commit not in self._hash:
            tree = self.solver_tree(commit)
            blobs = cat_blobs([b for _, b in tree])
            digest = hashlib.sha1()
            for _, b in tree:
                digest.update(blobs[b])
            self._hash[commit] = digest.hexdigest()[:16]
        return self._hash[commit]

    def file_at(self, commit: str, path: str) -> str:
        return git("show", f"{commit}:{path}").decode()


def cat_blobs(blobs: list[str]) -> dict[str, bytes]:
    out = git("cat-file", "--batch", input=("\n".join(blobs) + "\n").encode())
    result, i = {}, 0
    for b in blobs:
        header_end = out.index(b"\n", i)
        sha, kind, size = out[i:header_end].split()
        size = int(size)
        result[sha.decode()] = out[header_end + 1: header_end + 1 + size]
        i = header_end + 1 + size + 1
    return result


def package_version(history: History, commit: str) -> str:
    for line in history.file_at(commit, "pyproject.toml").splitlines():
        if line.startswith("version"):
            return line.split("=", 1)[1].strip().strip('"')
    return "unknown"


# ------------------------------------------------------------------ backfill


def old_choice(df: pd.DataFrame) -> pd.DataFrame:
    """The old read_rows rule, verbatim: the row every old reader took per seed."""
    decided = (df["result"] != "unknown").astype(int)
    budget = df["max_nodes"].fillna(-1)
    order = pd.DataFrame({"seed": df["seed"], "d": -decided, "b": -budget, "i": range(len(df))})
    keep = order.sort_values(["seed", "d", "b", "i"]).drop_duplicates("seed", keep="first").index
    return df.loc[keep].sort_values("seed", ignore_index=True)


def group_versions(history: History, rows: pd.DataFrame, records: list[dict], game: str, log: list) -> dict:
    """(commit, max_nodes, max_seconds) -> (code_version, basis, package_version)."""
    module_path = f"solver/games/{GAME_MODULES[game]}.py"
    module_commit = history.added(module_path)[module_path]
    feature = history.features()
    groups = rows.groupby(["commit", "max_nodes", "max_seconds"], sort=False)["seconds"].agg(["sum", "size"])
    groups = groups.reset_index()
    groups["order"] = groups["commit"].map(history.order)
    groups = groups.sort_values("order")
    out = {}
    previous = {}  # (max_nodes, max_seconds) -> the last commit adding such rows
    for g in groups.itertuples(index=False):
        limits = (g.max_nodes, g.max_seconds)
        c = g.commit
        same = [r for r in records
                if r.get("max_nodes") == g.max_nodes and float(r.get("seconds")) == float(g.max_seconds)]
        bounds = [module_commit]
        if set(rows.loc[rows["commit"] == c, "algorithm"]) == {"auto"}:
            bounds.append(feature["auto"])
        if same and all(r["retry_unknown"] for r in same):
            bounds.append(feature["retry"])
        if limits in previous:
            bounds.append(previous[limits])
        t = max(bounds, key=history.order.get)
        jobs = [r.get("jobs") or 1 for r in same]
        jobs = max(jobs) if jobs else 1
        duration = g.sum / jobs
        why = []
        if history.changes_solver(c):
            why.append("the commit changes solver/")
        if history.solver_tree(c) != history.solver_tree(t):
            why.append(f"solver/ changed since {t[:7]}")
        if history.time[c] - duration < history.time[t]:
            why.append(f"the run ({duration:.0f} s) cannot fit after {t[:7]}")
        version = package_version(history, c)
        if why:
            out[(c, *limits)] = ("unknown", "unknown", version)
        else:
            out[(c, *limits)] = (history.source_hash(c), "history", version)
        log.append({"game": game, "variant": rows["variant"].iloc[0], "commit": c[:7], "max_nodes": g.max_nodes,
                    "rows": int(g.size), "since": t[:7], "code_version": out[(c, *limits)][0],
                    "why_unknown": "; ".join(why)})
        previous[limits] = c
    return out


def root_checks(game_name: str, variant: dict, seeds) -> pd.DataFrame:
    """Today's is_dead and number of moves at the root of each seed's deal."""
    from solver import deals
    from solver.games import get_game

    game = get_game(game_name)
    moves = np.zeros(game.MAX_MOVES, dtype=np.int64)
    out = []
    for seed in seeds:
        st = game.initial_state(deals.seeded_deck(int(seed), game.PACKS), variant)
        out.append((int(seed), bool(game.is_dead(st)), int(game.gen_moves(st, moves, 0))))
    return pd.DataFrame(out, columns=["seed", "dead", "moves"])


def backfill_proof(df: pd.DataFrame, game: str, variant: dict, checks: list) -> pd.Series:
    proof = pd.Series("", index=df.index, dtype=object)
    lost = df["result"] == "lost"
    proof[lost & (df["nodes"] > 1)] = "search"
    one = lost & (df["nodes"] <= 1)
    if game in SPLIT_GAMES:
        if (lost & (df["nodes"] <= 4)).any():
            proof[lost & (df["nodes"] <= 4)] = "unrecorded"  # not decidable from the row
        return proof
    if one.any():
        seeds = sorted(set(df.loc[one, "seed"]))
        roots = root_checks(game, variant, seeds).set_index("seed")
        dead = df.loc[one, "seed"].map(roots["dead"])
        has_move = df.loc[one, "seed"].map(roots["moves"]) > 0
        label = np.where(dead | has_move, "dead_end", "search")
        proof[one] = label
        checks.append({"game": game, "variant": df["variant"].iloc[0], "lost_at_1_node": int(one.sum()),
                       "dead_today": int(dead.sum()), "alive_today_with_moves": int((~dead & has_move).sum()),
                       "no_move_not_dead": int((~dead & ~has_move).sum())})
    return proof


def tt_mb_for(df: pd.DataFrame, records: list[dict]) -> pd.Series:
    given = {}
    for r in records:
        key = (r["max_nodes"], float(r["seconds"]))
        given.setdefault(key, set()).add(r["tt_mb"])
    tt = pd.Series(64.0, index=df.index)
    for (nodes, secs), values in given.items():
        if len(values) != 1:
            continue  # two commands with these limits and different tables: keep the default... say so
        (value,) = values
        tt[(df["max_nodes"] == nodes) & (df["max_seconds"] == secs)] = float(value)
    return tt


# ------------------------------------------------------------------ one folder


def migrate(folder: Path, history: History, added: dict, log: list, checks: list, delete: bool) -> dict:
    parts = store.part_files(folder)
    meta = json.loads((folder / store.COMMAND).read_text())
    old_records = [r for r in (store.record_from_command(c) for c in meta.get("commands", [])) if r]
    if not parts:
        return {"folder": str(folder.relative_to(ROOT)), "parts": 0}
    frames = []
    for p in parts:
        f = pd.read_parquet(p)
        if list(f.columns) != OLD_COLUMNS:
            raise SystemExit(f"{p}: not an old part file (columns {list(f.columns)})")
        f["commit"] = added[str(p.relative_to(ROOT))]
        frames.append(f)
    old = pd.concat(frames, ignore_index=True)
    game = str(old["game"].iloc[0])
    variant = meta["options"]
    versions = group_versions(history, old, old_records, game, log)
    key = list(zip(old["commit"], old["max_nodes"], old["max_seconds"]))
    old["code_version"] = [versions[k][0] for k in key]
    old["code_basis"] = [versions[k][1] for k in key]
    old["package_version"] = [versions[k][2] for k in key]
    old["stop"] = np.where(old["result"] == "unknown", "unrecorded", "")
    old["proof"] = backfill_proof(old, game, variant, checks)
    old["tt_mb"] = tt_mb_for(old, old_records)
    new_rows = store.normalise(old.drop(columns=["commit"]))

    # the old parts are the source: files written by an earlier pass of this script are
    # rebuilt from them (so a changed backfill applies), unless they hold other rows
    existing = [store._read_if(folder / store.DEALS), store._read_if(folder / store.SUPERSEDED)]
    deals, sup, repeats = store.merge([new_rows])
    if sum(len(e) for e in existing):
        again = store.merge([deals, sup] + existing)
        if len(again[0]) + len(again[1]) != len(deals) + len(sup):
            raise SystemExit(f"{folder}: deals/superseded hold rows that are not in the old parts; stopping")
    # the same row per seed as every old reader took
    want = old_choice(old[OLD_COLUMNS])
    got = deals[["seed", "result", "nodes", "max_nodes", "solution_length"]].astype(
        {"result": str}).reset_index(drop=True)
    exp = want[["seed", "result", "nodes", "max_nodes", "solution_length"]].astype(
        {"result": str, "solution_length": "int16"}).reset_index(drop=True)
    pd.testing.assert_frame_equal(got, exp, check_dtype=False)
    assert len(deals) + len(sup) + repeats == len(old)

    store.write_parquet(folder / store.SUPERSEDED, sup)
    store.write_parquet(folder / store.DEALS, deals)
    # command.json: the command strings stay; the runs become records (once)
    if "runs" not in meta:
        meta["runs"] = old_records
        meta["runs_note"] = ("records read from the command strings by experiments/compact_results.py; "
                             "their times and code versions were not recorded")
        text = json.dumps(meta, indent=1) + "\n"
        store.atomic_write(folder / store.COMMAND, lambda tmp: Path(tmp).write_text(text))
    # read back and check before deleting anything
    back, back_sup = store.read_parquet(folder / store.DEALS), store.read_parquet(folder / store.SUPERSEDED)
    assert back["seed"].is_unique and back["seed"].is_monotonic_increasing
    assert (back["result"].astype(str).to_numpy() == want["result"].to_numpy()).all()
    if delete:
        for p in parts:
            p.unlink()
    return {"folder": str(folder.relative_to(ROOT)), "parts": len(parts), "rows": len(old), "deals": len(back),
            "superseded": len(back_sup), "repeats_dropped": repeats,
            "won": int((back["result"] == "won").sum()), "lost": int((back["result"] == "lost").sum()),
            "unknown": int((back["result"] == "unknown").sum()),
            "history_rows": int((back["code_basis"] == "history").sum())}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", default=str(ROOT / "results" / "runs"))
    ap.add_argument("--delete-parts", action="store_true", help="delete the part files once the new files check out")
    args = ap.parse_args()
    history = History()
    added = history.added("results/runs")
    log, checks, done = [], [], []
    for folder in sorted(p for p in Path(args.runs).glob("*/*") if p.is_dir()):
        done.append(migrate(folder, history, added, log, checks, args.delete_parts))
        print(done[-1], flush=True)
    pd.set_option("display.width", 250)
    pd.set_option("display.max_colwidth", 80)
    print("\ncode version groups:\n" + pd.DataFrame(log).to_string(index=False))
    if checks:
        print("\nroots of lost rows at 1 node, today's kernels:\n" + pd.DataFrame(checks).to_string(index=False))
    print("\nfolders:\n" + pd.DataFrame(done).to_string(index=False))


if __name__ == "__main__":
    main()
