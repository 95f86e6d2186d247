"""Parisienne (La Parisienne), RULES.md: Grand Duchess with a different start.

The first copy in the deck of each ace goes to its up foundation and of each king
to its down foundation before play; the other 96 cards, in deck order, are the
stock, and the first deal is made before play.  Everything else, kernels and
engines included, is Grand Duchess's (solver/games/grand_duchess.py).
"""

from __future__ import annotations

from ..cards import check_deck
from ..errors import PatienceError
from . import grand_duchess as _gd
from .grand_duchess import (  # noqa: F401  (the game interface, re-exported)
    AUTO_NRPA, DEAD_MEMO, MAX_MOVES, PACK_LEN, PACKS, PROFILES, REDEALS_MONOTONE, STATE_LEN, VARIANTS, apply_move,
    astar, beam, checker_view, dead_costly, dfs, gen_moves, is_dead, is_won, key1, key2, lower_bound, may_return,
    move_text, nrpa, nrpa_context, pack, rehash, root_dead, score, set_profile, undo_move, unpack,
)

NAME = "parisienne"


def split_deck(deck, ranks: int = 13) -> tuple[list[int], list[int]]:
    """(the cards that start on the foundations, the stock) for a Parisienne deck.
    The highest rank in play plays the king's part."""
    seen = set()
    start, stock = [], []
    for c in (int(x) for x in deck):
        r = c % 13 + 1
        if r in (1, ranks) and c not in seen:
            seen.add(c)
            start.append(c)
        else:
            stock.append(c)
    return start, stock


def initial_state(deck, variant: dict, ranks: int = 13, columns: int = 13):
    """The state after the aces and kings are placed and the first deal is made."""
    if ranks < 2:
        raise PatienceError("Parisienne needs at least 2 ranks (an ace and a king)")
    st = _gd._new_state(variant, ranks)
    cards = [int(c) for c in deck]
    check_deck(cards, packs=PACKS, ranks=ranks)
    start, stock = split_deck(cards, ranks)
    for c in start:
        s, r = c // 13, c % 13 + 1
        if r == 1:
            st[_gd.UP0 + s] = 1
        else:
            st[_gd.DN0 + s] = 1
    return _gd._start(st, stock)


def layout_text(deck, variant: dict) -> str:
    return _gd._describe(initial_state(deck, variant), "Parisienne")
