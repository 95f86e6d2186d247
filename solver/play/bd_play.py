"""The fast referee loop of Baker's Dozen and its Python front (``play_fast``).

``play`` holds the truth (``st``, ``hid``, ``dealt``) and, before each move, hands the
strategy masked copies made by ``bd_kernels.observe`` (every unseen card -1, keys and
scratch zeroed), a copy of the seen-counts and of the dealt heights, and the player's
own random stream.  It checks the chosen move against the legal moves of the truth,
makes it, and turns the new top card face up.  The game ends won, with no legal move,
when the player gives up (every legal move returns to a position it has seen), or at
``max_moves``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..games import bakers_dozen as bd
from ..games.bakers_dozen import LEFT, MAX_MOVES, apply_move
from ..search.dfs import DfsWork
from ..search.table import new_table
from . import bd_kernels as K
from . import bd_policies as P
from .bd_ismcts import TreeWork, ismcts_choose
from .bd_kernels import legal_moves, observe, rng_below, update_seen, vis_insert, vis_reset, view_key

OUT_WON, OUT_MOVES, OUT_DECISIONS, OUT_STOPPED, OUT_BAD = range(5)
DFS_DEPTH = 400  # the solver's depth limit inside a player (a Baker's Dozen win takes 52 to ~300 moves)


@njit(cache=True)
def choose(ost, ohid, odealt, odh, params, rng, buf, keys, gens, gen, prof, table, tgen,
           dmoves, dcount, dnxt, dscores, dpath, dctx, tree_i, tree_f):
    s = params[P.P_STRATEGY]
    if s == P.S_RANDOM:
        leg = buf[P.R_L0]
        n = legal_moves(ost, leg)
        return leg[rng_below(rng, n)]
    if s == P.S_GREEDY:
        return P.greedy_choose(ost, ohid, rng, buf, keys, gens, gen, P.T_GAME)
    if s == P.S_ROLLOUT:
        if params[P.P_LEVEL] >= 2:
            return P.rollout2_choose(ost, ohid, odealt, odh, params, rng, buf, keys, gens, gen, P.T_GAME)
        return P.rollout1_choose(ost, ohid, odealt, odh, params, rng, buf, keys, gens, gen, P.T_GAME,
                                 params[P.P_SAMPLES], P.R_TOP, P.R_TOPS)
    if s == P.S_PIMC:
        return P.pimc_choose(ost, ohid, odealt, odh, params, rng, buf, keys, gens, gen, P.T_GAME, prof,
                             table, tgen, dmoves, dcount, dnxt, dscores, dpath, dctx)
    return ismcts_choose(ost, ohid, odealt, odh, params, rng, buf, keys, gens, gen, tree_i, tree_f)


@njit(cache=True)
def play(st, hid, dealt, dealt_h, params, rng, moves_out, out, buf, keys, gens, gen, prof, table, tgen,
         dmoves, dcount, dnxt, dscores, dpath, dctx, tree_i, tree_f):
    """Play one game; moves into moves_out, (won, moves, decisions, stopped, bad move) into out."""
    ost = buf[P.R_OST]
    odealt = buf[P.R_OD]
    ohid = buf[P.R_OH]
    odh = buf[P.R_ODH]
    leg = buf[P.R_LEG]
    plan = buf[P.R_PLAN]
    plan[0] = 0
    plan[1] = 0
    vis_reset(keys, gens, gen, P.T_GAME)
    out[:] = 0
    n = 0
    cap = min(params[P.P_MAX_MOVES], moves_out.shape[0])
    while st[LEFT] > 0:
        nl = legal_moves(st, leg)
        if nl == 0:
            break
        if n >= cap:
            out[OUT_STOPPED] = 1
            break
        if nl > 1:
            out[OUT_DECISIONS] += 1
        if params[P.P_STRATEGY] == P.S_RANDOM:
            # random reads nothing but the legal moves it is handed (those of the truth,
            # which depend on seen cards only): no observation to build
            m = leg[rng_below(rng, nl)]
            apply_move(st, m)
            update_seen(st, hid, (m >> 6) & 15)
            moves_out[n] = m
            n += 1
            continue
        observe(st, hid, dealt, dealt_h, ost, odealt)
        ohid[:13] = hid[:13]
        odh[:13] = dealt_h[:13]
        vis_insert(keys, gens, gen, P.T_GAME, view_key(ost, ohid))
        m = choose(ost, ohid, odealt, odh, params, rng, buf, keys, gens, gen, prof, table, tgen,
                   dmoves, dcount, dnxt, dscores, dpath, dctx, tree_i, tree_f)
        if m < 0:
            break  # the player gives up
        nl = legal_moves(st, leg)
        ok = False
        for i in range(nl):
            if leg[i] == m:
                ok = True
        if not ok:
            out[OUT_BAD] = 1
            moves_out[n] = m
            break
        apply_move(st, m)
        update_seen(st, hid, (m >> 6) & 15)
        moves_out[n] = m
        n += 1
    out[OUT_WON] = 1 if st[LEFT] == 0 else 0
    out[OUT_MOVES] = n


class PlayWork:
    """Everything a process's games work in, allocated once (the solver's table too)."""

    def __init__(self, tt_mb: float = 4, tree_nodes: int = 1 << 17):
        self.buf = np.zeros((P.N_ROWS, bd.STATE_LEN), dtype=np.int64)
        self.keys = np.zeros((P.N_TABLES, K.VIS_SLOTS), dtype=np.uint64)
        self.gens = np.zeros((P.N_TABLES, K.VIS_SLOTS), dtype=np.int64)
        self.gen = np.zeros(P.N_TABLES, dtype=np.int64)
        self.prof = K.profile_row()
        self.table = new_table(tt_mb)
        self.tgen = np.zeros(1, dtype=np.int64)
        self.dfs = DfsWork(DFS_DEPTH, MAX_MOVES)
        self.tree = TreeWork(tree_nodes)
        self.moves = np.zeros(4096, dtype=np.int64)
        self.out = np.zeros(5, dtype=np.int64)
        self.rng = np.zeros(1, dtype=np.uint64)

    def run(self, st, hid, dealt, dealt_h, params, rng_seed: int):
        self.rng[0] = np.uint64(rng_seed % (1 << 64))
        d = self.dfs
        play(st, hid, dealt, dealt_h, params, self.rng, self.moves, self.out, self.buf, self.keys, self.gens,
             self.gen, self.prof, self.table, self.tgen, d.moves, d.count, d.nxt, d.scores, d.path, d.ctx,
             self.tree.ints, self.tree.floats)
        return self.out.copy(), self.moves[: self.out[OUT_MOVES] + self.out[OUT_BAD]].copy()


_WORK: PlayWork | None = None


def work() -> PlayWork:
    global _WORK
    if _WORK is None:
        _WORK = PlayWork()
    return _WORK


STRATEGY_IDS = {"random": P.S_RANDOM, "greedy": P.S_GREEDY, "rollout": P.S_ROLLOUT, "pimc": P.S_PIMC,
                "ismcts": P.S_ISMCTS}


def params_for(strategy: str, options: dict, variant: dict) -> np.ndarray:
    """The kernels' params array from a strategy's options (players.STRATEGY_OPTIONS)."""
    p = np.zeros(P.N_PARAMS, dtype=np.int64)
    p[P.P_STRATEGY] = STRATEGY_IDS[strategy]
    p[P.P_MAX_MOVES] = options["max_moves"]
    p[P.P_KINGS] = 1 if variant.get("kings_to_bottom", True) else 0
    p[P.P_SAMPLES] = options.get("samples", 1)
    p[P.P_SAMPLES1] = options.get("inner_samples", 1)
    p[P.P_LEVEL] = options.get("level", 1)
    p[P.P_BUDGET] = options.get("budget", 1)
    p[P.P_FULL] = options.get("full_budget", 1)
    p[P.P_ITERS] = options.get("iterations", 1)
    p[P.P_EXPLORE] = int(round(options.get("explore", 0.0) * 1000))
    p[P.P_ROLL_CAP] = options.get("playout_cap", 400)
    return p


def play_fast(deck, variant: dict, strategy: str, options: dict, rng_seed: int, ranks: int = 13, columns: int = 13):
    """(won, moves as kernel ints, decisions, stopped) of one game."""
    st, hid, dealt, dealt_h = K.new_game(deck, variant, ranks, columns)
    out, moves = work().run(st, hid, dealt, dealt_h, params_for(strategy, options, variant), rng_seed)
    if out[OUT_BAD]:
        raise RuntimeError(f"strategy {strategy} chose an illegal move {bd.move_text(int(moves[-1]))}")
    return bool(out[OUT_WON]), moves.tolist(), int(out[OUT_DECISIONS]), bool(out[OUT_STOPPED])


def is_cold() -> bool:
    """True when playing would compile the kernels (nothing in numba's cache for the
    referee loop): a cheap look at its index file."""
    from ..search.portfolio import _cache_entries

    return _cache_entries(play) == 0
