"""Duchess (Glenwood) players at numba speed: what a player sees, the sampler of what it
does not, and the rules of thumb; the referee and the strategies are the stock games'
own (``solver.play.templates``, compiled here).

What a player sees (docs/PLAYERS.md): the reserve fans (spread face up), the columns,
the waste (every card of it: it saw each one dealt), the foundations and the base rank,
how many cards the stock holds, the round and the redeal left.  In the first round it
does not see the order of the stock; the redeal turns the waste over as the new stock,
which then comes round in an order it knows, so from then on nothing is hidden.

``observe`` writes the view: the stock's cards are ``HIDC`` (a code past every card,
so that the one move that takes the stock's top card unseen, filling a space from the
stock once the reserve and the waste are empty, is still offered: its card is
``HIDC`` and the referee's ``true_move`` names the real one), the keys lose those
cards' terms, and the search's scratch is zeroed.

The sampler (``sample_world``): the deck is uniform over orders, the layout takes fixed
deck positions and every card dealt so far is in sight, so the stock is a uniformly
random order of the unseen cards.

Rules of thumb, reading only what a player sees (on a view or a world):

- greedy: the first move (which fixes the base rank) and every later one by how the
  position after it looks (``looks``, lower is better: 8 a card not home, 2 a card
  lying above a card its foundation takes next, 3 a card left in the fans, 1 a card in
  the waste, -2 an empty column, 20 a redeal used), ties to the random stream, never
  back to a position seen: the best move if it improves on the position now, else
  ``deal``, else filling a space from the stock, else the best move, else ``redeal``;
  -1 when nothing is left.  So a card goes home, a reserve or waste card onto a
  column, a column is emptied, before the stock is touched.
- eager (the player who never looks back): a random first fan, then the first card that
  can go home, else the first card from a fan, the waste or the stock onto a column
  (gen_moves' order), else ``deal``, else ``redeal``; it never moves cards between
  columns.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..games import duchess as du
from ..games.duchess import (BASE, HASH1, HASH2, KIND_COLUMN, KIND_DEAL, KIND_FOUNDATION, KIND_REDEAL,  # noqa: F401
                             LEAST0, MAX_MOVES, NCOLS, ROUND, STOCK, STUCK0, TAL0, TK, TN, Z1, Z2, Z_STK, apply_move,
                             dfs, gen_moves, is_won, rehash, undo_move)
from ..search import specialise
from . import templates
from .bd_kernels import rng_below, shuffle_prefix
from .templates import R_GLEG

HIDC = 63  # a stock card the player has not seen (moves hold a card in 6 bits)


@njit(cache=True)
def hidden(st):
    """The first round with stock left: its order is unseen."""
    return st[ROUND] == 0 and st[TK] < st[TN]


@njit(cache=True)
def observe(st, ost):
    """The player's view of ``st`` into ``ost`` (module docstring)."""
    ost[:] = st
    ost[STUCK0:LEAST0 + 4] = 0
    if not hidden(st):
        return
    h1 = st[HASH1]
    h2 = st[HASH2]
    for k in range(st[TK], st[TN]):
        c = st[TAL0 + k]
        h1 -= Z1[Z_STK + k * 52 + c]
        h2 -= Z2[Z_STK + k * 52 + c]
        ost[TAL0 + k] = HIDC
    ost[HASH1] = h1
    ost[HASH2] = h2


@njit(cache=True)
def view_key(st):
    """The key of what the player sees: the state's first key without the unseen stock
    cards' terms (a view has none; a world or the truth has them)."""
    h = st[HASH1]
    if hidden(st):
        for k in range(st[TK], st[TN]):
            c = st[TAL0 + k]
            if c != HIDC:
                h -= Z1[Z_STK + k * 52 + c]
    return np.uint64(h)


@njit(cache=True)
def unseen_cards(ost, out):
    """The cards not in sight (the stock's), into out[:]; how many."""
    n = 0
    if hidden(ost):
        seen = np.zeros(52, dtype=np.bool_)
        for c in _cards_in_sight(ost):
            seen[c] = True
        nr = ost[du.NR]
        for s in range(4):
            for r in range(nr):
                if not seen[s * 13 + r]:
                    out[n] = s * 13 + r
                    n += 1
    return n


@njit(cache=True)
def _cards_in_sight(st):
    """Every card of the fans, the columns, the waste and the foundations."""
    out = np.empty(52, dtype=np.int64)
    n = 0
    for f in range(4):
        for i in range(st[du.FH0 + f]):
            out[n] = st[du.FAN0 + f * du.FAN_CARDS + i]
            n += 1
    for col in range(NCOLS):
        for i in range(st[du.H0 + col]):
            out[n] = st[du.COL0 + col * du.CAP + i]
            n += 1
    for i in range(st[du.WN]):
        out[n] = st[du.WST0 + i]
        n += 1
    if st[BASE] >= 0:
        for s in range(4):
            for i in range(st[du.F0 + s]):
                out[n] = s * 13 + (st[BASE] + i) % st[du.NR]
                n += 1
    return out[:n]


@njit(cache=True)
def sample_world(ost, rng, world, scratch):
    """A world consistent with the view ``ost``, drawn from the exact conditional
    distribution (module docstring), keys computed."""
    world[:] = ost
    n = unseen_cards(ost, scratch)
    shuffle_prefix(scratch, n, rng)
    for i in range(n):
        world[TAL0 + world[TK] + i] = scratch[i]
    rehash(world)


@njit(cache=True)
def opaque(st, m):
    """A deal, or a space filled from the stock, shows a card the player has not seen."""
    kind = m & 7
    return hidden(st) and (kind == KIND_DEAL or (kind == KIND_COLUMN and (m >> 9) & 15 == STOCK))


@njit(cache=True)
def true_move(st, m):
    """The move of ``st`` a view's move stands for: a space filled from the stock takes
    the stock's real top card."""
    if m & 7 == KIND_COLUMN and (m >> 9) & 15 == STOCK:
        return (m & ~(63 << 3)) | (st[TAL0 + st[TK]] << 3)
    return m


@njit(cache=True)
def looks(st):
    """Greedy's view of a position, lower is better (module docstring)."""
    k = 8 * st[du.LEFT] + 2 * du._needed_cover(st) + st[du.WN] + 20 * st[ROUND]
    for f in range(4):
        k += 3 * st[du.FH0 + f]
    for col in range(NCOLS):
        if st[du.H0 + col] == 0:
            k -= 2
    return k


@njit(cache=True)
def weighed(st, m):
    """Greedy weighs every move but a deal, a redeal and a space filled from the unseen stock."""
    kind = m & 7
    return kind != KIND_DEAL and kind != KIND_REDEAL and not opaque(st, m)


@njit(cache=True)
def greedy_score(st):
    return looks(st)


@njit(cache=True)
def greedy_choose(st, rng, buf, keys, gens, gen, t):
    """Greedy's move (module docstring) on a view or a world, or -1."""
    leg = buf[R_GLEG]
    n = gen_moves(st, leg, 0)
    now = looks(st)
    choice, best = best_move(st, rng, buf, keys, gens, gen, t, leg, n)
    deal = -1
    fill = -1
    redeal = -1
    for i in range(n):
        m = leg[i]
        kind = m & 7
        if kind == KIND_DEAL:
            deal = m
        elif kind == KIND_REDEAL:
            redeal = m
        elif opaque(st, m):
            fill = m
    if choice >= 0 and best < now:
        return choice
    if deal >= 0:
        return deal
    if fill >= 0:
        return fill
    if choice >= 0:
        return choice
    return redeal


@njit(cache=True)
def eager_choose(st, rng, buf):
    """The casual player's move (module docstring), or -1."""
    leg = buf[R_GLEG]
    n = gen_moves(st, leg, 0)
    if n == 0:
        return -1
    if st[BASE] < 0:
        return leg[rng_below(rng, n)]
    for i in range(n):
        if leg[i] & 7 == KIND_FOUNDATION:
            return leg[i]
    for i in range(n):
        m = leg[i]
        if m & 7 == KIND_COLUMN and (m >> 9) & 15 >= NCOLS:
            return m
    for kind in (KIND_DEAL, KIND_REDEAL):
        for i in range(n):
            if leg[i] & 7 == kind:
                return leg[i]
    return -1


FULL_RETRY = False  # a failed full search is not repeated

specialise(globals(), templates.TEMPLATES, templates.HELPERS)  # the referee and the strategies
