"""Strategy win rates over many seeded deals (``patience play GAME --deals N``): a
resumable parallel run of one strategy, with its options, on one variant.

Where the rows go (beside the thoughtful ``winrate`` rows of the same variant, so that
both are found from the variant's folder)::

    out_dir/runs/<game>/<variant>/play/<strategy>-<options>[-rng<K>]/deals.parquet
    out_dir/runs/<game>/<variant>/play/<strategy>-<options>[-rng<K>]/superseded.parquet  (only if any)
    out_dir/runs/<game>/<variant>/play/<strategy>-<options>[-rng<K>]/command.json
    out_dir/runs/<game>/<variant>/play/<strategy>-<options>[-rng<K>]/part-*.parquet    (while a run goes)
    out_dir/runs/<game>/<variant>/play/<strategy>-<options>[-rng<K>]/.lock

``<variant>`` is the winrate folder's name (``standard``, ``face_down=true``, ...);
``<options>`` is ``players.options_text`` of the *full* options, defaults included
(``greedy-max_moves=1000``), so that a later change of a default can never mix rows of
two settings in one folder; ``-rng<K>`` is there only when ``--rng-seed K`` was given.

The decks are those of ``winrate``: seed S is ``deals.seeded_deck(S)``, so every
strategy, every variant and the thoughtful solver meet the same shuffles (paired).

The player's own random stream (``deal_rng_seed``), the same rule for every strategy:

* without ``--rng-seed``: the rng seed of deal S is S itself, so that
  ``patience play GAME --strategy X --seed S`` replays the batch's game exactly;
* with ``--rng-seed K``: g(g(S) xor K), g(x) being the first output of SplitMix64
  started from state x (the generator of ``solver.deals``); a different, equally
  fixed stream per deal for each K (replicates).  The row's ``rng_seed`` column holds
  the value used; ``patience play ... --seed S --rng-seed <that value>`` replays it.

The storage protocol is the winrate store's (``store``): only the parent writes; each
finished chunk is a part file written atomically; at the end of the run the parts are
folded into deals.parquet (one row per seed; a second row for a seed, which only a
hand-merged folder can produce, goes to superseded.parquet) under the folder's lock;
a run killed at any moment resumes with the same command and loses or repeats nothing.
The chunks run in a process pool, or on a Dask cluster (``--scheduler``,
``--cluster-workers``: solver.batch.cluster), the parent writing them the same way.
Every won game is replayed by the checker (``solver.checker``) in the worker before
its row is written: a "win" that does not replay is a bug and stops the run.
"""

from __future__ import annotations

import contextlib
import re
import sys
import time
import uuid
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

import solver

from .. import deals
from ..errors import PatienceError
from ..variants import full_variant, parse_variant, variant_str
from . import store
from .paths import DEFAULT_OUT, variant_folder
from .run import _mp_context, _worker_init, chunk_seeds

PLAY = "play"  # the subfolder of a variant folder that holds its strategies' runs

_STR = pa.dictionary(pa.int32(), pa.string())
PLAY_SCHEMA = pa.schema([
    ("seed", pa.int64()),
    ("game", _STR),
    ("variant", _STR),  # the winrate folder's variant string
    ("strategy", _STR),
    ("options", _STR),  # players.options_text of the full options
    ("rng_seed", pa.uint64()),  # the player's random stream for this deal (deal_rng_seed)
    ("won", pa.bool_()),
    ("moves", pa.int32()),  # moves made
    ("decisions", pa.int32()),  # times the player chose among two or more legal moves
    ("stopped", pa.bool_()),  # the game hit max_moves before it ended (counted lost)
    ("seconds", pa.float32()),  # playing time of the deal (PlayOutcome.seconds)
    ("code_version", _STR),  # solver.SOURCE_HASH of the code that made the row
    ("package_version", _STR),
])
PLAY_COLUMNS = PLAY_SCHEMA.names
_STRINGS = [f.name for f in PLAY_SCHEMA if pa.types.is_dictionary(f.type)]
_TYPES = {"seed": "int64", "rng_seed": "uint64", "won": "bool", "moves": "int32", "decisions": "int32",
          "stopped": "bool", "seconds": "float32"}
# a repeat of the same game: equal in every column but the time and the provenance
_REPEAT_KEY = [c for c in PLAY_COLUMNS if c not in ("seconds", "code_version", "package_version")]


class PlayerBug(PatienceError):
    """A result that cannot be right (a win that does not replay, a win of a deal
    the solver proved lost): a bug in a player, the referee or the solver, never
    bad input.  One line on the command line like every error, but it stops the run
    or the report."""


# ------------------------------------------------------------------ names and seeds


def _first_splitmix(x: int) -> int:
    return next(deals._splitmix64(x))


def deal_rng_seed(seed: int, rng_seed: int | None = None) -> int:
    """The player's rng seed for deal ``seed`` (module docstring): the deal seed
    itself, or with a batch ``--rng-seed K``, g(g(seed) xor K)."""
    if rng_seed is None:
        return int(seed)
    return _first_splitmix(_first_splitmix(int(seed)) ^ (int(rng_seed) & deals.MASK64))


def strategy_folder_name(strategy: str, otext: str, rng_seed: int | None = None) -> str:
    """``<strategy>-<options>[-rng<K>]``, with anything but letters, digits and
    ``=,.+_-`` turned into ``_`` so that any option value makes a folder name."""
    name = f"{strategy}-{otext}" + ("" if rng_seed is None else f"-rng{int(rng_seed)}")
    return re.sub(r"[^A-Za-z0-9=,.+_-]", "_", name)


def play_folder(out_dir, game_name: str, vstr: str, strategy: str, otext: str, rng_seed: int | None = None) -> Path:
    return variant_folder(out_dir, game_name, vstr) / PLAY / strategy_folder_name(strategy, otext, rng_seed)


def play_folders(out_dir, game_name: str) -> list[Path]:
    """Every strategy folder of the game on disk (sorted)."""
    base = Path(out_dir) / "runs" / game_name
    return sorted(p for p in base.glob(f"*/{PLAY}/*") if p.is_dir()) if base.exists() else []


# ------------------------------------------------------------------ rows on disk


def normalise_play(df: pd.DataFrame) -> pd.DataFrame:
    missing = [c for c in PLAY_COLUMNS if c not in df.columns]
    if missing:
        raise ValueError(f"play rows without columns {missing}")
    df = df[PLAY_COLUMNS].copy()
    for c in _STRINGS:
        df[c] = df[c].astype(str).astype("category")
    for c, t in _TYPES.items():
        df[c] = df[c].astype(t)
    return df.reset_index(drop=True)


def empty_play_rows() -> pd.DataFrame:
    return normalise_play(pd.DataFrame({c: [] for c in PLAY_COLUMNS}))


def _write(path: Path, df: pd.DataFrame) -> None:
    table = pa.Table.from_pandas(normalise_play(df), schema=PLAY_SCHEMA, preserve_index=False)
    store.atomic_write(path, lambda tmp: pq.write_table(table, tmp, compression="zstd", compression_level=9))


def _read(path: Path) -> pd.DataFrame:
    return normalise_play(pd.read_parquet(path)) if path.exists() else empty_play_rows()


def write_play_part(folder, rows: list[dict]) -> Path:
    """One finished chunk as its own part file, atomically."""
    df = pd.DataFrame(rows)
    path = Path(folder) / f"{store.PART_PREFIX}{df['seed'].min()}-{df['seed'].max()}-{uuid.uuid4().hex[:8]}.parquet"
    _write(path, df)
    return path


def merge_play(frames: list[pd.DataFrame]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(deals, superseded) from every row of a folder in order (deals, superseded,
    parts): exact repeats dropped, then the first row of each seed to deals, sorted."""
    frames = [f.astype({c: object for c in _STRINGS}) for f in frames if len(f)]
    if not frames:
        return empty_play_rows(), empty_play_rows()
    df = pd.concat(frames, ignore_index=True)
    df = df[~df.duplicated(_REPEAT_KEY, keep="first")]
    first = ~df["seed"].duplicated(keep="first")
    deals_ = df[first].sort_values("seed", kind="stable")
    sup = df[~first].sort_values("seed", kind="stable")
    return normalise_play(deals_), normalise_play(sup)


def read_play_store(folder) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(deals, superseded) of a strategy folder, the parts of a run in progress (or
    killed) merged in; deals one row per seed, sorted by seed."""
    folder = Path(folder)
    deals_, sup = _read(folder / store.DEALS), _read(folder / store.SUPERSEDED)
    parts = store.part_files(folder)
    if not parts:
        return deals_, sup
    return merge_play([deals_, sup] + [_read(p) for p in parts])


def read_play_rows(folder) -> pd.DataFrame:
    return read_play_store(folder)[0]


def fold_play(folder) -> int:
    """Fold the part files into deals.parquet (and superseded.parquet when a seed has
    a second row); the caller holds the lock.  Returns the number of parts folded."""
    folder = Path(folder)
    parts = store.part_files(folder)
    if not parts:
        return 0
    deals_, sup = merge_play([_read(folder / store.DEALS), _read(folder / store.SUPERSEDED)]
                             + [_read(p) for p in parts])
    write_play_folded(folder, deals_, sup, parts)
    return len(parts)


def write_play_folded(folder, deals_, sup, parts) -> None:
    """store.write_folded for a strategy folder (superseded.parquet only once a seed
    has a second row)."""
    folder = Path(folder)
    if len(sup) or (folder / store.SUPERSEDED).exists():
        _write(folder / store.SUPERSEDED, sup)
    _write(folder / store.DEALS, deals_)
    for p in parts:
        try:
            p.unlink()
        except OSError as e:
            raise store.unwritable(p, e) from None


def write_play_command(folder, meta: dict, command: str, record: dict | None = None) -> None:
    """command.json: what the folder holds (game, variant, strategy, options, rng
    seed), the latest command, every distinct command, and a record of each run."""
    import json

    old = store.read_command(folder)
    history = list(old.get("commands", []))
    if command and command not in history:
        history.append(command)
    runs = list(old.get("runs", []))
    if record is not None:
        runs.append(record)
    full = {**meta, "command": command or old.get("command", ""), "commands": history, "runs": runs,
            **{k: old[k] for k in store.KEPT_LISTS if k in old}}
    text = json.dumps(full, indent=1) + "\n"
    store.atomic_write(Path(folder) / store.COMMAND, lambda tmp: Path(tmp).write_text(text))


# ------------------------------------------------------------------ playing


def play_chunk(task: tuple) -> list[dict]:
    """Play a list of seeds (in a worker process, or in-process for jobs=1)."""
    from ..checker import replay
    from ..games import get_game
    from ..play import players

    game_name, variant, vstr, strategy, options, otext, seeds, rng_base = task
    packs = get_game(game_name).PACKS
    rows = []
    for seed in seeds:
        deck = [int(c) for c in deals.seeded_deck(seed, packs)]
        rs = deal_rng_seed(seed, rng_base)
        setup = deals.setup_kwargs(game_name, int(seed))  # a seeded deal's redeal seed is its seed
        o = players.play_deal(game_name, deck, variant, strategy, options, rs, **setup)
        if o.won:
            r = replay(game_name, variant, deck, list(o.moves), **setup)
            if not (r.legal and r.won):
                raise PlayerBug(f"{strategy} ({otext}) on {game_name} {vstr}, seed {seed}, rng seed {rs}: "
                                f"reported won, but the checker says {r.error}: a bug in the player")
        rows.append({
            "seed": int(seed), "game": game_name, "variant": vstr, "strategy": strategy, "options": otext,
            "rng_seed": int(rs), "won": bool(o.won), "moves": len(o.moves), "decisions": int(o.decisions),
            "stopped": bool(o.stopped), "seconds": float(o.seconds),
            # the code this worker imported: the code that made the row
            "code_version": solver.SOURCE_HASH, "package_version": solver.__version__,
        })
    return rows


def _play_worker_init(game_name: str, strategy: str) -> None:
    """A worker ignores Ctrl-C (the parent stops the pool) and loads its strategy once
    (the parent compiled it already, so this finds a warm cache)."""
    from ..play import players

    _worker_init()
    players.prepare(game_name, strategy, None)


def _seeds_text(task: tuple) -> str:
    seeds = task[6]
    return f"seeds {seeds[0]}..{seeds[-1]}"


def _play_chunks(tasks: list[tuple], jobs: int, game_name: str, strategy: str, session=None):
    """Yield each chunk's rows as it finishes (on the Dask ``session`` if given, else
    in-process for jobs=1 or one chunk, else a pool)."""
    if not tasks:
        return
    if session is not None:
        from .cluster import warm_key_play

        yield from session.map_unordered(play_chunk, warm_key_play(game_name, strategy), tasks, _seeds_text)
        return
    if jobs <= 1 or len(tasks) == 1:
        for task in tasks:
            yield play_chunk(task)
        return
    ctx = _mp_context()
    with ctx.Pool(min(jobs, len(tasks)), initializer=_play_worker_init, initargs=(game_name, strategy)) as pool:
        yield from pool.imap_unordered(play_chunk, tasks)


def announcer(stream):
    """``announce(text)`` for players.prepare: one ``patience: ...`` line on ``stream``."""
    def announce(text) -> None:
        text = str(text).strip()
        print(text if text.startswith("patience") else f"patience: {text}", file=stream, flush=True)

    return announce


def check_playable(game_name: str, strategy: str, options=None) -> dict:
    """The full options dict, or a PatienceError: a game without a player, an unknown
    strategy, a bad option.  ``options``: a dict (checked against the strategy's
    table, defaults filled in) or a list of ``key=value`` words."""
    from ..play import players

    if game_name not in players.PLAYABLE:
        raise PatienceError(f"no player for {game_name} yet; playable: {', '.join(players.PLAYABLE)}")
    if options is None or isinstance(options, (list, tuple)):
        return players.parse_options(strategy, list(options or []))
    table = players.option_table(strategy)
    unknown = [k for k in options if k not in table]
    if unknown:
        raise PatienceError(f"unknown options {unknown} for strategy {strategy} (known: {', '.join(table)})")
    return {**{k: v[1] for k, v in table.items()}, **options}


# ------------------------------------------------------------------ the run


def run_play(
    game_name: str,
    variant,
    strategy: str,
    options=None,
    start: int = 1,
    n_deals: int = 100,
    jobs: int = 1,
    out_dir=DEFAULT_OUT,
    rng_seed: int | None = None,
    progress: bool = True,
    command: str = "",
    chunk_size: int | None = None,
    out=None,
    backend=None,
) -> dict:
    """Play seeds start..start+n_deals-1 not on disk yet with ``strategy``, print a
    summary and rebuild the game's strategy report (play_report.write_play_report).

    ``variant``: a variant dict or a list of key=value words; ``options``: a dict or a
    list of key=value words (None: the strategy's defaults); ``rng_seed``: the batch's
    K (module docstring) or None; ``backend``: a cluster.Backend to play the chunks on
    Dask (``jobs`` is then the number of its workers), None for the process pool.
    Returns the summary of the requested seeds: n, won, lost, rate, rate_lo,
    rate_hi, stopped, played_now, elapsed, folder.
    Bad input, a folder that cannot be written or that another run is writing: a
    PatienceError; a win that does not replay, or one of a deal the solver proved
    lost (found by the report): PlayerBug."""
    from tqdm import tqdm

    from ..games import get_game
    from ..play import players
    from .play_report import write_play_report

    out = out or sys.stdout
    game = get_game(game_name)
    options = check_playable(game_name, strategy, options)
    if isinstance(variant, dict):
        variant = full_variant(game_name, game.VARIANTS, variant)
    else:
        variant = parse_variant(game_name, game.VARIANTS, list(variant))
    vstr = variant_str(variant, game.VARIANTS)
    otext = players.options_text(options)
    store.ensure_writable_dir(out_dir)  # the folder the user named, in the message
    folder = store.ensure_writable_dir(play_folder(out_dir, game_name, vstr, strategy, otext, rng_seed))
    wanted = range(start, start + n_deals)
    meta = {"game": game_name, "variant": vstr, "variant_options": variant, "strategy": strategy,
            "strategy_options": options, "options_text": otext, "rng_seed": rng_seed}

    with store.folder_lock(folder), contextlib.ExitStack() as stack:
        store.remove_stray_temps(folder)
        done = set(read_play_rows(folder)["seed"].tolist())
        todo = [s for s in wanted if s not in done]
        session = None
        if todo:
            # load (or compile, once, saying so) before any worker starts or any clock runs
            players.prepare(game_name, strategy, announcer(sys.stderr))
            if backend is not None:
                from . import cluster

                session = stack.enter_context(cluster.open_session(backend))
                session.warm(cluster.warm_key_play(game_name, strategy))
                jobs = session.n_workers
        tasks = [(game_name, variant, vstr, strategy, options, otext, chunk, rng_seed)
                 for chunk in chunk_seeds(todo, jobs, chunk_size)]
        if todo:
            record = {"command": command, "start": int(start), "deals": int(n_deals), "strategy": strategy,
                      "options": options, "rng_seed": rng_seed, "code_version": solver.SOURCE_HASH,
                      "package_version": solver.__version__, "when": store.now_iso(), "jobs": int(jobs),
                      "chunk_size": chunk_size, "to_play": len(todo),
                      "backend": "process-pool" if session is None else session.describe()}
            write_play_command(folder, meta, command, record)
        elif not (folder / store.COMMAND).exists():
            write_play_command(folder, meta, command)

        t0 = time.perf_counter()
        tally = {"won": 0, "lost": 0}
        with tqdm(total=n_deals, initial=n_deals - len(todo), desc=f"{game_name} {vstr} {strategy}", unit="deal",
                  disable=not progress, file=sys.stderr) as bar:
            for rows in _play_chunks(tasks, jobs, game_name, strategy, session):
                write_play_part(folder, rows)
                for row in rows:
                    tally["won" if row["won"] else "lost"] += 1
                bar.update(len(rows))
                bar.set_postfix(tally, refresh=False)
        elapsed = time.perf_counter() - t0
        fold_play(folder)
        df = read_play_rows(folder)

    mine = df[df["seed"].between(start, start + n_deals - 1)]
    summary = summarize_play(mine)
    summary.update(played_now=len(todo), elapsed=elapsed, folder=str(folder))
    print_play_summary(game_name, vstr, strategy, otext, rng_seed, start, n_deals, summary, out)
    md = write_play_report(game_name, out_dir)
    print(f"report: {md}", file=out)
    return summary


def summarize_play(df: pd.DataFrame) -> dict:
    """n, won, lost, stopped and the win rate with its 95% Wilson interval."""
    from ..stats import summarize_counts

    n = len(df)
    won = int(df["won"].sum()) if n else 0
    s = summarize_counts(won, n - won, 0)
    return {"n": n, "won": won, "lost": n - won, "stopped": int(df["stopped"].sum()) if n else 0,
            "rate": s["rate"], "rate_lo": s["lower_bound_lo"], "rate_hi": s["lower_bound_hi"]}


def print_play_summary(game_name, vstr, strategy, otext, rng_seed, start, n_deals, s: dict, out) -> None:
    from .report import pct

    rng = "" if rng_seed is None else f", --rng-seed {rng_seed}"
    print(f"{game_name} {vstr}, {strategy} ({otext}{rng}), seeds {start}..{start + n_deals - 1}: {s['n']} deals",
          file=out)
    print(f"won {s['won']}, lost {s['lost']} ({s['stopped']} of them stopped at max_moves)", file=out)
    if s["n"]:
        print(f"win rate {pct(s['rate'])} (95% Wilson interval {pct(s['rate_lo'])} to {pct(s['rate_hi'])})", file=out)
    if s["played_now"]:
        speed = s["played_now"] / s["elapsed"] if s["elapsed"] > 0 else float("inf")
        print(f"played {s['played_now']} deals in {s['elapsed']:.1f} s ({speed:.1f} deals/s)", file=out)
    else:
        print("nothing to play: every deal was already on disk", file=out)
