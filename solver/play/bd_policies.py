"""Baker's Dozen strategies at numba speed: greedy, iterated rollouts, and PIMC.

Every function here keeps the contract of ``bd_kernels``: it reads the columns and the
dealt columns of the position it is given only where they are seen (``>= hid[c]``).
Simulations run on sampled worlds (``sample_world``), never on the truth, and a
simulated player is given the simulation's own seen-counts, so it too knows only what
it would know there.

Work space: one int64 array ``buf`` of rows (``R_*`` below, each ``STATE_LEN`` long),
the visited tables ``keys/gens/gen`` (``T_*``), and for PIMC the solver's own arrays
(the transposition table and the DFS arrays of ``solver.search.dfs.DfsWork``),
allocated once per process by ``bd_play.PlayWork``: nothing is allocated or compiled
per decision.

Options (``params`` slots ``P_*``; docs/PLAYERS.md has the user's view):

- greedy: none.  A rule of thumb, no look-ahead (``greedy_rank``): a safe foundation
  move (the solver's rule: rank r when every foundation holds r - 2) at once; otherwise
  the move after which the position *looks* best by ``view_score`` (cards not home,
  seen cards above a lower card of their suit, cards covering the next card a
  foundation needs, cards not on a card one rank higher, cards lying on unseen ones:
  the solver's move-ordering score restricted to the seen cards), ties broken by the
  random stream.  It never makes a move back to a position it has seen (a cycle), and
  gives up when no other move is left.
- rollout level L (``P_LEVEL``, 1 or 2) with ``P_SAMPLES`` worlds (level 2 also
  ``P_SAMPLES1`` worlds at the inner level): each candidate move is played in the same
  sampled worlds, then the level L-1 policy (greedy at level 0) plays each to its end;
  the move winning most often is chosen, ties to greedy's preference.
- pimc (hindsight optimisation), ``P_SAMPLES`` worlds and ``P_BUDGET`` nodes: each candidate move is scored by
  the number of sampled worlds the solver (the DFS engine, one attempt of at most
  ``P_BUDGET`` nodes) wins after it; ties to greedy's preference.  Once nothing is
  hidden the player knows every card: it runs one search of ``P_FULL`` nodes and, if it
  wins, plays that solution out.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..games import bakers_dozen as bd
from ..games.bakers_dozen import C0, CAP, F0, FND, H0, LEFT, NCOLS, W0, apply_move
from .bd_kernels import (hidden_total, is_safe_home, leads_to_new, legal_moves, reveals, rng_below, sample_world,
                         update_seen, vis_insert, vis_reset, view_key)

# params slots
(P_STRATEGY, P_SAMPLES, P_LEVEL, P_BUDGET, P_FULL, P_ITERS, P_EXPLORE, P_MAX_MOVES, P_KINGS, P_SAMPLES1, P_ROLL_CAP,
 P_NO_PRUNE) = range(12)
N_PARAMS = 12
S_RANDOM, S_GREEDY, S_ROLLOUT, S_PIMC, S_ISMCTS = range(5)

# buf rows
(R_W0, R_H0, R_W1, R_D1, R_H1, R_WP, R_DP, R_HP, R_W2, R_D2, R_H2, R_L0, R_L1, R_L2, R_S1, R_S2, R_SMP, R_PLAN,
 R_WS, R_TOP, R_TOPS, R_OST, R_OD, R_OH, R_ODH, R_LEG, R_M1, R_M2, R_RK) = range(29)
PIMC_KEEP = 16  # pimc keeps up to this many sampled worlds at once (rows R_PW..), to prune its solves
R_PW = 29
N_ROWS = R_PW + PIMC_KEEP
# visited tables: the real game, a greedy playout, a level-1 playout
T_GAME, T_G, T_P, T_TREE = range(4)
N_TABLES = 4

SOLVER_WON = 1  # solver.search.dfs.WON


@njit(cache=True)
def col_score(st, hid, c):
    """Column c's part of ``view_score``."""
    h = st[H0 + c]
    lo = hid[c]
    blockers = 0
    cover = 0
    disorder = 0
    buried = h - lo if (lo > 0 and h > lo) else 0
    low0 = 99
    low1 = 99
    low2 = 99
    low3 = 99
    base = C0 + c * CAP
    for p in range(lo, h):
        card = st[base + p]
        s = card // 13
        r = card % 13
        low = low0 if s == 0 else (low1 if s == 1 else (low2 if s == 2 else low3))
        if low < r:
            blockers += 1
        elif r < low:
            if s == 0:
                low0 = r
            elif s == 1:
                low1 = r
            elif s == 2:
                low2 = r
            else:
                low3 = r
        if st[F0 + s] == r:
            cover += h - 1 - p
        if p > lo and st[base + p - 1] % 13 != r + 1:
            disorder += 1
    return 6 * blockers + 2 * cover + disorder + 2 * buried


@njit(cache=True)
def view_score(st, hid):
    """How far the position looks from won, from the seen cards only (lower is better):
    4 per card not home, 6 per seen card lying above a lower seen card of its suit (it
    must move again before it goes home), 2 per card lying on a card its foundation
    needs next, 1 per seen card not resting on a card one rank higher, 2 per seen card
    lying on a column's unseen cards.  (The solver's move-ordering score, weights of its
    first profile, restricted to what the player sees.)"""
    total = 4 * st[LEFT]
    for c in range(st[NCOLS]):
        total += col_score(st, hid, c)
    return total


@njit(cache=True)
def greedy_rank(st, hid, m, score_now):
    """Greedy's preference for move m, lower first: a safe foundation move before
    anything, then the view score of the position the move leads to (``score_now``: the
    score of the position now; a move between columns changes only those two).  The
    card a move would turn face up is not known yet, so the seen-counts are left as they
    are: the score counts only the cards seen now."""
    if is_safe_home(st, m):
        return 0
    src = (m >> 6) & 15
    dst = (m >> 10) & 15
    if dst == FND:  # the foundation changes which cards are needed next everywhere
        apply_move(st, m)
        score = view_score(st, hid)
        bd.undo_move(st, m)
        return 1 + score
    score = score_now - col_score(st, hid, src) - col_score(st, hid, dst)
    apply_move(st, m)
    score += col_score(st, hid, src) + col_score(st, hid, dst)
    bd.undo_move(st, m)
    return 1 + score


@njit(cache=True)
def candidates(st, hid, rng, buf, row, keys, gens, gen, t):
    """The legal moves to positions not seen before (table t), shuffled by the random
    stream and then stably sorted by greedy's preference, into buf[row].  Returns
    (count, 0 if the first is a safe foundation move else -1)."""
    out = buf[row]
    leg = buf[R_L0]
    ranks = buf[R_RK]
    n = legal_moves(st, leg)
    key = view_key(st, hid)
    score_now = view_score(st, hid)
    k = 0
    for i in range(n):
        m = leg[i]
        if leads_to_new(st, hid, m, key, keys, gens, gen, t):
            out[k] = m
            k += 1
    for i in range(k - 1, 0, -1):
        j = rng_below(rng, i + 1)
        out[i], out[j] = out[j], out[i]
    for i in range(k):
        ranks[i] = greedy_rank(st, hid, out[i], score_now)
    for i in range(1, k):  # stable insertion sort by rank
        m = out[i]
        r = ranks[i]
        j = i - 1
        while j >= 0 and ranks[j] > r:
            out[j + 1] = out[j]
            ranks[j + 1] = ranks[j]
            j -= 1
        out[j + 1] = m
        ranks[j + 1] = r
    safe = 0 if k > 0 and ranks[0] == 0 else -1
    return k, safe


@njit(cache=True)
def greedy_choose(st, hid, rng, buf, keys, gens, gen, t):
    """Greedy's move, or -1 when every legal move returns to a position seen before."""
    leg = buf[R_L0]
    n = legal_moves(st, leg)
    key = view_key(st, hid)
    score_now = view_score(st, hid)
    best = 1 << 40
    choice = -1
    ties = 0
    for i in range(n):
        m = leg[i]
        r = greedy_rank(st, hid, m, score_now)
        if r > best:
            continue
        if not leads_to_new(st, hid, m, key, keys, gens, gen, t):
            continue
        if r < best:
            best = r
            choice = m
            ties = 1
        else:
            ties += 1
            if rng_below(rng, ties) == 0:
                choice = m
        if r == 0:
            break  # a safe foundation move is played at once
    return choice


@njit(cache=True)
def greedy_playout(world, whid, rng, buf, keys, gens, gen, cap):
    """Greedy plays ``world`` (seen-counts ``whid``) to its end: 1 if it wins within
    ``cap`` moves, else 0.  Changes ``world`` and ``whid``."""
    vis_reset(keys, gens, gen, T_G)
    for _ in range(cap):
        if world[LEFT] == 0:
            return 1
        vis_insert(keys, gens, gen, T_G, view_key(world, whid))
        m = greedy_choose(world, whid, rng, buf, keys, gens, gen, T_G)
        if m < 0:
            return 0
        apply_move(world, m)
        update_seen(world, whid, (m >> 6) & 15)
    return 1 if world[LEFT] == 0 else 0


@njit(cache=True)
def _best(cands, scores, k):
    """The first candidate with the highest score (candidates are in greedy's order)."""
    b = 0
    for i in range(1, k):
        if scores[i] > scores[b]:
            b = i
    return cands[b]


@njit(cache=True)
def rollout1_choose(st, hid, dealt, dealt_h, params, rng, buf, keys, gens, gen, t, samples, crow, srow):
    """Level-1 rollout: each candidate scored by greedy playouts in ``samples`` sampled
    worlds (the same worlds for every candidate)."""
    k, safe = candidates(st, hid, rng, buf, crow, keys, gens, gen, t)
    cands = buf[crow]
    if k == 0:
        return -1
    if safe >= 0 or k == 1:
        return cands[0]
    scores = buf[srow]
    scores[:k] = 0
    w1 = buf[R_W1]
    d1 = buf[R_D1]
    w0 = buf[R_W0]
    h0 = buf[R_H0]
    cap = params[P_ROLL_CAP]
    for _ in range(samples):
        sample_world(st, hid, dealt, dealt_h, params[P_KINGS], rng, w1, d1, buf[R_SMP])
        for i in range(k):
            w0[:] = w1
            h0[:] = hid
            m = cands[i]
            apply_move(w0, m)
            update_seen(w0, h0, (m >> 6) & 15)
            scores[i] += greedy_playout(w0, h0, rng, buf, keys, gens, gen, cap)
    return _best(cands, scores, k)


@njit(cache=True)
def rollout1_playout(world, whid, wdealt, dealt_h, params, rng, buf, keys, gens, gen):
    """The level-1 rollout policy plays a simulated game to its end: 1 if won."""
    vis_reset(keys, gens, gen, T_P)
    for _ in range(params[P_ROLL_CAP]):
        if world[LEFT] == 0:
            return 1
        vis_insert(keys, gens, gen, T_P, view_key(world, whid))
        m = rollout1_choose(world, whid, wdealt, dealt_h, params, rng, buf, keys, gens, gen, T_P,
                            params[P_SAMPLES1], R_L2, R_S2)
        if m < 0:
            return 0
        apply_move(world, m)
        update_seen(world, whid, (m >> 6) & 15)
    return 1 if world[LEFT] == 0 else 0


@njit(cache=True)
def rollout2_choose(st, hid, dealt, dealt_h, params, rng, buf, keys, gens, gen, t):
    """Level-2 rollout: each candidate scored by level-1 playouts in sampled worlds."""
    k, safe = candidates(st, hid, rng, buf, R_TOP, keys, gens, gen, t)
    cands = buf[R_TOP]
    if k == 0:
        return -1
    if safe >= 0 or k == 1:
        return cands[0]
    scores = buf[R_TOPS]
    scores[:k] = 0
    w2 = buf[R_W2]
    d2 = buf[R_D2]
    wp = buf[R_WP]
    dp = buf[R_DP]
    hp = buf[R_HP]
    for _ in range(params[P_SAMPLES]):
        sample_world(st, hid, dealt, dealt_h, params[P_KINGS], rng, w2, d2, buf[R_SMP])
        for i in range(k):
            wp[:] = w2
            dp[:] = d2
            hp[:] = hid
            m = cands[i]
            apply_move(wp, m)
            update_seen(wp, hp, (m >> 6) & 15)
            scores[i] += rollout1_playout(wp, hp, dp, dealt_h, params, rng, buf, keys, gens, gen)
    return _best(cands, scores, k)


@njit(cache=True)
def solve_world(world, budget, table, tgen, dmoves, dcount, dnxt, dscores, dpath, dctx):
    """One DFS attempt of at most ``budget`` nodes on a full-information position (the
    solver's own engine and arrays; a new table generation, nothing cleared; no
    dead-end memo, number 0)."""
    tgen[0] += 1
    dctx[:] = 0
    return bd.dfs(world, table, tgen[0], table, 0, budget, budget, dmoves, dcount, dnxt, dscores, dpath, dctx)


@njit(cache=True)
def pimc_choose(st, hid, dealt, dealt_h, params, rng, buf, keys, gens, gen, t, prof,
                table, tgen, dmoves, dcount, dnxt, dscores, dpath, dctx):
    plan = buf[R_PLAN]  # plan[0] moves planned, plan[1] the next one's index, moves from plan[2]
    leg = buf[R_L0]
    if plan[1] < plan[0]:
        m = plan[2 + plan[1]]
        n = legal_moves(st, leg)
        for i in range(n):
            if leg[i] == m:
                plan[1] += 1
                return m
        plan[0] = 0
        plan[1] = 0
    k, safe = candidates(st, hid, rng, buf, R_TOP, keys, gens, gen, t)
    cands = buf[R_TOP]
    if k == 0:
        return -1
    if safe >= 0 or k == 1:
        return cands[0]
    ws = buf[R_WS]
    samples = params[P_SAMPLES]
    if hidden_total(st, hid) == 0:
        # every card is known: the solver's answer is the player's own
        ws[:] = st
        ws[W0:W0 + 6] = prof
        bd.rehash(ws)
        if solve_world(ws, params[P_FULL], table, tgen, dmoves, dcount, dnxt, dscores, dpath, dctx) == SOLVER_WON:
            length = dctx[4]  # solver.search.dfs.LENGTH
            if length > 0 and length <= plan.shape[0] - 2:
                for i in range(length):
                    plan[2 + i] = dpath[i]
                plan[0] = length
                plan[1] = 1
                return plan[2]
        samples = 1
    scores = buf[R_TOPS]
    scores[:k] = 0
    d1 = buf[R_D1]
    budget = params[P_BUDGET]
    if samples > PIMC_KEEP or params[P_NO_PRUNE]:
        w1 = buf[R_W1]
        for _ in range(samples):
            sample_world(st, hid, dealt, dealt_h, params[P_KINGS], rng, w1, d1, buf[R_SMP])
            w1[W0:W0 + 6] = prof
            for i in range(k):
                ws[:] = w1
                apply_move(ws, cands[i])
                if solve_world(ws, budget, table, tgen, dmoves, dcount, dnxt, dscores, dpath, dctx) == SOLVER_WON:
                    scores[i] += 1
        return _best(cands, scores, k)
    # The same worlds (drawn first: the solver uses no random numbers, so the stream is
    # as above) and the same choice, the first candidate with the most wins, with fewer
    # solves: a candidate stops once it can no longer beat the best before it, nor tie
    # it (a tie goes to the earlier one).
    for j in range(samples):
        sample_world(st, hid, dealt, dealt_h, params[P_KINGS], rng, buf[R_PW + j], d1, buf[R_SMP])
        buf[R_PW + j, W0:W0 + 6] = prof
    best = -1
    for i in range(k):
        if best == samples:
            break
        won = 0
        for j in range(samples):
            if won + samples - j <= best:
                break
            ws[:] = buf[R_PW + j]
            apply_move(ws, cands[i])
            if solve_world(ws, budget, table, tgen, dmoves, dcount, dnxt, dscores, dpath, dctx) == SOLVER_WON:
                won += 1
        scores[i] = won
        if won > best:
            best = won
    return _best(cands, scores, k)
