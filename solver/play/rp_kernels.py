"""Russian Patience players at numba speed: what a player sees, the sampler of what it
does not, and the rules of thumb; the referee and the strategies (random, greedy,
rollout, pimc, ismcts) are the stock games' own (``solver.play.templates``, compiled
here, the last line).

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

The strategies as they play here (``params`` slots ``P_*``, docs/PLAYERS.md has the
user's view; ismcts as in ``solver.play.templates``):

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
from ..games.russian_patience import (C0, CAP, DEAL, DN0, H0, HASH1, HASH2, LEFT, MAX_MOVES, MAXRED, NC, NR, PH1,  # noqa: F401
                                      REDEAL, ROUND, RSEED, SN, SNAP0, SP, STK0, TO_COLUMN, TO_FOUNDATION, UP0, Z1,
                                      Z_DN, Z_ROUND, Z_SALT, Z_UP, apply_move, dfs, gen_moves, is_won, rehash,
                                      undo_move)
from ..games.zobrist import mix64
from ..search import specialise
from . import templates
from .bd_kernels import rng_next, shuffle_prefix, unseen_two_packs
from .templates import (KEEP, N_PARAMS, N_ROWS, N_TABLES, OUT_BAD, OUT_DECISIONS, OUT_MOVES,  # noqa: F401
                        OUT_STOPPED, OUT_WON, P_BUDGET, P_FULL, P_MAX_MOVES, P_ROLL_CAP, P_SAMPLES, P_STRATEGY,
                        R_GLEG, R_PW, S_EAGER, S_GREEDY, S_PIMC, S_RANDOM, S_ROLLOUT)


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
    return unseen_two_packs(ost, out, UP0, DN0, ost[NR], H0, C0, CAP, ost[NC])


@njit(cache=True)
def sample_world(ost, rng, world, scratch):
    """A world consistent with the view ``ost``, drawn from the exact conditional
    distribution (module docstring), keys computed."""
    world[:] = ost
    n = unseen_cards(ost, scratch)
    shuffle_prefix(scratch, n, rng)
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
    choice, _ = best_move(st, rng, buf, keys, gens, gen, t, leg, n)
    if choice >= 0:
        return choice
    for i in range(n):
        if leg[i] & 3 == REDEAL:
            return leg[i]
    return -1


@njit(cache=True)
def weighed(st, m):
    """Greedy weighs every move of free play but ``redeal``."""
    return m & 3 != REDEAL


@njit(cache=True)
def greedy_score(st):
    return rp.score(st)


@njit(cache=True)
def eager_choose(st, rng, buf):
    """The casual player: an outside card home the moment it can go (up before down),
    else ``deal``; in free play the first card home, else the first move onto a column,
    else ``redeal``; -1 when nothing is left."""
    leg = buf[R_GLEG]
    n = gen_moves(st, leg, 0)
    for kind in (TO_FOUNDATION, DEAL, TO_COLUMN, REDEAL):
        for i in range(n):
            if leg[i] & 3 == kind:
                return leg[i]
    return -1


@njit(cache=True)
def opaque(st, m):
    """Only ``deal`` and ``redeal`` show cards (or a shuffle) the player has not seen."""
    return m & 3 == DEAL or m & 3 == REDEAL


@njit(cache=True)
def true_move(st, m):
    """A move on the view is the truth's move: no move names a card still unseen."""
    return m


FULL_RETRY = True  # free play is short: a failed full search is tried again at every decision

specialise(globals(), templates.TEMPLATES, templates.HELPERS)  # the referee and the strategies
