"""Information-set Monte Carlo tree search for face-down Baker's Dozen (numba).

Why this one, against PIMC's "averaging over clairvoyance": PIMC scores a move by
solving sampled worlds with every card known, so it credits a move with wins that only
a player who knew the hidden cards could collect (Bjarnason, Fern and Tadepalli 2009
give the case).  Here a tree node is an *information state*: the moves made since the
decision and the card each of them turned face up.  Every iteration draws one world
from the exact conditional distribution at the root (``sample_world``); walking down,
the card a move turns up in that world picks the child, so each chance outcome is
reached with its exact conditional probability, and the choice at a node is one
choice for every world that looks the same there (no fusion of strategies across
worlds).  Leaves are valued by greedy playouts that see only what a player would see
in the simulation, so no clairvoyance enters anywhere: the value of a node estimates
what an honest player can win, and the search, given enough iterations, converges to
the best play in the tree it has built (POMCP, Silver and Veness 2010, for this
single-player game; information-set MCTS, Cowling, Powley and Whitehouse 2012).

Selection is UCB1 (exploration constant ``P_EXPLORE`` / 1000) over the moves of a
node, trying each untried move first in greedy's order; one node is added per
iteration; the root's move with most visits is played.  The tree is rebuilt at each
decision (``P_ITERS`` iterations) in preallocated arrays (``TreeWork``).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from ..games.bakers_dozen import C0, CAP, H0, LEFT, apply_move
from . import bd_policies as P
from .bd_kernels import reveals, sample_world, update_seen, vis_insert, vis_reset, view_key

# tree_i rows: node visits, node's first edge (-1: not expanded), node's edge count,
# the card the move into the node turned up (-1: none), the node's next sibling;
# edge move, edge visits, edge's first child
N_VISITS, N_EDGE0, N_NEDGES, N_REVEAL, N_SIBLING, E_MOVE, E_VISITS, E_CHILD = range(8)


class TreeWork:
    def __init__(self, size: int):
        self.ints = np.zeros((8, size), dtype=np.int64)
        self.floats = np.zeros((1, size), dtype=np.float64)  # edge value sums


@njit(cache=True)
def _new_node(ti, i, reveal):
    ti[N_VISITS, i] = 0
    ti[N_EDGE0, i] = -1
    ti[N_NEDGES, i] = 0
    ti[N_REVEAL, i] = reveal
    ti[N_SIBLING, i] = -1


@njit(cache=True)
def ismcts_choose(st, hid, dealt, dealt_h, params, rng, buf, keys, gens, gen, ti, tf):
    k, safe = P.candidates(st, hid, rng, buf, P.R_TOP, keys, gens, gen, P.T_GAME)
    cands = buf[P.R_TOP]
    if k == 0:
        return -1
    if safe >= 0 or k == 1:
        return cands[0]
    size = ti.shape[1]
    explore = params[P.P_EXPLORE] / 1000.0
    cap = params[P.P_ROLL_CAP]
    _new_node(ti, 0, -1)
    ti[N_EDGE0, 0] = 0
    ti[N_NEDGES, 0] = k
    for e in range(k):
        ti[E_MOVE, e] = cands[e]
        ti[E_VISITS, e] = 0
        ti[E_CHILD, e] = -1
        tf[0, e] = 0.0
    nodes = 1
    edges = k
    world = buf[P.R_W1]
    wdealt = buf[P.R_D1]
    whid = buf[P.R_H1]
    path = buf[P.R_M1]
    pnode = buf[P.R_S1]
    for _ in range(params[P.P_ITERS]):
        sample_world(st, hid, dealt, dealt_h, params[P.P_KINGS], rng, world, wdealt, buf[P.R_SMP])
        whid[:] = hid
        vis_reset(keys, gens, gen, P.T_TREE)
        vis_insert(keys, gens, gen, P.T_TREE, view_key(world, whid))
        node = 0
        plen = 0
        value = 0.0
        while True:
            if world[LEFT] == 0:
                value = 1.0
                break
            if ti[N_EDGE0, node] < 0:
                kk, sf = P.candidates(world, whid, rng, buf, P.R_M2, keys, gens, gen, P.T_TREE)
                if sf >= 0:
                    kk = 1
                if kk == 0:
                    ti[N_EDGE0, node] = edges
                    value = 0.0
                    break
                if edges + kk <= size:
                    ti[N_EDGE0, node] = edges
                    ti[N_NEDGES, node] = kk
                    for j in range(kk):
                        e = edges + j
                        ti[E_MOVE, e] = buf[P.R_M2, j]
                        ti[E_VISITS, e] = 0
                        ti[E_CHILD, e] = -1
                        tf[0, e] = 0.0
                    edges += kk
                value = float(P.greedy_playout(world, whid, rng, buf, keys, gens, gen, cap))
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
            m = ti[E_MOVE, best]
            src = (m >> 6) & 15
            turned = reveals(world, whid, m)
            apply_move(world, m)
            update_seen(world, whid, src)
            code = -1
            if turned:
                code = world[C0 + src * CAP + world[H0 + src] - 1]
            path[plen] = best
            pnode[plen] = node
            plen += 1
            child = ti[E_CHILD, best]
            while child >= 0 and ti[N_REVEAL, child] != code:
                child = ti[N_SIBLING, child]
            if child < 0:
                if nodes >= size:
                    value = float(P.greedy_playout(world, whid, rng, buf, keys, gens, gen, cap))
                    break
                child = nodes
                nodes += 1
                _new_node(ti, child, code)
                ti[N_SIBLING, child] = ti[E_CHILD, best]
                ti[E_CHILD, best] = child
            node = child
            vis_insert(keys, gens, gen, P.T_TREE, view_key(world, whid))
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
