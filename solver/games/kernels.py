"""Kernel pieces several games share, written once.

Like the search engines, these are templates: plain Python functions that a game
compiles in its own namespace with ``solver.search.specialise(..., inline=True)``
(each becomes an @njit(cache=True, inline="always") function there), where the names
they use resolve to that game's constants and Zobrist tables, so numba folds them in
and inlines each call as if the game had written the code itself.  (Without
``inline``, rehash and pack/unpack ran up to twice as slow: the calls stayed calls.)

``KEYS`` (every game): ``key1``, ``key2``, ``is_won`` over the game's ``HASH1``,
``HASH2`` and ``LEFT`` slots.  ``ZOBRIST`` (games with flat Zobrist tables ``Z1``,
``Z2``): ``_term(st, z, sign)`` adds (sign 1) or removes (-1)
Zobrist entry ``z`` of ``Z1`` / ``Z2`` from both keys; ``_zsum(st, z0, stride, a0, lo, hi)``
is the pair of sums over positions i in lo..hi-1 of entry ``z0 + i * stride + st[a0 + i]``
(a stretch of cards, or of counts, keyed by where each lies), for ``rehash``.

``PILES`` (games with pile heights at ``H0``): ``_first_empty(st, n)``, the first of
piles 0..n-1 that is empty, or -1.

``ORDERING`` (games whose ordering weights at ``W0`` are three weights, a noise mask
and a salt): ``_noise(st)``, the restart's noise term of ``score``; and, for the games
whose ``score`` weighs the cards left, ``_needed_cover(st)`` (the game's own: how
buried the cards the foundations take next are) and the redeals made (``ROUND``),
``score`` itself (``COVER_SCORE``).

``PACKING`` (A*'s rows, ``PACK_LEN`` entries): ``_pack_run(st, row, k, a0, lo, hi)``
copies st[a0 + lo:a0 + hi] to row[k:] and returns the next k, ``_unpack_run(row, st,
k, a0, lo, hi)`` copies it back, ``_pack_end(row, k)`` fills the rest of the row with -1.

``UP_DOWN`` (games with an up and a down foundation per suit, counted as in Grand
Duchess: ``UP0``, ``DN0``, ``NR``, ``Z_UP``, ``Z_DN``): ``_fits``, ``_set_found`` and
``_up_down_keys`` (the foundations' share of a rehash).
"""


def key1(st):
    return st[HASH1]


def key2(st):
    return st[HASH2]


def is_won(st):
    return st[LEFT] == 0


def _term(st, z, sign):
    st[HASH1] += sign * Z1[z]
    st[HASH2] += sign * Z2[z]


def _zsum(st, z0, stride, a0, lo, hi):
    h1 = 0
    h2 = 0
    for i in range(lo, hi):
        z = z0 + i * stride + st[a0 + i]
        h1 += Z1[z]
        h2 += Z2[z]
    return h1, h2


def _first_empty(st, n):
    for p in range(n):
        if st[H0 + p] == 0:
            return p
    return -1


def _noise(st):
    """A hash of the state masked by st[W0 + 3] (0: no noise), salted by st[W0 + 4]."""
    if st[W0 + 3] == 0:
        return 0
    x = (st[HASH1] ^ st[W0 + 4]) * -7046029254386353131
    return (x >> 40) & st[W0 + 3]


def score(st):
    """Move ordering (lower first): fewer cards left, the cards the foundations need
    next less buried, fewer redeals used."""
    return st[W0] * st[LEFT] + st[W0 + 1] * _needed_cover(st) + st[W0 + 2] * st[ROUND] + _noise(st)


def _pack_run(st, row, k, a0, lo, hi):
    for i in range(lo, hi):
        row[k] = st[a0 + i]
        k += 1
    return k


def _unpack_run(row, st, k, a0, lo, hi):
    for i in range(lo, hi):
        st[a0 + i] = row[k]
        k += 1
    return k


def _pack_end(row, k):
    for i in range(k, PACK_LEN):
        row[i] = -1


def _fits(st, c):
    """Bit 0: c fits its suit's up foundation; bit 1: its down foundation."""
    s = c // 13
    r = c % 13 + 1
    f = 0
    if r == st[UP0 + s] + 1:
        f |= 1
    if r == st[NR] - st[DN0 + s]:
        f |= 2
    return f


def _set_found(st, s, up, dn):
    """Suit s's foundations now hold up and dn cards; the keys follow."""
    st[HASH1] += (Z1[Z_UP + s * 14 + up] - Z1[Z_UP + s * 14 + st[UP0 + s]]
                  + Z1[Z_DN + s * 14 + dn] - Z1[Z_DN + s * 14 + st[DN0 + s]])
    st[HASH2] += (Z2[Z_UP + s * 14 + up] - Z2[Z_UP + s * 14 + st[UP0 + s]]
                  + Z2[Z_DN + s * 14 + dn] - Z2[Z_DN + s * 14 + st[DN0 + s]])
    st[UP0 + s] = up
    st[DN0 + s] = dn


def _up_down_keys(st):
    """The foundations' terms of both keys: (suit, count) entries of Z_UP and Z_DN."""
    a1, a2 = _zsum(st, Z_UP, 14, UP0, 0, 4)
    b1, b2 = _zsum(st, Z_DN, 14, DN0, 0, 4)
    return a1 + b1, a2 + b2


KEYS = (key1, key2, is_won)
ZOBRIST = (_term, _zsum)
PILES = (_first_empty,)
ORDERING = (_noise,)
COVER_SCORE = (score,)
PACKING = (_pack_run, _unpack_run, _pack_end)
UP_DOWN = (_fits, _set_found, _up_down_keys)
