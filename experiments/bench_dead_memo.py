"""The DFS's dead-end memo (solver.search.dfs.dfs_dead) on the loss proofs it is for:
Grand Duchess or Parisienne ``redeals=1`` by ``--algorithm dfs``, each deal with the
memo and without it (number 0), one after the other, so that both meet the same load.

    python experiments/bench_dead_memo.py grand-duchess --seeds 13,16,18

Prints, per deal and mode: the answer, nodes, seconds, nodes a second; then the
totals.  Numba compilation is excluded (search loads the engines off the clock).
"""

from __future__ import annotations

import argparse

from solver import SOURCE_HASH
from solver.deals import seeded_deck
from solver.games import get_game
from solver.search import portfolio
from solver.search.dfs import LOST, WON

NAMES = {LOST: "lost", WON: "won"}


class NoMemo(portfolio.Workspace):
    """A workspace whose deals all get number 0: dfs_dead then tests every state."""

    @property
    def dead_gen(self):
        return 0

    @dead_gen.setter
    def dead_gen(self, value):
        pass


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game", choices=["grand-duchess", "parisienne"])
    ap.add_argument("--seeds", default="13,16,18", help="comma-separated seeds (default 13,16,18)")
    ap.add_argument("--redeals", type=int, default=1)
    ap.add_argument("--max-nodes", type=int, default=100_000_000)
    ap.add_argument("--seconds", type=float, default=600.0)
    ap.add_argument("--tt-mb", type=float, default=512)
    args = ap.parse_args(argv)
    game = get_game(args.game)
    seeds = [int(s) for s in args.seeds.split(",")]
    spaces = {"memo": portfolio.Workspace(), "no memo": NoMemo()}
    totals = {mode: [0, 0.0] for mode in spaces}
    for seed in seeds:
        st = game.initial_state(seeded_deck(seed, game.PACKS), {"redeals": args.redeals})
        for mode, ws in spaces.items():
            out = portfolio.search(game, st.copy(), "dfs", args.max_nodes, args.seconds, args.tt_mb, ws=ws)
            totals[mode][0] += out.nodes
            totals[mode][1] += out.seconds
            print(f"{args.game} redeals={args.redeals} seed {seed}, {mode}: {NAMES.get(out.status, 'unknown')}, "
                  f"{out.nodes} nodes, {out.seconds:.1f} s, {out.nodes / max(out.seconds, 1e-9):,.0f} nodes/s",
                  flush=True)
    for mode, (nodes, secs) in totals.items():
        print(f"{mode}: {len(seeds)} deals, {nodes} nodes, {secs:.1f} s, {nodes / max(secs, 1e-9):,.0f} nodes/s")
    print(f"code version (solver.SOURCE_HASH) {SOURCE_HASH}; "
          f"python experiments/bench_dead_memo.py {args.game} --seeds {args.seeds}")


if __name__ == "__main__":
    main()
