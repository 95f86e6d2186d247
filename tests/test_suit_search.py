"""The suit test's exact search (grand_duchess_dead._suit_cleared) against a plain one.

_suit_cleared keeps each position (foundations, cards played) once in its memo, with
the earliest time its search started, and skips later visits (its docstring argues
why); it tries only the copies of the two ranks that fit.  The reference below
searches every (time, position) the plain way, with every card tried both ways.  They
must agree on random instances of the relaxed game and on one where the memo must
search a position again (checked by hand: these tests fail if the memo skips every
revisit whatever its time, if a frame never deals, or if only one copy of a rank is
tried).
"""

from __future__ import annotations

import random

import numpy as np

from solver.games import grand_duchess  # noqa: F401  (first: grand_duchess_dead imports from it)
from solver.games.grand_duchess_dead import _suit_cleared


def _plain_cleared(u0, d0, nr, n, ndeals, crank, carr, cabove, cblock, arrived):
    """R_s searched without the time argument: every (t, u, d, played) state."""
    full = (1 << n) - 1
    seen = set()
    stack = [(0, u0, d0, 0)]
    while stack:
        state = stack.pop()
        if state in seen:
            continue
        seen.add(state)
        t, u, d, m = state
        if m == full:
            return True
        if t < ndeals:
            stack.append((t + 1, u, d, m))
        for j in range(n):
            if m >> j & 1 or carr[j] > t or cblock[j] >> t & 1 or cabove[j] & arrived[t] & ~m:
                continue
            if crank[j] == u + 1:
                stack.append((t, u + 1, d, m | 1 << j))
            if crank[j] == nr - d:
                stack.append((t, u, d + 1, m | 1 << j))
    return False


def _instance(rng):
    """A random relaxed game: one suit of ranks 1..nr in two copies, some already home
    (u0 up, d0 down), the others arriving at random times under random other cards
    of the suit and random blocking times."""
    nr = rng.randint(2, 7)
    u0 = rng.randint(0, nr // 2)
    d0 = rng.randint(0, (nr - u0) // 2)
    # the cards still to play: two copies of each rank, less one copy of each rank home
    ranks = []
    for r in range(1, nr + 1):
        home = (r <= u0) + (r > nr - d0)
        ranks += [r] * (2 - home)
    rng.shuffle(ranks)
    n = len(ranks)
    ndeals = rng.randint(1, 8)
    crank = np.array(ranks, np.int64)
    carr = np.array([rng.randint(0, ndeals) for _ in range(n)], np.int64)
    cabove = np.zeros(n, np.int64)
    for j in range(n):
        for k in range(n):
            if k != j and rng.random() < 0.15:
                cabove[j] |= 1 << k
    cblock = np.zeros(n, np.int64)
    for j in range(n):
        if rng.random() < 0.4:
            a = rng.randint(0, ndeals)
            e = rng.randint(a, ndeals + 1)
            for t in range(a, e):
                cblock[j] |= 1 << t
    arrived = np.array([sum(1 << j for j in range(n) if carr[j] <= t) for t in range(ndeals + 1)], np.int64)
    return u0, d0, nr, n, ndeals, crank, carr, cabove, cblock, arrived


def _search(args, size):
    """_suit_cleared's answer (1, 0, or -1 when a memo of ``size`` slots filled up)."""
    n = args[3]
    return _suit_cleared(*args, np.zeros(size, np.int64), np.empty((6, n + 2), np.int64))


def _fast(args):
    r = _search(args, 1 << 16)
    assert r >= 0
    return r == 1


def test_suit_search_agrees_with_the_plain_search():
    rng = random.Random(7)
    verdicts = {True: 0, False: 0}
    for _ in range(3000):
        args = _instance(rng)
        want = _plain_cleared(*args)
        assert _fast(args) == want, args
        verdicts[want] += 1
    assert verdicts[True] > 300 and verdicts[False] > 300, verdicts


def test_a_position_met_late_then_early_is_searched_again():
    """A won instance (found among random ones) in which the depth-first order meets a
    position first at a later time and then at an earlier one: the search that skips
    every revisit whatever its time calls it lost; the memo must search it again."""
    args = (2, 1, 5, 7, 2, np.array([5, 3, 4, 3, 4, 2, 1]), np.array([2, 0, 0, 1, 1, 0, 2]),
            np.array([2, 80, 1, 0, 40, 4, 0]), np.array([0, 0, 0, 0, 4, 2, 0]), np.array([38, 62, 127]))
    assert _plain_cleared(*args)
    assert _fast(args)


def test_a_full_memo_says_nothing():
    rng = random.Random(3)
    for _ in range(200):
        args = _instance(rng)
        r = _search(args, 4)
        assert r in (-1, 0, 1)
        if r >= 0:
            assert (r == 1) == _plain_cleared(*args)
