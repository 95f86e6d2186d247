"""Duchess `redeals=0`: a relaxed game with a bag for a tableau (R, and R+, which also
keeps the columns' bottom cards), run on each first move of a deal before the search;
a first move whose R+ is lost is lost (issue 19).

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

R+, the solver's, also keeps B, the columns' bottom cards (a subset of T, at most
four).  A real column is one run from its bottom card up, so every card of T not in
B lies on a card of T, one card on each; by blocks, none has more such cards than
cards of T to lie on (``fits``).  A card becomes a bottom card only by coming into a
space: a fan's top card while the reserve has cards, the waste's (or the stock's)
once it is empty; never from another column, as a run never moves into a space.  A
bottom card stops being one by going home (alone in its column), or when its whole
column moves onto another column's top card, which it continues.  So R+'s moves are
R's with B: a card comes into T onto a card of T (its block has a card to spare), or
into a space (fewer than four bottom cards; a waste card only once the reserve is
empty) as a bottom card; a card of T goes home with nothing on it (the block that
may lie on it has a card to spare), leaving B if it was in it.  A whole column
moving onto another changes nothing else R+ sees and only ever helps a card come
into a space, so R+ makes it only then: with four bottom cards, a card comes into
the space that bottom card x's column leaves if x's block has a card to spare.  (A
line of the real game that moves a whole column earlier is followed with that move
put off until a card comes into a space with none free, or dropped: in between x
counts as a bottom card, which only relaxes the blocks.)  Every real move is a move
of R+ or changes nothing it sees, and every move of R+ is one of R with B forgotten,
so what R loses R+ loses.  The safe move above stays safe: a card nothing can lie on
spares a card of no block, and out of T frees its column if alone there.  Each state
keeps its blocks' slack (``slack``), so each move is tested by one or two numbers.

R's state is the cards dealt, the waste (which dealt cards are still there), the fan
heights and the foundations; T follows from them; R+'s has B too.  It is searched
depth-first, every state once, to its end (lost, a proof), a win of R (no proof: R
wins far more than the game), or a state budget (open).  Keys are one int64
(``_key``) and B (0 in R), so the table costs 16 bytes a slot, two slots a state at
most.  ``experiments/duchess_chain_relaxation.py`` holds the prototype, a plain-Python
search of R, and the checks of R's and R+'s premises along real lines;
tests/test_duchess_relax.py holds this search to the exhaustive oracle.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .common import popcount
from .duchess import (BASE, CAP, COL0, F0, FAN0, FAN_CARDS, FH0, H0, MAXRED, NCOLS, NFANS, NR, ROUND, TAL0, TK, TN,
                      WN, WST0)

MAX_STATES = 1 << 26  # per first move at most: a table of 2^27 slots of 16 bytes, 2 GiB
MAX_DEPTH = 4 * 52 + 8  # R's moves in a line: deals, home moves, cards into T, at most 4 a card
SUCC = 32  # successors of one state at most: 4 home + 5 a fan card and 5 the waste card (R+), the deal
# ctx
DEPTH, STATES, STATUS = 0, 1, 2
CTX_LEN = 3
SCRATCH = 40  # expand's room: fan heights and tops, next cards, the slack (26)
RUNNING, LOST, WON_R, OPEN = 0, 1, 2, 3  # status: WON_R is a win of R (no proof of anything)


def table_slots(max_states: int) -> int:
    """Slots of the table for ``max_states`` states (it holds one more at most, the one
    that ends the search): the least power of two at least twice as many."""
    return 1 << max(10, (2 * max_states - 1).bit_length())


def work_bytes(max_states: int) -> int:
    return 16 * table_slots(min(max_states, MAX_STATES)) + MAX_DEPTH * SUCC * 32 + MAX_DEPTH * 16


class RelaxWork:
    """The arrays one search of R needs, reused across first moves and deals."""

    def __init__(self, max_states: int):
        self.capacity = min(max_states, MAX_STATES)
        self.table = np.zeros((table_slots(self.capacity), 2), dtype=np.int64)
        self.succ = np.zeros((MAX_DEPTH, SUCC, 4), dtype=np.int64)  # (a, b, T, B) of each successor
        self.count = np.zeros(MAX_DEPTH, dtype=np.int64)
        self.nxt = np.zeros(MAX_DEPTH, dtype=np.int64)
        self.ctx = np.zeros(CTX_LEN, dtype=np.int64)
        self.scratch = np.zeros(SCRATCH, dtype=np.int64)


def applies(st) -> bool:
    """R is built for `redeals=0` (no second round) from a deal's start."""
    return int(st[MAXRED]) == 0 and int(st[ROUND]) == 0 and int(st[BASE]) < 0


def search(work: RelaxWork, st, max_states: int, clock, columns: int = NCOLS, bases: bool = True) -> int:
    """R from ``st`` (a state of round 0 with its base rank set: after a first move),
    in slices on ``clock`` (solver.search.portfolio.Clock): LOST, WON_R or OPEN (the
    state budget or the clock ran out).  ``columns`` is the chains R allows (four;
    the tests' mutant allows fewer); ``bases`` keeps which cards are the columns'
    bottom cards (R+, the solver's; without it, R: experiments/duchess_chain_relaxation.py
    is its plain twin)."""
    if st[MAXRED] != 0 or st[ROUND] != 0 or st[BASE] < 0:
        raise ValueError("the relaxation is of a `redeals=0` deal after its first move")
    max_states = min(max_states, work.capacity)
    base, ranks = int(st[BASE]), int(st[NR])
    table = work.table[:table_slots(max_states)]  # a power of two: its own mask
    table.fill(0)
    a, b, t, bm = start(st)
    bm = bm if bases else 0
    _insert(table, _key(a, b), bm)
    work.ctx[:] = 0
    work.ctx[STATES] = 1
    stock = st[TAL0:TAL0 + st[TN]].copy()
    fans = st[FAN0:FAN0 + NFANS * FAN_CARDS].reshape(NFANS, FAN_CARDS).copy()
    work.count[0] = expand(stock, fans, base, ranks, a, b, t, bm, work.succ[0], columns, bases, work.scratch)
    work.nxt[0] = 0
    if won(b, ranks):
        return WON_R
    status = RUNNING
    while status == RUNNING:
        if clock.expired():
            return OPEN
        status = clock.run("relax", lambda n: step(stock, fans, base, ranks, columns, bases, max_states, n, table,
                                                   work.succ, work.count, work.nxt, work.ctx, work.scratch),
                           lambda: work.ctx[STATES])
    return status


def won_line(work: RelaxWork, st0, first: int) -> list[int] | None:
    """After a search of R+ from ``first`` played on the deal's start ``st0`` that ended
    WON_R: a real winning line from ``st0`` (kernel moves, replayed in the checker), or
    None where R+'s line cannot be made real (solver/games/duchess_relax_line.py)."""
    from .duchess_relax_line import real_line, won_path

    return real_line(st0, first, won_path(work))


def warm(st0, clock) -> None:
    """Load (or compile) the kernels off the search's clock: one state of R from any
    Duchess state, read as a `redeals=0` one with a base rank."""
    st = st0.copy()
    st[MAXRED] = st[ROUND] = st[BASE] = 0
    search(RelaxWork(1), st, 1, clock)


@njit(cache=True)
def start(st):
    """(a, b, T, B) of R for ``st``: a = waste mask (bit i: talon card i) | cards dealt << 36
    | fan heights << 42 (2 bits each); b = foundation counts, 4 bits each; T = the
    column cards as a bit mask; B = the columns' bottom cards as a bit mask."""
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
    bm = 0
    for col in range(NCOLS):
        for i in range(st[H0 + col]):
            t |= 1 << st[COL0 + col * CAP + i]
        if st[H0 + col] > 0:
            bm |= 1 << st[COL0 + col * CAP]
    return a, b, t, bm


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
def _insert(table, key, bm):
    """Put (key, bm) in the table (linear probing, two words a slot); False if it was
    there."""
    mask = table.shape[0] - 1
    h = (key ^ (bm * -4658895280553007687)) * -7046029254386353131
    i = (h ^ (h >> 29)) & mask
    while table[i, 0] != 0:
        if table[i, 0] == key and table[i, 1] == bm:
            return False
        i = (i + 1) & mask
    table[i, 0] = key
    table[i, 1] = bm
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
def fits(t, bm, ranks, top=-1):
    """R+'s condition: T (bit mask t) is columns whose bottom cards are B (bm, a subset
    of t): every card of T not in B lies on a card of T, one each.  By blocks (see the
    module docstring): in each, the cards not in B that lie on others number at most
    the cards of T they may lie on; ``top``, a card nothing may lie on, counts as none
    of the latter."""
    kids = np.zeros((13, 2), dtype=np.int64)  # cards not in B, [0-based rank, red]
    count = np.zeros((13, 2), dtype=np.int64)  # cards of T
    for c in range(52):
        if (t >> c) & 1:
            s = c // 13
            red = 1 if (s == 1 or s == 2) else 0
            count[c % 13, red] += 1
            if not (bm >> c) & 1:
                kids[c % 13, red] += 1
    top_rank = top % 13 if top >= 0 else -1
    top_red = 1 if (top // 13 == 1 or top // 13 == 2) else 0
    for r in range(ranks):
        up = (r + 1) % ranks
        for red in range(2):
            parents = count[up, 1 - red] - (1 if up == top_rank and 1 - red == top_red else 0)
            if kids[r, red] > parents:
                return False
    return True


@njit(cache=True)
def slack(t, bm, ranks, out):
    """out[r, red] = in the block of the cards of 0-based rank r and that colour
    (1: red), the cards of T they may lie on less those of them not in B: what
    ``fits`` asks is that none be negative.  One card changes one or two of these, so
    R+'s moves are tested from them (``_slack_of``, ``_into_tableau``)."""
    out[:, :] = 0
    for c in range(52):
        if (t >> c) & 1:
            s = c // 13
            red = 1 if (s == 1 or s == 2) else 0
            r = c % 13
            out[(r - 1) % ranks, 1 - red] += 1  # c takes a card of the block below
            if not (bm >> c) & 1:
                out[r, red] -= 1  # c lies on a card of its own block's parents


@njit(cache=True)
def _slack_of(sl, c, ranks, below):
    """The slack of card c's own block (lying on others), or with ``below`` of the
    block of the cards that may lie on c."""
    s = c // 13
    red = 1 if (s == 1 or s == 2) else 0
    if below:
        return sl[(c % 13 - 1) % ranks, 1 - red]
    return sl[c % 13, red]


@njit(cache=True)
def _into_tableau(a2, b, t, bm, sl, c, ranks, columns, as_bottom, out, n):
    """R+'s successors with card c come into T (a2: the state without it where it
    was), nothing lying on it: onto a card of T (c's block needs a card to spare);
    and, if ``as_bottom``, into a space, or into the space a whole column with bottom
    card x leaves by moving onto a card of T (x's block needs a card to spare) when
    none is free: such a move changes nothing else R+ sees, so it is made only when a
    space is wanted.  (c among the cards x's block may lie on changes nothing: nothing
    lies on c.)"""
    t2 = t | (1 << c)
    if _slack_of(sl, c, ranks, False) >= 1:
        out[n, 0], out[n, 1], out[n, 2], out[n, 3] = a2, b, t2, bm
        n += 1
    if as_bottom:
        if popcount(bm) < columns:
            out[n, 0], out[n, 1], out[n, 2], out[n, 3] = a2, b, t2, bm | (1 << c)
            n += 1
        else:
            for x in range(52):
                if (bm >> x) & 1 and _slack_of(sl, x, ranks, False) >= 1:
                    out[n, 0], out[n, 1], out[n, 2], out[n, 3] = a2, b, t2, (bm & ~(1 << x)) | (1 << c)
                    n += 1
    return n


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
def expand(stock, fans, base, ranks, a, b, t, bm, out, columns, bases, scratch):
    """The successors of (a, b, t, bm) into out[:, 0..3], home moves first, the deal
    last; a safe home move alone.  R+ if ``bases`` (bm the columns' bottom cards), R
    if not (bm 0).  ``scratch``: SCRATCH int64s of room (nothing allocated here).
    Returns how many."""
    waste = a & ((1 << 36) - 1)
    p = (a >> 36) & 63
    fh = scratch[0:4]
    tops = scratch[4:8]
    nexts = scratch[8:12]
    sl = scratch[12:38].reshape((13, 2))
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
    if bases:
        slack(t, bm, ranks, sl)
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
            out[n, 0], out[n, 1], out[n, 2], out[n, 3] = a & ~(1 << wi), nb, t, bm
            n += 1
        elif fan >= 0:
            out[n, 0], out[n, 1], out[n, 2], out[n, 3] = a - (1 << (42 + 2 * fan)), nb, t, bm
            n += 1
        elif (t >> c) & 1:
            # c on top of its column (its chain)
            if safe >= 0 or (_slack_of(sl, c, ranks, True) >= 1 if bases else chains_by_blocks(t, ranks, c) <= columns):
                out[n, 0], out[n, 1], out[n, 2], out[n, 3] = a, nb, t & ~(1 << c), bm & ~(1 << c)
                n += 1
    if safe >= 0:
        return n
    for f in range(4):
        c = tops[f]
        if c < 0:
            continue
        a2 = a - (1 << (42 + 2 * f))
        if bases:  # onto a column's top, or into a space (a fan card may fill one)
            n = _into_tableau(a2, b, t, bm, sl, c, ranks, columns, True, out, n)
        elif chains_by_blocks(t | (1 << c), ranks, c) <= columns:
            out[n, 0], out[n, 1], out[n, 2], out[n, 3] = a2, b, t | (1 << c), bm
            n += 1
    if wtop >= 0:
        a2 = a & ~(1 << wi)
        if bases:  # onto a column's top, or into a space once the reserve is empty
            n = _into_tableau(a2, b, t, bm, sl, wtop, ranks, columns, not any_fan, out, n)
        else:
            ok = not any_fan
            up = (wtop % 13 + 1) % ranks
            red = (wtop // 13 == 1) or (wtop // 13 == 2)
            for s in range(4):
                if (s == 1 or s == 2) != red and (t >> (s * 13 + up)) & 1:
                    ok = True
            if ok and chains_by_blocks(t | (1 << wtop), ranks, wtop) <= columns:
                out[n, 0], out[n, 1], out[n, 2], out[n, 3] = a2, b, t | (1 << wtop), bm
                n += 1
    if p < stock.shape[0]:
        out[n, 0], out[n, 1], out[n, 2], out[n, 3] = (a | (1 << p)) + (1 << 36), b, t, bm
        n += 1
    return n


@njit(cache=True)
def step(stock, fans, base, ranks, columns, bases, max_states, slice_states, table, succ, count, nxt, ctx, scratch):
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
        a, b, t, bm = succ[d, j, 0], succ[d, j, 1], succ[d, j, 2], succ[d, j, 3]
        if not _insert(table, _key(a, b), bm):
            continue
        ctx[STATES] += 1
        if won(b, ranks):
            ctx[DEPTH] = d
            return WON_R
        if ctx[STATES] > max_states or d + 1 >= succ.shape[0]:
            ctx[DEPTH] = d
            return OPEN
        d += 1
        count[d] = expand(stock, fans, base, ranks, a, b, t, bm, succ[d], columns, bases, scratch)
        nxt[d] = 0
        if ctx[STATES] >= end:
            ctx[DEPTH] = d
            return RUNNING
    ctx[DEPTH] = d
    return LOST
