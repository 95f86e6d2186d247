"""Russian Patience (Heather, 1876), RULES.md: state encoding and rules as numba kernels.

State: one int64 array ``st`` (layout below).  Columns hold card codes bottom to top;
foundations are counts as in Grand Duchess (the up foundation of suit s holds ranks
1..UP[s], the down foundation NR..NR-DN[s]+1).  The stock of the current round is
st[STK0:STK0 + SN], dealt from index SP on; the player's ``deal`` moves SP on by a
row.  A game has two phases each round: while the stock lasts, only ``deal`` and the
outside columns' top cards (c1, cN) to a foundation; then free play, and ``redeal``
while redeals are left.

Row one and its automatic plays (``_row_one``) run inside the deal: at the start and
inside ``REDEAL``, which first saves the whole block st[0:BLOCK] (header, columns,
stock) in a per-redeal snapshot, which is what its undo restores.  The redeal's
shuffle is ``solver.deals.redeal_order`` exactly (SplitMix64 from the deal's redeal
seed XOR k * REDEAL_SALT, Fisher-Yates with rejection), done here in uint64.

Keys: each column has two running hashes (sums of Zobrist keys of (height, card)); a
state key sums a nonlinear mix of every column's hash, plus the foundation counts, the
round and the stock still to deal (Zobrist keys of (place in the stock, card)).  While
the stock lasts or a redeal is left, column i's hash is salted with a key of its own
before mixing: rows are dealt c1..cN, the outside columns are c1 and cN, and a redeal
gathers the columns in order, so which column holds what matters.  In free play of the
last round nothing tells columns apart, so the salt is left out and states that differ
only by the order of the columns are one state.  A ``deal`` move changes the stock and
may end the salting, so it rehashes (at most eight a round).

Moves are ints: kind in bits 0-1 (``TO_FOUNDATION``, ``TO_COLUMN``, ``DEAL``,
``REDEAL``), card << 2 (for a run, its lowest card: the one that lands), source
column << 8, destination << 12 (0 = U, 1 = D, or a column), and from bit 16 the
run's length (``TO_COLUMN``) or the cards the row dealt (``DEAL``), for undo.

Tiny variants (``ranks`` < 13 and ``columns`` < 12) exist for exhaustive tests; rank
``ranks`` plays the king's part and the outside columns are c1 and cN.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..cards import RANKS, SUITS, card_str, check_deck
from ..deals import REDEAL_SALT, check_redeal_seed
from ..errors import PatienceError
from ..search import specialise, specialise_engines
from ..variants import full_variant
from . import kernels
from .common import rounds_view, set_ordering, up_down_view
from .zobrist import mix64, zobrist_keys

NAME = "russian-patience"
PACKS = 2
# a redeal is the player's to take or leave, and the shuffle of redeal k does not depend
# on how many redeals the variant allows (solver.deals.redeal_order)
REDEALS_MONOTONE = True
VARIANTS = {"redeals": (("int", 0, 2), 2)}

MAXC = 12  # columns
CAP = 64  # cards a column can hold (checked against the deal in initial_state)
MAXROUNDS = 3

# state layout
ROUND = 0  # redeals made so far
MAXRED = 1
NR = 2  # ranks in play (13, fewer in tiny variants)
NC = 3  # columns in play
LEFT = 4  # cards not on the foundations (stock included)
HASH1 = 5
HASH2 = 6
SP = 7  # next stock card to deal
SN = 8  # cards in this round's stock
RSEED = 9  # the redeal seed (its 64 bits)
UP0 = 10  # 4 up-foundation counts
DN0 = 14  # 4 down-foundation counts
H0 = 18  # column heights
PH1 = H0 + MAXC  # running hash of each column (key 1)
PH2 = PH1 + MAXC  # (key 2)
C0 = 56  # columns: st[C0 + col * CAP + pos]
STK0 = C0 + MAXC * CAP  # this round's stock
BLOCK = STK0 + 104  # everything a redeal changes: st[0:BLOCK]
W0 = BLOCK  # ordering weights (set_profile): 3 weights, noise mask, salt
SNAP0 = BLOCK + 8  # one snapshot of st[0:BLOCK] per redeal
STATE_LEN = SNAP0 + (MAXROUNDS - 1) * BLOCK

# round, foundations, the stock left, heights, then the cards column by column and the stock
PACK_LEN = 1 + 8 + 1 + MAXC + 104
# A true bound on gen_moves: a column's top card to U and to D (2 x 12); onto a
# non-empty column at most two run starts fit its top card (the single top card, one
# rank either side, and one longer run, whose ranks all differ), 2 x 12 x 11; onto the
# E empty columns any of at most 13 starts of each of the 12 - E others, at most
# 13 x 6 x 6; and the redeal.  The dealing phase has at most five.
MAX_MOVES = 2 * MAXC + 2 * MAXC * (MAXC - 1) + 13 * 6 * 6 + 1

TO_FOUNDATION = 0
TO_COLUMN = 1
DEAL = 2
REDEAL = 3

# Zobrist tables: one flat array per key, indexed by the offsets below
Z_POS = 0  # (height, card): 64 x 52
Z_UP = Z_POS + CAP * 52  # (suit, count): 4 x 14
Z_DN = Z_UP + 4 * 14
Z_ROUND = Z_DN + 4 * 14
Z_SALT = Z_ROUND + MAXROUNDS  # one per column
Z_STK = Z_SALT + MAXC  # (place in the stock still to deal, card): 104 x 52
Z_LEN = Z_STK + 104 * 52

Z1 = zobrist_keys(0x2B55A7C1, Z_LEN)
Z2 = zobrist_keys(0x7E11D0C3, Z_LEN)

GAMMA = np.uint64(0x9E3779B97F4A7C15)
SALT = np.uint64(REDEAL_SALT)

# key1, key2, is_won, _term, _zsum, _first_empty, _noise, score (over _needed_cover below),
# _pack_run, _unpack_run, _pack_end, _fits, _set_found, _up_down_keys
specialise(globals(), kernels.KEYS + kernels.ZOBRIST + kernels.PILES + kernels.ORDERING + kernels.COVER_SCORE
           + kernels.PACKING + kernels.UP_DOWN, inline=True)


# ----------------------------------------------------------------------------------
# setting up a deal (plain Python: runs once per deal)


def initial_state(deck, variant: dict, ranks: int = 13, columns: int | None = None,
                  redeal_seed: int | None = None) -> np.ndarray:
    """The state after row one and its automatic plays.  ``redeal_seed`` fixes the
    redeal shuffles (a seeded deal's is its seed); it is needed when redeals are
    allowed, since without it the game is not defined."""
    full = full_variant(NAME, VARIANTS, variant)
    ncols = MAXC if columns is None else columns
    if not 2 <= ranks <= 13:
        raise PatienceError(f"ranks must be from 2 to 13 (an ace and a king), not {ranks}")
    if not 1 <= ncols <= MAXC:
        raise PatienceError(f"columns must be from 1 to {MAXC}, not {ncols}")
    if redeal_seed is None:
        if full["redeals"] > 0:
            raise PatienceError("russian-patience with redeals needs a redeal seed (a seeded deal's is its seed; "
                                "with a deck file give --redeal-seed N)")
        redeal_seed = 0
    redeal_seed = check_redeal_seed(redeal_seed)
    cards = [int(c) for c in deck]
    check_deck(cards, packs=PACKS, ranks=ranks)
    # a column holds at most its share of the cards plus one run of one suit
    if -(-len(cards) // ncols) + ranks > CAP:
        raise PatienceError(f"{ncols} columns are too few for {len(cards)} cards")
    st = np.zeros(STATE_LEN, dtype=np.int64)
    st[MAXRED] = full["redeals"]
    st[NR] = ranks
    st[NC] = ncols
    st[LEFT] = len(cards)
    st[RSEED] = redeal_seed - (1 << 64) if redeal_seed >= 1 << 63 else redeal_seed
    st[STK0:STK0 + len(cards)] = cards
    st[SN] = len(cards)
    _row_one(st)
    set_profile(st, 0)
    rehash(st)
    return st


# Weights of score(): (cards left, cards above the cards the foundations need next,
# redeals used); different profiles give differently ordered searches for restarts.
PROFILES = [(8, 1, 20), (8, 2, 0), (8, 0, 40), (8, 3, 10), (8, 1, 80), (8, 4, 5)]


def set_profile(st, k: int) -> None:
    """Move ordering of restart attempt k (see common.set_ordering)."""
    set_ordering(st, W0, PROFILES, k, noise=7)


def layout_text(deck, variant: dict, redeal_seed: int | None = None) -> str:
    full = full_variant(NAME, VARIANTS, variant)
    if redeal_seed is None and full["redeals"] > 0:
        redeal_seed = 0  # the layout does not depend on it
    st = initial_state(deck, variant, redeal_seed=redeal_seed)
    lines = ["Russian Patience, after row one and its automatic plays (columns bottom to top)"]
    for p in range(int(st[NC])):
        lines.append(f"c{p + 1:<3}" + " ".join(card_str(int(st[C0 + p * CAP + i])) for i in range(st[H0 + p])))
    nr = int(st[NR])
    up = " ".join(f"{RANKS[st[UP0 + s] - 1]}{SUITS[s]}" for s in range(4) if st[UP0 + s] > 0)
    dn = " ".join(f"{RANKS[nr - st[DN0 + s]]}{SUITS[s]}" for s in range(4) if st[DN0 + s] > 0)
    lines.append(f"U   {up}".rstrip())
    lines.append(f"D   {dn}".rstrip())
    lines.append(f"stock: {int(st[SN] - st[SP])} cards")
    return "\n".join(lines)


def move_text(m: int) -> str:
    kind = m & 3
    if kind == REDEAL:
        return "redeal"
    if kind == DEAL:
        return "deal"
    c, src, dst = (m >> 2) & 63, (m >> 8) & 15, (m >> 12) & 15
    to = "UD"[dst] if kind == TO_FOUNDATION else f"c{dst + 1}"
    return f"c{src + 1} {to} {card_str(c)}"


def checker_view(st) -> dict:
    """The state in the checker's terms (solver.checker.RussianPatience.view)."""
    return {
        "columns": [[int(st[C0 + p * CAP + i]) for i in range(st[H0 + p])] for p in range(st[NC])],
        "stock": [int(c) for c in st[STK0 + st[SP]:STK0 + st[SN]]],
        **up_down_view(st, UP0, DN0, NR),
        **rounds_view(st, ROUND, MAXRED),
    }


# ----------------------------------------------------------------------------------
# kernels


@njit(cache=True)
def _salted(st):
    """Column identity matters while the stock lasts or a redeal is left (module docstring)."""
    return st[SP] < st[SN] or st[ROUND] < st[MAXRED]


@njit(cache=True)
def _col_term1(st, p):
    salt = Z1[Z_SALT + p] if _salted(st) else 0
    return mix64(st[PH1 + p] + salt)


@njit(cache=True)
def _col_term2(st, p):
    salt = Z2[Z_SALT + p] if _salted(st) else 0
    return mix64(st[PH2 + p] + salt)


@njit(cache=True)
def rehash(st):
    h1, h2 = _up_down_keys(st)
    h1 += Z1[Z_ROUND + st[ROUND]]
    h2 += Z2[Z_ROUND + st[ROUND]]
    sp = st[SP]
    for i in range(sp, st[SN]):
        z = Z_STK + (i - sp) * 52 + st[STK0 + i]
        h1 += Z1[z]
        h2 += Z2[z]
    for p in range(st[NC]):
        a, b = _zsum(st, Z_POS, 52, C0 + p * CAP, 0, st[H0 + p])
        st[PH1 + p] = a
        st[PH2 + p] = b
        h1 += _col_term1(st, p)
        h2 += _col_term2(st, p)
    st[HASH1] = h1
    st[HASH2] = h2


@njit(cache=True)
def _home(st, c):
    """Put column top c on a foundation it fits (up if both); keys left stale."""
    f = _fits(st, c)
    if f & 1:
        st[UP0 + c // 13] += 1
    else:
        st[DN0 + c // 13] += 1
    st[LEFT] -= 1


@njit(cache=True)
def _row_one(st):
    """Row one from the stock st[STK0 + SP:STK0 + SN] into empty columns, then the
    automatic plays: scan c1..cN; at each column, while its card fits a foundation it
    goes there (up if it fits both) and the column is refilled from the stock while it
    lasts; scan again until a whole scan moves nothing.  Keys left stale."""
    ncols = st[NC]
    for p in range(ncols):
        if st[SP] < st[SN]:
            st[C0 + p * CAP] = st[STK0 + st[SP]]
            st[H0 + p] = 1
            st[SP] += 1
    moved = True
    while moved:
        moved = False
        for p in range(ncols):
            while st[H0 + p] > 0 and _fits(st, st[C0 + p * CAP]) != 0:
                _home(st, st[C0 + p * CAP])
                st[H0 + p] = 0
                moved = True
                if st[SP] < st[SN]:
                    st[C0 + p * CAP] = st[STK0 + st[SP]]
                    st[H0 + p] = 1
                    st[SP] += 1


@njit(cache=True)
def _draw(state):
    """SplitMix64: the next state and its output (solver.deals._splitmix64)."""
    state = state + GAMMA
    z = state
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return state, z ^ (z >> np.uint64(31))


@njit(cache=True)
def _shuffle_stock(st, n, k):
    """solver.deals.redeal_order on st[STK0:STK0 + n] for redeal k, in place."""
    state = np.uint64(st[RSEED]) ^ (np.uint64(k) * SALT)
    for i in range(n - 1, 0, -1):
        m = np.uint64(i + 1)
        rem = (np.uint64(0) - m) % m  # 2**64 mod m
        limit = np.uint64(0) - rem
        while True:
            state, x = _draw(state)
            if rem == 0 or x < limit:
                break
        j = np.int64(x % m)
        a = st[STK0 + i]
        st[STK0 + i] = st[STK0 + j]
        st[STK0 + j] = a


@njit(cache=True)
def _redeal(st):
    """Save st[0:BLOCK]; gather c1..cN, each from its bottom card up, shuffle, and deal
    row one again with its automatic plays."""
    b = SNAP0 + st[ROUND] * BLOCK
    st[b:b + BLOCK] = st[0:BLOCK]
    n = 0
    for p in range(st[NC]):
        for i in range(st[H0 + p]):
            st[STK0 + n] = st[C0 + p * CAP + i]
            n += 1
        st[H0 + p] = 0
    st[ROUND] += 1
    _shuffle_stock(st, n, st[ROUND])
    st[SP] = 0
    st[SN] = n
    _row_one(st)
    rehash(st)


@njit(cache=True)
def _remove_terms(st, p):
    st[HASH1] -= _col_term1(st, p)
    st[HASH2] -= _col_term2(st, p)


@njit(cache=True)
def _add_terms(st, p):
    st[HASH1] += _col_term1(st, p)
    st[HASH2] += _col_term2(st, p)


@njit(cache=True)
def _move_run(st, p, q, k):
    """The top k cards of column p onto column q, in their order; keys kept."""
    _remove_terms(st, p)
    _remove_terms(st, q)
    hp = st[H0 + p]
    hq = st[H0 + q]
    for i in range(k):
        c = st[C0 + p * CAP + hp - k + i]
        z = Z_POS + (hp - k + i) * 52 + c
        st[PH1 + p] -= Z1[z]
        st[PH2 + p] -= Z2[z]
        st[C0 + q * CAP + hq + i] = c
        z = Z_POS + (hq + i) * 52 + c
        st[PH1 + q] += Z1[z]
        st[PH2 + q] += Z2[z]
    st[H0 + p] = hp - k
    st[H0 + q] = hq + k
    _add_terms(st, p)
    _add_terms(st, q)


@njit(cache=True)
def _pop(st, p):
    _remove_terms(st, p)
    h = st[H0 + p] - 1
    c = st[C0 + p * CAP + h]
    st[H0 + p] = h
    st[PH1 + p] -= Z1[Z_POS + h * 52 + c]
    st[PH2 + p] -= Z2[Z_POS + h * 52 + c]
    _add_terms(st, p)
    return c


@njit(cache=True)
def _push(st, p, c):
    _remove_terms(st, p)
    h = st[H0 + p]
    st[C0 + p * CAP + h] = c
    st[H0 + p] = h + 1
    st[PH1 + p] += Z1[Z_POS + h * 52 + c]
    st[PH2 + p] += Z2[Z_POS + h * 52 + c]
    _add_terms(st, p)


@njit(cache=True)
def apply_move(st, m):
    kind = m & 3
    if kind == REDEAL:
        _redeal(st)
        return
    if kind == DEAL:
        for p in range(st[NC]):
            if st[SP] < st[SN]:
                h = st[H0 + p]
                st[C0 + p * CAP + h] = st[STK0 + st[SP]]
                st[H0 + p] = h + 1
                st[SP] += 1
        rehash(st)
        return
    src = (m >> 8) & 15
    dst = (m >> 12) & 15
    if kind == TO_COLUMN:
        _move_run(st, src, dst, (m >> 16) & 63)
        return
    c = _pop(st, src)
    s = c // 13
    if dst == 0:
        _set_found(st, s, st[UP0 + s] + 1, st[DN0 + s])
    else:
        _set_found(st, s, st[UP0 + s], st[DN0 + s] + 1)
    st[LEFT] -= 1


@njit(cache=True)
def undo_move(st, m):
    kind = m & 3
    if kind == REDEAL:
        b = SNAP0 + (st[ROUND] - 1) * BLOCK
        st[0:BLOCK] = st[b:b + BLOCK]
        return
    if kind == DEAL:
        k = (m >> 16) & 63
        for p in range(k - 1, -1, -1):
            st[H0 + p] -= 1
        st[SP] -= k
        rehash(st)
        return
    c = (m >> 2) & 63
    src = (m >> 8) & 15
    dst = (m >> 12) & 15
    if kind == TO_COLUMN:
        _move_run(st, dst, src, (m >> 16) & 63)
        return
    s = c // 13
    if dst == 0:
        _set_found(st, s, st[UP0 + s] - 1, st[DN0 + s])
    else:
        _set_found(st, s, st[UP0 + s], st[DN0 + s] - 1)
    st[LEFT] += 1
    _push(st, src, c)


@njit(cache=True)
def _home_moves(st, p, out, base, n):
    h = st[H0 + p]
    if h == 0:
        return n
    c = st[C0 + p * CAP + h - 1]
    f = _fits(st, c)
    if f & 1:
        out[base + n] = TO_FOUNDATION | c << 2 | p << 8
        n += 1
    if f & 2:
        out[base + n] = TO_FOUNDATION | c << 2 | p << 8 | 1 << 12
        n += 1
    return n


@njit(cache=True)
def gen_moves(st, out, base):
    """Moves worth trying, written to out[base:]; returns how many.

    While the stock lasts: the outside columns' top cards to each foundation they fit,
    and ``deal``.  Then every top card to each foundation it fits, every run (from
    each card of the top run up) onto each column whose top card continues it, or onto
    an empty column, and ``redeal`` while one is left.

    Pruning, free play of the last round only (nothing is dealt or gathered again, so
    columns are interchangeable and the keys ignore their order): of the empty columns
    only the first is a destination, and a whole column never moves to one (the same
    state, up to the order of the columns).  While a redeal is left, columns are
    gathered in order, so every empty column is a real destination.  No foundation move
    is forced: a card played home is no longer a target for runs, and with runs a
    card put on one may need to move on as part of a longer run, so the argument that
    makes such moves safe in Capricieuse does not carry over."""
    ncols = st[NC]
    n = 0
    if st[SP] < st[SN]:
        n = _home_moves(st, 0, out, base, n)
        if ncols > 1:
            n = _home_moves(st, ncols - 1, out, base, n)
        k = min(ncols, st[SN] - st[SP])
        out[base + n] = DEAL | k << 16
        return n + 1
    last = st[ROUND] == st[MAXRED]
    first_empty = _first_empty(st, ncols)
    for p in range(ncols):
        n = _home_moves(st, p, out, base, n)
    for p in range(ncols):
        h = st[H0 + p]
        if h == 0:
            continue
        b = C0 + p * CAP
        top = st[b + h - 1]
        # the top run: one suit, ranks one apart, one direction going up the column
        lo = h - 1
        step = 0
        if h >= 2:
            d = top % 13 - st[b + h - 2] % 13
            if st[b + h - 2] // 13 == top // 13 and (d == 1 or d == -1):
                step = d
                lo = h - 2
                while lo > 0 and st[b + lo - 1] // 13 == top // 13 and st[b + lo] % 13 - st[b + lo - 1] % 13 == step:
                    lo -= 1
        for i in range(lo, h):
            c = st[b + i]
            k = h - i
            for q in range(ncols):
                if q == p:
                    continue
                hq = st[H0 + q]
                if hq == 0:
                    if last and (q != first_empty or i == 0):
                        continue
                else:
                    t = st[C0 + q * CAP + hq - 1]
                    if t // 13 != c // 13:
                        continue
                    dr = c % 13 - t % 13  # the step from the target up to the run's first card
                    if k == 1:
                        if dr != 1 and dr != -1:
                            continue
                    elif dr != step:
                        continue
                out[base + n] = TO_COLUMN | c << 2 | p << 8 | q << 12 | k << 16
                n += 1
    if not last:
        out[base + n] = REDEAL
        n += 1
    return n


@njit(cache=True)
def _needed_cover(st):
    """Cards lying above a card that a foundation takes next."""
    k = 0
    for p in range(st[NC]):
        h = st[H0 + p]
        for i in range(h - 1):
            if _fits(st, st[C0 + p * CAP + i]):
                k += h - 1 - i
    return k


@njit(cache=True)
def lower_bound(st):
    """Admissible and consistent.  D = the rows still to deal this round, each a move
    that puts no card home (and the stock must be out before a redeal).  With no redeal
    left every card left needs a move of its own: D + cards left.  With one left, a
    redeal may put any number of cards home in its row one: D + 1 (0 once won).  A deal
    lowers D by one; a foundation move lowers the cards left by one; nothing else
    lowers either."""
    if st[LEFT] == 0:
        return 0
    ncols = st[NC]
    d = (st[SN] - st[SP] + ncols - 1) // ncols
    if st[ROUND] < st[MAXRED]:
        return d + 1
    return d + st[LEFT]


@njit(cache=True)
def is_dead(st):
    """No dead-end test yet: runs both ways and empty columns that take any run leave
    no cheap proof of a lost state; the search proves losses by exhaustion."""
    return False


@njit(cache=True)
def pack(st, row):
    """Compact copy for A*'s node store: round, foundations, stock left, heights,
    then the columns and the stock still to deal."""
    row[0] = st[ROUND]
    for s in range(4):
        row[1 + s] = st[UP0 + s]
        row[5 + s] = st[DN0 + s]
    row[9] = st[SN] - st[SP]
    k = 10 + MAXC
    for p in range(MAXC):
        h = st[H0 + p] if p < st[NC] else 0
        row[10 + p] = h
        k = _pack_run(st, row, k, C0 + p * CAP, 0, h)
    k = _pack_run(st, row, k, STK0, st[SP], st[SN])
    _pack_end(row, k)


@njit(cache=True)
def unpack(row, st):
    """Inverse of pack (the stock left is put at the stock's start); the variant, the
    redeal seed and the ordering weights are kept from ``st``."""
    st[ROUND] = row[0]
    for s in range(4):
        st[UP0 + s] = row[1 + s]
        st[DN0 + s] = row[5 + s]
    k = 10 + MAXC
    for p in range(st[NC]):
        st[H0 + p] = row[10 + p]
        k = _unpack_run(row, st, k, C0 + p * CAP, 0, st[H0 + p])
    st[SP] = 0
    st[SN] = row[9]
    k = _unpack_run(row, st, k, STK0, 0, row[9])
    st[LEFT] = k - (10 + MAXC)
    rehash(st)


specialise_engines(globals())  # the engines compiled against these kernels: dfs() and astar()
