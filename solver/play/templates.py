"""The referee and the strategies of the stock games, written once for every game whose
player module supplies a view, a sampler and rules of thumb (Russian Patience, Grand
Duchess, Parisienne, Duchess; Baker's Dozen has its own, bd_kernels and friends).

Like the search engines these are templates: ``solver.search.specialise`` compiles them
in a player module's namespace (``specialise(globals(), TEMPLATES, HELPERS)``, the
module's last step), where the names below resolve to that game's functions.

What a player module defines first:

- the game's kernels: ``gen_moves``, ``apply_move``, ``undo_move``, ``is_won``,
  ``rehash``, ``dfs`` (its specialised engine), ``MAX_MOVES``; and ``FULL_RETRY``
  (pimc, below);
- ``observe(st, ost)``: the player's view of the true state ``st``, written into
  ``ost``: the same layout with every hidden card replaced by a placeholder and the
  state's keys reduced to what is seen;
- ``hidden(st)``: something is still unknown to the player;
- ``view_key(st)``: a 64-bit key of what the player sees (equal on a view and on
  every world or truth it stands for);
- ``sample_world(ost, rng, world, scratch)``: a world consistent with the view, drawn
  from the exact conditional distribution, keys computed;
- ``opaque(st, m)``: move m shows the player a card it has not seen (a deal), so it
  cannot be made on a view;
- ``true_move(st, m)``: the move of ``st`` that a move chosen on a view stands for
  (the same move, but where the view's move names a card the player has not seen yet,
  as filling a space from the stock does in Duchess);
- ``greedy_choose(st, rng, buf, keys, gens, gen, t)`` and ``eager_choose(st, rng, buf)``:
  the rules of thumb (greedy: never back to a position in visited table t), each
  reading only what a player sees even on a world, or -1 to give up.

Strategies (``params`` slots ``P_*``; docs/PLAYERS.md has the user's view):

- random: a uniformly random move among ``gen_moves`` of the view.
- eager (``eager_choose``): plays a card the moment it can, deals otherwise; no choice
  weighed (the casual player).
- greedy (``greedy_choose``).
- rollout (level 1, ``P_SAMPLES`` worlds): each candidate scored by greedy playouts to
  the end in the same sampled worlds; the move winning most often, ties to greedy's.
- pimc (``P_SAMPLES`` worlds, ``P_BUDGET`` nodes): each candidate scored by the worlds
  the game's DFS wins after it within its budget; ties to greedy's.  Once nothing is
  hidden one search of ``P_FULL`` nodes and, if it wins, its solution is played out;
  if it does not, the next decision searches again when the player module's
  ``FULL_RETRY`` says so (Russian Patience), and never again in this game otherwise
  (the moves are then scored by ``P_BUDGET``-node searches of the one known world).

The simulations run on sampled worlds, never on the truth; a simulated greedy player
reads there only what a player would see (``greedy_choose``'s contract).
"""

import numpy as np

from .bd_kernels import rng_below, vis_has, vis_insert, vis_reset
from .bd_policies import _best  # the first candidate with the most wins: one argmax for every game

# params slots
P_STRATEGY, P_SAMPLES, P_BUDGET, P_FULL, P_MAX_MOVES, P_ROLL_CAP = range(6)
N_PARAMS = 8
S_RANDOM, S_GREEDY, S_ROLLOUT, S_PIMC, S_EAGER = range(5)

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
OUT_WON, OUT_MOVES, OUT_DECISIONS, OUT_STOPPED, OUT_BAD = range(5)

HELPERS = {
    "np": np, "rng_below": rng_below, "vis_has": vis_has, "vis_insert": vis_insert, "vis_reset": vis_reset,
    "_best": _best, "P_STRATEGY": P_STRATEGY, "P_SAMPLES": P_SAMPLES, "P_BUDGET": P_BUDGET, "P_FULL": P_FULL,
    "P_MAX_MOVES": P_MAX_MOVES, "P_ROLL_CAP": P_ROLL_CAP, "S_RANDOM": S_RANDOM, "S_GREEDY": S_GREEDY,
    "S_ROLLOUT": S_ROLLOUT, "S_PIMC": S_PIMC, "S_EAGER": S_EAGER, "KEEP": KEEP, "R_OST": R_OST, "R_LEG": R_LEG,
    "R_CAND": R_CAND, "R_SCORE": R_SCORE, "R_PLAN": R_PLAN, "R_WS": R_WS, "R_UNSEEN": R_UNSEEN, "R_PW": R_PW,
    "T_GAME": T_GAME, "T_G": T_G, "SOLVER_WON": SOLVER_WON, "DFS_LENGTH": DFS_LENGTH, "OUT_WON": OUT_WON,
    "OUT_MOVES": OUT_MOVES, "OUT_DECISIONS": OUT_DECISIONS, "OUT_STOPPED": OUT_STOPPED, "OUT_BAD": OUT_BAD,
}


def greedy_playout(world, rng, buf, keys, gens, gen, cap):
    """Greedy plays the world to its end: 1 if it wins within ``cap`` moves."""
    vis_reset(keys, gens, gen, T_G)
    for _ in range(cap):
        if is_won(world):
            return 1
        vis_insert(keys, gens, gen, T_G, view_key(world))
        m = greedy_choose(world, rng, buf, keys, gens, gen, T_G)
        if m < 0:
            return 0
        apply_move(world, true_move(world, m))
    return 1 if is_won(world) else 0


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
        if not opaque(ost, m):
            apply_move(ost, m)
            seen = vis_has(keys, gens, gen, T_GAME, view_key(ost))
            undo_move(ost, m)
            if seen:
                continue
        cand[k] = m
        k += 1
    return k


def solve_world(world, budget, table, tgen, dmoves, dcount, dnxt, dscores, dpath, dctx):
    """One DFS attempt of at most ``budget`` nodes (a new table generation)."""
    tgen[0] += 1
    dctx[:] = 0
    return dfs(world, table, tgen[0], budget, budget, dmoves, dcount, dnxt, dscores, dpath, dctx)


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
    # nothing hidden: the worlds are copies of the view and a search's answer is the same
    # in each, so one search stands for all of them (the same choice)
    alike = pimc and not hidden(ost)
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
            apply_move(ws, true_move(ws, cand[i]))
            if alike:
                if solve_world(ws, params[P_BUDGET], table, tgen, dmoves, dcount, dnxt, dscores, dpath,
                               dctx) == SOLVER_WON:
                    won = samples
                break
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


def choose(ost, params, rng, buf, keys, gens, gen, table, tgen, dmoves, dcount, dnxt, dscores, dpath, dctx):
    s = params[P_STRATEGY]
    if s == S_RANDOM:
        leg = buf[R_LEG]
        n = gen_moves(ost, leg, 0)
        return leg[rng_below(rng, n)]
    if s == S_GREEDY:
        return greedy_choose(ost, rng, buf, keys, gens, gen, T_GAME)
    if s == S_EAGER:
        return eager_choose(ost, rng, buf)
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
    failed = plan.shape[0] - 1  # plan[failed]: a full search of this game has failed
    if s == S_PIMC and not hidden(ost) and (FULL_RETRY or plan[failed] == 0):
        # every card is known and nothing is left to chance: the solver's answer is the player's
        ws = buf[R_WS]
        ws[:] = ost
        rehash(ws)
        if solve_world(ws, params[P_FULL], table, tgen, dmoves, dcount, dnxt, dscores, dpath, dctx) == SOLVER_WON:
            length = dctx[DFS_LENGTH]
            if 0 < length <= plan.shape[0] - 3:
                for i in range(length):
                    plan[2 + i] = dpath[i]
                plan[0] = length
                plan[1] = 1
                return plan[2]
        plan[failed] = 1
    return _scores(ost, params, rng, buf, keys, gens, gen, k, table, tgen, dmoves, dcount, dnxt, dscores, dpath, dctx)


def play(st, params, rng, moves_out, out, buf, keys, gens, gen, table, tgen, dmoves, dcount, dnxt, dscores, dpath,
         dctx):
    """The referee: one game; moves into moves_out, (won, moves, decisions, stopped, bad
    move) into out.  The strategy gets the view ``observe`` makes and nothing else; the
    move it names is checked against the truth's own moves before it is made."""
    ost = buf[R_OST]
    leg = np.zeros(MAX_MOVES, dtype=np.int64)
    buf[R_PLAN, 0] = 0
    buf[R_PLAN, 1] = 0
    buf[R_PLAN, buf.shape[1] - 1] = 0
    vis_reset(keys, gens, gen, T_GAME)
    out[:] = 0
    n = 0
    cap = min(params[P_MAX_MOVES], moves_out.shape[0])
    while not is_won(st):
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
        m = true_move(st, m)
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
    out[OUT_WON] = 1 if is_won(st) else 0
    out[OUT_MOVES] = n


TEMPLATES = (greedy_playout, candidates, solve_world, _scores, choose, play)
