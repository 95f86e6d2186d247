"""Exhaustive shortest-path oracle for tiny Grand Duchess / Parisienne deals.

A test oracle, not product code: it knows no strategy at all.  From a state of the
independent checker (solver.checker), it writes down every move text that could be
legal -- the top of each tableau pile, every distinct reserve card and the top of each
foundation, each to U and to D, plus ``deal`` and ``redeal`` -- and lets the checker
decide: a candidate that raises IllegalMove is dropped.  So the oracle's notion of a
legal move is exactly the checker's.  (The checker's ``apply`` changes nothing when it
raises, so one scratch copy serves all the illegal candidates of a state.)

States are compared by a canonical key of the whole state: piles, reserve in order,
stock in order, the eight foundation tops and the redeals left.  Two copies of a card
have the same code, so states that differ only in which copy lies where are one state,
as RULES.md says copies are interchangeable.

Two exact search orders, both returning a shortest solution (every move costs 1):

- ``method="bfs"``: plain breadth-first search.  Simple, but it must visit every state
  closer than the shortest win, which already runs to millions for ranks=2 with a redeal.
- ``method="astar"`` (default): A* with the lower bound
  ``h = cards not on the foundations + ceil(stock / cards per deal)``.  Every card
  still off the foundations needs at least one move of its own (transfers only add
  moves), and the stock must be dealt out, at most 6 cards a deal (4 in a round with no
  reserve), before a redeal or a win.  A foundation move lowers h by exactly 1, a deal
  by exactly 1, a transfer leaves it, a redeal raises it: h never drops by more than the
  move's cost, so h is consistent and the first won state taken off the queue is a
  shortest win.  A lost deal is still searched to the last reachable state.

``max_states`` bounds the distinct states met; past it the search raises.
"""

from __future__ import annotations

from solver.cards import SUITS, card_str

from oracle_search import Oracle, StateCapExceeded, packed  # noqa: F401  (re-exported for the tests)

RANK_CHARS = "A23456789TJQK"


def state_key(g) -> bytes:
    """Everything that decides the rest of the game, packed into bytes (cards are 0..51)."""
    return packed([*g.tableau, g.reserve, g.stock], [*g.up, *g.down, g.redeals_left])


def candidate_moves(g) -> list[str]:
    """Every move text that might be legal here (a superset; the checker decides)."""
    moves = []
    for i, pile in enumerate(g.tableau):
        if pile:
            name = card_str(pile[-1])
            moves.append(f"t{i + 1} U {name}")
            moves.append(f"t{i + 1} D {name}")
    for c in sorted(set(g.reserve)):
        name = card_str(c)
        moves.append(f"R U {name}")
        moves.append(f"R D {name}")
    for s in range(4):
        if g.up[s]:
            moves.append(f"U D {RANK_CHARS[g.up[s] - 1]}{SUITS[s]}")
        if g.down[s]:
            moves.append(f"D U {RANK_CHARS[g.down[s] - 1]}{SUITS[s]}")
    moves.append("deal")
    moves.append("redeal")
    return moves


def lower_bound(g) -> int:
    """Moves still needed at least (see the module docstring)."""
    per_deal = 6 if g.has_reserve else 4
    return g.cards_left() + -(-len(g.stock) // per_deal)


_ORACLE = Oracle(state_key, candidate_moves, lower_bound)
legal_successors = _ORACLE.legal_successors
solve_exhaustive = _ORACLE.solve_exhaustive
solve_state = _ORACLE.solve_state
