"""Name the root test in the proofs of stored lost rows (issue 19).

    python experiments/relabel_root_proofs.py [--out DIR (default: results)] [--game bakers-dozen]

Until the ``root_dead`` proof was named, a deal that a game's costlier root test
(Baker's Dozen's host count, ``root_dead``) proved lost was stored with the proof
"dead_end", the name of the cheap dead-end test (``is_dead``), since the search
reported both as one flag.  The flag was set only by those two tests, so for a stored
lost row with proof "dead_end" today's kernels tell which it was: "dead_end" when
``is_dead`` holds for the deal as dealt, "root_dead" when it does not and ``root_dead``
does.  A row where neither holds keeps "dead_end" and is counted in the output (rows
backfilled by experiments/compact_results.py from an older ``is_dead``, if any).  Only the proof column changes;
the verdict, nodes and every other column stay.  Each relabelled folder gets a record
in its command.json (``relabels``) naming this command and the code version.  Running
it again changes nothing.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import solver  # noqa: E402
from solver import deals  # noqa: E402
from solver.batch import store  # noqa: E402
from solver.errors import PatienceError  # noqa: E402
from solver.games import get_game  # noqa: E402


def root_proof(game, variant: dict, seed: int) -> str:
    st = game.initial_state(deals.seeded_deck(seed, game.PACKS), variant)
    if game.is_dead(st.copy()):
        return "dead_end"
    if game.root_dead(st.copy()):
        return "root_dead"
    return "neither"


def relabel_frame(df, game, variant: dict, neither: list) -> tuple[int, int]:
    """Relabel df's lost "dead_end" rows in place; returns (rows looked at, rows
    changed) (seeds where neither test holds today go to ``neither``, label kept)."""
    if df.empty:
        return 0, 0
    proof = df["proof"].astype(object)
    todo = np.flatnonzero(((df["result"] == "lost") & (proof == "dead_end")).to_numpy())
    new = proof.to_numpy().copy()
    for i in todo:
        seed = int(df["seed"].iloc[i])
        kind = root_proof(game, variant, seed)
        if kind == "neither":
            neither.append(seed)
        else:
            new[i] = kind
    changed = int((new != proof.to_numpy()).sum())
    df["proof"] = new
    return len(todo), changed


def relabel_folder(folder: Path) -> tuple[int, int, list]:
    """(rows relabelled, lost dead_end rows looked at, seeds where neither test holds)
    of one variant folder."""
    with store.folder_lock(folder):
        meta = store.read_command(folder)
        if meta.get("game") != "bakers-dozen":  # the one game with a root test
            return 0, 0, []
        game = get_game(meta["game"])
        deals_df, sup = store.read_store(folder)
        neither = []
        counts = [relabel_frame(df, game, meta["options"], neither) for df in (deals_df, sup)]
        looked, changed = (sum(c) for c in zip(*counts))
        if changed:
            # read_store folded the parts in; the rewrite holds them, so they go
            store.write_folded(folder, deals_df, sup, store.part_files(folder))
            record = {"command": "python experiments/relabel_root_proofs.py", "rows": changed,
                      "code_version": solver.SOURCE_HASH, "when": store.now_iso()}
            store.add_relabel(folder, record)
        return changed, looked, neither


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[1])
    # the published rows by default (patience's own default, DEFAULT_OUT, is for users' runs)
    ap.add_argument("--out", default=str(Path(__file__).resolve().parent.parent / "results"))
    ap.add_argument("--game", default="bakers-dozen")
    args = ap.parse_args(argv)
    base = Path(args.out) / "runs" / args.game
    if not base.is_dir():
        print(f"relabel_root_proofs: no runs of {args.game} under {args.out}", file=sys.stderr)
        return 2
    for folder in sorted(p for p in base.iterdir() if p.is_dir()):
        try:
            changed, looked, neither = relabel_folder(folder)
        except PatienceError as e:  # another run is writing the folder, or it is unwritable
            print(f"relabel_root_proofs: {e}", file=sys.stderr)
            return 2
        print(f"{folder}: {looked} lost rows with proof dead_end looked at, {changed} relabelled root_dead,"
              f" {len(neither)} where neither test holds today (kept){': ' + str(neither[:10]) if neither else ''}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
