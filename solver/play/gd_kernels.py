"""Grand Duchess players at numba speed: what a player sees, the sampler of what it does
not, and the rules of thumb; the referee and the strategies are the stock games' own
(``solver.play.templates``, compiled here).  Parisienne shares all of this but its
sampler (``parisienne_kernels``).

What a player sees (docs/PLAYERS.md): the tableau piles, the foundations, how many cards
the stock still holds and how many lie in the reserve, the round and the redeals left,
and every card it has seen dealt to the tableau, at its place in the stock (its memory;
the state's round-one stock region before the stock pointer).  In round one, until the
stock is out, it sees neither the order of the stock nor the reserve cards (dealt face
down).  Then the reserve is turned face up and nothing is hidden any more: the stock of
every later round is made of cards the player has seen, in an order the rules fix.

``observe`` writes the view: every hidden card (the stock from the pointer on, the
reserve's places in the stock, the reserve slots) is ``HID``, the keys lose those cards'
terms, and the search's scratch is zeroed.  While anything is hidden every reserve slot
holds a card (a reserve card can move only once the stock is out), so ``HID`` there is
never mistaken for a played card.

The sampler (``sample_world``): the deck is uniform over orders, the deal puts stock
position p of round one in a fixed place (tableau when p mod 6 < 4, else the reserve),
and the cards seen fix their positions; so the hidden positions hold a uniformly random
order of the unseen cards (the two copies of a card are interchangeable).

Rules of thumb, reading only what a player sees (on a view or a world):

- greedy: a card to a foundation whenever one can go, the play after which the position
  looks best by the solver's ordering score (profile 0: cards left, cards on view that
  fit a foundation, redeals used), ties to the random stream, never back to a position
  seen; otherwise ``deal``; otherwise ``redeal``; -1 when none is left.  Choosing
  between the two foundations of a card and between two copies is what the score
  decides.
- eager (the player who never looks back): the first card that can go home, in the
  order t1..t4 then the reserve, up before down; otherwise ``deal``, ``redeal``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..games import grand_duchess as gd
from ..games.grand_duchess import (DN0, H0, HASH1, HASH2, K0, KIND_DEAL, MAX_MOVES, NPILES, NR, NRES, P0,  # noqa: F401
                                   R0, REDEAL, ROUND, S0, SN, SP, STATE_LEN, UP0, Z1, Z2, Z_RES, Z_STOCK, apply_move,
                                   dfs, gen_moves, is_won, rehash, undo_move)
from ..search import specialise
from . import templates
from .bd_kernels import shuffle_prefix, unseen_two_packs
from .templates import R_GLEG

HID = -1  # a card the player has not seen
CAP = gd.CAP


@njit(cache=True)
def hidden(st):
    """Round one with stock left: its order and the reserve are unseen."""
    return st[ROUND] == 0 and st[SP] < st[SN]


@njit(cache=True)
def hidden_position(st, p):
    """Round one's stock position p holds a card the player has not seen."""
    return p >= st[SP] or p % 6 >= 4


@njit(cache=True)
def observe(st, ost):
    """The player's view of ``st`` into ``ost`` (module docstring)."""
    ost[:] = st
    ost[S0:] = 0
    if not hidden(st):
        return
    h1 = st[HASH1]
    h2 = st[HASH2]
    for p in range(st[SN]):
        if hidden_position(st, p):
            c = st[K0 + p]
            if p >= st[SP]:
                h1 -= Z1[Z_STOCK + p * 52 + c]
                h2 -= Z2[Z_STOCK + p * 52 + c]
            ost[K0 + p] = HID
    for i in range(st[NRES]):
        c = st[R0 + i]
        h1 -= Z1[Z_RES + i * 52 + c]
        h2 -= Z2[Z_RES + i * 52 + c]
        ost[R0 + i] = HID
    ost[HASH1] = h1
    ost[HASH2] = h2


@njit(cache=True)
def view_key(st):
    """The key of what the player sees: the state's first key without the hidden cards'
    terms (a view has none; a world or the truth has them)."""
    h = st[HASH1]
    if hidden(st):
        for p in range(st[SP], st[SN]):
            c = st[K0 + p]
            if c >= 0:
                h -= Z1[Z_STOCK + p * 52 + c]
        for i in range(st[NRES]):
            c = st[R0 + i]
            if c >= 0:
                h -= Z1[Z_RES + i * 52 + c]
    return np.uint64(h)


@njit(cache=True)
def unseen_cards(ost, out):
    """The cards not in sight, as a multiset, into out[:]; how many (none once nothing
    is hidden).  Everything dealt to the tableau is on a pile or home, so these are the
    reserve's and the stock's."""
    if not hidden(ost):
        return 0
    return unseen_two_packs(ost, out, UP0, DN0, ost[NR], H0, P0, CAP, NPILES)


@njit(cache=True)
def fill_world(world, cards):
    """Write cards[i] into the i-th hidden position of round one's stock, the reserve
    slots from their positions (slot i was dealt from position 6 (i // 2) + 4 + i % 2),
    and compute the keys."""
    k = 0
    for p in range(world[SN]):
        if hidden_position(world, p):
            world[K0 + p] = cards[k]
            k += 1
    for i in range(world[NRES]):
        world[R0 + i] = world[K0 + 6 * (i // 2) + 4 + i % 2]
    rehash(world)


@njit(cache=True)
def sample_world(ost, rng, world, scratch):
    """A world consistent with the view ``ost``, drawn from the exact conditional
    distribution (module docstring), keys computed."""
    world[:] = ost
    if not hidden(ost):
        rehash(world)
        return
    n = unseen_cards(ost, scratch)
    shuffle_prefix(scratch, n, rng)
    fill_world(world, scratch)


@njit(cache=True)
def greedy_choose(st, rng, buf, keys, gens, gen, t):
    """Greedy's move (module docstring) on a view or a world, or -1."""
    leg = buf[R_GLEG]
    n = gen_moves(st, leg, 0)
    choice, _ = best_move(st, rng, buf, keys, gens, gen, t, leg, n)
    if choice >= 0:
        return choice
    for i in range(n):
        if not weighed(st, leg[i]):
            return leg[i]  # gen_moves offers at most one deal or redeal
    return -1


@njit(cache=True)
def weighed(st, m):
    """Greedy weighs the plays, not a deal or a redeal."""
    return m & 3 != KIND_DEAL and m & 3 != REDEAL


@njit(cache=True)
def greedy_score(st):
    return gd.score(st)


@njit(cache=True)
def eager_choose(st, rng, buf):
    """The first play gen_moves offers (t1..t4, then the reserve; up before down), else
    its deal or redeal."""
    leg = buf[R_GLEG]
    n = gen_moves(st, leg, 0)
    return leg[0] if n > 0 else -1


@njit(cache=True)
def opaque(st, m):
    """A deal of round one shows cards the player has not seen."""
    return m & 3 == KIND_DEAL and hidden(st)


@njit(cache=True)
def true_move(st, m):
    """No move names a card the player has not seen."""
    return m


FULL_RETRY = False  # a failed full search is not repeated (rounds two to four are long)

specialise(globals(), templates.TEMPLATES, templates.HELPERS)  # the referee and the strategies
