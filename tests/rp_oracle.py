"""Exhaustive shortest-path oracle for tiny Russian Patience deals.

A test oracle, not product code: it knows no strategy at all.  From a state of the
independent checker (solver.checker.RussianPatience), it writes down every move text
that could be legal -- ``deal``, ``redeal``, the top card of each column to U and to D,
and every card of every column (as the lowest card of a run) onto every other column --
and lets the checker decide: a candidate that raises IllegalMove is dropped.  So the
oracle's notion of a legal move is exactly the checker's, the stock-phase restrictions
(only ``deal`` and the outside columns to a foundation) included.

States are compared by an exact key of the whole state: the columns in order (no
symmetry between columns is used), the stock, the eight foundation tops and the redeals
left.  Copies of a card have one code, so states that differ only in which copy lies
where are one state (RULES.md: copies are interchangeable).  ``round`` is left out: it
is fixed by the redeals left.  The redeal seed is not in the key either: it is one
number for the whole search.

The redeal shuffles come from ``redeal_seed``, which oracle_search.Oracle's
``solve_exhaustive`` does not pass to the game; so this module wraps it
(``solve_exhaustive`` below builds the checker state itself and hands it to
``solve_state``).  oracle_search.py is unchanged.

Two exact search orders, both returning a shortest solution (every move costs 1):
``method="bfs"`` and ``method="astar"`` (default) with the lower bound, where ``N`` is
the number of columns and ``rows = ceil(len(stock) / N)`` the ``deal`` moves the stock
still needs:

- ``h = rows + cards_left`` when no redeal is left;
- ``h = rows + min(cards_left, 1)`` when a redeal is left.

Why it is a lower bound.  Automatic plays happen only inside a deal procedure (at the
start and inside each ``redeal``); a ``deal`` move only moves cards from the stock to
the columns and plays none.  The stock shrinks only by ``deal`` moves (a ``redeal`` needs
an empty stock), each taking at most N cards, so at least ``rows`` deals remain before
the stock is empty, and a won state has an empty stock.  With no redeal left, every card
not on a foundation also needs a foundation move of its own (one card a move), and those
are not deals: ``rows + cards_left``.  With a redeal left, one ``redeal`` may put any
number of cards home, so beyond the deals an unwon state needs at least one more move
(if the stock is not empty, the cards of the last deal are in the columns after it).

Why it is consistent (h(s) <= 1 + h(s') for every move s -> s', so A*'s first won state
off the queue is a nearest one):

- ``deal``: rows falls by exactly 1 (it deals min(N, len(stock)) cards, so
  ceil((len - min(N, len)) / N) = ceil(len / N) - 1), cards_left is unchanged;
- a foundation move: cards_left falls by exactly 1, the stock is unchanged, so h
  falls by at most 1 (by 1, or by 0 when min(cards_left, 1) stays 1);
- a column-to-column move changes neither the stock nor cards_left;
- ``redeal`` (only with the stock empty and a redeal left): h(s) = min(cards_left, 1)
  <= 1 <= 1 + h(s') whatever s' is, as h >= 0 always.

A lost deal is still searched to the last reachable state.  ``max_states`` bounds the
distinct states met; past it the search raises.
"""

from __future__ import annotations

from solver.cards import card_str
from solver.checker import RussianPatience

from oracle_search import Oracle, StateCapExceeded, packed  # noqa: F401  (re-exported for the tests)

RP = "russian-patience"


def state_key(g) -> bytes:
    """Everything that decides the rest of the game, packed into bytes (cards are 0..51):
    the columns in order, then the stock as one more list, then the numbers."""
    return packed([*g.columns, g.stock], [*g.up, *g.down, g.redeals_left])


def candidate_moves(g) -> list[str]:
    """Every move text that might be legal here (a superset; the checker decides)."""
    moves = ["deal", "redeal"]
    n = len(g.columns)
    for i, col in enumerate(g.columns):
        if not col:
            continue
        name = card_str(col[-1])
        moves.append(f"c{i + 1} U {name}")
        moves.append(f"c{i + 1} D {name}")
        for c in dict.fromkeys(col):  # each card code once (CARD names its topmost copy)
            for j in range(n):
                if j != i:
                    moves.append(f"c{i + 1} c{j + 1} {card_str(c)}")
    return moves


def lower_bound(g) -> int:
    """Moves still needed at least (see the module docstring)."""
    n = len(g.columns)
    rows = -(-len(g.stock) // n)
    left = g.cards_left()
    return rows + (left if g.redeals_left == 0 else min(left, 1))


_ORACLE = Oracle(state_key, candidate_moves, lower_bound)
legal_successors = _ORACLE.legal_successors
solve_state = _ORACLE.solve_state


def solve_exhaustive(game: str, variant: dict | None, deck, ranks: int, columns: int | None = None, *,
                     redeal_seed: int | None = None, max_states: int = 2_000_000, method: str = "astar"):
    """Decide the deal exactly (as oracle_search.Oracle.solve_exhaustive, with the redeal
    seed passed to the game): ``(won, shortest_moves or None, states met)``."""
    if game != RP:
        raise ValueError(f"rp_oracle solves {RP} only, not {game!r}")
    start = RussianPatience(deck, variant, ranks=ranks, columns=columns, redeal_seed=redeal_seed)
    return solve_state(start, max_states=max_states, method=method)
