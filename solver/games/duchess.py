"""Duchess (Glenwood), RULES.md: state encoding and rules as numba kernels.

State: one int64 array ``st`` (layout below).  The four reserve fans keep the cards
they were dealt (they never grow), so a fan is its height.  Columns hold card codes
bottom to top.  The stock is the round's talon array with a pointer (cards before
it have been dealt); the waste is a stack.  A redeal makes the waste the new talon
and saves the old one, which is what its undo restores.  Foundations are counts;
before the first move the base rank is -1, and the first move (a fan's top card to
its foundation) sets it.  A suit with k cards home takes rank (base + k) mod NR
next (ranks are 0-based here).

Keys: two 64-bit Zobrist sums over the fan heights, (stock position, card),
(waste position, card), foundation counts, the base and the round.  Columns are
interchangeable (any space takes the same cards, and no rule names a column), so
each column has running hashes of (height, card) and the key sums a nonlinear mix
of them: states that differ only by the order of the columns are one state.

Moves are ints: kind in bits 0-2, card << 3, source << 9 (columns 0-3, fans 4-7,
``WASTE``, ``STOCK``), destination column << 13, cards moved << 16 (a run), and bit
22 for the first move, which chooses the base rank.

Tiny variants (``ranks`` from 4 up) exist for exhaustive tests: rank ``ranks``
plays the king's part and wraps to the ace.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..cards import card_str, check_deck
from ..errors import PatienceError
from ..search import specialise, specialise_engines
from ..variants import full_variant
from . import kernels
from .common import rounds_view, set_ordering
from .zobrist import mix64, zobrist_keys

NAME = "duchess"
PACKS = 1
# the redeal is the player's to take or leave; nothing else depends on redeals
REDEALS_MONOTONE = True
VARIANTS = {
    "redeals": (("int", 0, 1), 1),
    "moves": (("any", "whole"), "any"),
}

# The first move fixes the base rank for the whole game, and the right choice often
# wins within a few hundred nodes while a wrong one holds millions of states; so
# solver.solve runs the restarts of each first move side by side.
SPLIT_FIRST_MOVE = True

NCOLS = 4
NFANS = 4
FAN_CARDS = 3
CAP = 56  # cards a column can hold (all 52, with room)
WASTE = 8  # source codes after the columns (0-3) and the fans (4-7)
STOCK = 9

# state layout
BASE = 0  # 0-based base rank, -1 before the first move
NR = 1  # ranks in play
ROUND = 2  # redeals made
MAXRED = 3
WHOLE = 4  # moves=whole
LEFT = 5  # cards not on the foundations
HASH1 = 6
HASH2 = 7
RESLEFT = 8  # reserve cards left
TN = 9  # talon length this round
TK = 10  # stock pointer: talon[TK:TN] is the stock, top first
WN = 11  # waste size
F0 = 12  # 4 foundation counts
FH0 = 16  # 4 fan heights
H0 = 20  # 4 column heights
CH1 = 24  # running hash of each column (key 1)
CH2 = 28  # (key 2)
W0 = 32  # ordering weights (set_profile): 3 weights, noise mask, salt
FAN0 = 40  # fans: st[FAN0 + fan * 3 + pos], bottom to top
COL0 = FAN0 + NFANS * FAN_CARDS  # columns: st[COL0 + col * CAP + pos]
TAL0 = COL0 + NCOLS * CAP  # the talon of this round
WST0 = TAL0 + 52  # the waste, bottom to top
SNAP0 = WST0 + 52  # the talon before the redeal: TN, TK, cards
STUCK0 = SNAP0 + 2 + 52  # is_dead's scratch: 1 for each card of the stuck set,
LEAST0 = STUCK0 + 52  # and per suit the lowest foundation order among them
ORD0 = LEAST0 + 4  # each card's place in its suit's foundation order (set with the base)
TGT0 = ORD0 + 52  # the two cards each card could be built on (other colour, one rank up)
STATE_LEN = TGT0 + 2 * 52

PACK_LEN = 20 + 52  # counters, then column cards, stock, waste
MAX_MOVES = 160

KIND_FOUNDATION = 0
KIND_COLUMN = 1
KIND_DEAL = 2
KIND_REDEAL = 3
FIRST = 1 << 22
INF_ORDER = 99

# Zobrist tables: one flat array per key, indexed by the offsets below
Z_COL = 0  # (height, card): CAP x 52
Z_FAN = Z_COL + CAP * 52  # (fan, height): 4 x 4
Z_STK = Z_FAN + NFANS * (FAN_CARDS + 1)  # (position, card): 52 x 52
Z_WST = Z_STK + 52 * 52  # (position, card): 52 x 52
Z_F = Z_WST + 52 * 52  # (suit, count): 4 x 14
Z_BASE = Z_F + 4 * 14  # 14: base + 1
Z_ROUND = Z_BASE + 14
Z_LEN = Z_ROUND + 2

Z1 = zobrist_keys(0xD0C4E55A, Z_LEN)
Z2 = zobrist_keys(0x61E4700D, Z_LEN)

# key1, key2, is_won, _term, _zsum, _first_empty, _noise, score (over _needed_cover below),
# _pack_run, _unpack_run, _pack_end
specialise(globals(), kernels.KEYS + kernels.ZOBRIST + kernels.PILES + kernels.ORDERING + kernels.COVER_SCORE
           + kernels.PACKING, inline=True)


# ----------------------------------------------------------------------------------
# setting up a deal (plain Python: runs once per deal)


def initial_state(deck, variant: dict, ranks: int = 13, columns: int | None = None) -> np.ndarray:
    """The layout: fans, the four column cards, the stock; no move made yet."""
    full = full_variant(NAME, VARIANTS, variant)
    if not 4 <= ranks <= 13:
        raise PatienceError(f"ranks must be from 4 to 13 (the layout takes 16 cards), not {ranks}")
    if columns not in (None, NCOLS):
        raise PatienceError(f"{NAME} always has four columns t1..t4; columns={columns} is not supported")
    cards = [int(c) for c in deck]
    check_deck(cards, packs=PACKS, ranks=ranks)
    st = np.zeros(STATE_LEN, dtype=np.int64)
    st[BASE] = -1
    st[NR] = ranks
    st[MAXRED] = full["redeals"]
    st[WHOLE] = 1 if full["moves"] == "whole" else 0
    for i in range(12):
        f = i % NFANS
        st[FAN0 + f * FAN_CARDS + i // NFANS] = cards[i]
    for f in range(NFANS):
        st[FH0 + f] = FAN_CARDS
    st[RESLEFT] = 12
    _set_targets(st)
    for col in range(NCOLS):
        st[COL0 + col * CAP] = cards[12 + col]
        st[H0 + col] = 1
    stock = cards[16:]
    for i, c in enumerate(stock):
        st[TAL0 + i] = c
    st[TN] = len(stock)
    st[LEFT] = len(cards)
    set_profile(st, 0)
    rehash(st)
    return st


# Weights of score(): (cards left, cards above the cards the foundations need next,
# redeals used); different profiles give differently ordered searches for restarts.
PROFILES = [(8, 2, 20), (8, 1, 40), (8, 4, 10), (8, 0, 20), (8, 3, 60), (8, 6, 0)]


def set_profile(st, k: int) -> None:
    """Move ordering of restart attempt k (see common.set_ordering)."""
    set_ordering(st, W0, PROFILES, k, noise=7)


def layout_text(deck, variant: dict) -> str:
    st = initial_state(deck, variant)
    lines = ["Duchess, the layout (fans and columns bottom to top; the stock top first)"]
    for f in range(NFANS):
        lines.append(f"r{f + 1}  " + " ".join(card_str(int(st[FAN0 + f * FAN_CARDS + i])) for i in range(FAN_CARDS)))
    for col in range(NCOLS):
        lines.append(f"t{col + 1}  " + card_str(int(st[COL0 + col * CAP])))
    lines.append("S   " + " ".join(card_str(int(st[TAL0 + i])) for i in range(st[TN])))
    return "\n".join(lines)


def _source_text(src: int) -> str:
    if src < NCOLS:
        return f"t{src + 1}"
    if src < WASTE:
        return f"r{src - NCOLS + 1}"
    return "W" if src == WASTE else "S"


def move_text(m: int) -> str:
    kind = m & 7
    if kind == KIND_DEAL:
        return "deal"
    if kind == KIND_REDEAL:
        return "redeal"
    c, src, dst = (m >> 3) & 63, (m >> 9) & 15, (m >> 13) & 7
    to = "F" if kind == KIND_FOUNDATION else f"t{dst + 1}"
    return f"{_source_text(src)} {to} {card_str(c)}"


def checker_view(st) -> dict:
    """The state in the checker's terms (solver.checker.Duchess.view)."""
    return {
        "fans": [[int(st[FAN0 + f * FAN_CARDS + i]) for i in range(st[FH0 + f])] for f in range(NFANS)],
        "columns": [[int(st[COL0 + c * CAP + i]) for i in range(st[H0 + c])] for c in range(NCOLS)],
        "stock": [int(st[TAL0 + i]) for i in range(st[TK], st[TN])],
        "waste": [int(st[WST0 + i]) for i in range(st[WN])],
        "base": None if st[BASE] < 0 else int(st[BASE]) + 1,
        "found": [int(st[F0 + s]) for s in range(4)],
        "redeals_left": rounds_view(st, ROUND, MAXRED)["redeals_left"],
    }


# ----------------------------------------------------------------------------------
# kernels


@njit(cache=True)
def rehash(st):
    h1 = Z1[Z_BASE + st[BASE] + 1] + Z1[Z_ROUND + st[ROUND]]
    h2 = Z2[Z_BASE + st[BASE] + 1] + Z2[Z_ROUND + st[ROUND]]
    for col in range(NCOLS):
        a, b = _zsum(st, Z_COL, 52, COL0 + col * CAP, 0, st[H0 + col])
        st[CH1 + col] = a
        st[CH2 + col] = b
        h1 += mix64(a)
        h2 += mix64(b)
    fans = _zsum(st, Z_FAN, FAN_CARDS + 1, FH0, 0, NFANS)  # (fan, height)
    stock = _zsum(st, Z_STK, 52, TAL0, st[TK], st[TN])
    waste = _zsum(st, Z_WST, 52, WST0, 0, st[WN])
    found = _zsum(st, Z_F, 14, F0, 0, 4)
    st[HASH1] = h1 + fans[0] + stock[0] + waste[0] + found[0]
    st[HASH2] = h2 + fans[1] + stock[1] + waste[1] + found[1]


@njit(cache=True)
def _col_push(st, col, c):
    h = st[H0 + col]
    st[HASH1] -= mix64(st[CH1 + col])
    st[HASH2] -= mix64(st[CH2 + col])
    st[COL0 + col * CAP + h] = c
    st[H0 + col] = h + 1
    st[CH1 + col] += Z1[Z_COL + h * 52 + c]
    st[CH2 + col] += Z2[Z_COL + h * 52 + c]
    st[HASH1] += mix64(st[CH1 + col])
    st[HASH2] += mix64(st[CH2 + col])


@njit(cache=True)
def _col_pop(st, col):
    h = st[H0 + col] - 1
    c = st[COL0 + col * CAP + h]
    st[HASH1] -= mix64(st[CH1 + col])
    st[HASH2] -= mix64(st[CH2 + col])
    st[H0 + col] = h
    st[CH1 + col] -= Z1[Z_COL + h * 52 + c]
    st[CH2 + col] -= Z2[Z_COL + h * 52 + c]
    st[HASH1] += mix64(st[CH1 + col])
    st[HASH2] += mix64(st[CH2 + col])
    return c


@njit(cache=True)
def _take(st, src):
    """Remove and return the available card of a source (not a run)."""
    if src < NCOLS:
        return _col_pop(st, src)
    if src < WASTE:
        f = src - NCOLS
        h = st[FH0 + f]
        _term(st, Z_FAN + f * (FAN_CARDS + 1) + h, -1)
        _term(st, Z_FAN + f * (FAN_CARDS + 1) + h - 1, 1)
        st[FH0 + f] = h - 1
        st[RESLEFT] -= 1
        return st[FAN0 + f * FAN_CARDS + h - 1]
    if src == WASTE:
        n = st[WN] - 1
        c = st[WST0 + n]
        _term(st, Z_WST + n * 52 + c, -1)
        st[WN] = n
        return c
    k = st[TK]
    c = st[TAL0 + k]
    _term(st, Z_STK + k * 52 + c, -1)
    st[TK] = k + 1
    return c


@njit(cache=True)
def _give_back(st, src, c):
    """Undo _take."""
    if src < NCOLS:
        _col_push(st, src, c)
    elif src < WASTE:
        f = src - NCOLS
        h = st[FH0 + f]
        _term(st, Z_FAN + f * (FAN_CARDS + 1) + h, -1)
        _term(st, Z_FAN + f * (FAN_CARDS + 1) + h + 1, 1)
        st[FH0 + f] = h + 1
        st[RESLEFT] += 1
    elif src == WASTE:
        n = st[WN]
        st[WST0 + n] = c
        _term(st, Z_WST + n * 52 + c, 1)
        st[WN] = n + 1
    else:
        k = st[TK] - 1
        _term(st, Z_STK + k * 52 + c, 1)
        st[TK] = k


@njit(cache=True)
def _set_found(st, s, k):
    _term(st, Z_F + s * 14 + st[F0 + s], -1)
    st[F0 + s] = k
    _term(st, Z_F + s * 14 + k, 1)


@njit(cache=True)
def _set_base(st, b):
    _term(st, Z_BASE + st[BASE] + 1, -1)
    st[BASE] = b
    _term(st, Z_BASE + b + 1, 1)
    _set_orders(st)


@njit(cache=True)
def _set_orders(st):
    """The table behind _order, for the current base rank (is_dead's hot path would
    otherwise divide by the number of ranks for every card it looks at)."""
    if st[BASE] >= 0:
        for c in range(52):
            st[ORD0 + c] = (c % 13 - st[BASE]) % st[NR]


@njit(cache=True)
def _set_targets(st):
    """The table at TGT0: for each card the two cards it could be built on."""
    for c in range(52):
        k = 0
        for t in range(52):
            if k < 2 and _goes_on(st, c, t):
                st[TGT0 + 2 * c + k] = t
                k += 1


@njit(cache=True)
def _redeal(st):
    st[SNAP0] = st[TN]
    st[SNAP0 + 1] = st[TK]
    for i in range(st[TN]):
        st[SNAP0 + 2 + i] = st[TAL0 + i]
    n = st[WN]
    for i in range(n):
        st[TAL0 + i] = st[WST0 + i]
    st[TN] = n
    st[TK] = 0
    st[WN] = 0
    st[ROUND] += 1
    rehash(st)


@njit(cache=True)
def _unredeal(st):
    # right after the redeal: the whole talon is the stock, the waste is empty
    n = st[TN]
    for i in range(n):
        st[WST0 + i] = st[TAL0 + i]
    st[WN] = n
    st[TN] = st[SNAP0]
    st[TK] = st[SNAP0 + 1]
    for i in range(st[TN]):
        st[TAL0 + i] = st[SNAP0 + 2 + i]
    st[ROUND] -= 1
    rehash(st)


@njit(cache=True)
def apply_move(st, m):
    kind = m & 7
    if kind == KIND_DEAL:
        k = st[TK]
        c = st[TAL0 + k]
        _term(st, Z_STK + k * 52 + c, -1)
        st[TK] = k + 1
        n = st[WN]
        st[WST0 + n] = c
        _term(st, Z_WST + n * 52 + c, 1)
        st[WN] = n + 1
        return
    if kind == KIND_REDEAL:
        _redeal(st)
        return
    c = (m >> 3) & 63
    src = (m >> 9) & 15
    dst = (m >> 13) & 7
    if kind == KIND_FOUNDATION:
        _take(st, src)
        if m & FIRST:
            _set_base(st, c % 13)
        s = c // 13
        _set_found(st, s, st[F0 + s] + 1)
        st[LEFT] -= 1
        return
    count = (m >> 16) & 63
    if count <= 1:
        _col_push(st, dst, _take(st, src))
        return
    # a run of ``count`` cards from the top of column src, order kept
    h = st[H0 + src]
    for i in range(h - count, h):
        _col_push(st, dst, st[COL0 + src * CAP + i])
    for i in range(count):
        _col_pop(st, src)


@njit(cache=True)
def undo_move(st, m):
    kind = m & 7
    if kind == KIND_DEAL:
        n = st[WN] - 1
        c = st[WST0 + n]
        _term(st, Z_WST + n * 52 + c, -1)
        st[WN] = n
        k = st[TK] - 1
        _term(st, Z_STK + k * 52 + c, 1)
        st[TK] = k
        return
    if kind == KIND_REDEAL:
        _unredeal(st)
        return
    c = (m >> 3) & 63
    src = (m >> 9) & 15
    dst = (m >> 13) & 7
    if kind == KIND_FOUNDATION:
        s = c // 13
        _set_found(st, s, st[F0 + s] - 1)
        if m & FIRST:
            _set_base(st, -1)
        st[LEFT] += 1
        _give_back(st, src, c)
        return
    count = (m >> 16) & 63
    if count <= 1:
        _col_pop(st, dst)
        _give_back(st, src, c)
        return
    h = st[H0 + dst]
    for i in range(h - count, h):
        _col_push(st, src, st[COL0 + dst * CAP + i])
    for i in range(count):
        _col_pop(st, dst)


@njit(cache=True)
def _is_red(c):
    s = c // 13
    return s == 1 or s == 2


@njit(cache=True)
def _goes_on(st, c, t):
    """c may be built on t: the other colour, one rank lower (a king on an ace)."""
    return _is_red(c) != _is_red(t) and (c % 13 + 1) % st[NR] == t % 13


@njit(cache=True)
def _fits_foundation(st, c):
    s = c // 13
    return st[BASE] >= 0 and st[F0 + s] < st[NR] and c % 13 == (st[BASE] + st[F0 + s]) % st[NR]


@njit(cache=True)
def _safe(st, c):
    """c, next for its foundation, can never be needed as a target: both cards that
    could be built on it (the other colour, one rank lower) are home already."""
    k = st[F0 + c // 13]  # c's place in its suit's foundation order
    need = (k - 1) % st[NR] + 1 if k > 0 else st[NR]
    red = _is_red(c)
    for s in range(4):
        if (s == 1 or s == 2) != red and st[F0 + s] < need:
            return False
    return True


@njit(cache=True)
def _source_top(st, src):
    """The available card of a source, or -1."""
    if src < NCOLS:
        h = st[H0 + src]
        return st[COL0 + src * CAP + h - 1] if h > 0 else -1
    if src < WASTE:
        f = src - NCOLS
        h = st[FH0 + f]
        return st[FAN0 + f * FAN_CARDS + h - 1] if h > 0 else -1
    if src == WASTE:
        return st[WST0 + st[WN] - 1] if st[WN] > 0 else -1
    return st[TAL0 + st[TK]] if st[TK] < st[TN] else -1


@njit(cache=True)
def gen_moves(st, out, base):
    """Moves worth trying, written to out[base:]; returns how many.

    The first move takes a fan's top card home and so chooses the base rank: all
    four choices are offered, nothing else.

    Safe move, played alone: a card on view that is next for its foundation when
    both cards that could ever be built on it (the other colour, one rank lower)
    are home.  Argument: take any win W; play the card first and then W without its
    moves of that card.  Nothing is ever built on the card, so every other move of W
    finds the same top cards (a run it moves that ended in the card now ends one
    card lower and still lands the same way; a whole column is still whole), and
    every space of W is a space here too.  Taking the card from a fan can end the
    reserve sooner; then spaces may take waste or stock cards, which only adds
    moves, and W's moves filling spaces from a fan could only have moved this card.
    The new line wins and is no longer than W.

    Spaces: columns are interchangeable, so only the first empty one is a
    destination.  When to deal is a real choice and is never pruned."""
    n = 0
    if st[BASE] < 0:
        for f in range(NFANS):
            c = _source_top(st, NCOLS + f)
            out[base + n] = KIND_FOUNDATION | c << 3 | (NCOLS + f) << 9 | FIRST
            n += 1
        return n
    # safe foundation moves first, alone
    for src in range(WASTE + 1):
        c = _source_top(st, src)
        if c >= 0 and _fits_foundation(st, c) and _safe(st, c):
            out[base] = KIND_FOUNDATION | c << 3 | src << 9
            return 1
    first_empty = _first_empty(st, NCOLS)
    reserve = st[RESLEFT] > 0
    # single cards: fans, waste (and the stock top into a space)
    for src in range(NCOLS, STOCK + 1):
        c = _source_top(st, src)
        if c < 0:
            continue
        if src == STOCK:
            if not reserve and st[WN] == 0 and first_empty >= 0:
                out[base + n] = KIND_COLUMN | c << 3 | src << 9 | first_empty << 13 | 1 << 16
                n += 1
            continue
        if _fits_foundation(st, c):
            out[base + n] = KIND_FOUNDATION | c << 3 | src << 9
            n += 1
        for d in range(NCOLS):
            h = st[H0 + d]
            if h > 0:
                if _goes_on(st, c, st[COL0 + d * CAP + h - 1]):
                    out[base + n] = KIND_COLUMN | c << 3 | src << 9 | d << 13 | 1 << 16
                    n += 1
            elif d == first_empty and (reserve == (src < WASTE)):
                out[base + n] = KIND_COLUMN | c << 3 | src << 9 | d << 13 | 1 << 16
                n += 1
    # columns: the top card home; any run (moves=whole: top card or whole column) onto another column
    for col in range(NCOLS):
        h = st[H0 + col]
        if h == 0:
            continue
        cb = COL0 + col * CAP
        top = st[cb + h - 1]
        if _fits_foundation(st, top):
            out[base + n] = KIND_FOUNDATION | top << 3 | col << 9
            n += 1
        i = h - 1
        while True:
            c = st[cb + i]
            count = h - i
            if st[WHOLE] == 0 or count == 1 or i == 0:
                for d in range(NCOLS):
                    hd = st[H0 + d]
                    if d != col and hd > 0 and _goes_on(st, c, st[COL0 + d * CAP + hd - 1]):
                        out[base + n] = KIND_COLUMN | c << 3 | col << 9 | d << 13 | count << 16
                        n += 1
            if i == 0 or not _goes_on(st, c, st[cb + i - 1]):
                break
            i -= 1
    if st[TK] < st[TN]:
        out[base + n] = KIND_DEAL
        n += 1
    elif st[ROUND] < st[MAXRED] and st[WN] > 0:
        out[base + n] = KIND_REDEAL
        n += 1
    return n


@njit(cache=True)
def _needed_cover(st):
    """Cards lying above a card that a foundation takes next (columns and fans)."""
    if st[BASE] < 0:
        return 0
    k = 0
    for col in range(NCOLS):
        h = st[H0 + col]
        for i in range(h - 1):
            if _fits_foundation(st, st[COL0 + col * CAP + i]):
                k += h - 1 - i
    for f in range(NFANS):
        h = st[FH0 + f]
        for i in range(h - 1):
            if _fits_foundation(st, st[FAN0 + f * FAN_CARDS + i]):
                k += h - 1 - i
    return k


@njit(cache=True)
def lower_bound(st):
    """Admissible and consistent: every card left needs its own foundation move, and
    every stock card first a deal or a move to a space of its own (each move lowers
    this by at most one; a redeal raises it)."""
    return st[LEFT] + st[TN] - st[TK]


@njit(cache=True)
def _order(st, c):
    """c's place in its suit's foundation order (0 = the base rank)."""
    return st[ORD0 + c]


@njit(cache=True)
def _pinned(st, c):
    """While every card of the stuck set stays in the waste, c can neither go home
    (a card its suit needs first is in the set: ``st[LEAST0 + s]`` is the lowest
    order of the set's cards of suit s) nor onto a column (each card it could be
    built on is home or in the set, hence not on a column)."""
    if st[LEAST0 + c // 13] >= _order(st, c):
        return False
    for k in range(2):
        q = st[TGT0 + 2 * c + k]
        if _order(st, q) >= st[F0 + q // 13] and st[STUCK0 + q] == 0:
            return False
    return True


@njit(cache=True)
def is_dead(st):
    """True only if the state is lost.  Used in the last round only (``redeals=0``,
    or after the redeal): the argument needs a waste that never goes back to the stock.

    Stuck set: a set Y of waste and stock cards such that every card of Y either lies
    in the waste under another waste card of Y, or (a) a card its suit needs first is
    in Y, (b) each card it could be built on (the other colour, one rank higher) is
    home or in Y, and (c) no space can take a card of the waste or stock before some
    card of Y leaves them.  Take any win and its first move that takes a card y of Y
    out of the waste and stock (to a foundation, a column or a space).  Until then all
    of Y stays in the waste and stock, in the same order within the waste, so no
    waste card of Y lies over y (a stock card reaches a foundation or a column only
    from the top of the waste); by (a) y cannot go home, by (b) no column top takes
    it, and by (c) it cannot fill a space.  So no win exists.

    (c) is shown by counting columns.  A column root that is pinned (cannot go home
    and has no card it could go onto, as in (a) and (b)) keeps its column until y
    leaves.  A fan card that is pinned can only leave the reserve for a space, and
    then, as a root, keeps that column as well.  Waste and stock cards fill spaces
    only once the reserve is empty; by then, with four or more such roots and fan
    cards, every column has a pinned root and none is ever empty.

    Y is the largest such set: start from every waste and stock card and drop the
    cards that break the rule until none does (the rule only gets harder as Y
    shrinks, so the order of dropping does not matter)."""
    if st[ROUND] != st[MAXRED] or st[BASE] < 0 or st[WN] == 0:
        return False  # (with no waste, no set can hold: see _stuck_set)
    held = st[RESLEFT]
    for col in range(NCOLS):
        if st[H0 + col] > 0:
            held += 1
    if held < NCOLS:
        return False  # (c) can never hold: not enough roots and fan cards
    _flag(st, WST0, WST0 + st[WN], 1)
    _flag(st, TAL0 + st[TK], TAL0 + st[TN], 1)
    dead = _stuck_set(st)
    _flag(st, WST0, WST0 + st[WN], 0)
    _flag(st, TAL0 + st[TK], TAL0 + st[TN], 0)
    return dead


@njit(cache=True)
def _flag(st, lo, hi, v):
    """Set the stuck-set flag of the cards at st[lo:hi] (the waste, or the stock) to v."""
    for i in range(lo, hi):
        st[STUCK0 + st[i]] = v


@njit(cache=True)
def _stuck_set(st):
    """is_dead's fixpoint over the flags at STUCK0 (set for the waste and stock
    cards, 0 for every other card); True if the largest stuck set is not empty."""
    while True:
        for s in range(4):
            st[LEAST0 + s] = INF_ORDER
        for i in range(st[WN]):
            c = st[WST0 + i]
            if st[STUCK0 + c]:
                o = _order(st, c)
                if o < st[LEAST0 + c // 13]:
                    st[LEAST0 + c // 13] = o
        for i in range(st[TK], st[TN]):
            c = st[TAL0 + i]
            if st[STUCK0 + c]:
                o = _order(st, c)
                if o < st[LEAST0 + c // 13]:
                    st[LEAST0 + c // 13] = o
        held = 0  # columns kept until a stuck card leaves the waste and stock
        for col in range(NCOLS):
            if held < NCOLS and st[H0 + col] > 0 and _pinned(st, st[COL0 + col * CAP]):
                held += 1
        for f in range(NFANS):
            for i in range(st[FH0 + f]):
                if held < NCOLS and _pinned(st, st[FAN0 + f * FAN_CARDS + i]):
                    held += 1
        if held < NCOLS:
            return False  # (c) fails, so every card drops
        dropped = False
        covered = False
        for i in range(st[WN] - 1, -1, -1):
            c = st[WST0 + i]
            if st[STUCK0 + c] == 0:
                continue
            if not covered and not _pinned(st, c):
                st[STUCK0 + c] = 0
                dropped = True
                continue
            covered = True
        if not covered:
            # the lowest card of each suit in the set cannot meet (a), so it must be
            # a waste card under another: with none left, every stock card drops too
            return False
        for i in range(st[TK], st[TN]):
            c = st[TAL0 + i]
            if st[STUCK0 + c] and not _pinned(st, c):
                st[STUCK0 + c] = 0
                dropped = True
        if not dropped:
            return True


@njit(cache=True)
def pack(st, row):
    """Compact copy for A*'s node store: counters, foundations, fan and column
    heights, then the column cards, the stock and the waste (the fans' cards never
    change, so ``unpack`` keeps them from ``st``)."""
    row[0] = st[BASE]
    row[1] = st[ROUND]
    row[2] = st[TN]
    row[3] = st[TK]
    row[4] = st[WN]
    for s in range(4):
        row[5 + s] = st[F0 + s]
        row[9 + s] = st[FH0 + s]
        row[13 + s] = st[H0 + s]
    k = 20
    for col in range(NCOLS):
        k = _pack_run(st, row, k, COL0 + col * CAP, 0, st[H0 + col])
    k = _pack_run(st, row, k, TAL0, st[TK], st[TN])
    _pack_end(row, _pack_run(st, row, k, WST0, 0, st[WN]))


@njit(cache=True)
def unpack(row, st):
    """Inverse of pack; the variant, the fans' cards, the ordering weights and the
    target table are kept from ``st``, and the order table follows the base."""
    rebase = st[BASE] != row[0]
    st[BASE] = row[0]
    if rebase:
        _set_orders(st)
    st[ROUND] = row[1]
    st[TN] = row[2]
    st[TK] = row[3]
    st[WN] = row[4]
    res = 0
    for s in range(4):
        st[F0 + s] = row[5 + s]
        st[FH0 + s] = row[9 + s]
        st[H0 + s] = row[13 + s]
        res += row[9 + s]
    k = 20
    for col in range(NCOLS):
        k = _unpack_run(row, st, k, COL0 + col * CAP, 0, st[H0 + col])
    k = _unpack_run(row, st, k, TAL0, st[TK], st[TN])
    k = _unpack_run(row, st, k, WST0, 0, st[WN])
    st[RESLEFT] = res
    st[LEFT] = k - 20 + res  # the columns, the stock, the waste and the fans
    rehash(st)


specialise_engines(globals())  # the engines compiled against these kernels: dfs() and astar()

# The relaxation run on each first move of a `redeals=0` deal before the search
# (solver.search.portfolio.relaxed_first_moves), imported once the names it uses exist.
from . import duchess_relax as relaxation  # noqa: E402
