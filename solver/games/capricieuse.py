"""Capricieuse, RULES.md: state encoding and rules as numba kernels.

State: one int64 array ``st`` (layout below).  Piles hold card codes bottom to
top; foundations are counts as in Grand Duchess: the up foundation of suit s holds
ranks 1..UP[s], the down foundation NR..NR-DN[s]+1, so a card of rank r fits up
when r == UP+1 and down when r == NR-DN.

The deal procedure (first deal and each redeal) runs inside a move: ``REDEAL``
gathers the piles into the scratch stock and deals them again with the automatic
foundation plays, after saving the whole block of piles and counters in a
per-redeal snapshot, which is what its undo restores.

Keys: each pile has two running hashes (sums of Zobrist keys of (height, card));
a state key sums a nonlinear mix of every pile's hash, plus the foundation counts
and the round.  While a redeal is left, pile i's hash is salted with a key of its
own before mixing: the redeal gathers the piles in order, so which pile holds what
matters.  In the last round nothing tells the piles apart (any card may go to any
empty pile; builds need only the top card), so the salt is left out and states
that differ only by the order of the piles are one state to the search.  (Sums
over (card, card beneath) pairs, as Baker's Dozen uses, are not enough here: with
two copies of a card, two different layouts can have the same pairs.)

Moves are ints: kind in bits 0-1 (``TO_FOUNDATION``, ``TO_PILE``, ``REDEAL``),
card << 2, source pile << 8, destination << 12 (0 = U, 1 = D, or a pile).

Tiny variants (``ranks`` < 13 and ``columns`` < 12 piles) exist for exhaustive
tests; rank ``ranks`` plays the king's part.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..cards import RANKS, SUITS, card_str, check_deck
from ..errors import PatienceError
from ..search import specialise, specialise_engines
from ..variants import full_variant
from . import kernels
from .common import rounds_view, set_ordering, up_down_view
from .zobrist import mix64, zobrist_keys

NAME = "capricieuse"
PACKS = 2
# a redeal is the player's to take or leave and deals as the first did, in every variant
REDEALS_MONOTONE = True
VARIANTS = {
    "redeals": (("int", 0, 2), 2),
    "deal_plays": ("bool", True),
}

MAXP = 12  # piles
CAP = 64  # cards a pile can hold (checked against the deal in initial_state)
MAXROUNDS = 3

# state layout
ROUND = 0  # redeals made so far
MAXRED = 1
NR = 2  # ranks in play (13, fewer in tiny variants)
NP = 3  # piles in play
DEALPLAYS = 4
LEFT = 5  # cards not on the foundations
HASH1 = 6
HASH2 = 7
UP0 = 8  # 4 up-foundation counts
DN0 = 12  # 4 down-foundation counts
H0 = 16  # pile heights
PH1 = H0 + MAXP  # running hash of each pile (key 1)
PH2 = PH1 + MAXP  # (key 2)
P0 = 56  # piles: st[P0 + pile * CAP + pos]
BLOCK = P0 + MAXP * CAP  # everything a redeal changes: st[0:BLOCK]
W0 = BLOCK  # ordering weights (set_profile): 3 weights, noise mask, salt
SNAP0 = BLOCK + 8  # one snapshot of st[0:BLOCK] per redeal
STK0 = SNAP0 + (MAXROUNDS - 1) * BLOCK  # scratch stock for the deal procedure
STATE_LEN = STK0 + 104

PACK_LEN = 1 + 8 + MAXP + 104  # round, foundations, heights, cards pile by pile
MAX_MOVES = MAXP * (MAXP + 2) + 2

TO_FOUNDATION = 0
TO_PILE = 1
REDEAL = 2

# Zobrist tables: one flat array per key, indexed by the offsets below
Z_POS = 0  # (height, card): 64 x 52
Z_UP = Z_POS + CAP * 52  # (suit, count): 4 x 14
Z_DN = Z_UP + 4 * 14
Z_ROUND = Z_DN + 4 * 14
Z_SALT = Z_ROUND + MAXROUNDS  # one per pile
Z_LEN = Z_SALT + MAXP

Z1 = zobrist_keys(0xCA9C1E05, Z_LEN)
Z2 = zobrist_keys(0x5A1D7E11, Z_LEN)

# key1, key2, is_won, _term, _zsum, _first_empty, _noise, score (over _needed_cover below),
# _pack_run, _unpack_run, _pack_end, _fits, _set_found, _up_down_keys
specialise(globals(), kernels.KEYS + kernels.ZOBRIST + kernels.PILES + kernels.ORDERING + kernels.COVER_SCORE
           + kernels.PACKING + kernels.UP_DOWN, inline=True)


# ----------------------------------------------------------------------------------
# setting up a deal (plain Python: runs once per deal)


def initial_state(deck, variant: dict, ranks: int = 13, columns: int | None = None) -> np.ndarray:
    """The state after the first deal (with its automatic plays, unless deal_plays=false)."""
    full = full_variant(NAME, VARIANTS, variant)
    npiles = MAXP if columns is None else columns
    if not 2 <= ranks <= 13:
        raise PatienceError(f"ranks must be from 2 to 13 (an ace and a king), not {ranks}")
    if not 1 <= npiles <= MAXP:
        raise PatienceError(f"columns (piles) must be from 1 to {MAXP}, not {npiles}")
    cards = [int(c) for c in deck]
    check_deck(cards, packs=PACKS, ranks=ranks)
    # a pile holds at most its share of a deal plus one chain of builds (each card once)
    if -(-len(cards) // npiles) + 2 * ranks > CAP:
        raise PatienceError(f"{npiles} piles are too few for {len(cards)} cards")
    st = np.zeros(STATE_LEN, dtype=np.int64)
    st[MAXRED] = full["redeals"]
    st[NR] = ranks
    st[NP] = npiles
    st[DEALPLAYS] = 1 if full["deal_plays"] else 0
    st[LEFT] = len(cards)
    stock = cards
    if not full["deal_plays"]:
        # PySolFC's reading: the first copy of each ace and king starts its foundation
        seen = set()
        stock = []
        for c in cards:
            s, r = c // 13, c % 13 + 1
            if r in (1, ranks) and c not in seen:
                seen.add(c)
                st[UP0 + s if r == 1 else DN0 + s] = 1
                st[LEFT] -= 1
            else:
                stock.append(c)
    for i, c in enumerate(stock):
        st[STK0 + i] = c
    _deal(st, len(stock))
    set_profile(st, 0)
    rehash(st)
    return st


# Weights of score(): (cards left, cards above the cards the foundations need next,
# redeals used); different profiles give differently ordered searches for restarts.
PROFILES = [(8, 1, 20), (8, 2, 0), (8, 0, 40), (8, 3, 10), (8, 1, 80), (8, 4, 5)]


def set_profile(st, k: int) -> None:
    """Move ordering of restart attempt k (see common.set_ordering)."""
    set_ordering(st, W0, PROFILES, k, noise=7)


def layout_text(deck, variant: dict) -> str:
    st = initial_state(deck, variant)
    lines = ["Capricieuse, after the deal (piles bottom to top)"]
    for p in range(int(st[NP])):
        lines.append(f"p{p + 1:<3}" + " ".join(card_str(int(st[P0 + p * CAP + i])) for i in range(st[H0 + p])))
    nr = int(st[NR])
    up = " ".join(f"{RANKS[st[UP0 + s] - 1]}{SUITS[s]}" for s in range(4) if st[UP0 + s] > 0)
    dn = " ".join(f"{RANKS[nr - st[DN0 + s]]}{SUITS[s]}" for s in range(4) if st[DN0 + s] > 0)
    lines.append(f"U   {up}".rstrip())
    lines.append(f"D   {dn}".rstrip())
    return "\n".join(lines)


def move_text(m: int) -> str:
    kind = m & 3
    if kind == REDEAL:
        return "redeal"
    c, src, dst = (m >> 2) & 63, (m >> 8) & 15, (m >> 12) & 15
    to = "UD"[dst] if kind == TO_FOUNDATION else f"p{dst + 1}"
    return f"p{src + 1} {to} {card_str(c)}"


def checker_view(st) -> dict:
    """The state in the checker's terms (solver.checker.Capricieuse.view)."""
    return {
        "piles": [[int(st[P0 + p * CAP + i]) for i in range(st[H0 + p])] for p in range(st[NP])],
        **up_down_view(st, UP0, DN0, NR),
        **rounds_view(st, ROUND, MAXRED),
    }


# ----------------------------------------------------------------------------------
# kernels


@njit(cache=True)
def _salted(st):
    """Pile identity matters while a redeal is left (see the module docstring)."""
    return st[ROUND] < st[MAXRED]


@njit(cache=True)
def _pile_term1(st, p):
    salt = Z1[Z_SALT + p] if _salted(st) else 0
    return mix64(st[PH1 + p] + salt)


@njit(cache=True)
def _pile_term2(st, p):
    salt = Z2[Z_SALT + p] if _salted(st) else 0
    return mix64(st[PH2 + p] + salt)


@njit(cache=True)
def rehash(st):
    h1, h2 = _up_down_keys(st)
    h1 += Z1[Z_ROUND + st[ROUND]]
    h2 += Z2[Z_ROUND + st[ROUND]]
    for p in range(st[NP]):
        a, b = _zsum(st, Z_POS, 52, P0 + p * CAP, 0, st[H0 + p])
        st[PH1 + p] = a
        st[PH2 + p] = b
        h1 += _pile_term1(st, p)
        h2 += _pile_term2(st, p)
    st[HASH1] = h1
    st[HASH2] = h2


@njit(cache=True)
def _deal(st, n):
    """The deal procedure over the scratch stock st[STK0:STK0+n] into empty piles:
    one card at a time to the piles in turn; with deal plays, a card that fits a
    foundation as it is dealt goes there (up if it fits both) and the next card
    goes to the same pile.  Keys are left stale (the caller rehashes)."""
    npiles = st[NP]
    plays = st[DEALPLAYS] != 0
    p = 0
    for i in range(n):
        c = st[STK0 + i]
        if plays:
            f = _fits(st, c)
            if f != 0:
                if f & 1:
                    st[UP0 + c // 13] += 1
                else:
                    st[DN0 + c // 13] += 1
                st[LEFT] -= 1
                continue
        h = st[H0 + p]
        st[P0 + p * CAP + h] = c
        st[H0 + p] = h + 1
        p += 1
        if p == npiles:
            p = 0


@njit(cache=True)
def _push(st, p, c):
    h = st[H0 + p]
    st[HASH1] -= _pile_term1(st, p)
    st[HASH2] -= _pile_term2(st, p)
    st[P0 + p * CAP + h] = c
    st[H0 + p] = h + 1
    st[PH1 + p] += Z1[Z_POS + h * 52 + c]
    st[PH2 + p] += Z2[Z_POS + h * 52 + c]
    st[HASH1] += _pile_term1(st, p)
    st[HASH2] += _pile_term2(st, p)


@njit(cache=True)
def _pop(st, p):
    h = st[H0 + p] - 1
    c = st[P0 + p * CAP + h]
    st[HASH1] -= _pile_term1(st, p)
    st[HASH2] -= _pile_term2(st, p)
    st[H0 + p] = h
    st[PH1 + p] -= Z1[Z_POS + h * 52 + c]
    st[PH2 + p] -= Z2[Z_POS + h * 52 + c]
    st[HASH1] += _pile_term1(st, p)
    st[HASH2] += _pile_term2(st, p)
    return c


@njit(cache=True)
def _redeal(st):
    """Save st[0:BLOCK]; gather p1 onto p2 .. onto pN, turn over (pN's bottom card is
    dealt first, then pN-1 .. p1, each from the bottom up) and deal again."""
    b = SNAP0 + st[ROUND] * BLOCK
    st[b:b + BLOCK] = st[0:BLOCK]
    n = 0
    for p in range(st[NP] - 1, -1, -1):
        for i in range(st[H0 + p]):
            st[STK0 + n] = st[P0 + p * CAP + i]
            n += 1
        st[H0 + p] = 0
    st[ROUND] += 1
    _deal(st, n)
    rehash(st)


@njit(cache=True)
def apply_move(st, m):
    kind = m & 3
    if kind == REDEAL:
        _redeal(st)
        return
    src = (m >> 8) & 15
    dst = (m >> 12) & 15
    c = _pop(st, src)
    if kind == TO_PILE:
        _push(st, dst, c)
    else:
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
    c = (m >> 2) & 63
    src = (m >> 8) & 15
    dst = (m >> 12) & 15
    if kind == TO_PILE:
        _pop(st, dst)
    else:
        s = c // 13
        if dst == 0:
            _set_found(st, s, st[UP0 + s] - 1, st[DN0 + s])
        else:
            _set_found(st, s, st[UP0 + s], st[DN0 + s] - 1)
        st[LEFT] += 1
    _push(st, src, c)


@njit(cache=True)
def _last_copy(st, c):
    """The other copy of c is on a foundation, so c has one foundation to go to."""
    s = c // 13
    r = c % 13 + 1
    return r <= st[UP0 + s] or r > st[NR] - st[DN0 + s]


@njit(cache=True)
def gen_moves(st, out, base):
    """Moves worth trying, written to out[base:]; returns how many.

    Safe move, played alone: in the last round (no redeal left), a top card c whose
    other copy is on a foundation and which fits its one remaining foundation.
    Argument: say c (suit s, rank r) must go up, so up holds 1..r-1 and down holds
    NR..r' with r' <= r.  Every card of suit s still out is then the only copy of its
    rank left: ranks >= r can only go up, ranks < r' only down.  Take any win W and
    let X start as {c} and take in every card W puts onto a card of X (only suit s
    cards of rank one apart can go there, so X's ranks stay two runs next to r:
    r..m going up and l..r-1 going down, the latter only when r' = r).  Play c up
    first, then W with each move of a card of X dropped, and each move putting a
    card onto a card of X replaced by that card's foundation move.  The piles are
    always W's piles without the cards of X, so every other move has the same top
    cards and targets; and a foundation move of W's for another suit s card fits,
    since that card is not in X, so X's run has not passed its rank.  The new line
    wins and is no longer than W.  With a redeal left this fails: the cards left on
    the piles make the next stock, and removing one changes where the others fall.

    Empty piles: in the last round they are interchangeable, so only the first
    is tried, and a pile's only card is never moved to one (the same state, up to
    the order of the piles, which the keys ignore then).  While a redeal is left,
    piles are not interchangeable (the redeal gathers them in order), so every
    empty pile is a real destination."""
    npiles = st[NP]
    last = st[ROUND] == st[MAXRED]
    n = 0
    if last:
        for p in range(npiles):
            h = st[H0 + p]
            if h == 0:
                continue
            c = st[P0 + p * CAP + h - 1]
            f = _fits(st, c)
            if f != 0 and _last_copy(st, c):
                out[base] = TO_FOUNDATION | c << 2 | p << 8 | (0 if f & 1 else 1) << 12
                return 1
    first_empty = _first_empty(st, npiles)
    for p in range(npiles):
        h = st[H0 + p]
        if h == 0:
            continue
        c = st[P0 + p * CAP + h - 1]
        f = _fits(st, c)
        if f & 1:
            out[base + n] = TO_FOUNDATION | c << 2 | p << 8
            n += 1
        if f & 2:
            out[base + n] = TO_FOUNDATION | c << 2 | p << 8 | 1 << 12
            n += 1
        s = c // 13
        r = c % 13
        for q in range(npiles):
            if q == p:
                continue
            hq = st[H0 + q]
            if hq == 0:
                if last and (q != first_empty or h == 1):
                    continue
            else:
                t = st[P0 + q * CAP + hq - 1]
                if t // 13 != s or (t % 13 != r + 1 and t % 13 != r - 1):
                    continue
            out[base + n] = TO_PILE | c << 2 | p << 8 | q << 12
            n += 1
    if st[ROUND] < st[MAXRED]:
        out[base + n] = REDEAL
        n += 1
    return n


@njit(cache=True)
def _needed_cover(st):
    """Cards lying above a card that a foundation takes next."""
    k = 0
    for p in range(st[NP]):
        h = st[H0 + p]
        for i in range(h - 1):
            if _fits(st, st[P0 + p * CAP + i]):
                k += h - 1 - i
    return k


@njit(cache=True)
def lower_bound(st):
    """Admissible and consistent.  Every card left needs a move of its own, unless a
    redeal is left and deals play cards: one redeal may then put any number of cards
    on the foundations, so only 1 is sure (0 once won)."""
    if st[LEFT] == 0:
        return 0
    if st[ROUND] < st[MAXRED] and st[DEALPLAYS]:
        return 1
    return st[LEFT]


@njit(cache=True)
def is_dead(st):
    """No dead-end test yet: building both ways and empty piles that take any card
    leave no cheap proof of a lost state; the search proves losses by exhaustion."""
    return False


@njit(cache=True)
def pack(st, row):
    """Compact copy for A*'s node store: round, foundations, heights, then the piles."""
    row[0] = st[ROUND]
    for s in range(4):
        row[1 + s] = st[UP0 + s]
        row[5 + s] = st[DN0 + s]
    k = 9 + MAXP
    for p in range(MAXP):
        h = st[H0 + p] if p < st[NP] else 0
        row[9 + p] = h
        k = _pack_run(st, row, k, P0 + p * CAP, 0, h)
    _pack_end(row, k)


@njit(cache=True)
def unpack(row, st):
    """Inverse of pack; the variant and the ordering weights are kept from ``st``."""
    st[ROUND] = row[0]
    for s in range(4):
        st[UP0 + s] = row[1 + s]
        st[DN0 + s] = row[5 + s]
    k = 9 + MAXP
    for p in range(st[NP]):
        st[H0 + p] = row[9 + p]
        k = _unpack_run(row, st, k, P0 + p * CAP, 0, st[H0 + p])
    st[LEFT] = k - (9 + MAXP)
    rehash(st)


specialise_engines(globals())  # the engines compiled against these kernels: dfs() and astar()
