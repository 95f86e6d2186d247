"""Grand Duchess (Duchess of Luynes), RULES.md: state encoding and rules as numba kernels.

Parisienne is the same game with a different start (solver/games/parisienne.py
reuses everything here).

State: one int64 array ``st`` (layout below).  Each round has its own stock
region (the stock of round k+1 is built by the redeal from what round k left),
so a deal only moves a pointer, and undoing a deal pops the dealt cards again.
Reserve cards stay in the slot they were dealt to; a card taken to a foundation
leaves -1 behind, so the order of the rest (which decides the next round's
stock) is kept.  A redeal saves the tableau and reserve of the round it ends in a
per-round snapshot, which is what its undo restores.

Foundations are counts: the up foundation of suit s holds ranks 1..UP[s], the
down foundation holds ranks NR..NR-DN[s]+1.  A card of rank r fits up when
r == UP+1 and fits down when r == NR-DN.

Keys: two 64-bit Zobrist sums over (stock position, card), (pile, height, card),
(reserve slot, card), foundation counts, the round and the stock pointer, kept
up to date by every move.  The piles are not interchangeable (deals and redeals
name them), so no symmetry is folded in.

Moves are ints (``_play``, ``_deal_move``, ``REDEAL``).  A play carries its source
(pile 0..3, or 4 + reserve slot) and its foundation (U or D).  With
``foundation_transfer`` a play may be a macro: the transfers that bring the
card's foundation to it, then the play (see ``gen_moves``); its text is several
lines.

Tiny variants (``ranks`` < 13) keep the deal pattern and the four piles; rank
``ranks`` plays the king's part.  They exist for exhaustive tests.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..cards import RANKS, SUITS, card_str, check_deck
from ..errors import PatienceError
from ..search import specialise, specialise_engines
from . import kernels
from .common import rounds_view, set_ordering, up_down_view
from .zobrist import zobrist_keys
from ..variants import full_variant

NAME = "grand-duchess"
PACKS = 2
# Not monotone by the same moves: the round after the last redeal has no reserve, so
# with k redeals round k + 1 deals four cards a time, with k + 1 six (two face down to
# the reserve).  A win with k redeals is no line of play with k + 1, nor is a loss
# with k + 1 a proof for k; solver.batch.monotone neither checks nor decides these.
REDEALS_MONOTONE = False
# auto runs NRPA attempts too (solver.search.portfolio): at equal time they win far
# more of these games' hard deals than the depth-first and beam orders (issue 19)
AUTO_NRPA = True
# the DFS remembers which states is_dead refuted across the restarts of a deal
# (solver.search.dfs.dfs_dead): the round before the last costs milliseconds a test
DEAD_MEMO = True
VARIANTS = {
    "redeals": (("int", 0, 3), 3),
    "foundation_transfer": ("bool", False),
    "reserve_first": ("bool", False),
}

NPILES = 4
CAP = 32  # cards a pile can hold: at most ceil(104 / 4) = 26 in any round
RCAP = 40  # reserve slots: at most 17 deals * 2 = 34
SCAP = 104  # stock of one round
MAXROUNDS = 4

# state layout
ROUND = 0  # redeals made so far
MAXRED = 1
SP = 2  # next stock position of this round
SN = 3  # stock length of this round
NR = 4  # ranks in play (13, fewer in tiny variants)
TRANSFER = 5
RFIRST = 6
LEFT = 7  # cards not on the foundations
HASH1 = 8
HASH2 = 9
NRES = 10  # reserve slots dealt this round
RESLEFT = 11  # reserve cards still there
UP0 = 12  # 4 up-foundation counts
DN0 = 16  # 4 down-foundation counts
H0 = 20  # 4 pile heights
W0 = 24  # ordering weights (set_profile): 3 weights, noise mask, salt
MACROS = 29  # transfer macros on the path so far (ordering only; not in the key)
W_MACRO = 30  # score()'s weight for each (set_profile)
LEFT_OUT = 31  # LEFT when this round's stock ran out, -1 while it has not (not in the key:
# is_dead reads it only to choose where to test, never for a verdict)
P0 = 32  # piles: st[P0 + pile * CAP + pos]
R0 = P0 + NPILES * CAP  # reserve slots
K0 = R0 + RCAP  # stocks: st[K0 + round * SCAP + pos]
SNAP0 = K0 + MAXROUNDS * SCAP  # per-redeal snapshots
SNAP_LEN = 11 + NPILES * CAP + RCAP  # SP SN NRES RESLEFT HASH1 HASH2, 4 heights, piles, reserve, LEFT_OUT
S0 = SNAP0 + MAXROUNDS * SNAP_LEN  # scratch for is_dead
SEQ = 64  # scratch: per pile, the current cards then the cards still to come
S_E = S0  # earliest leaving time of each pile-sequence card (any foundation)
S_C = S_E + NPILES * SEQ  # the card
S_A = S_C + NPILES * SEQ  # its arrival time
S_TU = S_A + NPILES * SEQ  # earliest time rank r is on suit s's up foundation: 4 x 15
S_TD = S_TU + 4 * 15
S_RC = S_TD + 4 * 15  # reserve cards, now and to come
S_LEN = S_RC + 2 * RCAP  # the length of each pile's sequence
STATE_LEN = S_LEN + NPILES

PACK_LEN = 17 + SCAP + RCAP
MAX_MOVES = 2 * (NPILES + RCAP) + 4

KIND_PLAY = 0
KIND_DEAL = 1
REDEAL = 2
INF = 1 << 30

# Zobrist tables: one flat array per key, indexed by the offsets below
Z_STOCK = 0  # (position, card): 104 x 52
Z_PILE = Z_STOCK + SCAP * 52  # (pile, height, card): 4 x 32 x 52
Z_RES = Z_PILE + NPILES * CAP * 52  # (slot, card): 40 x 52
Z_UP = Z_RES + RCAP * 52  # (suit, count): 4 x 14
Z_DN = Z_UP + 4 * 14
Z_ROUND = Z_DN + 4 * 14  # 4
Z_SP = Z_ROUND + MAXROUNDS  # 105
Z_LEN = Z_SP + SCAP + 1


Z1 = zobrist_keys(0x6D0C4E55, Z_LEN)
Z2 = zobrist_keys(0x1A7E5EED, Z_LEN)

# key1, key2, is_won, _term, _zsum, _noise, _pack_run, _unpack_run, _pack_end, _fits, _set_found,
# _up_down_keys
specialise(globals(), kernels.KEYS + kernels.ZOBRIST + kernels.ORDERING + kernels.PACKING + kernels.UP_DOWN,
           inline=True)


# ----------------------------------------------------------------------------------
# setting up a deal (plain Python: runs once per deal)


def _new_state(variant: dict, ranks: int) -> np.ndarray:
    full = full_variant(NAME, VARIANTS, variant)
    if not 1 <= ranks <= 13:
        raise PatienceError(f"ranks must be from 1 to 13, not {ranks}")
    st = np.zeros(STATE_LEN, dtype=np.int64)
    st[MAXRED] = full["redeals"]
    st[NR] = ranks
    st[TRANSFER] = 1 if full["foundation_transfer"] else 0
    st[RFIRST] = 1 if full["reserve_first"] else 0
    return st


def _start(st: np.ndarray, stock: list[int]) -> np.ndarray:
    """Round one's stock, then the first deal, made before play."""
    for i, c in enumerate(stock):
        st[K0 + i] = c
    st[SN] = len(stock)
    st[LEFT] = len(stock)
    st[LEFT_OUT] = -1
    set_profile(st, 0)
    rehash(st)
    if st[SN] > 0:
        apply_move(st, _deal_move(st))
    return st


def initial_state(deck, variant: dict, ranks: int = 13, columns: int = 13) -> np.ndarray:
    """The state after the first deal.  ``columns`` is accepted for the common
    interface and ignored: this game always has four piles."""
    st = _new_state(variant, ranks)
    cards = [int(c) for c in deck]
    check_deck(cards, packs=PACKS, ranks=ranks)
    return _start(st, cards)


# Weights of score(): (cards left, foundation-ready cards on view, redeals used);
# different profiles give differently ordered searches for restarts.
PROFILES = [(8, 2, 30), (8, 0, 30), (8, 4, 10), (8, 1, 60), (8, 3, 0), (8, 6, 20)]


def set_profile(st, k: int) -> None:
    """Move ordering of restart attempt k (see common.set_ordering)."""
    set_ordering(st, W0, PROFILES, k, noise=7)
    st[W_MACRO] = 30


def layout_text(deck, variant: dict) -> str:
    st = initial_state(deck, variant)
    return _describe(st, "Grand Duchess")


def _describe(st, title: str) -> str:
    nr = int(st[NR])
    lines = [f"{title}, after the first deal (piles bottom to top; the reserve face down)"]
    for p in range(NPILES):
        lines.append(f"t{p + 1}  " + " ".join(card_str(int(st[P0 + p * CAP + i])) for i in range(st[H0 + p])))
    res = [card_str(int(st[R0 + i])) for i in range(st[NRES]) if st[R0 + i] >= 0]
    lines.append("R   " + " ".join(res))
    up = " ".join(f"{RANKS[st[UP0 + s] - 1]}{SUITS[s]}" for s in range(4) if st[UP0 + s] > 0)
    dn = " ".join(f"{RANKS[nr - st[DN0 + s]]}{SUITS[s]}" for s in range(4) if st[DN0 + s] > 0)
    if up or dn:
        lines.append(f"U   {up}".rstrip())
        lines.append(f"D   {dn}".rstrip())
    lines.append(f"stock: {int(st[SN] - st[SP])} cards")
    return "\n".join(lines)


def move_text(m: int) -> str:
    """NOTATION.md text; a transfer macro gives several lines."""
    kind = m & 3
    if kind == KIND_DEAL:
        return "deal"
    if kind == REDEAL:
        return "redeal"
    c, src, dst = (m >> 2) & 63, (m >> 8) & 63, (m >> 14) & 1
    s, r = c // 13, c % 13 + 1
    src_text = f"t{src + 1}" if src < NPILES else "R"
    lines = []
    if (m >> 15) & 1:
        u = (m >> 16) & 15  # the up count before the transfers
        if dst == 0:  # down foundation's top cards u+1 .. r-1 go up first
            lines += [f"D U {RANKS[k - 1]}{SUITS[s]}" for k in range(u + 1, r)]
        else:  # up foundation's top cards u .. r+1 go down first
            lines += [f"U D {RANKS[k - 1]}{SUITS[s]}" for k in range(u, r, -1)]
    lines.append(f"{src_text} {'UD'[dst]} {card_str(c)}")
    return "\n".join(lines)


def checker_view(st) -> dict:
    """The state in the checker's terms (solver.checker.GrandDuchess.view)."""
    kb = K0 + st[ROUND] * SCAP
    return {
        "tableau": [[int(st[P0 + p * CAP + i]) for i in range(st[H0 + p])] for p in range(NPILES)],
        "reserve": [int(st[R0 + i]) for i in range(st[NRES]) if st[R0 + i] >= 0],
        "stock": [int(st[kb + i]) for i in range(st[SP], st[SN])],
        **up_down_view(st, UP0, DN0, NR),
        **rounds_view(st, ROUND, MAXRED),
    }


# ----------------------------------------------------------------------------------
# kernels


@njit(cache=True)
def has_reserve(st):
    """Every round has a reserve except the one after the last redeal."""
    return st[ROUND] == 0 or st[ROUND] < st[MAXRED]


@njit(cache=True)
def deals_left(st):
    """The deals this round's stock still makes (six cards each with a reserve, else four)."""
    k = 6 if has_reserve(st) else 4
    return (st[SN] - st[SP] + k - 1) // k


@njit(cache=True)
def _play(c, src, dst, macro, u):
    return KIND_PLAY | c << 2 | src << 8 | dst << 14 | macro << 15 | u << 16


@njit(cache=True)
def rehash(st):
    h1, h2 = _up_down_keys(st)
    h1 += Z1[Z_ROUND + st[ROUND]] + Z1[Z_SP + st[SP]]
    h2 += Z2[Z_ROUND + st[ROUND]] + Z2[Z_SP + st[SP]]
    a, b = _zsum(st, Z_STOCK, 52, K0 + st[ROUND] * SCAP, st[SP], st[SN])
    h1 += a
    h2 += b
    for p in range(NPILES):
        a, b = _zsum(st, Z_PILE + p * CAP * 52, 52, P0 + p * CAP, 0, st[H0 + p])
        h1 += a
        h2 += b
    for i in range(st[NRES]):
        c = st[R0 + i]
        if c >= 0:
            h1 += Z1[Z_RES + i * 52 + c]
            h2 += Z2[Z_RES + i * 52 + c]
    st[HASH1] = h1
    st[HASH2] = h2


@njit(cache=True)
def _set_sp(st, sp):
    _term(st, Z_SP + st[SP], -1)
    st[SP] = sp
    _term(st, Z_SP + sp, 1)


@njit(cache=True)
def apply_move(st, m):
    kind = m & 3
    if kind == KIND_PLAY:
        c = (m >> 2) & 63
        src = (m >> 8) & 63
        dst = (m >> 14) & 1
        s = c // 13
        r = c % 13 + 1
        if src < NPILES:
            h = st[H0 + src] - 1
            st[H0 + src] = h
            _term(st, Z_PILE + (src * CAP + h) * 52 + c, -1)
        else:
            slot = src - NPILES
            st[R0 + slot] = -1
            st[RESLEFT] -= 1
            _term(st, Z_RES + slot * 52 + c, -1)
        if (m >> 15) & 1:
            # transfer macro: whatever the split before, afterwards up holds 1..r, down NR..r
            _set_found(st, s, r, st[NR] + 1 - r)
            st[MACROS] += 1
        elif dst == 0:
            _set_found(st, s, st[UP0 + s] + 1, st[DN0 + s])
        else:
            _set_found(st, s, st[UP0 + s], st[DN0 + s] + 1)
        st[LEFT] -= 1
    elif kind == KIND_DEAL:
        n = (m >> 2) & 7
        kb = K0 + st[ROUND] * SCAP
        sp = st[SP]
        for j in range(n):
            c = st[kb + sp + j]
            _term(st, Z_STOCK + (sp + j) * 52 + c, -1)
            if j < NPILES:
                h = st[H0 + j]
                st[P0 + j * CAP + h] = c
                st[H0 + j] = h + 1
                _term(st, Z_PILE + (j * CAP + h) * 52 + c, 1)
            else:
                slot = st[NRES]
                st[R0 + slot] = c
                st[NRES] = slot + 1
                st[RESLEFT] += 1
                _term(st, Z_RES + slot * 52 + c, 1)
        _set_sp(st, sp + n)
        if st[SP] == st[SN]:
            st[LEFT_OUT] = st[LEFT]
    else:
        _redeal(st)


@njit(cache=True)
def _redeal(st):
    rd = st[ROUND]
    # save what the undo needs: counters, keys, piles and reserve of this round
    b = SNAP0 + rd * SNAP_LEN
    st[b + 0] = st[SP]
    st[b + 1] = st[SN]
    st[b + 2] = st[NRES]
    st[b + 3] = st[RESLEFT]
    st[b + 4] = st[HASH1]
    st[b + 5] = st[HASH2]
    for p in range(NPILES):
        st[b + 6 + p] = st[H0 + p]
    for i in range(NPILES * CAP):
        st[b + 10 + i] = st[P0 + i]
    for i in range(st[NRES]):
        st[b + 10 + NPILES * CAP + i] = st[R0 + i]
    st[b + 10 + NPILES * CAP + RCAP] = st[LEFT_OUT]
    # the new stock: t1 on t2 on t3 on t4, turned over (t4 bottom card first), reserve under it
    kb = K0 + (rd + 1) * SCAP
    n = 0
    if st[RFIRST]:
        for i in range(st[NRES]):
            if st[R0 + i] >= 0:
                st[kb + n] = st[R0 + i]
                n += 1
    for p in range(NPILES - 1, -1, -1):
        for i in range(st[H0 + p]):
            st[kb + n] = st[P0 + p * CAP + i]
            n += 1
        st[H0 + p] = 0
    if not st[RFIRST]:
        for i in range(st[NRES]):
            if st[R0 + i] >= 0:
                st[kb + n] = st[R0 + i]
                n += 1
    st[NRES] = 0
    st[RESLEFT] = 0
    st[ROUND] = rd + 1
    st[SP] = 0
    st[SN] = n
    st[LEFT_OUT] = -1  # (n > 0: a redeal is offered only with cards left)
    rehash(st)


@njit(cache=True)
def _unredeal(st):
    rd = st[ROUND] - 1
    b = SNAP0 + rd * SNAP_LEN
    st[ROUND] = rd
    st[SP] = st[b + 0]
    st[SN] = st[b + 1]
    st[NRES] = st[b + 2]
    st[RESLEFT] = st[b + 3]
    st[HASH1] = st[b + 4]
    st[HASH2] = st[b + 5]
    for p in range(NPILES):
        st[H0 + p] = st[b + 6 + p]
    for i in range(NPILES * CAP):
        st[P0 + i] = st[b + 10 + i]
    for i in range(st[NRES]):
        st[R0 + i] = st[b + 10 + NPILES * CAP + i]
    st[LEFT_OUT] = st[b + 10 + NPILES * CAP + RCAP]


@njit(cache=True)
def undo_move(st, m):
    kind = m & 3
    if kind == KIND_PLAY:
        c = (m >> 2) & 63
        src = (m >> 8) & 63
        dst = (m >> 14) & 1
        s = c // 13
        if (m >> 15) & 1:
            u = (m >> 16) & 15  # the suit was at the meeting point u, NR-u
            _set_found(st, s, u, st[NR] - u)
            st[MACROS] -= 1
        elif dst == 0:
            _set_found(st, s, st[UP0 + s] - 1, st[DN0 + s])
        else:
            _set_found(st, s, st[UP0 + s], st[DN0 + s] - 1)
        if src < NPILES:
            h = st[H0 + src]
            st[P0 + src * CAP + h] = c
            st[H0 + src] = h + 1
            _term(st, Z_PILE + (src * CAP + h) * 52 + c, 1)
        else:
            slot = src - NPILES
            st[R0 + slot] = c
            st[RESLEFT] += 1
            _term(st, Z_RES + slot * 52 + c, 1)
        st[LEFT] += 1
    elif kind == KIND_DEAL:
        n = (m >> 2) & 7
        sp = st[SP] - n
        kb = K0 + st[ROUND] * SCAP
        for j in range(n - 1, -1, -1):
            c = st[kb + sp + j]
            _term(st, Z_STOCK + (sp + j) * 52 + c, 1)
            if j < NPILES:
                h = st[H0 + j] - 1
                st[H0 + j] = h
                _term(st, Z_PILE + (j * CAP + h) * 52 + c, -1)
            else:
                slot = st[NRES] - 1
                st[NRES] = slot
                st[RESLEFT] -= 1
                _term(st, Z_RES + slot * 52 + c, -1)
        _set_sp(st, sp)
        st[LEFT_OUT] = -1  # a deal takes at least one card: the stock is back
    else:
        _unredeal(st)


@njit(cache=True)
def _last_copy(st, c):
    """The other copy of c is on a foundation, so c has exactly one foundation to go to."""
    s = c // 13
    r = c % 13 + 1
    if st[TRANSFER] and st[UP0 + s] + st[DN0 + s] == st[NR]:
        return False  # at the meeting point every card of the suit is a real choice
    return r <= st[UP0 + s] or r > st[NR] - st[DN0 + s]


@njit(cache=True)
def _add_plays(st, c, src, out, n):
    """Append the plays of card c from src; returns the new count.

    With foundation_transfer, a suit whose foundations meet (up 1..u, down NR..u+1)
    lets its top cards shuttle between the two, so any card of the suit can be played
    after some transfers, and every such play ends in the same foundations (up 1..r,
    down NR..r).  Transfers change nothing else and are possible only at the meeting
    point, which the first play of the suit leaves for good, so a solution's transfers
    can always be made just before that play, as few as needed: one macro move per
    card.  Plain transfers are therefore never generated."""
    s = c // 13
    r = c % 13 + 1
    u = st[UP0 + s]
    if st[TRANSFER] and u + st[DN0 + s] == st[NR]:
        if r == u + 1:
            out[n] = _play(c, src, 0, 0, 0)
        elif r == u:
            out[n] = _play(c, src, 1, 0, 0)
        elif r > u + 1:
            out[n] = _play(c, src, 0, 1, u)
        else:
            out[n] = _play(c, src, 1, 1, u)
        return n + 1
    f = _fits(st, c)
    if f & 1:
        out[n] = _play(c, src, 0, 0, 0)
        n += 1
    if f & 2:
        out[n] = _play(c, src, 1, 0, 0)
        n += 1
    return n


@njit(cache=True)
def gen_moves(st, out, base):
    """Moves worth trying, written to out[base:]; returns how many.

    Safe move, played alone: in the last round (no redeal left), a card on view
    whose other copy is already on a foundation and which fits its one remaining
    foundation (with transfers: unless the suit is at its meeting point; once
    past it, up 1..u and down NR..d' overlap, no transfer is ever possible again,
    and the argument below holds as without transfers).  Argument: any win must
    put this very card on that foundation, and until it does nothing else can go
    there; playing it now only
    uncovers the card beneath it, and in the last round removing a card changes
    nothing else (deals go to fixed piles; no redeal will gather the piles), so the
    win's remaining moves all stay legal.  Earlier rounds get no such rule: a card
    left on the tableau shifts every card after it in the next round's stock, which
    can matter either way.  The choice between the two foundations and between the
    two copies is never pruned: each is a different state."""
    n = 0
    last = st[ROUND] == st[MAXRED]
    stock_out = st[SP] == st[SN]
    for p in range(NPILES):
        h = st[H0 + p]
        if h == 0:
            continue
        c = st[P0 + p * CAP + h - 1]
        n2 = _add_plays(st, c, p, out, base + n) - base
        if last and n2 > n and _last_copy(st, c):
            out[base] = out[base + n]
            return 1
        n = n2
    if stock_out and st[RESLEFT] > 0:
        # Every reserve card is face up.  With both copies of a card in the reserve,
        # taking one or the other leaves the rest in a different order, but the
        # notation ("R U 5H") cannot say which, so a play always takes the first
        # dealt copy (solver.checker does the same).
        for i in range(st[NRES]):
            c = st[R0 + i]
            if c < 0:
                continue
            dup = False
            for j in range(i):
                if st[R0 + j] == c:
                    dup = True
                    break
            if dup:
                continue
            n2 = _add_plays(st, c, NPILES + i, out, base + n) - base
            if last and n2 > n and _last_copy(st, c):
                out[base] = out[base + n]
                return 1
            n = n2
    if not stock_out:
        out[base + n] = _deal_move(st)
        n += 1
    elif st[ROUND] < st[MAXRED] and st[LEFT] > 0:
        out[base + n] = REDEAL
        n += 1
    return n


@njit(cache=True)
def _deal_move(st):
    k = 6 if has_reserve(st) else 4
    n = st[SN] - st[SP]
    if n > k:
        n = k
    return KIND_DEAL | n << 2


@njit(cache=True)
def _ready_count(st):
    """Cards on view that fit a foundation now."""
    k = 0
    for p in range(NPILES):
        h = st[H0 + p]
        if h > 0 and _fits(st, st[P0 + p * CAP + h - 1]):
            k += 1
    if st[SP] == st[SN]:
        for i in range(st[NRES]):
            c = st[R0 + i]
            if c >= 0 and _fits(st, c):
                k += 1
    return k


@njit(cache=True)
def score(st):
    """Move ordering (lower first): fewer cards left, more cards ready, fewer redeals,
    fewer transfer macros (a macro play commits a meeting suit's split; trying the
    plain plays and the deal first finds wins sooner)."""
    return (st[W0] * st[LEFT] - st[W0 + 1] * _ready_count(st) + st[W0 + 2] * st[ROUND] + st[W_MACRO] * st[MACROS]
            + _noise(st))


@njit(cache=True)
def lower_bound(st):
    """Admissible and consistent: every card left needs a move of its own, and every
    deal left in this round is a move (each move lowers this by at most one)."""
    return st[LEFT] + deals_left(st)


# The dead-end tests live in grand_duchess_dead.py (the last round's) and
# grand_duchess_redeal.py (the round before it, and is_dead, which runs either).  They
# are imported here, once every name they use is defined, so that the engines below
# compile against them.
from .grand_duchess_dead import SUIT_TABLE, SUIT_TABLE_MAX, fixpoint_dead, suits_dead  # noqa: E402,F401
from .grand_duchess_redeal import dead_costly, is_dead, redeal_dead  # noqa: E402,F401


@njit(cache=True)
def pack(st, row):
    """Compact copy for A*'s node store: counters, foundations, heights, LEFT_OUT, then the
    stock still to deal, the piles and the reserve slots (-1 for a slot played)."""
    row[0] = st[ROUND]
    row[1] = st[SP]
    row[2] = st[SN]
    row[3] = st[NRES]
    for s in range(4):
        row[4 + s] = st[UP0 + s]
        row[8 + s] = st[DN0 + s]
        row[12 + s] = st[H0 + s]
    row[16] = st[LEFT_OUT]  # (is_dead reads it: an unpacked state must answer as the packed one)
    k = _pack_run(st, row, 17, K0 + st[ROUND] * SCAP, st[SP], st[SN])
    for p in range(NPILES):
        k = _pack_run(st, row, k, P0 + p * CAP, 0, st[H0 + p])
    _pack_end(row, _pack_run(st, row, k, R0, 0, st[NRES]))


@njit(cache=True)
def unpack(row, st):
    """Inverse of pack; the variant and the ordering weights are kept from ``st``."""
    st[ROUND] = row[0]
    st[SP] = row[1]
    st[SN] = row[2]
    st[NRES] = row[3]
    for s in range(4):
        st[UP0 + s] = row[4 + s]
        st[DN0 + s] = row[8 + s]
        st[H0 + s] = row[12 + s]
    st[LEFT_OUT] = row[16]
    k = _unpack_run(row, st, 17, K0 + st[ROUND] * SCAP, st[SP], st[SN])
    for p in range(NPILES):
        k = _unpack_run(row, st, k, P0 + p * CAP, 0, st[H0 + p])
    left = k - 17  # the stock and the piles
    resleft = 0
    for i in range(st[NRES]):
        st[R0 + i] = row[k]
        if row[k] >= 0:
            resleft += 1
        k += 1
    st[RESLEFT] = resleft
    st[LEFT] = left + resleft
    rehash(st)


@njit(cache=True)
def may_return(st):
    """Whether a line from st may come back to a state it has been in (NRPA's loop
    check, solver/search/nrpa.py): never.  Every move raises (redeals taken, cards
    dealt this round, cards home) in lexicographic order: a play puts one more card
    home for good (with transfers too: they are made only inside a play, as its
    macro), a deal takes cards from the stock, a redeal takes a redeal."""
    return False


@njit(cache=True)
def nrpa_context(st):
    """What a move's NRPA policy entry depends on besides the move (solver/search/
    nrpa.py): the round.  Playing a card home, or dealing, means different things in
    the first round (it shapes the next round's stock) and in the last (it only
    clears the way); one weight for both made the policy learn the two at odds."""
    return st[ROUND]


specialise_engines(globals())  # the engines compiled against these kernels: dfs() and astar()
