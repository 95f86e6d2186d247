"""Parisienne players: Grand Duchess's view and rules of thumb (``gd_kernels``) with the
sampler Parisienne's start calls for; the referee and the strategies compiled here.

Why Grand Duchess's uniform sampler would be wrong here: the first copy in the deck of
each ace and each king goes home before play, so the stock keeps the *later* copy, and
a later copy tends to lie further down.  The exact law of the 96-card stock sequence s:
the decks that give s are s with the eight first copies put back, each anywhere before
its twin.  Put back in the order of their twins' positions p(1) < ... < p(8) (0-based in
s), the j-th has p(j) + 1 places among the cards of s before its twin plus j - 1 among
the copies already put back, so

    P(s) is proportional to the product over j = 1..8 of (p(j) + j)

(tests/test_play_grand_duchess.py checks this against every arrangement of small decks
through the game's own ``split_deck``).  Nothing else of s matters, so given what the
player has seen:

1. the places of the unseen aces and kings among the hidden positions are drawn from
   that product, exactly, by a backward pass over the stock positions (the total
   weight of the ways to finish from position p with u of them placed) and a forward
   draw;
2. the unseen aces and kings take those places in a uniformly random order, and the
   other unseen cards the remaining hidden positions in a uniformly random order.

The weights run to about 1e27, so the pass is in float64: each draw's probabilities are
exact to about 1e-16.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..games.grand_duchess import K0, MAX_MOVES, NR, SN, SP, apply_move, dfs, gen_moves, is_won, rehash, undo_move  # noqa: F401
from ..search import specialise
from . import templates
from .bd_kernels import rng_next, shuffle_prefix
from .gd_kernels import (FULL_RETRY, eager_choose, fill_world, greedy_choose, greedy_score, hidden,  # noqa: F401
                         hidden_position, observe, opaque, true_move, unseen_cards, view_key, weighed)


@njit(cache=True)
def is_special(c, nr):
    """An ace or a king (the top rank in play): one copy of each is in the stock."""
    r = c % 13 + 1
    return r == 1 or r == nr


@njit(cache=True)
def special_weights(ost, m):
    """The backward pass: w[p, u] = the total weight of placing the last m - u unseen
    specials among the hidden positions from p on, u of them placed before p."""
    sn = ost[SN]
    nr = ost[NR]
    w = np.zeros((sn + 1, m + 1), dtype=np.float64)
    w[sn, m] = 1.0
    seen_before = np.zeros(sn + 1, dtype=np.int64)  # specials seen at positions < p
    for p in range(sn):
        seen = (not hidden_position(ost, p)) and is_special(ost[K0 + p], nr)
        seen_before[p + 1] = seen_before[p] + (1 if seen else 0)
    for p in range(sn - 1, -1, -1):
        hid = hidden_position(ost, p)
        seen = (not hid) and is_special(ost[K0 + p], nr)
        for u in range(m + 1):
            factor = float(p + seen_before[p] + u + 1)  # the j of a special at p is seen + placed before it, plus one
            if seen:
                w[p, u] = factor * w[p + 1, u]
            elif hid:
                w[p, u] = w[p + 1, u] + (factor * w[p + 1, u + 1] if u < m else 0.0)
            else:
                w[p, u] = w[p + 1, u]
    return w, seen_before


@njit(cache=True)
def _uniform(rng):
    return float(rng_next(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def sample_world(ost, rng, world, scratch):
    """A world consistent with the view ``ost``, drawn from the exact conditional
    distribution (module docstring), keys computed."""
    world[:] = ost
    if not hidden(ost):
        rehash(world)
        return
    nr = ost[NR]
    n = unseen_cards(ost, scratch)
    specials = np.empty(n, dtype=np.int64)
    others = np.empty(n, dtype=np.int64)
    m = 0
    o = 0
    for i in range(n):
        if is_special(scratch[i], nr):
            specials[m] = scratch[i]
            m += 1
        else:
            others[o] = scratch[i]
            o += 1
    shuffle_prefix(specials, m, rng)
    shuffle_prefix(others, o, rng)
    w, seen_before = special_weights(ost, m)
    u = 0
    k = 0
    b = 0
    for p in range(ost[SN]):
        if not hidden_position(ost, p):
            continue
        place = False
        if u < m:
            factor = float(p + seen_before[p] + u + 1)
            place = _uniform(rng) * w[p, u] < factor * w[p + 1, u + 1]
        if place:
            scratch[k] = specials[u]
            u += 1
        else:
            scratch[k] = others[b]
            b += 1
        k += 1
    fill_world(world, scratch)


specialise(globals(), templates.TEMPLATES, templates.HELPERS)  # the referee and the strategies
