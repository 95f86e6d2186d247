"""Grand Duchess and Parisienne: a dead-end test for the round before the last, and
``is_dead`` (the game interface's), which runs it or the last round's.

``redeal_dead`` proves lost a state of the round before the last redeal, once its
stock is out, looking through the redeal at the last round without searching what
is left of this one.
The argument is in its docstring; tests/test_grand_duchess_redeal.py checks it
against the exhaustive oracle.  The state layout and its scratch (S_*) are
grand_duchess.py's; this round's times come from grand_duchess_dead.fixpoint_times.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .grand_duchess import (DN0, H0, INF, K0, LEFT, LEFT_OUT, MAXRED, NPILES, NR, NRES, RESLEFT, RFIRST, ROUND, S_C,
                            S_E, S_LEN, S_RC, S_TD, S_TU, SCAP, SEQ, SN, SP, TRANSFER, UP0, _deal_move, apply_move)
from .grand_duchess_dead import fixpoint_times, last_round_dead, leave_time, suits_dead_core

NCARDS = 104  # cards in the next stock at most
MAX_CASES = 1 << 10  # cases (what each pile gives up) tried one by one at most
SPLIT_BUDGET = 1 << 8  # branches (a card phase A may take stays / goes) tried at most, over all cases
LEAF_STATES = 64  # foundation states a fully split case is tried in at most
SLOTS = 32  # slots of one pile in the last round (at most 26 cards)
ROWS = NPILES + 2 * 13  # the suit test's rows: the last round's piles, then single free cards
# the suit test's first memo size here: its searches over the whole last round are larger
# than the last round's own (1 << 12 there); this spares most regrowths (30% faster here,
# while the larger first size would cost the standard game 15% there)
REDEAL_SUIT_TABLE = 1 << 14


@njit(cache=True)
def is_dead(st):
    """True only if the state is lost: last_round_dead in the last round,
    redeal_dead in the round before it once its stock is out, where ``retest_here``
    says so."""
    if st[ROUND] == st[MAXRED]:
        return last_round_dead(st)
    if not dead_costly(st):
        return False
    # the splits (step 5) only with one redeal, where a loss is proved at round one's
    # stock-out; with more the search looks for wins, and each test's cost delays them
    # (redeals=2 bench, seeds 1..100 at 5 s: Grand Duchess 71 won with them, 77 without)
    return redeal_dead(st, 0, MAX_CASES, SPLIT_BUDGET if st[MAXRED] == 1 else 0)


@njit(cache=True)
def dead_costly(st):
    """Whether is_dead runs redeal_dead on the state (milliseconds; the DFS then also
    remembers a state it did not refute: solver/search/dfs.py, dfs_dead): the round
    before the last, where ``retest_here`` says so, in the variants redeal_dead is
    written for."""
    return (st[ROUND] == st[MAXRED] - 1 and st[SP] == st[SN] and st[TRANSFER] == 0 and st[RFIRST] == 0
            and retest_here(st[LEFT_OUT] - st[LEFT]))


@njit(cache=True)
def retest_here(played):
    """Whether to run redeal_dead on a state ``played`` plays after its round's stock
    ran out: only at the stock-out itself (0; negative while the stock is not out,
    where redeal_dead says nothing at once).  Why: redeal_dead costs 3 to 50 ms a
    state.  Testing after every play does refute more of phase A (Grand Duchess
    redeals=1 seed 110, replayed in Python: 12.7 k states of phase A left instead of
    464 k), but costs far more than it saves, as the lines below an untested state
    mostly die in their last round, where last_round_dead refutes each redeal in about
    0.04 ms.  DFS on redeals=1: seed 103 (lost) 10.3 s instead of 39.3 s; seed 110
    4.27 M nodes in 60 s instead of 24,677; testing again at 8, 16 and 32 plays fell
    between (15.3 s; 1.08 M nodes in 120 s).  Soundness does not depend on it: a
    state not tested is searched."""
    return played <= 0


@njit(cache=True)
def redeal_dead(st, slack=0, max_cases=MAX_CASES, budget=SPLIT_BUDGET, mutant=0):
    """True only if the state is lost.  For a state of the round before the last (one
    redeal left) whose stock is out, without transfers, with the reserve dealt after
    the piles.

    What is left of this round ("phase A") plays top cards of the piles and any
    reserve cards (all face up now); then the redeal makes the next stock Q from what
    is left, in a fixed order: t4 bottom to top, then t3, t2, t1, then the reserve
    (RULES.md), and the last round deals Q four a time to t1..t4.

    Step 1: fixpoint_times (time 0 only, as the stock is out) finds the cards phase A
    may take: a top run of each pile, some reserve cards; the others stay in Q for sure.
    Each choice of how many top cards each pile gives up (the "case") fixes the pile
    part of Q; past ``max_cases`` cases, the pile cards phase A may take are treated
    like the reserve's below, all in one layout.
    Step 2 (slots): card i of Q lands in slot i - g, g the cards before it that phase
    A took, so in a slot from i - b_i to i, b_i bounding g: the cards before i that
    may go, suit by suit no more than the foundation ranks of that suit phase A can
    reach (each rank takes one card).  Slots 0..K-1, K the cards that stay for sure,
    are surely filled.  Slot k is dealt at time k // 4 + 1 to pile k mod 4.
    Step 3 (a timed fixpoint, as fixpoint_dead's): from phase A's foundation times
    (0 or never), iterate: a slot's time is the least, over the cards that may fill
    it, of the first time >= its deal at which the card's foundation is ready and the
    slot above it is not dealt yet or left (a slot above that may stay empty does not
    count); a foundation rank's time is the least over every card and slot that can
    give it.  By induction along a real line, no time here is later than in that line
    (its cards' real slots are among their candidates).  So if a surely filled slot, a
    card that can leave neither in phase A nor from any slot, or a foundation's last
    rank stays at "never", no line of the case wins.
    Step 4: each suit searched exactly (suits_dead_core, whose argument applies): its
    cards that are alone in a surely filled slot as they lie, its other cards (and
    those the case takes in phase A) free from their earliest time, and the surely
    filled slots with no candidate of the suit in its way until their times.
    Step 5 (issue 19; ``_split_dead``): a case steps 2 to 4 do not refute is split on
    its first card phase A may take: it stays (in Q for sure) or it goes (out of Q,
    free from time 0 in the suit test); every line of the case is in one of the two,
    so both refuted refute the case.  Before each try, phase A's foundation ranks are
    recomputed from the cards it may still take (``_phase_a_reach``): a card can go
    only onto a rank that phase A can reach with them, so one that no longer fits
    stays for sure, and a branch whose going card cannot fit holds no line at all.
    Fewer ranks in reach and more cards kept narrow every window.  At most ``budget``
    branches tried over all cases, then the state is given up (not refuted).  A case with
    every card decided fixes the next stock exactly: ``_leaf_dead`` tries it in the
    last round itself.  Sampled stock-out states of redeals=1 refuted
    (experiments/redeal_dead_reach.py, 200 a seed): Parisienne seed 1 147 without
    step 5, 182 with 256 branches, 190 with 1,024; Grand Duchess seed 1 178, 197, 199.
    If every case is refuted, the state is lost.  ``slack`` > 0 (tests only) narrows
    every card's window of slots by that many; ``mutant`` (tests only) 1 never tries
    the "stays" branch of a split, 2 tries a fully split case in one foundation state
    only, 3 lets phase A take a card onto its up foundation only; each breaks the
    argument."""
    if st[ROUND] != st[MAXRED] - 1 or st[SP] != st[SN] or st[TRANSFER] != 0 or st[RFIRST] != 0:
        return False
    nr = st[NR]
    up0 = st[UP0:UP0 + 4]
    dn0 = st[DN0:DN0 + 4]
    nres = fixpoint_times(st)
    # Q, each card with its time in phase A (0, or INF: it stays)
    q_card = np.empty(NCARDS, np.int64)
    q_time = np.empty(NCARDS, np.int64)
    n = 0
    for p in range(NPILES - 1, -1, -1):
        for i in range(st[S_LEN + p]):
            q_card[n] = st[S_C + p * SEQ + i]
            q_time[n] = st[S_E + p * SEQ + i]
            n += 1
    tu = np.empty((4, 15), np.int64)
    td = np.empty((4, 15), np.int64)
    for s in range(4):
        for r in range(15):
            tu[s, r] = st[S_TU + s * 15 + r]
            td[s, r] = st[S_TD + s * 15 + r]
    for i in range(nres):
        c = st[S_RC + i]
        q_card[n] = c
        q_time[n] = _leave_now(tu, td, up0, dn0, nr, c)
        n += 1
    # which top cards each pile gives up is tried case by case (those below stay for
    # sure), as the piles come first in the next stock
    depth = np.zeros(NPILES, np.int64)
    for p in range(NPILES):
        for i in range(st[S_LEN + p]):
            if st[S_E + p * SEQ + i] < INF:
                depth[p] += 1
    cases = 1
    for p in range(NPILES):
        cases *= depth[p] + 1
    calls = np.zeros(1, np.int64)
    last = np.empty_like(st)  # the last round's state at a fully split case
    if cases > max_cases:
        return _split_dead(st, last, q_card, q_time, n, q_card[:0], tu, td, slack, budget, calls, mutant)
    c_card = np.empty(NCARDS, np.int64)
    c_time = np.empty(NCARDS, np.int64)
    gone = np.empty(NCARDS, np.int64)  # the pile cards this case's phase A takes
    for case in range(cases):
        x = case
        m = 0
        i0 = 0
        ngone = 0
        for p in range(NPILES - 1, -1, -1):
            h = st[S_LEN + p]
            keep = h - x % (depth[p] + 1)
            x //= depth[p] + 1
            for i in range(keep):
                c_card[m] = q_card[i0 + i]
                c_time[m] = INF
                m += 1
            for i in range(keep, h):
                gone[ngone] = q_card[i0 + i]
                ngone += 1
            i0 += h
        for i in range(i0, n):
            c_card[m] = q_card[i]
            c_time[m] = q_time[i]
            m += 1
        if not _split_dead(st, last, c_card, c_time, m, gone[:ngone], tu, td, slack, budget, calls, mutant):
            return False
    return True


@njit(cache=True)
def _phase_a_reach(q_card, q_time, n, gone, up0, dn0, nr, tu2, td2, mutant=0):
    """The foundation ranks phase A can reach (``tu2``, ``td2``: 0, or INF) with the
    cards it may take: ``gone`` and Q's cards with time 0.  A card goes only onto the
    rank before it (up) or after it (down), so ranks beyond the first missing card of
    either chain are out of reach; a Q card that then fits neither stays for sure (its
    time set to INF, which may cut the chains further: repeated until nothing
    changes).  False if a card of ``gone`` fits neither: no line takes it.  ``mutant``
    3 (tests only) lets a Q card fit its up foundation only, which breaks the
    argument."""
    cnt = np.zeros((4, 15), np.int64)
    for c in gone:
        cnt[c // 13, c % 13 + 1] += 1
    for i in range(n):
        if q_time[i] < INF:
            cnt[q_card[i] // 13, q_card[i] % 13 + 1] += 1
    changed = True
    while changed:
        changed = False
        for s in range(4):
            for r in range(15):
                tu2[s, r] = INF
                td2[s, r] = INF
            for r in range(0, up0[s] + 1):
                tu2[s, r] = 0
            for r in range(up0[s] + 1, nr + 1):
                if cnt[s, r] > 0:
                    tu2[s, r] = 0
                else:
                    break
            for r in range(nr + 1 - dn0[s], nr + 2):
                td2[s, r] = 0
            for r in range(nr - dn0[s], 0, -1):
                if cnt[s, r] > 0:
                    td2[s, r] = 0
                else:
                    break
        for i in range(n):
            if q_time[i] < INF:
                c = q_card[i]
                s = c // 13
                r = c % 13 + 1
                if mutant == 3:
                    fits = r > up0[s] and tu2[s, r - 1] == 0
                else:
                    fits = _leave_now(tu2, td2, up0, dn0, nr, c) == 0
                if not fits:
                    q_time[i] = INF
                    cnt[s, r] -= 1
                    changed = True
    for c in gone:
        if _leave_now(tu2, td2, up0, dn0, nr, c) != 0:
            return False
    return True


@njit(cache=True)
def _split_dead(st, last, c_card, c_time, m, gone0, tu, td, slack, budget, calls, mutant):
    """Step 5 of redeal_dead for one case: the next stock ``c_card[:m]`` (``c_time``:
    0 if phase A may take the card, INF if it stays), ``gone0`` the pile cards the case
    takes.  A depth-first search over "stays" / "goes" of the cards with time 0, in
    Q's order (the earliest shift the most slots), each node tried by _phase_a_reach
    and _slots_dead, a node with every card decided by _leaf_dead; True if every node's
    both branches are refuted.  ``calls[0]``
    counts the branches tried for the whole state, against ``budget``."""
    und = np.empty(m, np.int64)
    k = 0
    for i in range(m):
        if c_time[i] < INF:
            und[k] = i
            k += 1
    where = np.full(m, -1, np.int64)
    for j in range(k):
        where[und[j]] = j
    dec = np.zeros(k + 1, np.int64)  # node at depth d: und[0..d-1] decided, 1 = goes
    sd = np.empty(2 * k + 2, np.int64)  # the stack: depth, and the decision made last
    sc = np.empty(2 * k + 2, np.int64)
    sd[0] = 0
    sc[0] = 0
    top = 1
    q_card = np.empty(m, np.int64)
    q_time = np.empty(m, np.int64)
    q_und = np.empty(m, np.int64)
    gone = np.empty(m + gone0.shape[0], np.int64)
    tu2 = np.empty((4, 15), np.int64)
    td2 = np.empty((4, 15), np.int64)
    nr = st[NR]
    up0 = st[UP0:UP0 + 4]
    dn0 = st[DN0:DN0 + 4]
    while top > 0:
        top -= 1
        d = sd[top]
        if d > 0:
            dec[d - 1] = sc[top]
            calls[0] += 1
            if calls[0] > budget:
                return False
        n = 0
        ng = 0
        for g in gone0:
            gone[ng] = g
            ng += 1
        for i in range(m):
            j = where[i]
            if j >= 0 and j < d and dec[j] == 1:
                gone[ng] = c_card[i]
                ng += 1
                continue
            q_card[n] = c_card[i]
            q_time[n] = INF if j >= 0 and j < d else c_time[i]
            q_und[n] = j
            n += 1
        if not _phase_a_reach(q_card, q_time, n, gone[:ng], up0, dn0, nr, tu2, td2, mutant):
            continue
        # both are lower bounds on this branch's times (the stock-out's fixpoint, and
        # the chains of the cards still free to go): the later of the two is one too
        for s in range(4):
            for r in range(15):
                if tu[s, r] > tu2[s, r]:
                    tu2[s, r] = tu[s, r]
                if td[s, r] > td2[s, r]:
                    td2[s, r] = td[s, r]
        # the first card still open; those before it that propagation forced stay
        nxt = k
        for i in range(n):
            j = q_und[i]
            if j >= d and q_time[i] < INF:
                nxt = j
                break
        if _slots_dead(q_card, q_time, n, gone[:ng], tu2, td2, up0, dn0, nr, slack):
            continue
        if nxt == k:
            if _leaf_dead(st, last, q_card, n, gone[:ng], mutant):
                continue
            return False
        for j in range(d, nxt):
            dec[j] = 0
        if mutant != 1:
            sd[top] = nxt + 1
            sc[top] = 0
            top += 1
        sd[top] = nxt + 1
        sc[top] = 1
        top += 1
    return True


@njit(cache=True)
def _leaf_dead(st, last, q_card, n, gone, mutant=0):
    """True only if no line takes exactly the cards ``gone`` in phase A (the stock-out
    state ``st``): the next stock is then ``q_card[:n]`` exactly, and only the
    foundations are open, as which copies went up and which down is not known.  Each
    suit's gone cards must be exactly the ranks its up foundation gains plus those its
    down foundation gains (one copy each, the two may overlap); every such foundation
    state (at most LEAF_STATES, else given up) is built as the last round's state in
    ``last``, dealt once, and must be refuted by the last round's own test
    (last_round_dead, whose argument holds for any state of that round).  Which
    orders of phase A could take those cards is not asked: a relaxation."""
    nr = st[NR]
    if n == 0 or st[LEFT] - gone.shape[0] != n:
        return False  # nothing left (won), or not a state this was written for
    cnt = np.zeros((4, 15), np.int64)
    for c in gone:
        cnt[c // 13, c % 13 + 1] += 1
    opt_u = np.empty((4, 16 * 16), np.int64)
    opt_d = np.empty((4, 16 * 16), np.int64)
    nopt = np.zeros(4, np.int64)
    states = 1
    for s in range(4):
        u0 = st[UP0 + s]
        d0 = st[DN0 + s]
        for u in range(u0, nr + 1):
            for d in range(d0, nr + 1):
                fits = True
                for x in range(1, nr + 1):
                    want = 0
                    if u0 < x <= u:
                        want += 1
                    if nr - d < x <= nr - d0:
                        want += 1
                    if want != cnt[s, x]:
                        fits = False
                        break
                if fits:
                    opt_u[s, nopt[s]] = u
                    opt_d[s, nopt[s]] = d
                    nopt[s] += 1
        if nopt[s] == 0:
            return True  # no two foundations take exactly these cards
        states *= nopt[s]
    if states > LEAF_STATES:
        return False
    if mutant == 2:
        states = 1  # (tests only) the first foundation state alone: breaks the argument
    for j in range(states):
        last[:] = st
        x = j
        for s in range(4):
            i = x % nopt[s]
            x //= nopt[s]
            last[UP0 + s] = opt_u[s, i]
            last[DN0 + s] = opt_d[s, i]
        rd = st[MAXRED]
        kb = K0 + rd * SCAP
        for i in range(n):
            last[kb + i] = q_card[i]
        last[ROUND] = rd
        last[SP] = 0
        last[SN] = n
        last[NRES] = 0
        last[RESLEFT] = 0
        for p in range(NPILES):
            last[H0 + p] = 0
        last[LEFT] = n
        last[LEFT_OUT] = -1
        apply_move(last, _deal_move(last))
        if not last_round_dead(last):
            return False
    return True


@njit(cache=True)
def _slots_dead(q_card, q_time, n, gone, tu, td, up0, dn0, nr, slack):
    """Steps 2 to 4 of redeal_dead for the next stock ``q_card[:n]`` (``q_time``: 0 if
    phase A may take the card, INF if it stays), from phase A's foundation times ``tu``,
    ``td`` (lowered in place); ``gone``: the cards the case's phase A takes."""
    # slots: card i may fill lo[i]..i; slots below kept are surely filled
    # b_i counts, suit by suit, the cards before i that may leave, but no more than
    # the foundation ranks of the suit this round can reach: each rank takes one card
    reach = np.zeros(4, np.int64)
    for s in range(4):
        for r in range(up0[s] + 1, nr + 1):
            if tu[s, r] < INF:
                reach[s] += 1
        for r in range(1, nr + 1 - dn0[s]):
            if td[s, r] < INF:
                reach[s] += 1
    lo = np.empty(n, np.int64)
    went = np.zeros(4, np.int64)
    b = 0
    kept = 0
    for i in range(n):
        lo[i] = i - b + slack
        if lo[i] > i:
            lo[i] = i
        if q_time[i] < INF:
            s = q_card[i] // 13
            if went[s] < reach[s]:
                went[s] += 1
                b += 1
        else:
            kept += 1
    s_time = np.empty(n, np.int64)
    c_best = np.empty(n, np.int64)
    changed = True
    stuck = False
    while changed:
        changed = False
        stuck = False  # what the last pass, which changes nothing, finds
        for i in range(n):
            c_best[i] = q_time[i]
        for q in range(NPILES):
            above_e = INF
            above_a = INF
            top = q + ((n - 1 - q) // NPILES) * NPILES if n > q else -1
            for k in range(top, -1, -NPILES):
                a = k // NPILES + 1
                best = INF
                for i in range(k, n):
                    if lo[i] > k:
                        break
                    t, news = leave_time(tu, td, up0, dn0, nr, False, q_card[i], a, above_a, above_e)
                    if news:
                        changed = True
                    if t < best:
                        best = t
                    if t < c_best[i]:
                        c_best[i] = t
                s_time[k] = best
                if k < kept:
                    if best >= INF:
                        stuck = True
                    above_e = best
                    above_a = a
                else:
                    above_e = INF  # the slot may stay empty: nothing then lies on the one below
                    above_a = INF
    if stuck:
        return True
    for i in range(n):
        if c_best[i] >= INF:
            return True
    for s in range(4):
        if tu[s, nr] >= INF or td[s, 1] >= INF:
            return True
    # step 4: each suit alone
    d2 = (n + NPILES - 1) // NPILES
    sc = np.empty((ROWS, SLOTS), np.int64)
    sa = np.empty((ROWS, SLOTS), np.int64)
    se = np.empty((ROWS, SLOTS), np.int64)
    slens = np.zeros(ROWS, np.int64)
    # slot k holds card k for sure: the card's only slot, the slot's only card, surely filled
    alone = np.empty(n, np.bool_)
    for k in range(n):
        alone[k] = k < kept and lo[k] == k and (k + 1 >= n or lo[k + 1] > k)
    # the suits whose foundations finish latest first: the likeliest to fail
    late = np.empty(4, np.int64)
    for s in range(4):
        late[s] = -max(tu[s, nr], td[s, 1])
    for s in np.argsort(late):
        for q in range(NPILES):
            slens[q] = 0
        rows = NPILES
        for k in range(n):
            q = k % NPILES
            mine = False
            for i in range(k, n):
                if lo[i] > k:
                    break
                if q_card[i] // 13 == s:
                    mine = True
            if alone[k]:
                c = q_card[k]
            elif not mine and k < kept:
                c = ((s + 1) % 4) * 13  # another suit's card: in the way until the slot's time
            else:
                continue
            j = slens[q]
            sc[q, j] = c
            sa[q, j] = k // NPILES + 1
            se[q, j] = s_time[k]
            slens[q] = j + 1
        for c in gone:
            if c // 13 == s:
                sc[rows, 0] = c
                sa[rows, 0] = 0
                se[rows, 0] = 0
                slens[rows] = 1
                rows += 1
        for i in range(n):
            if q_card[i] // 13 != s:
                continue
            if alone[i]:
                continue  # placed in its slot above
            # free from its earliest time: 0 if phase A may take it, else its first slot's deal
            sc[rows, 0] = q_card[i]
            sa[rows, 0] = 0 if q_time[i] < INF else lo[i] // NPILES + 1
            se[rows, 0] = 0
            slens[rows] = 1
            rows += 1
        if suits_dead_core(nr, up0, dn0, d2, rows, sc, sa, se, slens, q_card[:0], 0, 0, s, s + 1, REDEAL_SUIT_TABLE):
            return True
    return False


@njit(cache=True)
def _leave_now(tu, td, up0, dn0, nr, c):
    """0 if card c can go to a foundation in phase A (given its ranks' times ``tu``,
    ``td``: 0 or INF), else INF."""
    s = c // 13
    r = c % 13 + 1
    if r > up0[s] and tu[s, r - 1] == 0:
        return 0
    if r <= nr - dn0[s] and td[s, r + 1] == 0:
        return 0
    return INF


def long_way_live(st) -> bool:
    """Plain Python, for tests and measurements: True if some state the rest of this
    round reaches from ``st`` (the round before the last, its stock out), redealt and
    dealt once, is not refuted by the last round's test.  False proves ``st`` lost by
    another road than redeal_dead's: every line redeals from one of those states."""
    from . import grand_duchess as gd

    out = np.zeros(gd.MAX_MOVES, np.int64)
    seen = {(gd.key1(st), gd.key2(st))}
    stack = [st.copy()]
    while stack:
        s = stack.pop()
        r = s.copy()
        gd.apply_move(r, gd.REDEAL)
        gd.apply_move(r, gd._deal_move(r))
        if not last_round_dead(r):
            return True
        for i in range(gd.gen_moves(s, out, 0)):
            m = int(out[i])
            if m & 3 != gd.KIND_PLAY:
                continue
            s2 = s.copy()
            gd.apply_move(s2, m)
            key = (gd.key1(s2), gd.key2(s2))
            if key not in seen:
                seen.add(key)
                stack.append(s2)
    return False
