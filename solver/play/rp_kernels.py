"""Russian Patience players at numba speed: what a player sees, the sampler of what it
does not, and the strategies random, greedy, rollout and pimc.

What a player sees (docs/PLAYERS.md): every card in the columns (all face up) and on the
foundations, how many cards the stock still holds, the round and the redeals left.  It
does not see the order of the stock, nor the redeal shuffles to come (the deal's
redeal seed).  It knows the packs, so the *set* of stock cards is known: every card not
in sight.  ``observe`` makes the player's copy of the state: the stock's cards are -1,
the redeal seed 0, the state keys (which hash the stock) and the redeal snapshots 0.
The columns' running hashes stay: they hash seen cards only.

The sampler (``sample_world``): the deck is uniform over orders, and everything dealt
so far is in sight, so given what the player has seen the stock is a uniformly random
order of the unseen cards (two copies of a card are interchangeable); a redeal shuffle
is a uniform permutation the player cannot predict, so a world gets a fresh random
redeal seed.  Both come from the player's own random stream.

Every function here that is handed a player's view reads the columns, foundations,
counters and profile only; the strategies run their simulations on sampled worlds,
where the stock is filled in, and never on the truth.

Strategies (``params`` slots ``P_*``, docs/PLAYERS.md has the user's view):

- random: a uniformly random move among the game's distinct moves (``gen_moves``; in the
  last round's free play, moves that differ only by which empty column they fill are
  one move).
- greedy, rules of thumb with no look-ahead past the move: while the stock lasts, an
  outside card that fits a foundation goes there (up before down), else ``deal``; in
  free play the move after which the position looks best by the solver's own ordering
  score (profile 0: cards left, cards lying above a card a foundation takes next,
  redeals used), ties broken by the random stream, never back to a position it has seen;
  ``redeal`` only when no other move reaches a new position; it gives up when nothing
  is left.
- rollout (level 1, ``P_SAMPLES`` worlds): each move scored by greedy playouts to the
  end in the same sampled worlds; the move winning most often, ties to greedy's choice.
- pimc (``P_SAMPLES`` worlds, ``P_BUDGET`` nodes): each move scored by the sampled worlds
  the solver (the DFS engine of ``solver.games.russian_patience``) wins after it within
  its budget; ties to greedy's choice.  Once nothing is hidden (free play of the last
  round) one search of ``P_FULL`` nodes and, if it wins, its solution is played out.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..games import russian_patience as rp
from ..games.russian_patience import (C0, CAP, DEAL, DN0, H0, HASH1, HASH2, LEFT, MAXRED, NC, NR, PH1, REDEAL, ROUND,
                                      RSEED, SN, SNAP0, SP, STK0, TO_FOUNDATION, UP0, Z1, Z_DN, Z_ROUND, Z_SALT, Z_UP,
                                      apply_move, gen_moves, undo_move)
from ..games.zobrist import mix64
from .bd_kernels import rng_below, rng_next, vis_has, vis_insert, vis_reset
from .bd_policies import _best  # the first candidate with the most wins: one argmax for both games

# params slots
P_STRATEGY, P_SAMPLES, P_BUDGET, P_FULL, P_MAX_MOVES, P_ROLL_CAP = range(6)
N_PARAMS = 8
S_RANDOM, S_GREEDY, S_ROLLOUT, S_PIMC = range(4)

KEEP = 16  # pimc and rollout keep up to this many sampled worlds at once
# buf rows (each STATE_LEN long)
R_OST, R_LEG, R_CAND, R_SCORE, R_PLAN, R_WS, R_G, R_GLEG, R_UNSEEN = range(9)
R_PW = 9
N_ROWS = R_PW + KEEP
# visited tables: the real game, a greedy playout
T_GAME, T_G = range(2)
N_TABLES = 2

SOLVER_WON = 1  # solver.search.dfs.WON
DFS_LENGTH = 4  # solver.search.dfs.DFS_LENGTH


@njit(cache=True)
def observe(st, ost):
    """The player's view of ``st`` into ``ost`` (module docstring)."""
    ost[:] = st
    for i in range(st[SP], st[SN]):
        ost[STK0 + i] = -1
    ost[RSEED] = 0
    ost[HASH1] = 0
    ost[HASH2] = 0
    ost[SNAP0:] = 0


@njit(cache=True)
def hidden(st):
    """Something is still unknown to the player: cards in the stock, or a redeal to come."""
    return st[SP] < st[SN] or st[ROUND] < st[MAXRED]


@njit(cache=True)
def view_key(st):
    """A 64-bit key of what the player sees: the columns (their running hashes, each
    with its column's salt), the foundations, the round and the stock's size."""
    k = np.int64(0)
    for p in range(st[NC]):
        k += mix64(st[PH1 + p] + Z1[Z_SALT + p])
    for s in range(4):
        k += Z1[Z_UP + s * 14 + st[UP0 + s]] + Z1[Z_DN + s * 14 + st[DN0 + s]]
    k += Z1[Z_ROUND + st[ROUND]] + (st[SN] - st[SP]) * np.int64(-7046029254386353131)
    return np.uint64(k)


@njit(cache=True)
def unseen_cards(ost, out):
    """The cards not in sight (the stock's, as a multiset), into out[:]; how many."""
    counts = np.zeros(52, dtype=np.int64)
    nr = ost[NR]
    for s in range(4):
        for r in range(1, nr + 1):
            counts[s * 13 + r - 1] = 2
        for r in range(1, ost[UP0 + s] + 1):
            counts[s * 13 + r - 1] -= 1
        for r in range(nr - ost[DN0 + s] + 1, nr + 1):
            counts[s * 13 + r - 1] -= 1
    for p in range(ost[NC]):
        for i in range(ost[H0 + p]):
            counts[ost[C0 + p * CAP + i]] -= 1
    n = 0
    for c in range(52):
        for _ in range(counts[c]):
            out[n] = c
            n += 1
    return n


@njit(cache=True)
def sample_world(ost, rng, world, scratch):
    """A world consistent with the view ``ost``, drawn from the exact conditional
    distribution (module docstring), keys computed."""
    world[:] = ost
    n = unseen_cards(ost, scratch)
    for i in range(n - 1, 0, -1):
        j = rng_below(rng, i + 1)
        scratch[i], scratch[j] = scratch[j], scratch[i]
    sp = ost[SP]
    for i in range(n):
        world[STK0 + sp + i] = scratch[i]
    world[RSEED] = np.int64(rng_next(rng))
    rp.rehash(world)


@njit(cache=True)
def greedy_choose(st, rng, buf, keys, gens, gen, t):
    """Greedy's move on a view or a world (it reads no stock card and no redeal seed),
    or -1: nothing reaches a position not seen before in table t."""
    leg = buf[R_GLEG]
    n = gen_moves(st, leg, 0)
    if st[SP] < st[SN]:
        for want in range(2):  # an outside card home, up before down
            for i in range(n):
                m = leg[i]
                if m & 3 == TO_FOUNDATION and (m >> 12) & 15 == want:
                    return m
        for i in range(n):
            if leg[i] & 3 == DEAL:
                return leg[i]
        return -1
    best = np.int64(1) << 60
    choice = -1
    ties = 0
    redeal = -1
    for i in range(n):
        m = leg[i]
        if m & 3 == REDEAL:
            redeal = m
            continue
        apply_move(st, m)
        seen = vis_has(keys, gens, gen, t, view_key(st))
        s = rp.score(st)
        undo_move(st, m)
        if seen:
            continue
        if s < best:
            best = s
            choice = m
            ties = 1
        elif s == best:
            ties += 1
            if rng_below(rng, ties) == 0:
                choice = m
    if choice < 0:
        return redeal
    return choice


@njit(cache=True)
def greedy_playout(world, rng, buf, keys, gens, gen, cap):
    """Greedy plays the world to its end: 1 if it wins within ``cap`` moves."""
    vis_reset(keys, gens, gen, T_G)
    for _ in range(cap):
        if world[LEFT] == 0:
            return 1
        vis_insert(keys, gens, gen, T_G, view_key(world))
        m = greedy_choose(world, rng, buf, keys, gens, gen, T_G)
        if m < 0:
            return 0
        apply_move(world, m)
    return 1 if world[LEFT] == 0 else 0


@njit(cache=True)
def candidates(ost, rng, buf, keys, gens, gen):
    """The moves to consider, greedy's choice first, into buf[R_CAND]; how many.  A move
    back to a position seen in this game is left out (unless nothing else is left)."""
    cand = buf[R_CAND]
    leg = buf[R_LEG]
    n = gen_moves(ost, leg, 0)
    first = greedy_choose(ost, rng, buf, keys, gens, gen, T_GAME)
    k = 0
    if first >= 0:
        cand[0] = first
        k = 1
    for i in range(n):
        m = leg[i]
        if m == first:
            continue
        kind = m & 3
        if kind != DEAL and kind != REDEAL:
            apply_move(ost, m)
            seen = vis_has(keys, gens, gen, T_GAME, view_key(ost))
            undo_move(ost, m)
            if seen:
                continue
        cand[k] = m
        k += 1
    return k


@njit(cache=True)
def solve_world(world, budget, table, tgen, dmoves, dcount, dnxt, dscores, dpath, dctx):
    """One DFS attempt of at most ``budget`` nodes (a new table generation)."""
    tgen[0] += 1
    dctx[:] = 0
    return rp.dfs(world, table, tgen[0], budget, budget, dmoves, dcount, dnxt, dscores, dpath, dctx)


@njit(cache=True)
def _scores(ost, params, rng, buf, keys, gens, gen, k, table, tgen, dmoves, dcount, dnxt, dscores, dpath, dctx):
    """Rollout or pimc: each candidate's wins over the same sampled worlds, the first
    with the most wins chosen.  A candidate stops once it can neither beat nor tie the
    best before it (a tie goes to the earlier one): the same choice, fewer playouts."""
    cand = buf[R_CAND]
    scores = buf[R_SCORE]
    samples = min(params[P_SAMPLES], KEEP)
    for j in range(samples):
        sample_world(ost, rng, buf[R_PW + j], buf[R_UNSEEN])
    ws = buf[R_WS]
    pimc = params[P_STRATEGY] == S_PIMC
    best = -1
    for i in range(k):
        scores[i] = 0
        if best == samples:
            continue
        won = 0
        for j in range(samples):
            if won + samples - j <= best:
                break
            ws[:] = buf[R_PW + j]
            apply_move(ws, cand[i])
            if pimc:
                if solve_world(ws, params[P_BUDGET], table, tgen, dmoves, dcount, dnxt, dscores, dpath,
                               dctx) == SOLVER_WON:
                    won += 1
            else:
                won += greedy_playout(ws, rng, buf, keys, gens, gen, params[P_ROLL_CAP])
        scores[i] = won
        if won > best:
            best = won
    return _best(cand, scores, k)


@njit(cache=True)
def choose(ost, params, rng, buf, keys, gens, gen, table, tgen, dmoves, dcount, dnxt, dscores, dpath, dctx):
    s = params[P_STRATEGY]
    if s == S_RANDOM:
        leg = buf[R_LEG]
        n = gen_moves(ost, leg, 0)
        return leg[rng_below(rng, n)]
    if s == S_GREEDY:
        return greedy_choose(ost, rng, buf, keys, gens, gen, T_GAME)
    plan = buf[R_PLAN]  # plan[0] moves planned, plan[1] the next one's index, moves from plan[2]
    if plan[1] < plan[0]:
        m = plan[2 + plan[1]]
        leg = buf[R_LEG]
        n = gen_moves(ost, leg, 0)
        for i in range(n):
            if leg[i] == m:
                plan[1] += 1
                return m
        plan[0] = 0
        plan[1] = 0
    k = candidates(ost, rng, buf, keys, gens, gen)
    if k <= 1:
        return buf[R_CAND, 0] if k == 1 else -1
    if s == S_PIMC and not hidden(ost):
        # every card is known and no redeal is left: the solver's answer is the player's
        ws = buf[R_WS]
        ws[:] = ost
        rp.rehash(ws)
        if solve_world(ws, params[P_FULL], table, tgen, dmoves, dcount, dnxt, dscores, dpath, dctx) == SOLVER_WON:
            length = dctx[DFS_LENGTH]
            if 0 < length <= plan.shape[0] - 2:
                for i in range(length):
                    plan[2 + i] = dpath[i]
                plan[0] = length
                plan[1] = 1
                return plan[2]
    return _scores(ost, params, rng, buf, keys, gens, gen, k, table, tgen, dmoves, dcount, dnxt, dscores, dpath, dctx)


OUT_WON, OUT_MOVES, OUT_DECISIONS, OUT_STOPPED, OUT_BAD = range(5)


@njit(cache=True)
def play(st, params, rng, moves_out, out, buf, keys, gens, gen, table, tgen, dmoves, dcount, dnxt, dscores, dpath,
         dctx):
    """The referee: one game; moves into moves_out, (won, moves, decisions, stopped, bad
    move) into out.  The strategy gets the view ``observe`` makes and nothing else."""
    ost = buf[R_OST]
    leg = np.zeros(rp.MAX_MOVES, dtype=np.int64)
    buf[R_PLAN, 0] = 0
    buf[R_PLAN, 1] = 0
    vis_reset(keys, gens, gen, T_GAME)
    out[:] = 0
    n = 0
    cap = min(params[P_MAX_MOVES], moves_out.shape[0])
    while st[LEFT] > 0:
        nl = gen_moves(st, leg, 0)
        if nl == 0:
            break
        if n >= cap:
            out[OUT_STOPPED] = 1
            break
        if nl > 1:
            out[OUT_DECISIONS] += 1
        observe(st, ost)
        vis_insert(keys, gens, gen, T_GAME, view_key(ost))
        m = choose(ost, params, rng, buf, keys, gens, gen, table, tgen, dmoves, dcount, dnxt, dscores, dpath, dctx)
        if m < 0:
            break  # the player gives up
        ok = False
        for i in range(nl):
            if leg[i] == m:
                ok = True
        if not ok:
            out[OUT_BAD] = 1
            moves_out[n] = m
            break
        apply_move(st, m)
        moves_out[n] = m
        n += 1
    out[OUT_WON] = 1 if st[LEFT] == 0 else 0
    out[OUT_MOVES] = n
