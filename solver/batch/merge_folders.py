"""Bring the rows of other results folders into one: ``patience merge FROM... --out DIR``.

Runs of one game and variant made elsewhere (another machine, another checkout, a
shard of seeds: docs/CLUSTER.md) land in their own results folder.  Merging walks
FROM/runs/<game>/<variant>/ (and its play/<strategy>/ folders), and for each one
folds every row of the source (deals, superseded and any part files) into the same
folder under the destination, under the destination folder's lock, with the store's
own rule (store.merge: repeats dropped, per seed the best row kept and the others in
superseded.parquet; a play folder by play.merge_play).  The rows of the destination
come first, so between rows that rank equal its own stay.  Its command.json gets the
source's run records and commands that it lacks, and a ``merges`` record of this
merge, so every row in a report still has the command that made it.  Merging the
same source again adds nothing.  The source is only read.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from .. import SOURCE_HASH
from ..errors import PatienceError
from ..games import get_game
from . import play, store

META_LISTS = ("commands", "runs", "relabels", "merges")  # command.json's lists, merged item by item


@dataclass
class Merged:
    folder: Path  # the destination folder
    rows: int  # rows read from the source
    new_seeds: int  # seeds the destination did not have
    better: int  # seeds whose row the source's replaced
    seeds: int  # seeds in the destination after
    brought: bool  # rows the destination did not have (else it is unchanged but for run records)


def source_folders(root: Path) -> list[tuple[Path, bool]]:
    """(folder, is_play) for every variant folder and strategy folder under
    root/runs that holds rows or a run record, in path order."""
    found = []
    for game in sorted(p for p in (root / "runs").iterdir() if p.is_dir()):
        for variant in sorted(p for p in game.iterdir() if p.is_dir()):
            if _holds_rows(variant):
                found.append((variant, False))
            plays = variant / play.PLAY
            if plays.is_dir():
                found += [(s, True) for s in sorted(plays.iterdir()) if s.is_dir() and _holds_rows(s)]
    return found


def _holds_rows(folder: Path) -> bool:
    return any((folder / n).exists() for n in (store.DEALS, store.SUPERSEDED, store.COMMAND)) or bool(
        store.part_files(folder))


def _game_and_variant(folder: Path, is_play: bool) -> tuple[str, str]:
    variant = folder.parent.parent if is_play else folder
    return variant.parent.name, variant.name


def _check_rows(rows: pd.DataFrame, folder: Path, is_play: bool) -> None:
    """The rows, and the run record, belong where their folder says: one game, one
    variant."""
    game, vname = _game_and_variant(folder, is_play)
    meta = store.read_command(folder)
    games = set(rows["game"].astype(str)) | ({str(meta["game"])} if meta.get("game") is not None else set())
    variants = {v.replace(" ", "_") for v in rows["variant"].astype(str)} | (
        {str(meta["variant"]).replace(" ", "_")} if meta.get("variant") is not None else set())
    if games - {game} or variants - {vname}:
        raise PatienceError(f"{folder} holds rows of {sorted(games)} {sorted(variants)}, not {game} {vname}: "
                            "not merged")


def _merge_meta(src: Path, dst: Path, record: dict | None) -> None:
    old, new = store.read_command(dst), store.read_command(src)
    meta = dict(old) if old else {k: v for k, v in new.items() if k not in META_LISTS}
    for key in META_LISTS:
        have = list(old.get(key, []))
        have += [x for x in new.get(key, []) if x not in have]
        if key == "merges" and record is not None:
            have.append(record)
        if have:
            meta[key] = have
    meta["command"] = old.get("command") or new.get("command", "")
    if meta != old:  # else the file stays as it is
        store._write_meta(dst, meta)


def read_source(src: Path, is_play: bool) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(deals, superseded) of a source folder, its parts merged in, checked to be rows
    of the game and variant its path names."""
    get_game(_game_and_variant(src, is_play)[0])  # a folder of no known game: one clear line
    s_deals, s_sup = play.read_play_store(src) if is_play else store.read_store(src)
    _check_rows(pd.concat([s_deals[["game", "variant"]].astype(str), s_sup[["game", "variant"]].astype(str)]),
                src, is_play)
    return s_deals, s_sup


def merge_folder(src: Path, dst: Path, is_play: bool, source: tuple, record: dict) -> Merged:
    """Fold ``source`` (read_source of folder ``src``) into folder ``dst``, created if
    need be."""
    s_deals, s_sup = source
    rows = len(s_deals) + len(s_sup)
    store.ensure_writable_dir(dst)
    with store.folder_lock(dst):
        parts = store.part_files(dst)
        if is_play:
            mine = [play._read(dst / store.DEALS), play._read(dst / store.SUPERSEDED)] + [play._read(p) for p in parts]
            before, before_sup = play.merge_play(mine)
            # folding the source into the folded rows gives what folding everything
            # would (tests/test_merge.py holds merge to that), reading each row once
            deals, sup = play.merge_play([before, before_sup, s_deals, s_sup])
            key = play._REPEAT_KEY
        else:
            mine = [store._read_if(dst / store.DEALS), store._read_if(dst / store.SUPERSEDED)] + [
                store.read_parquet(p) for p in parts]
            before, before_sup, _ = store.merge(mine)
            deals, sup, _ = store.merge([before, before_sup, s_deals, s_sup])
            key = store.REPEAT_KEY
        had = set(before["seed"].tolist())
        new_seeds = int((~deals["seed"].isin(had)).sum())
        old = before.set_index("seed")[[c for c in key if c != "seed"]].astype(str)
        now = deals[deals["seed"].isin(had)].set_index("seed")[old.columns].astype(str)
        better = int((now != old.loc[now.index]).any(axis=1).sum())
        # the merge is recorded when it brought rows (a repeat brings none)
        brought = len(deals) + len(sup) > len(before) + len(before_sup)
        if brought or parts:  # else the files stay as they are
            (play.write_play_folded if is_play else store.write_folded)(dst, deals, sup, parts)
        _merge_meta(src, dst, {**record, "rows": rows} if brought else None)
    return Merged(dst, rows, new_seeds, better, len(deals), brought)


def merge_results(sources: list[str], dest: str, command: str) -> tuple[list[Merged], list[str]]:
    """Merge each source results folder into ``dest``; returns what each folder got and
    the games it brought rows to (whose reports the caller rebuilds).  Every source folder is read
    and checked before anything is written."""
    dest_path = Path(dest)
    todo = []
    for s in sources:
        root = Path(s)
        if not root.is_dir():
            raise PatienceError(f"{s}: no such results folder")
        if not (root / "runs").is_dir():
            raise PatienceError(f"{s} has no runs/ folder: not a results folder (patience winrate --out writes one)")
        if dest_path.exists() and os.path.samefile(root, dest_path):
            raise PatienceError(f"{s} is the destination itself")
        todo += [(root, folder, is_play, read_source(folder, is_play)) for folder, is_play in source_folders(root)]
    store.ensure_writable_dir(dest_path)
    done, games = [], []
    for root, folder, is_play, source in todo:
        record = {"command": command, "from": str(root.resolve()), "when": store.now_iso(),
                  "code_version": SOURCE_HASH}
        rel = folder.relative_to(root)
        done.append(merge_folder(folder, dest_path / rel, is_play, source, record))
        if done[-1].brought and rel.parts[1] not in games:
            games.append(rel.parts[1])
    return done, games
