"""The Python front of the stock games' players (``solver.play.templates`` compiled in
each game's player module): the arrays a process's games work in, allocated once per
game, and ``play_fast``."""

from __future__ import annotations

import importlib

import numpy as np

from ..search.dfs import DfsWork
from ..search.table import new_table
from . import bd_kernels as K
from . import templates as T

DFS_DEPTH = 1000  # the solver's depth limit inside a player (a win takes a few hundred moves)
STRATEGY_IDS = {"random": T.S_RANDOM, "greedy": T.S_GREEDY, "rollout": T.S_ROLLOUT, "pimc": T.S_PIMC,
                "eager": T.S_EAGER, "ismcts": T.S_ISMCTS, "scout": T.S_SCOUT}
# game -> (its kernel module, its player module) under solver.games / solver.play
MODULES = {"russian-patience": ("russian_patience", "rp_kernels"),
           "grand-duchess": ("grand_duchess", "gd_kernels"),
           "parisienne": ("parisienne", "parisienne_kernels"),
           "duchess": ("duchess", "duchess_kernels")}


def modules(game_name: str):
    """(the game's kernel module, its player module)."""
    g, p = MODULES[game_name]
    return importlib.import_module(f"solver.games.{g}"), importlib.import_module(f"solver.play.{p}")


class PlayWork:
    """Everything one game's players work in, allocated once (the solver's table too)."""

    def __init__(self, game, player, tt_mb: float = 8):
        self.player = player
        self.buf = np.zeros((T.N_ROWS, game.STATE_LEN), dtype=np.int64)
        self.keys = np.zeros((T.N_TABLES, K.VIS_SLOTS), dtype=np.uint64)
        self.gens = np.zeros((T.N_TABLES, K.VIS_SLOTS), dtype=np.int64)
        self.gen = np.zeros(T.N_TABLES, dtype=np.int64)
        self.table = new_table(tt_mb)
        self.tgen = np.zeros(1, dtype=np.int64)
        self.dfs = DfsWork(DFS_DEPTH, game.MAX_MOVES)
        self.moves = np.zeros(4096, dtype=np.int64)
        self.out = np.zeros(5, dtype=np.int64)
        self.rng = np.zeros(1, dtype=np.uint64)
        self.tree_ints = np.zeros((8, T.TREE_SIZE), dtype=np.int64)
        self.tree_floats = np.zeros((1, T.TREE_SIZE), dtype=np.float64)  # edge value sums

    def run(self, st, params, rng_seed: int):
        self.rng[0] = np.uint64(rng_seed % (1 << 64))
        d = self.dfs
        self.player.play(st, params, self.rng, self.moves, self.out, self.buf, self.keys, self.gens, self.gen,
                         self.table, self.tgen, d.moves, d.count, d.nxt, d.scores, d.path, d.ctx, self.tree_ints,
                         self.tree_floats)
        return self.out.copy(), self.moves[: self.out[T.OUT_MOVES] + self.out[T.OUT_BAD]].copy()


_WORK: dict[str, PlayWork] = {}


def work(game_name: str) -> PlayWork:
    if game_name not in _WORK:
        _WORK[game_name] = PlayWork(*modules(game_name))
    return _WORK[game_name]


def params_for(strategy: str, options: dict) -> np.ndarray:
    p = np.zeros(T.N_PARAMS, dtype=np.int64)
    p[T.P_STRATEGY] = STRATEGY_IDS[strategy]
    p[T.P_MAX_MOVES] = options["max_moves"]
    p[T.P_SAMPLES] = options.get("samples", 1)
    p[T.P_BUDGET] = options.get("budget", 1)
    p[T.P_FULL] = options.get("full_budget", 1)
    p[T.P_ROLL_CAP] = options.get("playout_cap", 400)
    p[T.P_ITERS] = options.get("iterations", 1)
    p[T.P_EXPLORE] = int(round(options.get("explore", 0.7) * 1000))
    return p


def play_fast(game_name: str, deck, variant: dict, strategy: str, options: dict, rng_seed: int, ranks: int = 13,
              columns: int | None = None, **setup):
    """(won, moves as kernel ints, decisions, stopped) of one game; ``setup`` goes to the
    game's ``initial_state`` (Russian Patience: ``redeal_seed``)."""
    game, _ = modules(game_name)
    st = game.initial_state(deck, variant, ranks, columns, **setup)
    out, moves = work(game_name).run(st, params_for(strategy, options), rng_seed)
    if out[T.OUT_BAD]:
        raise RuntimeError(f"strategy {strategy} chose an illegal move {game.move_text(int(moves[-1]))}")
    return bool(out[T.OUT_WON]), moves.tolist(), int(out[T.OUT_DECISIONS]), bool(out[T.OUT_STOPPED])


def is_cold(game_name: str) -> bool:
    from ..search.portfolio import _cache_entries

    return _cache_entries(modules(game_name)[1].play) == 0
