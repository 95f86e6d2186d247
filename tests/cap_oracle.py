"""Exhaustive shortest-path oracle for tiny Capricieuse deals.

A test oracle, not product code: it knows no strategy at all.  From a state of the
independent checker (solver.checker.Capricieuse), it writes down every move text that
could be legal -- the top card of each pile to U, to D and onto every other pile, plus
``redeal`` -- and lets the checker decide: a candidate that raises IllegalMove is
dropped.  So the oracle's notion of a legal move is exactly the checker's.  (The
checker's ``apply`` changes nothing when it raises, so one scratch copy serves all the
illegal candidates of a state.)

States are compared by an exact key of the whole state: the piles in order (no
symmetry between piles is used), the eight foundation tops and the redeals left.  There
is no stock between moves (the deal procedure runs inside ``__init__`` and ``redeal``).
Two copies of a card have the same code, so states that differ only in which copy lies
where are one state, as RULES.md says copies are interchangeable.  ``round`` is left
out of the key: it is fixed by the redeals left.

Two exact search orders, both returning a shortest solution (every move costs 1):

- ``method="bfs"``: plain breadth-first search.
- ``method="astar"`` (default): A* with the lower bound
  ``h = cards_left`` when no redeal is left, else ``h = min(cards_left, 1)``.

  Admissible: with no redeal left, cards reach the foundations only by a move of their
  own (automatic plays happen only inside a deal, and a deal happens only in a redeal),
  one card a move, so at least ``cards_left`` moves remain.  With a redeal left, one
  ``redeal`` may put any number of cards on the foundations, so all we can say is that
  an unwon state needs at least one more move.
  Consistent (h(s) <= 1 + h(s') for every move s -> s'): with no redeal left, a
  foundation move lowers cards_left by exactly 1 and a pile-to-pile move leaves it, and
  no redeal is possible; with a redeal left, h(s) <= 1 <= 1 + h(s') whatever s' is
  (h >= 0 always).  So the first won state taken off the queue is a shortest win.  A
  lost deal is still searched to the last reachable state.

``max_states`` bounds the distinct states met; past it the search raises.
"""

from __future__ import annotations

from solver.cards import card_str

from oracle_search import Oracle, StateCapExceeded, packed  # noqa: F401  (re-exported for the tests)


def state_key(g) -> bytes:
    """Everything that decides the rest of the game, packed into bytes (cards are 0..51)."""
    return packed(g.piles, [*g.up, *g.down, g.redeals_left])


def candidate_moves(g) -> list[str]:
    """Every move text that might be legal here (a superset; the checker decides)."""
    moves = []
    n = len(g.piles)
    for i, pile in enumerate(g.piles):
        if not pile:
            continue
        name = card_str(pile[-1])
        moves.append(f"p{i + 1} U {name}")
        moves.append(f"p{i + 1} D {name}")
        for j in range(n):
            if j != i:
                moves.append(f"p{i + 1} p{j + 1} {name}")
    moves.append("redeal")
    return moves


def lower_bound(g) -> int:
    """Moves still needed at least (see the module docstring)."""
    left = g.cards_left()
    return left if g.redeals_left == 0 else min(left, 1)


_ORACLE = Oracle(state_key, candidate_moves, lower_bound)
legal_successors = _ORACLE.legal_successors
solve_exhaustive = _ORACLE.solve_exhaustive
solve_state = _ORACLE.solve_state
