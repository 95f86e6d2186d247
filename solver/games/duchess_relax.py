"""Duchess `redeals=0`: a relaxed game with a bag for a tableau (R), run on each first
move of a deal before the search; a first move whose R is lost is lost (issue 19).

R keeps the stock, the waste (a stack: only its top leaves), the fans and the
foundations exactly, and forgets how the tableau's cards are arranged: the tableau
is the set T of cards on no other pile, under one condition, that T splits into at
most four chains (each card one rank below the one before, the other colour; the
top rank below an ace), as four columns of real runs always do.  Moves of R, for
the base rank the first move fixed:

- deal a card;
- the waste's top card, or a fan's top card, home if it is next there;
- a card of T home if it is next there and T splits into at most four chains with
  nothing lying on that card (R does not know which chain it ends, only that one can);
- a fan's top card into T, if T with it splits into at most four chains with
  nothing lying on the new card (in the real game it goes onto a column's top card
  or into a space, and becomes a column's top either way);
- the waste's top card into T, the same way, if also the card has a card it could
  lie on in T or the reserve is empty (in the real game it goes onto a column's top
  card, or into a space, which takes a waste card only once the reserve is empty).

Every real column is one run: a card goes onto a column only to continue it, and a
space takes only a single card (RULES.md), so a real state's four columns are at
most four chains of T, each column's top card the end of its own.  A card leaves a
column for home only from the top, and a card that comes to the tableau becomes a
column's top.  So every move of the real game is a move of R or changes nothing R
sees (moves between columns, whole runs or not; a stock card into a space is a deal
and a waste move of R), and a real win from a state is a win of R from it: a first
move whose R is lost is lost, and a deal whose first moves all are is lost.

The fewest chains T splits into is |T| minus a largest matching of cards to a card
they could lie on.  A card of rank r and one colour lies only on the two cards of
rank r + 1 of the other colour, and those take only the two cards of rank r of the
first colour, so the matching splits into blocks of at most two cards a side, and
the count is |T| minus the sum of min(children, parents) over the blocks
(``chains_by_blocks``); with a card that nothing may lie on, that card does not
count among its block's parents.  A ring of cards, were one possible, would count as no
chain: fewer chains only allow more moves, so that stays sound.

A card next for its foundation with both cards that could lie on it home is played
at once, alone: nothing lies on it in T or ever can, so it ends its chain in every
split of T, and without it each split keeps its count and its chains' ends (the
conditions of the moves above hold as before); nor is it a card a waste card could
lie on (those are home).  Any line of R stays a line of R with that card played first.

R's state is the cards dealt, the waste (which dealt cards are still there), the fan
heights and the foundations; T follows from them.  It is searched depth-first, every
state once, to its end (lost, a proof), a win of R (no proof: R wins far more than
the game), or a state budget (open).  Keys are one int64 (``_key``), so the table
costs 8 bytes a slot, two slots a state at most.  ``experiments/duchess_chain_relaxation.py``
holds the prototype, a plain-Python search of R and the check of R's premise along
real lines; tests/test_duchess_relax.py holds this search to the exhaustive oracle.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .duchess import (BASE, CAP, COL0, F0, FAN0, FAN_CARDS, FH0, H0, MAXRED, NCOLS, NFANS, NR, ROUND, TAL0, TK, TN,
                      WN, WST0)

MAX_STATES = 1 << 26  # per first move at most: a table of 2^27 slots, 1 GiB
MAX_DEPTH = 4 * 52 + 8  # R's moves in a line: deals, home moves, cards into T, at most 4 a card
SUCC = 16  # successors of one state at most: 4 home + 4 fans + waste + deal
# ctx
DEPTH, STATES, STATUS = 0, 1, 2
CTX_LEN = 3
RUNNING, LOST, WON_R, OPEN = 0, 1, 2, 3  # status: WON_R is a win of R (no proof of anything)


def table_slots(max_states: int) -> int:
    """Slots of the table for ``max_states`` states (it holds one more at most, the one
    that ends the search): the least power of two at least twice as many."""
    return 1 << max(10, (2 * max_states - 1).bit_length())


def work_bytes(max_states: int) -> int:
    return 8 * table_slots(min(max_states, MAX_STATES)) + MAX_DEPTH * SUCC * 24 + MAX_DEPTH * 16


class RelaxWork:
    """The arrays one search of R needs, reused across first moves and deals."""

    def __init__(self, max_states: int):
        self.capacity = min(max_states, MAX_STATES)
        self.table = np.zeros(table_slots(self.capacity), dtype=np.int64)
        self.succ = np.zeros((MAX_DEPTH, SUCC, 3), dtype=np.int64)  # (a, b, T) of each successor
        self.count = np.zeros(MAX_DEPTH, dtype=np.int64)
        self.nxt = np.zeros(MAX_DEPTH, dtype=np.int64)
        self.ctx = np.zeros(CTX_LEN, dtype=np.int64)


def applies(st) -> bool:
    """R is built for `redeals=0` (no second round) from a deal's start."""
    return int(st[MAXRED]) == 0 and int(st[ROUND]) == 0 and int(st[BASE]) < 0


def search(work: RelaxWork, st, max_states: int, clock, columns: int = NCOLS) -> int:
    """R from ``st`` (a state of round 0 with its base rank set: after a first move),
    in slices on ``clock`` (solver.search.portfolio.Clock): LOST, WON_R or OPEN (the
    state budget or the clock ran out).  ``columns`` is the chains R allows (four;
    the tests' mutant allows fewer)."""
    if st[MAXRED] != 0 or st[ROUND] != 0 or st[BASE] < 0:
        raise ValueError("the relaxation is of a `redeals=0` deal after its first move")
    max_states = min(max_states, work.capacity)
    base, ranks = int(st[BASE]), int(st[NR])
    table = work.table[:table_slots(max_states)]  # a power of two: its own mask
    table.fill(0)
    a, b, t = start(st)
    _insert(table, _key(a, b))
    work.ctx[:] = 0
    work.ctx[STATES] = 1
    stock = st[TAL0:TAL0 + st[TN]].copy()
    fans = st[FAN0:FAN0 + NFANS * FAN_CARDS].reshape(NFANS, FAN_CARDS).copy()
    work.count[0] = expand(stock, fans, base, ranks, a, b, t, work.succ[0], columns)
    work.nxt[0] = 0
    if won(b, ranks):
        return WON_R
    status = RUNNING
    while status == RUNNING:
        if clock.expired():
            return OPEN
        status = clock.run("relax", lambda n: step(stock, fans, base, ranks, columns, max_states, n, table,
                                                   work.succ, work.count, work.nxt, work.ctx),
                           lambda: work.ctx[STATES])
    return status


def warm(st0, clock) -> None:
    """Load (or compile) the kernels off the search's clock: one state of R from any
    Duchess state, read as a `redeals=0` one with a base rank."""
    st = st0.copy()
    st[MAXRED] = st[ROUND] = st[BASE] = 0
    search(RelaxWork(1), st, 1, clock)


@njit(cache=True)
def start(st):
    """(a, b, T) of R for ``st``: a = waste mask (bit i: talon card i) | cards dealt << 36
    | fan heights << 42 (2 bits each); b = foundation counts, 4 bits each; T = the
    column cards as a bit mask."""
    p = st[TK]
    a = p << 36
    for i in range(st[WN]):
        c = st[WST0 + i]
        for k in range(p):
            if st[TAL0 + k] == c:
                a |= 1 << k
    for f in range(NFANS):
        a |= st[FH0 + f] << (42 + 2 * f)
    b = 0
    for s in range(4):
        b |= st[F0 + s] << (4 * s)
    t = 0
    for col in range(NCOLS):
        for i in range(st[H0 + col]):
            t |= 1 << st[COL0 + col * CAP + i]
    return a, b, t


@njit(cache=True)
def won(b, ranks):
    total = 0
    for s in range(4):
        total += (b >> (4 * s)) & 15
    return total == 4 * ranks


@njit(cache=True)
def _key(a, b):
    """One int64 for (a, b), never 0: (1 << dealt | waste) above 24 bits of fan heights
    (8 bits) and foundation counts (base 14).  At most 37 + 24 bits."""
    p = (a >> 36) & 63
    waste = a & ((1 << 36) - 1)
    low = (a >> 42) & 255
    m = 1
    for s in range(4):
        low += ((b >> (4 * s)) & 15) * m * 256
        m *= 14
    return (((1 << p) | waste) << 24) | low


@njit(cache=True)
def _insert(table, key):
    """Put key in the table (linear probing); False if it was there."""
    mask = table.shape[0] - 1
    h = key * -7046029254386353131
    i = (h ^ (h >> 29)) & mask
    while table[i] != 0:
        if table[i] == key:
            return False
        i = (i + 1) & mask
    table[i] = key
    return True


@njit(cache=True)
def chains_by_blocks(t, ranks, top=-1):
    """Fewest chains of the cards in the bit mask t (see the module docstring); with
    ``top`` (a card of t), fewest with nothing lying on that card: it counts once
    less among the cards of its block that others lie on."""
    count = np.zeros((13, 2), dtype=np.int64)  # [0-based rank, red]
    size = 0
    for c in range(52):
        if (t >> c) & 1:
            s = c // 13
            count[c % 13, 1 if (s == 1 or s == 2) else 0] += 1
            size += 1
    top_rank = top % 13 if top >= 0 else -1
    top_red = 1 if (top // 13 == 1 or top // 13 == 2) else 0
    matched = 0
    for r in range(ranks):
        up = (r + 1) % ranks
        for red in range(2):
            parents = count[up, 1 - red] - (1 if up == top_rank and 1 - red == top_red else 0)
            matched += min(count[r, red], parents)
    return size - matched


@njit(cache=True)
def _safe_home(c, base, ranks, b):
    """Both cards that could lie on c (the other colour, one rank lower) are home."""
    down = (c % 13 - 1) % ranks
    red = (c // 13 == 1) or (c // 13 == 2)
    pos = (down - base) % ranks  # that card's place in its suit's foundation order
    for t in range(4):
        if (t == 1 or t == 2) != red and ((b >> (4 * t)) & 15) <= pos:
            return False
    return True


@njit(cache=True)
def expand(stock, fans, base, ranks, a, b, t, out, columns):
    """R's successors of (a, b, t) into out[:, 0..2], home moves first, the deal last;
    a safe home move alone.  Returns how many."""
    waste = a & ((1 << 36) - 1)
    p = (a >> 36) & 63
    fh = np.empty(4, dtype=np.int64)
    tops = np.empty(4, dtype=np.int64)
    nexts = np.empty(4, dtype=np.int64)
    any_fan = False
    for f in range(4):
        fh[f] = (a >> (42 + 2 * f)) & 3
        tops[f] = fans[f, fh[f] - 1] if fh[f] > 0 else -1
        if fh[f] > 0:
            any_fan = True
    for s in range(4):
        k = (b >> (4 * s)) & 15
        nexts[s] = -1 if k == ranks else s * 13 + (base + k) % ranks
    wi = -1
    wtop = -1
    if waste != 0:
        wi = 63
        while not (waste >> wi) & 1:
            wi -= 1
        wtop = stock[wi]
    safe = -1
    for s in range(4):
        c = nexts[s]
        if c < 0:
            continue
        avail = c == wtop or ((t >> c) & 1) == 1
        for f in range(4):
            if tops[f] == c:
                avail = True
        if avail and _safe_home(c, base, ranks, b):
            safe = c
            break
    n = 0
    for s in range(4):
        c = nexts[s]
        if c < 0 or (safe >= 0 and c != safe):
            continue
        nb = b + (1 << (4 * s))
        fan = -1
        for f in range(4):
            if tops[f] == c:
                fan = f
        if c == wtop:
            out[n, 0], out[n, 1], out[n, 2] = a & ~(1 << wi), nb, t
            n += 1
        elif fan >= 0:
            out[n, 0], out[n, 1], out[n, 2] = a - (1 << (42 + 2 * fan)), nb, t
            n += 1
        elif (t >> c) & 1:
            if safe >= 0 or chains_by_blocks(t, ranks, c) <= columns:  # c on top of its chain
                out[n, 0], out[n, 1], out[n, 2] = a, nb, t & ~(1 << c)
                n += 1
    if safe >= 0:
        return n
    for f in range(4):
        c = tops[f]
        if c >= 0 and chains_by_blocks(t | (1 << c), ranks, c) <= columns:
            out[n, 0], out[n, 1], out[n, 2] = a - (1 << (42 + 2 * f)), b, t | (1 << c)
            n += 1
    if wtop >= 0:
        ok = not any_fan
        up = (wtop % 13 + 1) % ranks
        red = (wtop // 13 == 1) or (wtop // 13 == 2)
        for s in range(4):
            if (s == 1 or s == 2) != red and (t >> (s * 13 + up)) & 1:
                ok = True
        if ok and chains_by_blocks(t | (1 << wtop), ranks, wtop) <= columns:
            out[n, 0], out[n, 1], out[n, 2] = a & ~(1 << wi), b, t | (1 << wtop)
            n += 1
    if p < stock.shape[0]:
        out[n, 0], out[n, 1], out[n, 2] = (a | (1 << p)) + (1 << 36), b, t
        n += 1
    return n


@njit(cache=True)
def step(stock, fans, base, ranks, columns, max_states, slice_states, table, succ, count, nxt, ctx):
    """At most ``slice_states`` new states of the depth-first search (successors in
    expand's order; each state once): RUNNING, LOST, WON_R or OPEN."""
    d = ctx[DEPTH]
    end = ctx[STATES] + slice_states
    while d >= 0:
        if nxt[d] == count[d]:
            d -= 1
            continue
        j = nxt[d]
        nxt[d] = j + 1
        a, b, t = succ[d, j, 0], succ[d, j, 1], succ[d, j, 2]
        if not _insert(table, _key(a, b)):
            continue
        ctx[STATES] += 1
        if won(b, ranks):
            ctx[DEPTH] = d
            return WON_R
        if ctx[STATES] > max_states or d + 1 >= succ.shape[0]:
            ctx[DEPTH] = d
            return OPEN
        d += 1
        count[d] = expand(stock, fans, base, ranks, a, b, t, succ[d], columns)
        nxt[d] = 0
        if ctx[STATES] >= end:
            ctx[DEPTH] = d
            return RUNNING
    ctx[DEPTH] = d
    return LOST
