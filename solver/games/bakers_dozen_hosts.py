"""Baker's Dozen: the host count, a dead-end test that counts the cards a parked card
can rest on (issue 19), as a numba kernel.  The state layout is bakers_dozen.py's; its
scratch here is ``HS0`` onwards.

The argument (empty columns never refilled, ``empty=none``; a space that takes a card
would be a host for anything, so the test is off under the other rules):

* Order.  Write a -> b when a goes home before b in every win: b is a's successor in
  its suit, or a is a king lying above b in its column (a king moves only home, and b
  cannot leave its place while the king lies on it).  The relation is transitive; a
  cycle means no win.  For a card c let HOME(c) be its ancestors and NOT(c) be c with
  its descendants: just before c's foundation move, every card of HOME(c) is home and
  no card of NOT(c) is.
* Displaced.  A card x lying above a card of HOME(c) or above c has left its place by
  then (a card moves only from the top, and those cards have been on top).  If x is in
  NOT(c) it is still in the tableau, so it rests on another card: a move puts a card
  only onto one of the next rank up, so x rests on a card of rank r + 1 (its old
  neighbour, if x came back, is such a card too).  One card rests on another at most,
  so these resting places are distinct cards of rank r + 1, none of them home, none of
  them c (c is on top, about to go home), and none lying beneath a king of NOT(c)
  (that king is still in its place, so nothing beneath it has moved or been uncovered).
* Count.  So if, for some c and rank r, the displaced cards of NOT(c) of rank r
  outnumber the cards of rank r + 1 outside HOME(c), other than c, beneath no king of
  NOT(c), the state has no win.  A displaced king of NOT(c) has no possible place at
  all (nothing is of rank K + 1).
* Foundations.  HOME(c) and NOT(c) only bound the foundation just before c's move: the
  test tries every foundation F within those bounds (c's suit at c's rank) that no card
  home from under a king not home rules out, with HOME and NOT read off F; c is lost
  when every F fails, and the state when some c is.
* Prefixes.  In each column the cards still in their places (on the card they were
  dealt on, or at the bottom) are a run from the bottom: a card leaves only from the
  top, and one that comes back onto its old neighbour is in its place again.  Only the
  run's top card can have a card resting on it; the others lie under cards in their
  places.  Every other card that is not home rests on some card.  So with F fixed, a
  column whose lowest gone card (home, or c) is at position g keeps in place some run
  ending at a position t below g (t at least the highest king there, which cannot
  leave; c itself if c is in place, c then taking no card), and every card from t + 1
  up that is not home rests on a card one rank higher.  The count must be met by some
  choice of t per column, where the places of rank r + 1 are the resting cards of that
  rank (not c) and the tops of that rank (not c).  The choices are searched depth
  first; a branch is cut when its cards of some rank already outnumber the places of
  the next rank even with every place the unchosen columns could add (a deeper t adds
  places and cards, never removes one).  Once a call has spent MAX_PREFIXES nodes on
  these searches they claim nothing more (each F left counts as met).

Example (seed 74 without the king rule): KC lies on AH and KD on 3C, so just before KC
goes home every diamond and club but KC is home and no heart is; QH (on TC, 8C, AD)
and QS (on KD) are displaced then and can rest only on kings; KD is home, KC is c, and
KS lies beneath KH, so KH is the one king left for two queens.  No search had settled
that deal.
"""

from __future__ import annotations

from numba import njit

from .bakers_dozen import C0, CAP, EMPTY, F0, H0, HS0, NCOLS, NRANKS
from .common import popcount

DESC0 = HS0  # per card: its descendants (a 52-bit mask)
ANC0 = HS0 + 52  # per card: its ancestors
ABOVE0 = HS0 + 104  # per card: the cards above it in its column
BELOW0 = HS0 + 156  # per card: the cards beneath it
RANK0 = HS0 + 208  # per rank: the tableau's cards of that rank
LO0 = HS0 + 221  # per suit: the foundation range just before c's move
HI0 = HS0 + 225
Q0 = HS0 + 229  # per column: its top in place when nothing else has left
KOPT0 = HS0 + 242  # per column: how many in-place prefixes it can have
IDX0 = HS0 + 255  # per column: the prefix tried
NEED0 = HS0 + 268  # per rank: cards that rest on another
HOST0 = HS0 + 281  # per rank: cards that can take one
FLOOR0 = HS0 + 294  # per column: its highest king beneath the cards gone, -1 if none
ACT0 = HS0 + 307  # the columns with a choice
SPARE0 = HS0 + 320  # per rank: places the columns not yet chosen could add
LEFT0 = HS0 + 333  # nodes of the searches of prefixes left to this call
HOSTS_LEN = 334
# Nodes of the searches of prefixes in one call of hosts_dead, beyond which they claim
# nothing more (bounds its time: about 0.1 s)
MAX_PREFIXES = 2_000_000


@njit(cache=True)
def hosts_dead(st):
    """True only if the state is lost, by the host count (module docstring)."""
    if st[EMPTY] != 0:
        return False
    st[LEFT0] = MAX_PREFIXES
    ncols = st[NCOLS]
    king = st[NRANKS] - 1
    for r in range(13):
        st[RANK0 + r] = 0
    for col in range(ncols):
        base = C0 + col * CAP
        h = st[H0 + col]
        under = 0
        for p in range(h):
            c = st[base + p]
            st[BELOW0 + c] = under
            under |= 1 << c
            st[RANK0 + c % 13] |= 1 << c
            st[DESC0 + c] = 0
            st[ANC0 + c] = 0
        over = 0
        for p in range(h - 1, -1, -1):
            c = st[base + p]
            st[ABOVE0 + c] = over
            over |= 1 << c
    # descendants: least fixed point of the edges (suit successor; king -> beneath it)
    changed = True
    while changed:
        changed = False
        for col in range(ncols):
            base = C0 + col * CAP
            for p in range(st[H0 + col]):
                c = st[base + p]
                d = st[DESC0 + c]
                if c % 13 < king:  # the successor is in the tableau, since c is
                    d |= (1 << (c + 1)) | st[DESC0 + c + 1]
                else:
                    for q in range(p):
                        y = st[base + q]
                        d |= (1 << y) | st[DESC0 + y]
                if d != st[DESC0 + c]:
                    if (d >> c) & 1:
                        return True  # a cycle: no order of foundation moves exists
                    st[DESC0 + c] = d
                    changed = True
    for col in range(ncols):
        base = C0 + col * CAP
        for p in range(st[H0 + col]):
            a = st[base + p]
            d = st[DESC0 + a]
            for col2 in range(ncols):
                base2 = C0 + col2 * CAP
                for p2 in range(st[H0 + col2]):
                    b = st[base2 + p2]
                    if (d >> b) & 1:
                        st[ANC0 + b] |= 1 << a
    for col in range(ncols):
        base = C0 + col * CAP
        for p in range(st[H0 + col]):
            if _every_foundation_fails(st, st[base + p], ncols, king):
                return True
    return False


@njit(cache=True)
def _every_foundation_fails(st, c, ncols, king):
    """The count fails for every foundation the moment before c's move can have:
    c's suit at c's rank, each other suit between its count now and its lowest card
    in NOT(c), the cards home including HOME(c) and no card under a king that is not."""
    lo = st[LO0:LO0 + 4]
    hi = st[HI0:HI0 + 4]
    for s in range(4):
        lo[s] = st[F0 + s]
        hi[s] = king + 1
    lo[c // 13] = c % 13
    hi[c // 13] = c % 13
    home = st[ANC0 + c]
    stays = st[DESC0 + c]
    for col in range(ncols):
        base = C0 + col * CAP
        for p in range(st[H0 + col]):
            y = st[base + p]
            if (home >> y) & 1 and y % 13 + 1 > lo[y // 13]:
                lo[y // 13] = y % 13 + 1
            if (stays >> y) & 1 and y % 13 < hi[y // 13]:
                hi[y // 13] = y % 13
    for s in range(4):
        if lo[s] > hi[s]:
            return True  # (not met: HOME and NOT never overlap when the order has no cycle)
    for f0 in range(lo[0], hi[0] + 1):
        for f1 in range(lo[1], hi[1] + 1):
            for f2 in range(lo[2], hi[2] + 1):
                for f3 in range(lo[3], hi[3] + 1):
                    if not _count_fails(st, c, ncols, king, f0, f1, f2, f3):
                        return False
    return True


@njit(cache=True)
def _count_fails(st, c, ncols, king, f0, f1, f2, f3):
    """The count just before c's foundation move with foundation counts f0..f3 (module
    docstring); a foundation no win can have then (a card home beneath a king that is
    not) fails too."""
    home = 0
    for col in range(ncols):
        base = C0 + col * CAP
        for p in range(st[H0 + col]):
            y = st[base + p]
            s = y // 13
            f = f0 if s == 0 else f1 if s == 1 else f2 if s == 2 else f3
            if y % 13 < f:
                home |= 1 << y
    gone = home | (1 << c)
    displaced = 0
    covered = 0
    for col in range(ncols):
        base = C0 + col * CAP
        h = st[H0 + col]
        for p in range(h):
            y = st[base + p]
            if (gone >> y) & 1:
                displaced |= st[ABOVE0 + y]  # the lowest such card: all above it
                break
        for p in range(h):
            y = st[base + p]
            if y % 13 == king and not (home >> y) & 1:
                if st[BELOW0 + y] & home:
                    return True  # a card home from under a king still in place
                covered |= st[BELOW0 + y]
    need_all = displaced & ~home
    if need_all == 0:
        return False
    for r in range(king + 1):
        need = popcount(need_all & st[RANK0 + r])
        if need == 0:
            continue
        if r == king:
            return True
        if need > popcount(st[RANK0 + r + 1] & ~gone & ~covered):
            return True
    return _prefixes_fail(st, c, home, ncols, king)


@njit(cache=True)
def _prefixes_fail(st, c, home, ncols, king):
    """The count with the cards still in their places taken into account (module
    docstring, "Prefixes"): True if no choice of each column's in-place prefix meets
    every rank's count; False too once the call has spent MAX_PREFIXES nodes on them."""
    q0 = st[Q0:Q0 + 13]
    kopt = st[KOPT0:KOPT0 + 13]
    idx = st[IDX0:IDX0 + 13]
    floor0 = st[FLOOR0:FLOOR0 + 13]
    act = st[ACT0:ACT0 + 13]
    need = st[NEED0:NEED0 + 13]
    host = st[HOST0:HOST0 + 13]
    spare = st[SPARE0:SPARE0 + 13]  # per rank: places the undecided columns could still add
    for r in range(13):
        need[r] = 0
        host[r] = 0
        spare[r] = 0
    m = 0
    for col in range(ncols):
        base = C0 + col * CAP
        h = st[H0 + col]
        low = h  # the lowest card gone (home, or c), if any
        for p in range(h):
            y = st[base + p]
            if y == c or (home >> y) & 1:
                low = p
                break
        c_here = low < h and st[base + low] == c
        floor = -1  # the highest king beneath it (not home, as nothing beneath it is)
        for p in range(low):
            if st[base + p] % 13 == king:
                floor = p
        for p in range(low + 1, h):  # the cards that must have left
            y = st[base + p]
            if not (home >> y) & 1:
                need[y % 13] += 1
                if y != c:
                    host[y % 13] += 1
        q = low if c_here else low - 1  # the top in place when nothing else has left
        q0[col] = q
        floor0[col] = floor
        idx[col] = 0
        kopt[col] = 1
        if q < 0:
            continue
        if st[base + q] != c:
            host[st[base + q] % 13] += 1
        kopt[col] = q - floor + 1
        if kopt[col] > 1:
            act[m] = col
            m += 1
            _spare(st, col, q, floor, spare, 1)
    # depth-first over the columns' choices, each deeper choice adding places and cards
    # that need one; a branch is cut when even every place still possible is too few
    d = 0
    if m > 0:
        _spare(st, act[0], q0[act[0]], floor0[act[0]], spare, -1)
    while True:
        st[LEFT0] -= 1
        if st[LEFT0] < 0:
            return False  # no claim
        ok = need[king] == 0
        if ok:
            for r in range(king):
                if need[r] > host[r + 1] + spare[r + 1]:
                    ok = False
                    break
        if ok:
            if d >= m - 1:
                return False  # every column chosen (spare is 0): the count is met
            d += 1
            col = act[d]
            idx[col] = 0
            _spare(st, col, q0[col], floor0[col], spare, -1)
            continue
        while True:  # the next choice at depth d, or back up
            if m == 0:
                return True
            col = act[d]
            if idx[col] + 1 < kopt[col]:
                idx[col] += 1
                _leave(st, col, q0[col], idx[col], need, host, 1)
                break
            for i in range(idx[col], 0, -1):
                _leave(st, col, q0[col], i, need, host, -1)
            idx[col] = 0
            _spare(st, col, q0[col], floor0[col], spare, 1)
            d -= 1
            if d < 0:
                return True


@njit(cache=True, inline="always")
def _spare(st, col, q, floor, spare, sign):
    """The places a column's deepest choice adds to its first: the cards from the
    highest king beneath (or the bottom) up to the card under its first top."""
    base = C0 + col * CAP
    for p in range(max(floor, 0), q):
        spare[st[base + p] % 13] += sign


@njit(cache=True, inline="always")
def _leave(st, col, q, i, need, host, sign):
    """Choice i of a column after choice i - 1: the card at q - i + 1 leaves its place
    too (it needs a place; as a place it replaces itself as the top, except c, which is
    neither), and the card beneath it becomes the top in place."""
    base = C0 + col * CAP
    need[st[base + q - i + 1] % 13] += sign
    if q - i >= 0:
        host[st[base + q - i] % 13] += sign


