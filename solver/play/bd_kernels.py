"""Face-down Baker's Dozen at numba speed: the referee's bookkeeping, the player's view,
the legal moves, the exact sampler of the hidden cards, and the player's random stream.

The plain-Python referee in ``bakers_dozen.py`` is the specification; these kernels are
tested against it (tests/test_play_fast.py) and are what the strategies run on.

The contract that keeps a player honest
---------------------------------------
A player function receives a state array ``st`` (the Baker's Dozen kernel layout of
``solver.games.bakers_dozen``), the seen-counts ``hid`` (column c's bottom ``hid[c]``
cards have never been seen), the memory of the deal ``dealt`` (column c as dealt at
``dealt[c * CAP:]``, ``dealt_h[c]`` cards) and its own random stream ``rng``.  It reads
columns and dealt columns only at positions ``>= hid[c]``, and of the rest of ``st``
only the public slots (heights, foundations, size, variant, cards left).  In the real
game the referee hands it masked copies (``observe``: every unseen card is ``HID``,
the keys and scratch slots zeroed), so even a slip could read nothing but -1; inside a
simulation the same functions run on a sampled world with the simulation's own
seen-counts, so a simulated player knows only what it would know there.

The random stream is SplitMix64 (the project's deck shuffle uses the same generator):
``state += 0x9E3779B97F4A7C15``, then the usual two xor-shift-multiply rounds.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..games import bakers_dozen as bd
from ..games.bakers_dozen import C0, CAP, EMPTY, F0, FND, H0, LEFT, NCOLS, NRANKS, STATE_LEN, W0, apply_move, rehash

HID = -1  # a card the player has never seen
VIS_SLOTS = 4096  # a visited table's size (a power of two, above any game's length)

# --------------------------------------------------------------------------- random stream


@njit(cache=True)
def rng_next(rng):
    """The next 64-bit output of the SplitMix64 stream whose state is rng[0] (uint64)."""
    rng[0] += np.uint64(0x9E3779B97F4A7C15)
    z = rng[0]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def rng_below(rng, n):
    """An integer in 0..n-1 (n >= 1), from 53 bits of the stream (bias below n / 2**53)."""
    u = float(rng_next(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0)
    k = int(u * n)
    return k if k < n else n - 1


@njit(cache=True)
def shuffle_prefix(a, n, rng):
    """Fisher-Yates over a[:n] with the stream rng (every order equally likely)."""
    for i in range(n - 1, 0, -1):
        j = rng_below(rng, i + 1)
        a[i], a[j] = a[j], a[i]


@njit(cache=True)
def unseen_two_packs(ost, out, up0, dn0, nr, h0, p0, cap, npiles):
    """The two-pack games with an up and a down foundation per suit (Grand Duchess,
    Parisienne, Russian Patience): the cards not home and not on piles 0..npiles-1 (pile
    p's height at ost[h0 + p], its cards from ost[p0 + p * cap]), as a multiset, into
    out[:]; how many."""
    counts = np.zeros(52, dtype=np.int64)
    for s in range(4):
        for r in range(1, nr + 1):
            counts[s * 13 + r - 1] = 2
        for r in range(1, ost[up0 + s] + 1):
            counts[s * 13 + r - 1] -= 1
        for r in range(nr - ost[dn0 + s] + 1, nr + 1):
            counts[s * 13 + r - 1] -= 1
    for p in range(npiles):
        for i in range(ost[h0 + p]):
            counts[ost[p0 + p * cap + i]] -= 1
    n = 0
    for c in range(52):
        for _ in range(counts[c]):
            out[n] = c
            n += 1
    return n


# --------------------------------------------------------------------------- referee


@njit(cache=True)
def update_seen(st, hid, src):
    """After a move from column ``src``: its new top card turns face up."""
    h = st[H0 + src]
    top = h - 1 if h > 0 else 0
    if hid[src] > top:
        hid[src] = top


@njit(cache=True)
def observe(st, hid, dealt, dealt_h, ost, odealt):
    """The player's view of the truth: public slots and seen cards copied, every unseen
    card ``HID``, everything else (keys, move-ordering weights, scratch) zero."""
    ost[:] = 0
    ncols = st[NCOLS]
    for c in range(ncols):
        ost[H0 + c] = st[H0 + c]
    for s in range(4):
        ost[F0 + s] = st[F0 + s]
    ost[NCOLS] = ncols
    ost[NRANKS] = st[NRANKS]
    ost[EMPTY] = st[EMPTY]
    ost[LEFT] = st[LEFT]
    odealt[:] = HID
    for c in range(ncols):
        base = C0 + c * CAP
        for p in range(st[H0 + c]):
            ost[base + p] = HID if p < hid[c] else st[base + p]
        for p in range(dealt_h[c]):
            odealt[c * CAP + p] = HID if p < hid[c] else dealt[c * CAP + p]


@njit(cache=True)
def hidden_total(st, hid):
    n = 0
    for c in range(st[NCOLS]):
        n += hid[c]
    return n


# --------------------------------------------------------------------------- moves


@njit(cache=True)
def _top(st, c):
    h = st[H0 + c]
    return -1 if h == 0 else st[C0 + c * CAP + h - 1]


@njit(cache=True)
def legal_moves(st, out):
    """Every legal move (RULES.md) into out[]; returns how many.  Same order as the
    plain-Python ``legal_moves``: by source column, the foundation move first, then the
    destinations c1, c2, ... (each empty column that the ``empty`` rule allows).  Only
    the top cards, which are always seen, and the public slots are read."""
    ncols = st[NCOLS]
    nranks = st[NRANKS]
    rule = st[EMPTY]
    n = 0
    for src in range(ncols):
        t = _top(st, src)
        if t < 0:
            continue
        r = t % 13 + 1
        if st[F0 + t // 13] == r - 1:
            out[n] = t | (src << 6) | (FND << 10)
            n += 1
        for dst in range(ncols):
            if dst == src:
                continue
            d = _top(st, dst)
            if d < 0:
                ok = rule == 1 or (rule == 2 and r == nranks)
            else:
                ok = d % 13 + 1 == r + 1
            if ok:
                out[n] = t | (src << 6) | (dst << 10)
                n += 1
    return n


@njit(cache=True)
def reveals(st, hid, m):
    """True if move ``m`` turns a hidden card face up (the card beneath it is unseen)."""
    src = (m >> 6) & 15
    return st[H0 + src] - 1 > 0 and hid[src] >= st[H0 + src] - 1


@njit(cache=True)
def is_safe_home(st, m):
    """The foundation moves the solver plays alone (solver.games.bakers_dozen.gen_moves
    argues them safe): rank r when every foundation holds at least r - 2.  The argument
    transforms any continuation, so it holds for a player's plan as for a solver's."""
    if (m >> 10) & 15 != FND:
        return False
    r = (m & 63) % 13 + 1
    for s in range(4):
        if st[F0 + s] < r - 2:
            return False
    return True


# --------------------------------------------------------------------------- visited positions


@njit(cache=True)
def col_key(st, hid, c):
    """A 64-bit key of what the player sees of column c: its height, its seen-count, its
    seen cards (FNV-1a, then a finalising mix so that keys of columns add up well)."""
    prime = np.uint64(0x100000001B3)
    h = np.uint64(0xCBF29CE484222325) ^ np.uint64(c + 1)
    h = (h ^ np.uint64(st[H0 + c] * 64 + hid[c] + 7)) * prime
    base = C0 + c * CAP
    for p in range(hid[c], st[H0 + c]):
        h = (h ^ np.uint64(st[base + p] + 1)) * prime
    h = (h ^ (h >> np.uint64(33))) * np.uint64(0xFF51AFD7ED558CCD)
    return h ^ (h >> np.uint64(33))


@njit(cache=True)
def view_key(st, hid):
    """A 64-bit key of what the player sees (the sum of its columns' keys; the
    foundations follow from the cards left in the columns).  Two positions with one key
    are the same to the player (the same cards seen, so the same knowledge), which is
    what a cycle check needs."""
    k = np.uint64(0)
    for c in range(st[NCOLS]):
        k += col_key(st, hid, c)
    return k


@njit(cache=True)
def key_after(st, hid, m, key):
    """The view key after a move that turns no card face up, from the key now: only the
    two columns it touches change."""
    src = (m >> 6) & 15
    dst = (m >> 10) & 15
    key -= col_key(st, hid, src)
    if dst != FND:
        key -= col_key(st, hid, dst)
    apply_move(st, m)
    key += col_key(st, hid, src)
    if dst != FND:
        key += col_key(st, hid, dst)
    bd.undo_move(st, m)
    return key


@njit(cache=True)
def vis_reset(keys, gens, gen, t):
    """Start table ``t`` afresh: a new generation, nothing to clear."""
    gen[t] += 1


@njit(cache=True)
def vis_insert(keys, gens, gen, t, k):
    """Insert key k in table t; True if it was there already."""
    mask = keys.shape[1] - 1
    i = np.int64(k & np.uint64(mask))
    g = gen[t]
    while gens[t, i] == g:
        if keys[t, i] == k:
            return True
        i = (i + 1) & mask
    gens[t, i] = g
    keys[t, i] = k
    return False


@njit(cache=True)
def vis_has(keys, gens, gen, t, k):
    mask = keys.shape[1] - 1
    i = np.int64(k & np.uint64(mask))
    g = gen[t]
    while gens[t, i] == g:
        if keys[t, i] == k:
            return True
        i = (i + 1) & mask
    return False


@njit(cache=True)
def leads_to_new(st, hid, m, key, keys, gens, gen, t):
    """Does move m reach a position the player has not seen in table t (``key``: the
    view key now)?  A move that reveals a card always does (a seen-count only falls)."""
    if reveals(st, hid, m):
        return True
    return not vis_has(keys, gens, gen, t, key_after(st, hid, m, key))


# --------------------------------------------------------------------------- sampler


@njit(cache=True)
def _binomials():
    b = np.zeros((53, 53), dtype=np.int64)
    for n in range(53):
        b[n, 0] = 1
        for k in range(1, n + 1):
            b[n, k] = b[n - 1, k - 1] + (b[n - 1, k] if k <= n - 1 else 0)
    return b


BINOM = _binomials()


@njit(cache=True)
def sample_world(st, hid, dealt, dealt_h, kings_rule, rng, world, wdealt, scratch):
    """Fill the unseen cards from their exact conditional distribution given what is
    seen (the argument is in solver/play/bakers_dozen.py): ``world`` and ``wdealt``
    become a full current and dealt layout, ``world``'s keys are recomputed.  Reads
    ``st``/``dealt`` only at seen positions.  ``scratch``: int64, >= 4 * 53 + 14 * 53."""
    ncols = st[NCOLS]
    nranks = st[NRANKS]
    king = nranks - 1  # 0-based rank of the highest card in play
    world[:] = st
    wdealt[:] = dealt
    seen = scratch[0:52]
    seen[:] = 0
    for c in range(ncols):
        for p in range(hid[c], dealt_h[c]):
            seen[dealt[c * CAP + p]] = 1
    kings = scratch[52:104]
    others = scratch[104:156]
    nk = 0
    no = 0
    for s in range(4):
        for r in range(nranks):
            card = s * 13 + r
            if seen[card] == 0:
                if r == king and kings_rule:
                    kings[nk] = card
                    nk += 1
                else:
                    others[no] = card
                    no += 1
    counts = scratch[156:169]
    if kings_rule:
        # total[i, j]: summed weight of columns i.. holding exactly j unseen kings
        total = scratch[212:212 + 14 * 53].reshape(14, 53)
        total[:, :] = 0
        total[ncols, 0] = 1
        for i in range(ncols - 1, -1, -1):
            h = hid[i]
            n = dealt_h[i]
            a = 0
            for p in range(h, n):
                if dealt[i * CAP + p] % 13 == king:
                    a += 1
            lo = h if (h < n and dealt[i * CAP + h] % 13 == king) else 0
            for j in range(nk + 1):
                acc = 0
                for x in range(lo, min(h, j) + 1):
                    acc += BINOM[n, a + x] * total[i + 1, j - x]
                total[i, j] = acc
        j = nk
        for i in range(ncols):
            h = hid[i]
            n = dealt_h[i]
            a = 0
            for p in range(h, n):
                if dealt[i * CAP + p] % 13 == king:
                    a += 1
            lo = h if (h < n and dealt[i * CAP + h] % 13 == king) else 0
            r = rng_below(rng, total[i, j])
            x = lo
            for x in range(lo, min(h, j) + 1):
                r -= BINOM[n, a + x] * total[i + 1, j - x]
                if r < 0:
                    break
            counts[i] = x
            j -= x
    else:
        for i in range(ncols):
            counts[i] = 0
    for i in range(nk - 1, 0, -1):  # Fisher-Yates
        k = rng_below(rng, i + 1)
        kings[i], kings[k] = kings[k], kings[i]
    for i in range(no - 1, 0, -1):
        k = rng_below(rng, i + 1)
        others[i], others[k] = others[k], others[i]
    ki = 0
    oi = 0
    for c in range(ncols):
        for p in range(hid[c]):
            if p < counts[c]:
                card = kings[ki]
                ki += 1
            else:
                card = others[oi]
                oi += 1
            world[C0 + c * CAP + p] = card
            wdealt[c * CAP + p] = card
    rehash(world)


# --------------------------------------------------------------------------- setting up


def new_game(deck, variant: dict, ranks: int = 13, columns: int = 13):
    """The truth of one game: (st, hid, dealt, dealt_h) for the kernels."""
    st = bd.initial_state(deck, variant, ranks, columns)
    ncols = int(st[NCOLS])
    hid = np.zeros(13, dtype=np.int64)
    dealt = np.full(13 * CAP, HID, dtype=np.int64)
    dealt_h = np.zeros(13, dtype=np.int64)
    for c in range(ncols):
        h = int(st[H0 + c])
        dealt_h[c] = h
        dealt[c * CAP:c * CAP + h] = st[C0 + c * CAP:C0 + c * CAP + h]
        hid[c] = max(h - 1, 0) if variant.get("face_down", False) else 0
    return st, hid, dealt, dealt_h


def profile_row() -> np.ndarray:
    """The solver's move-ordering slots of profile 0, which a sampled world needs before
    the search runs on it (the player's view has them zeroed)."""
    st = np.zeros(STATE_LEN, dtype=np.int64)
    bd.set_profile(st, 0)
    return st[W0:W0 + 6].copy()
