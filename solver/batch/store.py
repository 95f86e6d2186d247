"""The per-deal rows on disk: one folder per game and variant.

    out_dir/runs/<game>/<variant, spaces as _>/deals.parquet       one row per seed, sorted
    out_dir/runs/<game>/<variant, spaces as _>/superseded.parquet  rows a better row replaced
    out_dir/runs/<game>/<variant, spaces as _>/command.json        the runs that made them
    out_dir/runs/<game>/<variant, spaces as _>/part-*.parquet      only while a run is going
    out_dir/runs/<game>/<variant, spaces as _>/.lock               held by the running run

A run writes each finished chunk as its own part file (a temporary name in the same
folder, fsync, then ``os.replace``: atomic), so a run killed at any moment, even by
SIGKILL, leaves only complete parts (plus perhaps a stray temporary file, which readers
ignore and the next run deletes).  When the run finishes it folds every part into
``deals.parquet`` and ``superseded.parquet`` (each written atomically, superseded
first) and only then deletes the parts: a crash at any point loses no row, and the
merge below is a function of the set of rows only, so a reader that finds a folder
mid-fold (or parts of a killed run) gets the same answer.

The merge, over every row of the folder (deals, superseded, parts, in that order):

* a repeat of the same search (every column equal but ``seconds`` and the provenance
  columns: the same seed solved twice under the same limits by two overlapping runs)
  is dropped, the first kept;
* per seed the best row goes to deals: a decided row over an unknown one (won comes
  with a checked solution, lost with a proof, either is final), then the larger node
  budget, then the first;
* the other rows go to superseded, so that a sample can still be summarised at its
  own limits (``report.retry_sample``).

One run per folder at a time: ``folder_lock`` (fcntl.flock on ``.lock``, held for the
whole run) makes a second one stop at once with a PatienceError.
"""

from __future__ import annotations

import contextlib
import datetime
import fcntl
import json
import math
import os
import shlex
import uuid
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from ..errors import PatienceError

TMP_PREFIX = ".tmp-"
PART_PREFIX = "part-"
DEALS = "deals.parquet"
SUPERSEDED = "superseded.parquet"
COMMAND = "command.json"
LOCK = ".lock"

# column -> parquet type; strings are dictionary-encoded (pandas categoricals)
_STR = pa.dictionary(pa.int32(), pa.string())
SCHEMA = pa.schema([
    ("seed", pa.int64()),
    ("game", _STR),
    ("variant", _STR),
    ("algorithm", _STR),
    ("result", _STR),  # won | lost | unknown
    ("proof", _STR),  # lost: search | dead_end | root_dead | relaxation (| unrecorded); else ""
    ("stop", _STR),  # unknown: nodes | time | depth | memory (| unrecorded); else ""
    ("nodes", pa.int64()),
    ("seconds", pa.float32()),
    ("solution_length", pa.int16()),  # number of moves of a win, -1 otherwise
    ("max_nodes", pa.int64()),  # the limits the deal was solved under (-1 / NaN: none)
    ("max_seconds", pa.float32()),
    ("tt_mb", pa.float32()),
    ("code_version", _STR),  # solver.SOURCE_HASH of the code that made the row, or "unknown"
    ("code_basis", _STR),  # recorded (by the run) | history (from git, see experiments/compact_results.py) | unknown
    ("package_version", _STR),
])
COLUMNS = SCHEMA.names
STRINGS = [f.name for f in SCHEMA if pa.types.is_dictionary(f.type)]
PROVENANCE = ("code_version", "code_basis", "package_version")
# a repeat of the same search: equal in every column but these
_NOT_IN_REPEAT = {"seconds", *PROVENANCE}
REPEAT_KEY = [c for c in COLUMNS if c not in _NOT_IN_REPEAT]
_INTS = {"seed": "int64", "nodes": "int64", "solution_length": "int16", "max_nodes": "int64"}
_FLOATS = {"seconds": "float32", "max_seconds": "float32", "tt_mb": "float32"}


# ------------------------------------------------------------------ errors


def unwritable(path, e: OSError) -> PatienceError:
    """One line naming the path and the reason, for the CLI's ``patience: error:``."""
    reason = e.strerror or str(e)
    return PatienceError(f"cannot write to {path}: {reason}")


def ensure_writable_dir(path) -> Path:
    """mkdir -p ``path`` and check that files can be made in it; PatienceError if not."""
    path = Path(path)
    if path.exists() and not path.is_dir():
        raise PatienceError(f"cannot write to {path}: it is a file, not a folder")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise unwritable(path, e) from None
    if not path.is_dir():
        raise PatienceError(f"cannot write to {path}: not a directory")
    if not os.access(path, os.W_OK | os.X_OK):
        raise PatienceError(f"cannot write to {path}: permission denied (read-only folder)")
    return path


# ------------------------------------------------------------------ rows and files


def normalise(df: pd.DataFrame) -> pd.DataFrame:
    """The columns of SCHEMA in its order and types; rows of an older layout (the ten
    columns before provenance) get the values that say what is not known."""
    df = df.copy()
    if "proof" not in df.columns or "stop" not in df.columns:
        result = df["result"].astype(object).to_numpy()
        if "proof" not in df.columns:
            df["proof"] = np.where(result == "lost", "unrecorded", "")
        if "stop" not in df.columns:
            df["stop"] = np.where(result == "unknown", "unrecorded", "")
    defaults = {"tt_mb": math.nan, "code_version": "unknown", "code_basis": "unknown", "package_version": "unknown"}
    for col, value in defaults.items():
        if col not in df.columns:
            df[col] = value
    missing = [c for c in COLUMNS if c not in df.columns]
    if missing:
        raise ValueError(f"rows without columns {missing}")
    df = df[COLUMNS]
    for c in STRINGS:
        if not isinstance(df[c].dtype, pd.CategoricalDtype):
            df[c] = df[c].astype(str).astype("category")
    for c, t in _INTS.items():
        df[c] = df[c].astype(t)
    for c, t in _FLOATS.items():
        df[c] = df[c].astype(t)
    return df


def empty_rows() -> pd.DataFrame:
    return normalise(pd.DataFrame({c: [] for c in ("seed", "game", "variant", "algorithm", "result", "nodes",
                                                   "seconds", "solution_length", "max_nodes", "max_seconds")}))


def atomic_write(path: Path, write) -> None:
    """Call ``write(tmp_path)`` then rename onto ``path``: readers see all or nothing."""
    tmp = path.parent / f"{TMP_PREFIX}{uuid.uuid4().hex}{path.suffix}"
    try:
        write(tmp)
        # fsync so that a rename that survives a crash never points at missing data.
        with open(tmp, "rb") as f:
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError as e:
        raise unwritable(path, e) from None
    finally:
        if tmp.exists():
            tmp.unlink()


def write_parquet(path: Path, df: pd.DataFrame) -> None:
    table = pa.Table.from_pandas(normalise(df), schema=SCHEMA, preserve_index=False)
    atomic_write(path, lambda tmp: pq.write_table(table, tmp, compression="zstd", compression_level=9))


def read_parquet(path: Path) -> pd.DataFrame:
    return normalise(pd.read_parquet(path))


def write_part(folder: Path, rows: list[dict]) -> Path:
    """Write one finished chunk as its own Parquet part file, atomically."""
    df = pd.DataFrame(rows)
    seeds = df["seed"]
    path = Path(folder) / f"{PART_PREFIX}{seeds.min()}-{seeds.max()}-{uuid.uuid4().hex[:8]}.parquet"
    write_parquet(path, df)
    return path


def part_files(folder) -> list[Path]:
    return sorted(Path(folder).glob(f"{PART_PREFIX}*.parquet"))


def _concat(frames: list[pd.DataFrame]) -> pd.DataFrame:
    frames = [f for f in frames if len(f)]
    if not frames:
        return empty_rows()
    if len(frames) == 1:
        return frames[0].reset_index(drop=True)
    # categoricals with different categories would fall back to object columns
    for c in STRINGS:
        if not all(c in f.columns and isinstance(f[c].dtype, pd.CategoricalDtype) for f in frames):
            continue
        cats = pd.api.types.union_categoricals([f[c] for f in frames]).categories
        frames = [f.assign(**{c: f[c].cat.set_categories(cats)}) for f in frames]
    return pd.concat(frames, ignore_index=True)


def rank_order(df: pd.DataFrame) -> pd.Index:
    """The rows' index sorted best first within each seed: decided over unknown, then
    the larger node budget, then the larger time budget, then the earlier row.  The
    time budget counts because ``--retry-unknown`` retries an unknown whose node or
    time budget is smaller than the one given: were a retry with more seconds and the
    same nodes ranked below the row it retried, every resume would retry it again."""
    order = pd.DataFrame({
        "seed": df["seed"].to_numpy(),
        "d": (df["result"] == "unknown").to_numpy(),  # False (decided) first
        "b": -df["max_nodes"].fillna(-1).to_numpy(),
        "t": -(df["max_seconds"].fillna(-1).to_numpy() if "max_seconds" in df else 0),
        "i": range(len(df)),
    }, index=df.index)
    return order.sort_values(["seed", "d", "b", "t", "i"], kind="stable").index


def merge(frames: list[pd.DataFrame]) -> tuple[pd.DataFrame, pd.DataFrame, int]:
    """(deals, superseded, repeats dropped) from every row of a folder, in order."""
    df = _concat(frames)
    repeat = df.duplicated(REPEAT_KEY, keep="first")
    dropped = int(repeat.sum())
    df = df[~repeat]
    ranked = df.loc[rank_order(df)]
    first = ~ranked["seed"].duplicated(keep="first")
    deals = ranked[first.to_numpy()].reset_index(drop=True)
    superseded = ranked[~first.to_numpy()].reset_index(drop=True)
    return deals, superseded, dropped


def _read_if(path: Path) -> pd.DataFrame:
    return read_parquet(path) if path.exists() else empty_rows()


def read_store(folder) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(deals, superseded) of one variant folder, with the parts of a run in progress
    (or killed) merged in; both sorted by seed, deals one row per seed."""
    folder = Path(folder)
    deals, sup = _read_if(folder / DEALS), _read_if(folder / SUPERSEDED)
    parts = part_files(folder)
    if not parts:
        return deals, sup
    deals, sup, _ = merge([deals, sup] + [read_parquet(p) for p in parts])
    return deals, sup


def read_rows(folder) -> pd.DataFrame:
    """Every deal on disk for one variant folder, one row per seed, sorted by seed."""
    return read_store(folder)[0]


def read_all_rows(folder) -> pd.DataFrame:
    """deals and superseded together (for summaries at a sample's own limits)."""
    deals, sup = read_store(folder)
    return _concat([deals, sup])


def fold(folder) -> int:
    """Fold the part files into deals.parquet and superseded.parquet (the caller holds
    the folder's lock); returns the number of parts folded."""
    folder = Path(folder)
    parts = part_files(folder)
    if not parts:
        return 0
    frames = [_read_if(folder / DEALS), _read_if(folder / SUPERSEDED)] + [read_parquet(p) for p in parts]
    deals, sup, _ = merge(frames)
    write_folded(folder, deals, sup, parts)
    return len(parts)


def write_folded(folder, deals, sup, parts) -> None:
    """Write a folder's deals.parquet and superseded.parquet, which now hold every row of
    ``parts``, then delete those parts (the caller holds the folder's lock).  Used by
    ``fold`` and by anything else that rewrites the folded rows."""
    folder = Path(folder)
    write_parquet(folder / SUPERSEDED, sup)
    write_parquet(folder / DEALS, deals)
    for p in parts:
        try:
            p.unlink()
        except OSError as e:
            raise unwritable(p, e) from None


def remove_stray_temps(folder) -> int:
    """Delete temporary files left by a killed run (the caller holds the lock)."""
    stray = list(Path(folder).glob(f"{TMP_PREFIX}*"))
    for p in stray:
        p.unlink(missing_ok=True)
    return len(stray)


@contextlib.contextmanager
def folder_lock(folder):
    """Hold an exclusive flock on ``folder/.lock`` for the block; a second holder (in
    any process) gets a PatienceError at once instead of waiting."""
    path = Path(folder) / LOCK
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as e:
        raise unwritable(path, e) from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise PatienceError(f"another run is writing {folder}") from None
        try:
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


# ------------------------------------------------------------------ command.json


RECORD_KEYS = ("command", "start", "deals", "retry_unknown", "algorithm", "max_nodes", "seconds", "tt_mb",
               "code_version", "when")


def now_iso() -> str:
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


def read_command(folder) -> dict:
    """command.json of a folder ({} if none); ``runs`` always present: an older file's
    command strings are read into run records (``record_from_command``)."""
    try:
        meta = json.loads((Path(folder) / COMMAND).read_text())
    except (OSError, json.JSONDecodeError):
        return {}
    if not isinstance(meta, dict):
        return {}
    if "runs" not in meta:
        meta["runs"] = [r for r in (record_from_command(c) for c in meta.get("commands", [])) if r]
    return meta


# command.json's records of what was not a run (a relabel, a merge): every run keeps them
KEPT_LISTS = ("relabels", "merges")


def write_command(folder, game_name: str, vstr: str, variant: dict, command: str, record: dict | None = None) -> None:
    """Record a run in ``command.json``: the latest command, every distinct command
    (``commands``, for people), and a structured record of each run (``runs``)."""
    folder = Path(folder)
    meta = read_command(folder)
    history = list(meta.get("commands", []))
    if command and command not in history:
        history.append(command)
    runs = list(meta.get("runs", []))
    if record is not None:
        runs.append(record)
    meta = {"game": game_name, "variant": vstr, "options": variant,
            "command": command or meta.get("command", ""), "commands": history, "runs": runs,
            **{k: meta[k] for k in KEPT_LISTS if k in meta}}
    _write_meta(folder, meta)


def _write_meta(folder: Path, meta: dict) -> None:
    text = json.dumps(meta, indent=1) + "\n"
    atomic_write(folder / COMMAND, lambda tmp: Path(tmp).write_text(text))


def add_relabel(folder, record: dict) -> None:
    """Record in ``command.json`` (``relabels``) a change of stored labels that is not a
    run (experiments/relabel_root_proofs.py: the verdicts stay, a proof gets its name)."""
    meta = read_command(folder)
    meta["relabels"] = list(meta.get("relabels", [])) + [record]
    _write_meta(Path(folder), meta)


# winrate's flags and what they take (the only command this parser reads)
_VALUE_FLAGS = {"--deals": int, "--start": int, "--jobs": int, "--algorithm": str, "--max-nodes": int,
                "--seconds": float, "--tt-mb": int, "--chunk-size": int, "--out": str,
                "--scheduler": str, "--cluster-workers": int}
_BARE_FLAGS = {"--no-progress", "--retry-unknown"}
# solve_deal's defaults and winrate's, in every version so far
OLD_DEFAULTS = {"start": 1, "algorithm": "auto", "max_nodes": 2_000_000, "seconds": 60.0, "tt_mb": 64}


def record_from_command(command: str, defaults: dict | None = None) -> dict | None:
    """A run record from a ``patience winrate ...`` command string (the limits it
    leaves out are ``defaults``, by default the solver's of every version so far), or
    None for anything else.  Only winrate's own flags are known: this is the one-off
    reader of the commands recorded before the runs were."""
    defaults = {**OLD_DEFAULTS, **(defaults or {})}
    try:
        words = shlex.split(command)
    except ValueError:
        return None
    if len(words) < 3 or Path(words[0]).name not in ("patience", "cli.py") or "winrate" not in words[1:3]:
        return None
    words = words[words.index("winrate") + 1:]
    given, variant, i = {}, [], 0
    while i < len(words):
        w = words[i]
        name, eq, inline = w.partition("=")
        if name in _VALUE_FLAGS:
            if eq:
                value = inline
            else:
                if i + 1 >= len(words):
                    return None
                i += 1
                value = words[i]
            try:
                given[name[2:].replace("-", "_")] = _VALUE_FLAGS[name](value)
            except ValueError:
                return None
        elif w in _BARE_FLAGS:
            given[w[2:].replace("-", "_")] = True
        elif w.startswith("-"):
            return None  # a flag winrate never had
        else:
            variant.append(w)
        i += 1
    if "deals" not in given:
        return None
    return {
        "command": command,
        "start": given.get("start", defaults["start"]),
        "deals": given["deals"],
        "retry_unknown": bool(given.get("retry_unknown", False)),
        "algorithm": given.get("algorithm", defaults["algorithm"]),
        "max_nodes": given.get("max_nodes", defaults["max_nodes"]),
        "seconds": float(given.get("seconds", defaults["seconds"])),
        "tt_mb": given.get("tt_mb", defaults["tt_mb"]),
        "code_version": "unknown",
        "when": None,
        "jobs": given.get("jobs"),
        "chunk_size": given.get("chunk_size"),
    }
