"""The Python front of the Russian Patience players (``rp_kernels``): the arrays a
process's games work in, allocated once, and ``play_fast``."""

from __future__ import annotations

import numpy as np

from ..games import russian_patience as rp
from ..search.dfs import DfsWork
from ..search.table import new_table
from . import bd_kernels as K
from . import rp_kernels as R

DFS_DEPTH = 1000  # the solver's depth limit inside a player (a win takes about 150 to 400 moves)
STRATEGY_IDS = {"random": R.S_RANDOM, "greedy": R.S_GREEDY, "rollout": R.S_ROLLOUT, "pimc": R.S_PIMC}


class PlayWork:
    """Everything a process's games work in, allocated once (the solver's table too)."""

    def __init__(self, tt_mb: float = 8):
        self.buf = np.zeros((R.N_ROWS, rp.STATE_LEN), dtype=np.int64)
        self.keys = np.zeros((R.N_TABLES, K.VIS_SLOTS), dtype=np.uint64)
        self.gens = np.zeros((R.N_TABLES, K.VIS_SLOTS), dtype=np.int64)
        self.gen = np.zeros(R.N_TABLES, dtype=np.int64)
        self.table = new_table(tt_mb)
        self.tgen = np.zeros(1, dtype=np.int64)
        self.dfs = DfsWork(DFS_DEPTH, rp.MAX_MOVES)
        self.moves = np.zeros(4096, dtype=np.int64)
        self.out = np.zeros(5, dtype=np.int64)
        self.rng = np.zeros(1, dtype=np.uint64)

    def run(self, st, params, rng_seed: int):
        self.rng[0] = np.uint64(rng_seed % (1 << 64))
        d = self.dfs
        R.play(st, params, self.rng, self.moves, self.out, self.buf, self.keys, self.gens, self.gen, self.table,
               self.tgen, d.moves, d.count, d.nxt, d.scores, d.path, d.ctx)
        return self.out.copy(), self.moves[: self.out[R.OUT_MOVES] + self.out[R.OUT_BAD]].copy()


_WORK: PlayWork | None = None


def work() -> PlayWork:
    global _WORK
    if _WORK is None:
        _WORK = PlayWork()
    return _WORK


def params_for(strategy: str, options: dict) -> np.ndarray:
    p = np.zeros(R.N_PARAMS, dtype=np.int64)
    p[R.P_STRATEGY] = STRATEGY_IDS[strategy]
    p[R.P_MAX_MOVES] = options["max_moves"]
    p[R.P_SAMPLES] = options.get("samples", 1)
    p[R.P_BUDGET] = options.get("budget", 1)
    p[R.P_FULL] = options.get("full_budget", 1)
    p[R.P_ROLL_CAP] = options.get("playout_cap", 400)
    return p


def play_fast(deck, variant: dict, strategy: str, options: dict, rng_seed: int, redeal_seed, ranks: int = 13,
              columns: int | None = None):
    """(won, moves as kernel ints, decisions, stopped) of one game."""
    st = rp.initial_state(deck, variant, ranks, columns, redeal_seed=redeal_seed)
    out, moves = work().run(st, params_for(strategy, options), rng_seed)
    if out[R.OUT_BAD]:
        raise RuntimeError(f"strategy {strategy} chose an illegal move {rp.move_text(int(moves[-1]))}")
    return bool(out[R.OUT_WON]), moves.tolist(), int(out[R.OUT_DECISIONS]), bool(out[R.OUT_STOPPED])


def is_cold() -> bool:
    from ..search.portfolio import _cache_entries

    return _cache_entries(R.play) == 0
