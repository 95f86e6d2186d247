"""Baker's Dozen (RULES.md): state encoding and rules as numba kernels.

State: one int64 array ``st`` (layout below).  Columns hold card codes bottom to
top; foundations are counts per suit.  The two 64-bit Zobrist hashes sum a key for
every (card, what lies beneath it) pair, where "beneath" is another card, the bottom
of a column, or the foundation.  Column order therefore does not enter the key:
columns are interchangeable, so states that differ only by a permutation of
columns are one state to the search (symmetry pruning).

Moves are ints: ``card | src << 6 | dst << 10``; dst = FND is the foundation.

Tiny variants (fewer ranks or columns) exist for exhaustive tests: the highest rank
in play plays the king's part (king rule, foundation complete).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..cards import card_str, rank_of
from ..search import specialise, specialise_engines
from . import kernels
from .common import set_ordering
from .zobrist import zobrist_keys
from ..variants import parse_variant

NAME = "bakers-dozen"
PACKS = 1
# no redeals: nothing to chain (solver.batch.monotone)
REDEALS_MONOTONE = True
VARIANTS = {
    "kings_to_bottom": ("bool", True),
    "face_down": ("bool", False),
    "empty": (("none", "any", "king"), "none"),
}
EMPTY_RULES = {"none": 0, "any": 1, "king": 2}

MAXC = 13  # columns
CAP = 52  # cards a column can hold
FND = 13  # destination code of the foundation
BOTTOM = 52  # "beneath" code of a column's bottom card
ONFND = 53  # "beneath" code of a card on its foundation

# state layout
H0 = 0  # heights, MAXC entries
F0 = 13  # foundation counts per suit, 4 entries
HASH1 = 17
HASH2 = 18
NCOLS = 19
NRANKS = 20
EMPTY = 21
LEFT = 22  # cards not on the foundations
W0 = 24  # move-ordering weights (set_profile), 4 entries, then noise mask and salt
C0 = 32  # columns: st[C0 + col * CAP + pos]
S0 = C0 + MAXC * CAP  # scratch: is_dead's (colof, posof, nfree, reach) in 5 x 52, then 4 for blockers
HS0 = S0 + 5 * 52 + 4  # scratch of the host count (bakers_dozen_hosts.py)
STATE_LEN = HS0 + 340
PACK_LEN = MAXC + 52  # heights then cards, column by column
MAX_MOVES = 13 * 14 + 16  # generous bound on moves from one state
# The portfolio's short attempts search in random orders, not noisy versions of
# score()'s: on the deals the heuristic leaves unknown, random orders of 20,000
# nodes win 8 of 10 tried, noisy ones 1 (the four other games: the other way round).
RANDOM_SHORT = True
# Wins are shortened with weighted A* too (solver.solve._shorter): its lines have a
# median of 81 moves where the search's have 119, for about 0.05 s a deal.
SHORTEN_ASTAR = True


Z1 = zobrist_keys(0xBA4E5D02, 52 * 54).reshape(52, 54)  # (card, what lies beneath it)
Z2 = zobrist_keys(0x5EED0F13, 52 * 54).reshape(52, 54)

# key1, key2, is_won, _first_empty, _pack_run, _unpack_run, _pack_end
specialise(globals(), kernels.KEYS + kernels.PILES + kernels.PACKING, inline=True)


# ----------------------------------------------------------------------------------
# layout (plain Python: runs once per deal)


def layout_columns(deck, variant: dict, ranks: int = 13, columns: int = 13) -> list[list[int]]:
    """Columns bottom to top after the deal and, if on, the king rule (stable partition)."""
    cols = [[] for _ in range(columns)]
    for i, c in enumerate(deck):
        cols[i % columns].append(int(c))
    if variant.get("kings_to_bottom", True):
        cols = [[c for c in col if rank_of(c) == ranks] + [c for c in col if rank_of(c) != ranks] for col in cols]
    return cols


def initial_state(deck, variant: dict, ranks: int = 13, columns: int | None = 13) -> np.ndarray:
    columns = MAXC if columns is None else columns
    st = np.zeros(STATE_LEN, dtype=np.int64)
    st[NCOLS] = columns
    st[NRANKS] = ranks
    st[EMPTY] = EMPTY_RULES[variant.get("empty", "none")]
    for col, cards in enumerate(layout_columns(deck, variant, ranks, columns)):
        st[H0 + col] = len(cards)
        for p, c in enumerate(cards):
            st[C0 + col * CAP + p] = c
    st[LEFT] = len(deck)
    set_profile(st, 0)
    rehash(st)
    return st


# Weights of score(): (cards left, blockers, cover of needed cards, disorder).
# Different profiles give differently ordered searches for restarts.
PROFILES = [(4, 6, 2, 1), (4, 3, 3, 1), (4, 8, 1, 2), (4, 4, 4, 0), (4, 10, 3, 1), (4, 2, 1, 3)]


def set_profile(st, k: int) -> None:
    """Move ordering of restart attempt k (see common.set_ordering)."""
    set_ordering(st, W0, PROFILES, k, noise=3)


def layout_text(deck, variant: dict) -> str:
    full = parse_variant(NAME, VARIANTS, [])
    full.update(variant)
    cols = layout_columns(deck, full)
    lines = ["Baker's Dozen, columns bottom to top" + (" (only the top card is face up in play)" if full["face_down"] else "")]
    for i, col in enumerate(cols):
        lines.append(f"c{i + 1:<3}" + " ".join(card_str(c) for c in col))
    return "\n".join(lines)


def move_text(m: int) -> str:
    c, src, dst = m & 63, (m >> 6) & 15, (m >> 10) & 15
    return f"c{src + 1} {'F' if dst == FND else f'c{dst + 1}'} {card_str(c)}"


def checker_view(st) -> dict:
    """The state in the checker's terms (solver.checker.BakersDozen.view)."""
    columns = [[int(st[C0 + col * CAP + p]) for p in range(st[H0 + col])] for col in range(st[NCOLS])]
    return {"columns": columns, "foundation": [int(st[F0 + s]) for s in range(4)]}


# ----------------------------------------------------------------------------------
# kernels


@njit(cache=True)
def rehash(st):
    h1 = 0
    h2 = 0
    ncols = st[NCOLS]
    for col in range(ncols):
        base = C0 + col * CAP
        below = BOTTOM
        for p in range(st[H0 + col]):
            c = st[base + p]
            h1 += Z1[c, below]
            h2 += Z2[c, below]
            below = c
    for s in range(4):
        for r in range(st[F0 + s]):
            c = s * 13 + r
            h1 += Z1[c, ONFND]
            h2 += Z2[c, ONFND]
    st[HASH1] = h1
    st[HASH2] = h2


@njit(cache=True)
def _top(st, col):
    h = st[H0 + col]
    if h == 0:
        return -1
    return st[C0 + col * CAP + h - 1]


@njit(cache=True)
def apply_move(st, m):
    c = m & 63
    src = (m >> 6) & 15
    dst = (m >> 10) & 15
    hs = st[H0 + src] - 1
    st[H0 + src] = hs
    old_below = BOTTOM if hs == 0 else st[C0 + src * CAP + hs - 1]
    if dst == FND:
        new_below = ONFND
        st[F0 + c // 13] += 1
        st[LEFT] -= 1
    else:
        hd = st[H0 + dst]
        new_below = BOTTOM if hd == 0 else st[C0 + dst * CAP + hd - 1]
        st[C0 + dst * CAP + hd] = c
        st[H0 + dst] = hd + 1
    st[HASH1] += Z1[c, new_below] - Z1[c, old_below]
    st[HASH2] += Z2[c, new_below] - Z2[c, old_below]


@njit(cache=True)
def undo_move(st, m):
    c = m & 63
    src = (m >> 6) & 15
    dst = (m >> 10) & 15
    if dst == FND:
        new_below = ONFND
        st[F0 + c // 13] -= 1
        st[LEFT] += 1
    else:
        hd = st[H0 + dst] - 1
        st[H0 + dst] = hd
        new_below = BOTTOM if hd == 0 else st[C0 + dst * CAP + hd - 1]
    hs = st[H0 + src]
    old_below = BOTTOM if hs == 0 else st[C0 + src * CAP + hs - 1]
    st[C0 + src * CAP + hs] = c
    st[H0 + src] = hs + 1
    st[HASH1] -= Z1[c, new_below] - Z1[c, old_below]
    st[HASH2] -= Z2[c, new_below] - Z2[c, old_below]


@njit(cache=True)
def _min_found(st):
    lo = 99
    for s in range(4):
        if st[F0 + s] < lo:
            lo = st[F0 + s]
    return lo


@njit(cache=True)
def gen_moves(st, out, base):
    """Write the legal moves worth trying at out[base:], return how many.

    Pruning, each proven safe (no winnable state is made to look lost, and A*'s
    shortest length is kept, since each removes or forces moves without lengthening
    any solution):

    * Safe foundation move, played alone.  Card c of rank r, the next for its suit,
      when every foundation holds at least r-2.  In any continuation where c stays,
      c's only other use is as a target for a card d of rank r-1.  Every such d is
      either on a foundation already or goes to its foundation (which is at r-2)
      at the moment the continuation would put it on c; nothing then needs d as a
      target either, since all r-2 cards are home.  Replace those moves by the
      foundation moves and drop c's later moves: the new line is legal, no longer,
      and covers nothing the old one left free, so some winning line plays c now.
    * A column's last card is never moved onto another column when empty columns
      stay empty: the card stays as free where it was, and the card it would cover
      stays free too (the state reached is dominated).  Likewise a lone card is not
      moved into an empty column (the same state up to column order).
    * Only one empty column is tried as a destination (they are interchangeable).
    """
    ncols = st[NCOLS]
    nranks = st[NRANKS]
    empty_rule = st[EMPTY]
    lowf = _min_found(st)
    n = 0
    # safe foundation moves first, alone
    for col in range(ncols):
        c = _top(st, col)
        if c < 0:
            continue
        r = c % 13 + 1
        if st[F0 + c // 13] == r - 1 and r <= lowf + 2:
            out[base] = c | (col << 6) | (FND << 10)
            return 1
    first_empty = _first_empty(st, ncols)
    for col in range(ncols):
        c = _top(st, col)
        if c < 0:
            continue
        r = c % 13 + 1
        if st[F0 + c // 13] == r - 1:
            out[base + n] = c | (col << 6) | (FND << 10)
            n += 1
        lone = st[H0 + col] == 1
        if r < nranks and not (lone and empty_rule == 0):
            for d in range(ncols):
                if d == col:
                    continue
                t = _top(st, d)
                if t >= 0 and t % 13 + 1 == r + 1:
                    out[base + n] = c | (col << 6) | (d << 10)
                    n += 1
        if first_empty >= 0 and not lone and (empty_rule == 1 or (empty_rule == 2 and r == nranks)):
            out[base + n] = c | (col << 6) | (first_empty << 10)
            n += 1
    return n


@njit(cache=True)
def blockers(st):
    """Cards lying above a lower card of their own suit in their column.

    Each must make at least one move onto another column before its foundation
    move, which makes ``left + blockers`` an admissible and consistent A* bound.
    """
    ncols = st[NCOLS]
    count = 0
    lowest = st[S0 + 5 * 52:S0 + 5 * 52 + 4]  # scratch: lowest rank seen per suit
    for col in range(ncols):
        base = C0 + col * CAP
        for s in range(4):
            lowest[s] = 99
        for p in range(st[H0 + col]):
            c = st[base + p]
            s = c // 13
            r = c % 13
            if lowest[s] < r:
                count += 1
            elif r < lowest[s]:
                lowest[s] = r
    return count


@njit(cache=True)
def lower_bound(st):
    return st[LEFT] + blockers(st)


@njit(cache=True)
def score(st):
    """Move-ordering score, lower is better: remaining work plus how buried the
    cards each foundation needs next are, plus cards not resting on a card one rank
    higher (they will need a move)."""
    ncols = st[NCOLS]
    s_cover = 0
    disorder = 0
    for col in range(ncols):
        base = C0 + col * CAP
        h = st[H0 + col]
        for p in range(h):
            c = st[base + p]
            if st[F0 + c // 13] == c % 13:  # the next card its suit needs
                s_cover += h - 1 - p
            if p > 0:
                b = st[base + p - 1]
                if b % 13 != c % 13 + 1:
                    disorder += 1
    noise = ((st[HASH1] ^ st[W0 + 5]) >> 17) & st[W0 + 4]
    return st[W0] * st[LEFT] + st[W0 + 1] * blockers(st) + st[W0 + 2] * s_cover + st[W0 + 3] * disorder + noise


@njit(cache=True)
def _clear(st, c, colof, posof, nfree):
    """is_dead's frontier: card c lies in a column, at or above the card below
    that column's run of free top cards."""
    col = colof[c]
    return col >= 0 and posof[c] >= st[H0 + col] - 1 - nfree[col]


@njit(cache=True)
def is_dead(st):
    """Dead-end test: some card can never reach its foundation, even in a
    relaxation where cards moved onto others never block anything.

    Least fixed point over cards: clear(x) = every card above x can leave;
    home(x) = clear(x) and (x is next for its suit, or home(the card before it));
    free(x) = clear(x) and (home(x) or some card one rank higher, not beneath x in
    its column, can be uncovered, i.e. is clear).  In a real winning line every
    card leaves its place and goes home in an order that derives these facts, so
    a card with home(x) false proves the state lost.  With empty columns playable
    a card may always go to a space, so the test only uses the foundation part.

    Computed by frontiers: the facts only grow, and in a column the free cards are
    a run from the top, so each column keeps how many of its top cards are free
    (the card below them is clear), and each suit how far its run of clear cards
    from the foundation reaches (home(x) is x within that run).  A pass looks only
    at the card below each column's free run; passes repeat until none moves (the
    same least fixed point as re-deriving every fact each pass, at about half the
    cost: 2.3 against 4.1 us a state).  The state is lost iff some suit's run stops
    short of its top card.
    """
    ncols = st[NCOLS]
    nranks = st[NRANKS]
    empty_rule = st[EMPTY]
    colof = st[S0:S0 + 52]
    posof = st[S0 + 52:S0 + 104]
    nfree = st[S0 + 104:S0 + 104 + MAXC]  # per column: its top cards known free
    reach = st[S0 + 156:S0 + 160]  # per suit: highest rank (0-based) home, F - 1 if none
    colof[:] = -1
    for col in range(ncols):
        base = C0 + col * CAP
        nfree[col] = 0
        for p in range(st[H0 + col]):
            c = st[base + p]
            colof[c] = col
            posof[c] = p
    for s in range(4):
        reach[s] = st[F0 + s] - 1
    every_free = empty_rule == 1
    changed = True
    while changed:
        changed = False
        for col in range(ncols):
            h = st[H0 + col]
            base = C0 + col * CAP
            while nfree[col] < h:
                p = h - 1 - nfree[col]
                c = st[base + p]  # clear: every card above it is free
                s = c // 13
                r = c % 13  # 0-based
                # extend the suit's run of clear cards (c may be the next one)
                while reach[s] + 1 < nranks:
                    if not _clear(st, s * 13 + reach[s] + 1, colof, posof, nfree):
                        break
                    reach[s] += 1
                ok = r <= reach[s] or every_free or (empty_rule == 2 and r + 1 == nranks)
                if not ok and r + 1 < nranks:
                    for t_s in range(4):
                        # a clear card one rank higher (one beneath c in its column is
                        # not clear while c is not free)
                        if _clear(st, t_s * 13 + r + 1, colof, posof, nfree):
                            ok = True
                            break
                if not ok:
                    break
                nfree[col] += 1
                changed = True
    for s in range(4):
        if st[F0 + s] < nranks and reach[s] < nranks - 1:
            return True
    return False


@njit(cache=True)
def pack(st, row):
    """Compact copy for A*'s node store: heights, then the cards column by column."""
    ncols = st[NCOLS]
    k = MAXC
    for col in range(MAXC):
        h = st[H0 + col] if col < ncols else 0
        row[col] = h
        k = _pack_run(st, row, k, C0 + col * CAP, 0, h)
    _pack_end(row, k)


@njit(cache=True)
def unpack(row, st):
    """Inverse of pack; NCOLS, NRANKS and EMPTY are kept from ``st``."""
    ncols = st[NCOLS]
    nranks = st[NRANKS]
    present = np.zeros(52, dtype=np.bool_)
    k = MAXC
    left = 0
    for col in range(ncols):
        h = row[col]
        st[H0 + col] = h
        base = C0 + col * CAP
        for p in range(h):
            c = row[k]
            st[base + p] = c
            present[c] = True
            k += 1
            left += 1
    for s in range(4):
        f = 0
        while f < nranks and not present[s * 13 + f]:
            f += 1
        st[F0 + s] = f
    st[LEFT] = left
    rehash(st)


# The host count lives in bakers_dozen_hosts.py, imported once the names it uses exist.
from .bakers_dozen_hosts import HOSTS_LEN, hosts_dead  # noqa: E402

assert HOSTS_LEN <= STATE_LEN - HS0


@njit(cache=True)
def root_dead(st):
    """The host count, run once on a deal's start, when some king lies on a card.

    Not at every node: it costs milliseconds where is_dead costs about 2 us, and a DFS
    running an early form of it at every node (seeds 3, 217, 247, 258 without the king
    rule) went 5 to 7 times slower and proved none of the four lost in 60 s.  Not with
    the kings at the bottom (the king rule): there it decided none of the million-deal
    run's 2,957 lost or unknown deals, at 8 ms a deal on seeds 1..2,000."""
    king = st[NRANKS] - 1
    for col in range(st[NCOLS]):
        for p in range(1, st[H0 + col]):
            if st[C0 + col * CAP + p] % 13 == king:
                return hosts_dead(st)
    return False

specialise_engines(globals())  # the engines compiled against these kernels: dfs() and astar()
