"""Exhaustive shortest-path oracle for tiny Duchess deals.

A test oracle, not product code: it knows no strategy at all.  From a state of the
independent checker (solver.replay.Duchess), it writes down every move text that could
be legal -- the top card of each fan, of the waste and of each column to F; the top
card of each fan and of the waste onto every column; every card of every column onto
every other column (a run is named by its lowest card); the stock's top card onto
every column; ``deal`` and ``redeal`` -- and lets the checker decide: a candidate that
raises IllegalMove is dropped.  So the oracle's notion of a legal move is exactly the
checker's.  (The checker's ``apply`` changes nothing when it raises, so one scratch copy
serves all the illegal candidates of a state.)

States are compared by an exact key of the whole state: the fans and the columns in
order (no symmetry between piles is used), the stock and the waste in order, the base
rank (0 before the first move), the four foundation counts and the redeals left.

Two exact search orders, both returning a shortest solution (every move costs 1):

- ``method="bfs"``: plain breadth-first search.
- ``method="astar"`` (default): A* with the lower bound
  ``h = cards_left + len(stock)``.

  Admissible: every card off the foundations needs a foundation move of its own (a
  foundation move takes one card; nothing reaches a foundation any other way), and every
  card in the stock must first leave it by a move of its own, a ``deal`` or an
  ``S tM`` (each takes exactly one card out of the stock), which is not a foundation
  move.  So at least ``cards_left + len(stock)`` moves remain.
  Consistent (h(s) <= 1 + h(s') for every move s -> s'): a foundation move lowers
  cards_left by exactly 1 and leaves the stock; ``deal`` and ``S tM`` lower the stock by
  exactly 1 and leave cards_left; fan, waste and column moves onto a column change
  neither; ``redeal`` turns the waste into the stock, so it leaves cards_left and can
  only raise len(stock).  So h never drops by more than the move's cost, and the first
  won state taken off the queue is a shortest win.  A lost deal is still searched to
  the last reachable state.

``max_states`` bounds the distinct states met; past it the search raises.
"""

from __future__ import annotations

from solver.cards import card_str
from solver.replay import GAMES

import oracle_search
from oracle_search import StateCapExceeded  # noqa: F401  (re-exported for the tests)

_SEP = 255  # not a card code

FANS = ("r1", "r2", "r3", "r4")
COLUMNS = ("t1", "t2", "t3", "t4")


def state_key(g) -> bytes:
    """Everything that decides the rest of the game, packed into bytes (cards are 0..51)."""
    parts = []
    for pile in g.fans:
        parts.extend(pile)
        parts.append(_SEP)
    for pile in g.columns:
        parts.extend(pile)
        parts.append(_SEP)
    parts.extend(g.stock)
    parts.append(_SEP)
    parts.extend(g.waste)
    parts.append(_SEP)
    parts.append(0 if g.base is None else g.base)
    parts.extend(g.found)
    parts.append(g.redeals_left)
    return bytes(parts)


def candidate_moves(g) -> list[str]:
    """Every move text that might be legal here (a superset; the checker decides)."""
    moves = []
    singles = [(FANS[i], fan[-1]) for i, fan in enumerate(g.fans) if fan]
    if g.waste:
        singles.append(("W", g.waste[-1]))
    for src, c in singles:
        name = card_str(c)
        moves.append(f"{src} F {name}")
        moves.extend(f"{src} {dst} {name}" for dst in COLUMNS)
    for i, col in enumerate(g.columns):
        if not col:
            continue
        moves.append(f"{COLUMNS[i]} F {card_str(col[-1])}")
        for c in col:
            moves.extend(f"{COLUMNS[i]} {COLUMNS[j]} {card_str(c)}" for j in range(4) if j != i)
    if g.stock:
        moves.extend(f"S {dst} {card_str(g.stock[0])}" for dst in COLUMNS)
    moves.append("deal")
    moves.append("redeal")
    return moves


def legal_successors(g) -> list[tuple[str, object]]:
    """(move text, new state) for each move the checker accepts from ``g``."""
    return oracle_search.legal_successors(g, candidate_moves)


def lower_bound(g) -> int:
    """Moves still needed at least (see the module docstring)."""
    return g.cards_left() + len(g.stock)


def solve_exhaustive(game: str, variant: dict | None, deck, ranks: int, columns: int | None = None, *,
                     max_states: int = 2_000_000, method: str = "astar"):
    """Decide the deal exactly.

    Returns ``(won, shortest_moves, states)``: whether some sequence of legal moves
    wins, one shortest such sequence (None if lost), and how many distinct states were
    met.  Raises StateCapExceeded once more than ``max_states`` distinct states are met.
    """
    return solve_state(GAMES[game](deck, variant, ranks=ranks, columns=columns),
                       max_states=max_states, method=method)


def solve_state(start, *, max_states: int = 2_000_000, method: str = "astar"):
    """``solve_exhaustive`` from a given checker state (left unchanged), e.g. one reached
    by playing some moves of a deal: the moves returned are the rest of the game."""
    return oracle_search.exhaustive(start, state_key, candidate_moves, lower_bound, max_states, method)
