"""A real line from a win of R+ (Duchess `redeals=0`, solver/games/duchess_relax.py):
R+ forgets only which card of a block lies on which of the block's cards it may lie
on, and the real game can nearly always move a card's run to the block's other card
(issue 19).

Each move of R+ is made by at most two real moves:

- a deal, or a waste or fan card home: the same move;
- a card c of T home: if a card k lies on c, k's run moves first onto the other card
  k may lie on.  R+ let c go home only if the cards of T not in B that lie in k's
  block are fewer than the block's cards other than c, so that other card is in T
  with nothing of the block on it, hence nothing on it at all: a column's top;
- a card into T onto a card of T: onto a column top it continues (the block has a
  card with nothing on it, as above);
- a card into a space: into an empty column; with none (four bottom cards), first
  the whole column of the bottom card x that R+ named moves onto a column top x
  continues (x's block has a card to spare).

The card found is a column top unless it lies higher in the same column, a run
wrapping past a whole suit's ranks (in alternating colours, 26 cards in a full pack,
12 in a 12-rank one); then no line is made.  Under `moves=whole` only a top card or
a whole column moves, so a run moved from the middle of a column makes the line
fail there.  The line is built in the game's kernel and returned only if it wins
there and replays in the checker under the deal's own rules (solve_deal replays
every win again).
"""

from __future__ import annotations

import numpy as np

from .duchess import (BASE, CAP, COL0, F0, FAN0, FAN_CARDS, H0, KIND_COLUMN, KIND_DEAL, KIND_FOUNDATION, NCOLS, NR,
                      TAL0, TK, TN, WASTE, WHOLE, _first_empty, _goes_on, _source_top, apply_move, is_won)
from .duchess_relax import DEPTH


def won_path(work) -> list[tuple[int, int, int, int]]:
    """The states (a, b, T, B) of the line a search of R+ that ended WON_R found,
    after its first state."""
    d = int(work.ctx[DEPTH])
    return [tuple(int(x) for x in work.succ[k, work.nxt[k] - 1]) for k in range(d + 1)]


def _where(st, c):
    """(source code, index in its column or -1) of card c on view or in a column;
    (-1, -1) elsewhere."""
    for src in range(NCOLS, WASTE + 1):  # the fans' top cards, the waste's
        if _source_top(st, src) == c:
            return src, -1
    for col in range(NCOLS):
        for i in range(st[H0 + col]):
            if st[COL0 + col * CAP + i] == c:
                return col, i
    return -1, -1


def _top_for(st, c, avoid):
    """A column (not ``avoid``) whose top card c continues, or -1."""
    for d in range(NCOLS):
        h = st[H0 + d]
        if d != avoid and h > 0 and _goes_on(st, c, st[COL0 + d * CAP + h - 1]):
            return d
    return -1


def _run_onto(st, col, i):
    """The real move of column col's run from index i onto a top it continues, or -1."""
    c = st[COL0 + col * CAP + i]
    d = _top_for(st, c, col)
    if d < 0:
        return -1
    return KIND_COLUMN | c << 3 | col << 9 | d << 13 | (st[H0 + col] - i) << 16


def _step(st, old, new) -> list[int] | None:
    """The real moves (applied to st) that make R+'s move old -> new, or None."""
    (a, b, t, bm), (a2, b2, t2, bm2) = old, new
    made = []

    def play(m):
        if m < 0:
            return False
        apply_move(st, m)
        made.append(m)
        return True

    if (a2 >> 36) & 63 != (a >> 36) & 63:
        return made if play(KIND_DEAL) else None
    if b2 != b:  # one card home
        s = next(s for s in range(4) if (b2 >> (4 * s)) & 15 != (b >> (4 * s)) & 15)
        k = (b >> (4 * s)) & 15
        c = s * 13 + (int(st[BASE]) + k) % int(st[NR])
        src, i = _where(st, c)
        if src < 0:
            return None
        if src < NCOLS and i + 1 < st[H0 + src] and not play(_run_onto(st, src, i + 1)):
            return None
        if not (st[F0 + s] == k and play(KIND_FOUNDATION | c << 3 | src << 9)):
            return None
        return made
    came = t2 & ~t
    if came == 0 or came & (came - 1):
        return None
    c = came.bit_length() - 1
    src, _ = _where(st, c)
    if src < NCOLS or src > WASTE:  # from a fan or the waste only
        return None
    if (bm2 >> c) & 1:  # into a space
        gone = bm & ~bm2
        if gone:
            x = gone.bit_length() - 1
            col, i = _where(st, x)
            if col < 0 or col >= NCOLS or i != 0 or not play(_run_onto(st, col, 0)):
                return None
        d = _first_empty(st, NCOLS)
    else:
        d = _top_for(st, c, -1)
    if d < 0:
        return None
    play(KIND_COLUMN | c << 3 | src << 9 | d << 13 | 1 << 16)
    return made


def deck_of(st0) -> list[int]:
    """The deck of a deal from its start (RULES.md's layout: deck card i to fan i mod 4
    for i < 12, cards 12..15 to the columns, the rest the stock, top first)."""
    deck = [int(st0[FAN0 + (i % 4) * FAN_CARDS + i // 4]) for i in range(12)]
    deck += [int(st0[COL0 + col * CAP]) for col in range(NCOLS)]
    return deck + [int(st0[TAL0 + i]) for i in range(st0[TK], st0[TN])]


def real_line(st0, first: int, path) -> list[int] | None:
    """A real win from the deal's start ``st0``: the first move ``first``, then real
    moves along R+'s winning ``path`` from the state after it (won_path); None where
    a move cannot be made.  The line is replayed in the checker (solver/checker) before
    it is returned."""
    from ..checker.common import IllegalMove
    from ..checker.duchess import Duchess
    from .duchess import move_text
    from .duchess_relax import start

    st = np.array(st0, copy=True)
    apply_move(st, first)
    old = tuple(int(x) for x in start(st))
    line = [int(first)]
    for new in path:
        moves = _step(st, old, new)
        if moves is None:
            return None
        line += [int(m) for m in moves]
        old = new
    if not is_won(st):
        return None
    variant = {"redeals": 0, "moves": "whole"} if st0[WHOLE] else {"redeals": 0}  # the deal's own rules
    game = Duchess(deck_of(st0), variant, ranks=int(st0[NR]))
    try:
        for m in line:
            game.apply(move_text(m))
    except IllegalMove:
        return None
    return line if game.cards_left() == 0 else None
