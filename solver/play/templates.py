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
  reading only what a player sees even on a world, or -1 to give up; greedy weighs
  moves with ``best_move`` (below), over the game's ``weighed(st, m)`` (the moves it
  weighs) and ``greedy_score(st)`` (lower is better).

Strategies (``params`` slots ``P_*``; docs/PLAYERS.md has the user's view):

- random: a uniformly random move among ``gen_moves`` of the view.
- eager (``eager_choose``): plays a card the moment it can, deals otherwise; no choice
  weighed (the casual player).
- greedy (``greedy_choose``).
- rollout (level 1, ``P_SAMPLES`` worlds): each candidate scored by greedy playouts to
  the end in the same sampled worlds; the move winning most often, ties to greedy's.
- ismcts (``P_ITERS`` iterations, ``P_EXPLORE``, ``P_ROLL_CAP``): information-set
  Monte Carlo tree search (``ismcts_choose``); once nothing is hidden, the full search
  as pimc.
- scout: eager while anything is hidden (it deals through what it cannot see, playing
  each card the moment it can), then, every card known, as pimc: the full search, its
  win played out, else moves scored by ``P_BUDGET``-node searches of the known world.
- pimc (``P_SAMPLES`` worlds, ``P_BUDGET`` nodes): each candidate scored by the worlds
  the game's DFS wins after it within its budget; ties to greedy's.  Once nothing is
  hidden one search of ``P_FULL`` nodes and, if it wins, its solution is played out;
  if it does not, the next decision searches again when the player module's
  ``FULL_RETRY`` says so (Russian Patience), and never again in this game otherwise
  (the moves are then scored by ``P_BUDGET``-node searches of the one known world).

The simulations run on sampled worlds, never on the truth; a simulated greedy player
reads there only what a player would see (``greedy_choose``'s contract).
"""

import math

import numpy as np

from .bd_kernels import rng_below, vis_has, vis_insert, vis_reset
from .bd_policies import _best  # the first candidate with the most wins: one argmax for every game

# params slots
P_STRATEGY, P_SAMPLES, P_BUDGET, P_FULL, P_MAX_MOVES, P_ROLL_CAP, P_ITERS, P_EXPLORE = range(8)
N_PARAMS = 8
S_RANDOM, S_GREEDY, S_ROLLOUT, S_PIMC, S_EAGER, S_ISMCTS, S_SCOUT = range(7)

KEEP = 16  # pimc and rollout keep up to this many sampled worlds at once
# buf rows (each STATE_LEN long)
R_OST, R_LEG, R_CAND, R_SCORE, R_PLAN, R_WS, R_G, R_GLEG, R_UNSEEN = range(9)
R_PW = 9
# ismcts: the iteration's world, its view, a node's candidates, the path's edges and nodes
R_TW = R_PW + KEEP
R_TV, R_TM, R_TPATH, R_TPNODE = R_TW + 1, R_TW + 2, R_TW + 3, R_TW + 4
N_ROWS = R_TW + 5
# visited tables: the real game, a greedy playout, an ismcts iteration
T_GAME, T_G, T_TREE = range(3)
N_TABLES = 3
# ismcts tree rows (ints): node visits, first edge (-1: not expanded), edge count, the key
# of the view that identifies the node, next sibling; edge move, edge visits, first child
N_VISITS, N_EDGE0, N_NEDGES, N_VIEW, N_SIBLING, E_MOVE, E_VISITS, E_CHILD = range(8)
TREE_SIZE = 1 << 16

SOLVER_WON = 1  # solver.search.dfs.WON
DFS_LENGTH = 4  # solver.search.dfs.DFS_LENGTH
OUT_WON, OUT_MOVES, OUT_DECISIONS, OUT_STOPPED, OUT_BAD = range(5)

HELPERS = {
    "np": np, "math": math, "P_ITERS": P_ITERS, "P_EXPLORE": P_EXPLORE, "S_ISMCTS": S_ISMCTS, "S_SCOUT": S_SCOUT, "R_TW": R_TW,
    "R_TV": R_TV, "R_TM": R_TM, "R_TPATH": R_TPATH, "R_TPNODE": R_TPNODE, "T_TREE": T_TREE, "N_VISITS": N_VISITS,
    "N_EDGE0": N_EDGE0, "N_NEDGES": N_NEDGES, "N_VIEW": N_VIEW, "N_SIBLING": N_SIBLING, "E_MOVE": E_MOVE,
    "E_VISITS": E_VISITS, "E_CHILD": E_CHILD, "rng_below": rng_below, "vis_has": vis_has, "vis_insert": vis_insert, "vis_reset": vis_reset,
    "_best": _best, "P_STRATEGY": P_STRATEGY, "P_SAMPLES": P_SAMPLES, "P_BUDGET": P_BUDGET, "P_FULL": P_FULL,
    "P_MAX_MOVES": P_MAX_MOVES, "P_ROLL_CAP": P_ROLL_CAP, "S_RANDOM": S_RANDOM, "S_GREEDY": S_GREEDY,
    "S_ROLLOUT": S_ROLLOUT, "S_PIMC": S_PIMC, "S_EAGER": S_EAGER, "KEEP": KEEP, "R_OST": R_OST, "R_LEG": R_LEG,
    "R_CAND": R_CAND, "R_SCORE": R_SCORE, "R_PLAN": R_PLAN, "R_WS": R_WS, "R_UNSEEN": R_UNSEEN, "R_PW": R_PW,
    "T_GAME": T_GAME, "T_G": T_G, "SOLVER_WON": SOLVER_WON, "DFS_LENGTH": DFS_LENGTH, "OUT_WON": OUT_WON,
    "OUT_MOVES": OUT_MOVES, "OUT_DECISIONS": OUT_DECISIONS, "OUT_STOPPED": OUT_STOPPED, "OUT_BAD": OUT_BAD,
}


def best_move(st, rng, buf, keys, gens, gen, t, leg, n):
    """Greedy's weighing: among the moves leg[:n] that ``weighed`` says greedy weighs,
    the one after which ``greedy_score`` is lowest, ties to the random stream, never one
    back to a position seen in visited table t: (the move or -1, its score)."""
    best = np.int64(1) << 60
    choice = -1
    ties = 0
    for i in range(n):
        m = leg[i]
        if not weighed(st, m):
            continue
        apply_move(st, m)
        seen = vis_has(keys, gens, gen, t, view_key(st))
        s = greedy_score(st)
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
    return choice, best


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
    back to a position seen in this game is left out (with none left the player gives
    up); a move that shows unseen cards is always kept."""
    return candidates_in(ost, rng, buf, keys, gens, gen, T_GAME, R_CAND)


def candidates_in(ost, rng, buf, keys, gens, gen, t, row):
    """``candidates`` against visited table t, into buf[row]."""
    cand = buf[row]
    leg = buf[R_LEG]
    n = gen_moves(ost, leg, 0)
    first = greedy_choose(ost, rng, buf, keys, gens, gen, t)
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
            seen = vis_has(keys, gens, gen, t, view_key(ost))
            undo_move(ost, m)
            if seen:
                continue
        cand[k] = m
        k += 1
    return k


def solve_world(world, budget, table, tgen, dmoves, dcount, dnxt, dscores, dpath, dctx):
    """One DFS attempt of at most ``budget`` nodes (a new table generation; no
    dead-end memo, number 0: each world is another deal)."""
    tgen[0] += 1
    dctx[:] = 0
    return dfs(world, table, tgen[0], table, 0, budget, budget, dmoves, dcount, dnxt, dscores, dpath, dctx)


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
    pimc = params[P_STRATEGY] == S_PIMC or params[P_STRATEGY] == S_SCOUT
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


def _new_node(ti, i, view):
    ti[N_VISITS, i] = 0
    ti[N_EDGE0, i] = -1
    ti[N_NEDGES, i] = 0
    ti[N_VIEW, i] = view
    ti[N_SIBLING, i] = -1


def ismcts_choose(ost, params, rng, buf, keys, gens, gen, k, ti, tf):
    """Information-set MCTS over the k candidates in buf[R_CAND] (docs/PLAYERS.md): a
    node is what the player sees (its view key), so a choice at a node is one choice for
    every world that looks the same there, and what a deal brings picks the child with
    its exact conditional probability, the world having been drawn by the exact sampler
    at the root.  UCB1 (``P_EXPLORE`` / 1000), untried moves first in greedy's order,
    one node added per iteration, leaves valued by greedy playouts (which read only what
    a player sees); the root's most visited move."""
    cand = buf[R_CAND]
    size = ti.shape[1]
    explore = params[P_EXPLORE] / 1000.0
    cap = params[P_ROLL_CAP]
    _new_node(ti, 0, 0)
    ti[N_EDGE0, 0] = 0
    ti[N_NEDGES, 0] = k
    for e in range(k):
        ti[E_MOVE, e] = cand[e]
        ti[E_VISITS, e] = 0
        ti[E_CHILD, e] = -1
        tf[0, e] = 0.0
    nodes = 1
    edges = k
    world = buf[R_TW]
    wv = buf[R_TV]
    path = buf[R_TPATH]
    pnode = buf[R_TPNODE]
    for _ in range(params[P_ITERS]):
        sample_world(ost, rng, world, buf[R_UNSEEN])
        vis_reset(keys, gens, gen, T_TREE)
        vis_insert(keys, gens, gen, T_TREE, view_key(world))
        node = 0
        plen = 0
        value = 0.0
        while True:
            if is_won(world):
                value = 1.0
                break
            if ti[N_EDGE0, node] < 0:
                observe(world, wv)  # the node's moves are those a player sees there
                kk = candidates_in(wv, rng, buf, keys, gens, gen, T_TREE, R_TM)
                if kk == 0:
                    ti[N_EDGE0, node] = edges
                    value = 0.0
                    break
                if edges + kk <= size:
                    ti[N_EDGE0, node] = edges
                    ti[N_NEDGES, node] = kk
                    for j in range(kk):
                        e = edges + j
                        ti[E_MOVE, e] = buf[R_TM, j]
                        ti[E_VISITS, e] = 0
                        ti[E_CHILD, e] = -1
                        tf[0, e] = 0.0
                    edges += kk
                value = float(greedy_playout(world, rng, buf, keys, gens, gen, cap))
                break
            e0 = ti[N_EDGE0, node]
            ne = ti[N_NEDGES, node]
            if ne == 0:
                value = 0.0
                break
            best = -1
            best_v = -1.0
            log_n = math.log(ti[N_VISITS, node] + 1.0)
            for e in range(e0, e0 + ne):
                n_e = ti[E_VISITS, e]
                if n_e == 0:
                    best = e
                    break
                v = tf[0, e] / n_e + explore * math.sqrt(log_n / n_e)
                if v > best_v:
                    best_v = v
                    best = e
            apply_move(world, true_move(world, ti[E_MOVE, best]))
            code = np.int64(view_key(world))
            path[plen] = best
            pnode[plen] = node
            plen += 1
            child = ti[E_CHILD, best]
            while child >= 0 and ti[N_VIEW, child] != code:
                child = ti[N_SIBLING, child]
            if child < 0:
                if nodes >= size:
                    value = float(greedy_playout(world, rng, buf, keys, gens, gen, cap))
                    break
                child = nodes
                nodes += 1
                _new_node(ti, child, code)
                ti[N_SIBLING, child] = ti[E_CHILD, best]
                ti[E_CHILD, best] = child
            node = child
            vis_insert(keys, gens, gen, T_TREE, view_key(world))
            if plen >= cap or plen >= path.shape[0]:
                break
        ti[N_VISITS, node] += 1
        for i in range(plen):
            e = path[i]
            ti[E_VISITS, e] += 1
            tf[0, e] += value
            ti[N_VISITS, pnode[i]] += 1
    best = 0
    for e in range(1, k):
        if ti[E_VISITS, e] > ti[E_VISITS, best]:
            best = e
    return ti[E_MOVE, best]


def choose(ost, params, rng, buf, keys, gens, gen, table, tgen, dmoves, dcount, dnxt, dscores, dpath, dctx, ti, tf):
    s = params[P_STRATEGY]
    if s == S_RANDOM:
        leg = buf[R_LEG]
        n = gen_moves(ost, leg, 0)
        return leg[rng_below(rng, n)]
    if s == S_GREEDY:
        return greedy_choose(ost, rng, buf, keys, gens, gen, T_GAME)
    if s == S_EAGER or (s == S_SCOUT and hidden(ost)):
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
    if (s == S_PIMC or s == S_ISMCTS or s == S_SCOUT) and not hidden(ost) and (FULL_RETRY or plan[failed] == 0):
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
    if s == S_ISMCTS:
        return ismcts_choose(ost, params, rng, buf, keys, gens, gen, k, ti, tf)
    return _scores(ost, params, rng, buf, keys, gens, gen, k, table, tgen, dmoves, dcount, dnxt, dscores, dpath, dctx)


def play(st, params, rng, moves_out, out, buf, keys, gens, gen, table, tgen, dmoves, dcount, dnxt, dscores, dpath,
         dctx, ti, tf):
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
        m = choose(ost, params, rng, buf, keys, gens, gen, table, tgen, dmoves, dcount, dnxt, dscores, dpath, dctx,
                   ti, tf)
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


TEMPLATES = (best_move, greedy_playout, candidates, candidates_in, solve_world, _scores, _new_node, ismcts_choose, choose, play)
