"""Exhaustive shortest-path oracle for tiny Duchess deals.

A test oracle, not product code: it knows no strategy at all.  From a state of the
independent checker (solver.checker.Duchess), it writes down every move text that could
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

from oracle_search import Oracle, StateCapExceeded, packed  # noqa: F401  (re-exported for the tests)

FANS = ("r1", "r2", "r3", "r4")
COLUMNS = ("t1", "t2", "t3", "t4")


def state_key(g) -> bytes:
    """Everything that decides the rest of the game, packed into bytes (cards are 0..51)."""
    return packed([*g.fans, *g.columns, g.stock, g.waste],
                  [0 if g.base is None else g.base, *g.found, g.redeals_left])


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


def lower_bound(g) -> int:
    """Moves still needed at least (see the module docstring)."""
    return g.cards_left() + len(g.stock)


_ORACLE = Oracle(state_key, candidate_moves, lower_bound)
legal_successors = _ORACLE.legal_successors
solve_exhaustive = _ORACLE.solve_exhaustive
solve_state = _ORACLE.solve_state
