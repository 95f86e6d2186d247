"""Grand Duchess and Parisienne: the dead-end tests of the last round, as numba kernels.

``last_round_dead`` (is_dead's test of the last round; is_dead itself is in
grand_duchess_redeal.py) runs ``fixpoint_dead``, a timed relaxation of the whole
layout, then ``suits_dead``, an exact search of each suit in a relaxation built on
the fixpoint's times.  The arguments are in their docstrings;
tests/test_grand_duchess.py checks both against the exhaustive oracle.  The state
layout and its scratch (S_*) are grand_duchess.py's.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .grand_duchess import (CAP, DN0, H0, INF, K0, MAXRED, NPILES, NR, NRES, P0, R0, ROUND, S_A, S_C, S_E, S_LEN,
                            S_RC, S_TD, S_TU, SCAP, SEQ, SN, SP, TRANSFER, UP0, deals_left, has_reserve)


@njit(cache=True)
def last_round_dead(st):
    """True only if the state is lost.  Used in the last round (no redeal left), where
    no card returns to the stock: ``fixpoint_dead`` (a timed relaxation of the whole
    layout), then, without transfers, ``suits_dead`` (each suit searched exactly in a
    relaxation built on the fixpoint's times)."""
    if st[ROUND] != st[MAXRED]:
        return False
    nres = fixpoint_dead(st)
    if nres < 0:
        return True
    if st[TRANSFER] != 0:
        return False  # the suit test does not know transfers
    return suits_dead(st, nres, 0)


@njit(cache=True)
def fixpoint_dead(st):
    """-1 only if the state is lost, else the number of reserve cards (now and to come),
    leaving the pile sequences and their times in the scratch for ``suits_dead``.  For
    the last round only (no redeal left), where no card returns to the stock.

    A timed relaxation: time t counts the deals still to come (t = 0 now, D after
    the last one).  A pile card that arrives at time a (0 if already there, else the
    number of its deal) can leave at the first t >= a at which its foundation can take
    it and the card dealt on top of it either has not arrived yet or has already left.
    A reserve card can leave from time D on.  Rank r of suit s can be on the up
    foundation at TU[s][r] = the earliest time a copy can go up, given TU[s][r-1]
    (down likewise).  Iterating from "never" to the least fixed point gives times no
    later than in any real play (by induction along the play, each card's real
    leaving time satisfies the same conditions), ignoring that one copy cannot serve
    both foundations.  So a card, or a foundation rank, that stays at "never" proves
    the state lost.

    With transfers a rank already on one foundation may later leave it, so both
    foundations stay open to every card, and a suit that can be at a meeting
    point at time t can have any rank on either foundation from t on."""
    return fixpoint_checks(st, fixpoint_times(st))


@njit(cache=True)
def fixpoint_times(st):
    """fixpoint_dead's times: each pile-sequence card's earliest leaving time (S_E;
    S_C and S_A hold the sequences, S_LEN their lengths), each foundation rank's
    (S_TU, S_TD), and the reserve cards now and to come (S_RC); returns how many of
    those.  Valid in any round: it is a relaxation of this round's play alone."""
    transfer = st[TRANSFER] != 0
    tu = st[S_TU:S_TU + 60].reshape(4, 15)
    td = st[S_TD:S_TD + 60].reshape(4, 15)
    up0 = st[UP0:UP0 + 4]
    dn0 = st[DN0:DN0 + 4]
    nr = st[NR]
    k = 6 if has_reserve(st) else 4
    sp = st[SP]
    sn = st[SN]
    ndeals = deals_left(st)
    kb = K0 + st[ROUND] * SCAP
    # build each pile's sequence: current cards, then the cards its future deals bring
    lens = st[S_LEN:S_LEN + NPILES]
    for p in range(NPILES):
        h = st[H0 + p]
        for i in range(h):
            st[S_C + p * SEQ + i] = st[P0 + p * CAP + i]
            st[S_A + p * SEQ + i] = 0
        lens[p] = h
    nres = 0
    for i in range(st[NRES]):
        if st[R0 + i] >= 0:
            st[S_RC + nres] = st[R0 + i]
            nres += 1
    for q in range(sp, sn):
        j = q - sp
        d = j % k
        c = st[kb + q]
        if d < NPILES:
            L = lens[d]
            st[S_C + d * SEQ + L] = c
            st[S_A + d * SEQ + L] = j // k + 1
            lens[d] = L + 1
        else:
            st[S_RC + nres] = c
            nres += 1
    for s in range(4):
        for r in range(15):
            st[S_TU + s * 15 + r] = INF
            st[S_TD + s * 15 + r] = INF
        for r in range(0, st[UP0 + s] + 1):
            st[S_TU + s * 15 + r] = 0
        for r in range(nr + 1 - st[DN0 + s], nr + 2):
            st[S_TD + s * 15 + r] = 0
    changed = True
    while changed:
        changed = False
        for p in range(NPILES):
            above_e = INF
            above_a = INF  # nothing above the top card: it never gets covered
            for i in range(lens[p] - 1, -1, -1):
                c = st[S_C + p * SEQ + i]
                a = st[S_A + p * SEQ + i]
                best, news = leave_time(tu, td, up0, dn0, nr, transfer, c, a, above_a, above_e)
                if news:
                    changed = True
                st[S_E + p * SEQ + i] = best
                above_e = best
                above_a = a
        for i in range(nres):
            c = st[S_RC + i]
            s = c // 13
            r = c % 13 + 1
            if r > st[UP0 + s] or transfer:
                ready = st[S_TU + s * 15 + r - 1]
                t = ndeals if ndeals > ready else ready
                if t < st[S_TU + s * 15 + r]:
                    st[S_TU + s * 15 + r] = t
                    changed = True
            if r <= nr - st[DN0 + s] or transfer:
                ready = st[S_TD + s * 15 + r + 1]
                t = ndeals if ndeals > ready else ready
                if t < st[S_TD + s * 15 + r]:
                    st[S_TD + s * 15 + r] = t
                    changed = True
        if transfer:
            # once a suit can be at a meeting point (up 1..u, down NR..u+1 for some u)
            # its top cards can shuttle, so from then on every rank can be on either
            for s in range(4):
                meet = INF
                for u in range(nr + 1):
                    t = st[S_TU + s * 15 + u]
                    if st[S_TD + s * 15 + u + 1] > t:
                        t = st[S_TD + s * 15 + u + 1]
                    if t < meet:
                        meet = t
                if meet < INF:
                    for r in range(1, nr + 1):
                        if meet < st[S_TU + s * 15 + r]:
                            st[S_TU + s * 15 + r] = meet
                            changed = True
                        if meet < st[S_TD + s * 15 + r]:
                            st[S_TD + s * 15 + r] = meet
                            changed = True
    return nres


@njit(cache=True)
def fixpoint_checks(st, nres):
    """fixpoint_dead's verdict on the times fixpoint_times left in the scratch."""
    transfer = st[TRANSFER] != 0
    nr = st[NR]
    lens = st[S_LEN:S_LEN + NPILES]
    for s in range(4):
        if st[S_TU + s * 15 + nr] >= INF or st[S_TD + s * 15 + 1] >= INF:
            return -1
    for p in range(NPILES):
        for i in range(lens[p]):
            if st[S_E + p * SEQ + i] >= INF:
                return -1
    for i in range(nres):
        c = st[S_RC + i]
        s = c // 13
        r = c % 13 + 1
        up_ok = (r > st[UP0 + s] or transfer) and st[S_TU + s * 15 + r - 1] < INF
        dn_ok = (r <= nr - st[DN0 + s] or transfer) and st[S_TD + s * 15 + r + 1] < INF
        if not (up_ok or dn_ok):
            return -1
    return nres


@njit(cache=True)
def leave_time(tu, td, up0, dn0, nr, transfer, c, a, above_a, above_e):
    """The earliest time >= a at which card c, dealt at a, can leave: a foundation it
    fits ready (``tu[s, r]``, ``td[s, r]``: the earliest time rank r of suit s can be
    on its up or down foundation), and the card dealt on top of it (at above_a, leaving
    at above_e) not there yet or gone.  Lowers the foundation times it reaches;
    returns (time, whether any fell).  With transfers either foundation may take c."""
    s = c // 13
    r = c % 13 + 1
    best = INF
    news = False
    for dst in range(2):
        if dst == 0:
            if r <= up0[s] and not transfer:
                continue
            ready = tu[s, r - 1]
        else:
            if r > nr - dn0[s] and not transfer:
                continue
            ready = td[s, r + 1]
        if ready >= INF:
            continue
        t = a if a > ready else ready
        if t >= above_a and above_e > t:
            t = above_e
        if t >= INF:
            continue
        if dst == 0:
            if t < tu[s, r]:
                tu[s, r] = t
                news = True
        elif t < td[s, r]:
            td[s, r] = t
            news = True
        if t < best:
            best = t
    return best, news


# The suit test's memo (open addressing): its first size, and the largest it grows to.
SUIT_TABLE = 1 << 12
SUIT_TABLE_MAX = 1 << 18


@njit(cache=True)
def suits_dead(st, nres, slack):
    """True only if the state is lost: some suit cannot be cleared even when the other
    suits' cards get out of its way as early as ``fixpoint_dead`` allows.

    Called by last_round_dead after fixpoint_dead, in the last round without transfers; reads
    the fixpoint's pile sequences (S_C, S_A, S_E) and reserve cards (S_RC, ``nres``:
    only round one of ``redeals=0`` has a reserve in its last round).

    For one suit s, the relaxed game R_s keeps the deal times and the suit's own cards
    exactly: at time t (deals made from now) a card of s may go to a foundation it fits
    if it has arrived and every card dealt on top of it by then is either a card of s
    already played in R_s or a card x of another suit with S_E[x] <= t; a reserve card
    of s may go from the last deal on (the stock is out, every reserve card face up).

    Argument: take any win and keep only its deals and its plays of suit s.  When it
    plays a card y of s at time t, y is on top, so every card dealt on it has left:
    those of s were played before (in the kept line too), and every other x left at
    some time <= t, which is >= S_E[x] because the fixpoint's times are never later
    than a real play's (fixpoint_dead's docstring).  The suit's foundations take the
    same cards in the same order.  So the kept line wins R_s, and if R_s cannot be won,
    neither can the state.  Unlike the fixpoint, R_s is searched exactly: one copy
    serves one foundation, and a card played early to one foundation is not also
    played late to the other.

    R_s is searched depth first with a memo of (foundations, cards played), each kept
    with the earliest time it was searched from (``_suit_cleared``; it kept each time
    apart before issue 19, with several times the entries); the memo starts small and
    grows fourfold when three quarters full, up to SUIT_TABLE_MAX slots, and past that
    the test gives up and says nothing (False).  ``slack`` > 0 is for the tests only: it
    delays every other-suit card's leaving time by that many deals, which breaks the
    argument (the test against the oracle must then catch it)."""
    ncards = NPILES * SEQ
    return suits_dead_core(st[NR], st[UP0:UP0 + 4], st[DN0:DN0 + 4], deals_left(st), NPILES,
                           st[S_C:S_C + ncards].reshape(NPILES, SEQ), st[S_A:S_A + ncards].reshape(NPILES, SEQ),
                           st[S_E:S_E + ncards].reshape(NPILES, SEQ), st[S_LEN:S_LEN + NPILES],
                           st[S_RC:S_RC + nres], deals_left(st), slack, 0, 4, SUIT_TABLE)


@njit(cache=True)
def suits_dead_core(nr, up0, dn0, ndeals, npiles, seq_c, seq_a, seq_e, lens, res, res_time, slack, s_lo, s_hi,
                    table0):
    """suits_dead over explicit arrays: ``npiles`` pile sequences (row p: cards
    bottom to top ``seq_c[p, :lens[p]]``, arrival times ``seq_a``, other-suit leaving
    times ``seq_e`` from a fixpoint), ``res`` cards free from time ``res_time`` on,
    times 0..``ndeals``, suits ``s_lo``..``s_hi - 1``, the memo first ``table0`` slots.
    grand_duchess_redeal.py calls it with its own layouts."""
    ncard = 2 * 13
    crank = np.empty(ncard, np.int64)
    carr = np.empty(ncard, np.int64)
    cabove = np.empty(ncard, np.int64)
    cblock = np.empty(ncard, np.int64)
    arrived = np.empty(ndeals + 1, np.int64)
    frames = np.empty((6, ncard + 2), np.int64)  # a frame per play
    every = (1 << (ndeals + 1)) - 1  # time bits 0..ndeals
    for s in range(s_lo, s_hi):
        # the suit's cards, pile by pile from the top down: what lies on each
        n = 0
        for p in range(npiles):
            suit_above = 0
            block_above = 0
            for i in range(lens[p] - 1, -1, -1):
                c = seq_c[p, i]
                a = seq_a[p, i]
                if c // 13 == s:
                    crank[n] = c % 13 + 1
                    carr[n] = a
                    cabove[n] = suit_above
                    cblock[n] = block_above
                    suit_above |= 1 << n
                    n += 1
                else:
                    e = seq_e[p, i]
                    if e < INF:
                        e += slack
                    # present (in the way) at times a .. e-1
                    if e > ndeals:
                        bits = every
                    else:
                        bits = (1 << e) - 1
                    block_above |= bits & ~((1 << a) - 1)
        for i in range(len(res)):
            c = res[i]
            if c // 13 == s:
                # face up from res_time on, each free to go
                crank[n] = c % 13 + 1
                carr[n] = res_time
                cabove[n] = 0
                cblock[n] = 0
                n += 1
        for t in range(ndeals + 1):
            m = 0
            for j in range(n):
                if carr[j] <= t:
                    m |= 1 << j
            arrived[t] = m
        size = table0
        while True:
            r = _suit_cleared(up0[s], dn0[s], nr, n, ndeals, crank, carr, cabove, cblock, arrived,
                              np.zeros(size, np.int64), frames)
            if r >= 0 or size >= SUIT_TABLE_MAX:
                break
            size *= 4
        if r == 0:
            return True
        if r < 0:
            return False  # out of room: no claim
    return False


@njit(cache=True)
def _suit_cleared(u0, d0, nr, n, ndeals, crank, carr, cabove, cblock, arrived, table, frames):
    """suits_dead's search of R_s for one suit: 1 if its n cards can all be played,
    0 if not (every reachable state seen), -1 if the memo ``table`` (zeros) got three
    quarters full first.

    A position is (u, d, played) at a time t.  Dealing is always allowed while t <
    ndeals, so whatever is reachable from a position at time t' is reachable from it
    at any t <= t' (deal up to t' first): if it cannot be won from t, it cannot from
    any later time.  So the memo keeps each position once, with the earliest time its
    search started, and a visit at that time or later adds nothing.  A frame searches
    one position from its time up to (not including) its stop time, advancing the
    time itself when its plays are exhausted; a visit earlier than the memo's time
    searches only the times before it (the later ones were searched and failed: a
    position cannot be met again inside its own search, as every play adds a card).
    A frame is (u, d, played, t, next option, stop); options 0 and 1 play either copy
    of rank u + 1 up, 2 and 3 either copy of rank nr - d down (only those fit)."""
    copies = np.full((nr + 2, 2), -1, np.int64)  # the suit's cards by rank (two packs: two copies)
    for j in range(n):
        copies[crank[j], 1 if copies[crank[j], 0] >= 0 else 0] = j
    size = len(table)
    room = size * 3 // 4
    fu = frames[0]
    fd = frames[1]
    fm = frames[2]
    ft = frames[3]
    fk = frames[4]
    fs = frames[5]
    full = (1 << n) - 1
    visits = 0
    sp = 0
    fu[0] = u0
    fd[0] = d0
    fm[0] = 0
    ft[0] = 0
    fk[0] = -1
    while sp >= 0:
        u = fu[sp]
        d = fd[sp]
        m = fm[sp]
        t = ft[sp]
        if fk[sp] < 0:
            key = u | d << 4 | m << 8  # u and d < 16, m < 2**26
            h = (key * 0x9E3779B97F4A7C15) >> 40 & (size - 1)
            stop = ndeals + 1
            while table[h] != 0:
                if (table[h] - 1) >> 6 == key:
                    stop = (table[h] - 1) & 63  # searched from this time on
                    break
                h = (h + 1) & (size - 1)
            if t >= stop:
                sp -= 1
                continue
            if stop == ndeals + 1:
                visits += 1
                if visits > room:
                    return -1
            table[h] = (key << 6 | t) + 1  # t < 64
            if m == full:
                return 1
            fk[sp] = 0
            fs[sp] = stop
        o = fk[sp]
        pushed = False
        while o < 4:
            up = o < 2
            r = u + 1 if up else nr - d
            j = copies[r, o & 1]
            o += 1
            if j < 0 or (m >> j & 1) != 0 or carr[j] > t or (cblock[j] >> t & 1) != 0 \
                    or (cabove[j] & arrived[t] & ~m) != 0:
                continue
            fk[sp] = o
            sp += 1
            fu[sp] = u + 1 if up else u
            fd[sp] = d if up else d + 1
            fm[sp] = m | 1 << j
            ft[sp] = t
            fk[sp] = -1
            pushed = True
            break
        if pushed:
            continue
        if t < ndeals and t + 1 < fs[sp]:
            ft[sp] = t + 1  # deal: the same position one time later
            fk[sp] = 0
        else:
            sp -= 1
    return 0
