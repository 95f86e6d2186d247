"""The exact searches shared by the test oracles (gd_oracle, cap_oracle, duchess_oracle).

An oracle names, for its game, ``state_key(g)`` (bytes: everything that decides the
rest of the game; ``packed`` builds them), ``candidate_moves(g)`` (a superset of the
legal move texts) and ``lower_bound(g)`` (consistent: no move lowers it by more than
its cost of 1); ``Oracle`` makes of them the functions the tests call.  The checker
of solver.checker decides which candidates are legal, so the oracle's notion of a
legal move is exactly the checker's.

Two exact orders, both returning a shortest solution (every move costs 1):
``"bfs"`` (plain breadth-first) and ``"astar"`` (the first won state taken off the
queue is a nearest one, since the bound is consistent).  A lost deal is searched to
the last reachable state either way.
"""

from __future__ import annotations

import heapq
from collections import deque

import numpy as np

from solver.checker import GAMES, IllegalMove

SEP = 255  # not a card code


class StateCapExceeded(RuntimeError):
    """The search met more than ``max_states`` distinct states without finishing."""


def packed(piles, numbers) -> bytes:
    """A state key: each pile's cards (0..51) followed by SEP, then the numbers (small
    counts: foundations, redeals left)."""
    parts = []
    for pile in piles:
        parts.extend(pile)
        parts.append(SEP)
    parts.extend(numbers)
    return bytes(parts)


class Oracle:
    """One game's oracle, from its ``state_key``, ``candidate_moves`` and ``lower_bound``."""

    def __init__(self, state_key, candidate_moves, lower_bound):
        self.state_key = state_key
        self.candidate_moves = candidate_moves
        self.lower_bound = lower_bound

    def legal_successors(self, g) -> list[tuple[str, object]]:
        """(move text, new state) for each move the checker accepts from ``g``."""
        return legal_successors(g, self.candidate_moves)

    def solve_state(self, start, *, max_states: int = 2_000_000, method: str = "astar"):
        """``solve_exhaustive`` from a given checker state (left unchanged), e.g. one reached
        by playing some moves of a deal: the moves returned are the rest of the game."""
        return exhaustive(start, self.state_key, self.candidate_moves, self.lower_bound, max_states, method)

    def solve_exhaustive(self, game: str, variant: dict | None, deck, ranks: int, columns: int | None = None, *,
                         max_states: int = 2_000_000, method: str = "astar"):
        """Decide the deal exactly.

        Returns ``(won, shortest_moves, states)``: whether some sequence of legal moves
        wins, one shortest such sequence (None if lost), and how many distinct states were
        met.  Raises StateCapExceeded once more than ``max_states`` distinct states are met.
        """
        start = GAMES[game](deck, variant, ranks=ranks, columns=columns)
        return self.solve_state(start, max_states=max_states, method=method)


def legal_successors(g, candidate_moves) -> list[tuple[str, object]]:
    """(move text, new state) for each candidate the checker accepts from ``g``.
    The checker's ``apply`` changes nothing when it raises, so one scratch copy serves
    all the illegal candidates of a state."""
    out = []
    scratch = g.copy()
    for text in candidate_moves(g):
        try:
            scratch.apply(text)
        except IllegalMove:
            continue
        out.append((text, scratch))
        scratch = g.copy()
    return out


def exhaustive(start, state_key, candidate_moves, lower_bound, max_states: int, method: str):
    """``(won, shortest_moves or None, states met)`` from the checker state ``start``
    (left unchanged); raises StateCapExceeded past ``max_states`` states."""
    if start.won():
        return True, [], 1
    if method == "bfs":
        return _bfs(start, state_key, candidate_moves, max_states)
    if method == "astar":
        return _astar(start, state_key, candidate_moves, lower_bound, max_states)
    raise ValueError(f"unknown method {method!r}")


def _path(parent: dict, key: bytes) -> list[str]:
    moves = []
    while parent[key] is not None:
        key, m = parent[key]
        moves.append(m)
    return moves[::-1]


def _bfs(start, state_key, candidate_moves, max_states: int):
    k0 = state_key(start)
    parent: dict[bytes, tuple | None] = {k0: None}  # key -> (parent key, move text)
    queue = deque([(k0, start)])
    while queue:
        key, g = queue.popleft()
        for text, h in legal_successors(g, candidate_moves):
            hk = state_key(h)
            if hk in parent:
                continue
            parent[hk] = (key, text)
            if h.won():  # breadth-first: the first won state met is a nearest one
                return True, _path(parent, hk), len(parent)
            if len(parent) > max_states:
                raise StateCapExceeded(f"more than {max_states} states")
            queue.append((hk, h))
    return False, None, len(parent)


def _astar(start, state_key, candidate_moves, lower_bound, max_states: int):
    k0 = state_key(start)
    parent: dict[bytes, tuple | None] = {k0: None}
    best_g = {k0: 0}
    tie = 0
    # (f, -g, tie, g, key, state): among equal f, deeper states first; tie keeps it total.
    heap = [(lower_bound(start), 0, tie, 0, k0, start)]
    while heap:
        _, _, _, g_cost, key, g = heapq.heappop(heap)
        if g_cost > best_g[key]:
            continue  # a stale entry: this state was reached more cheaply since
        if g.won():
            return True, _path(parent, key), len(best_g)
        for text, h in legal_successors(g, candidate_moves):
            hk = state_key(h)
            ng = g_cost + 1
            old = best_g.get(hk)
            if old is not None and old <= ng:
                continue
            best_g[hk] = ng
            parent[hk] = (key, text)
            if len(best_g) > max_states:
                raise StateCapExceeded(f"more than {max_states} states")
            tie += 1
            heapq.heappush(heap, (ng + lower_bound(h), -ng, tie, ng, hk, h))
    return False, None, len(best_g)


def first_dead_states_are_lost(kernel, walks, choose, solve_state, *, want: int, max_states: int,
                               steps: int = 10_000, fires=lambda st: True, view=lambda st: None,
                               dead=None) -> int:
    """A game's ``is_dead`` checked state by state.  Each walk ``(seed, st, g)`` pairs a
    kernel state with the checker's state of the same position; ``choose(moves)`` picks
    the next kernel move, played on both.  The first state of a walk that ``is_dead``
    calls dead (where ``fires(st)``) is handed to the exhaustive oracle
    (``solve_state``), which must find it lost; a position too big for the oracle ends
    its walk unchecked.  Stops once ``want`` states are checked; returns how many were.
    ``steps`` bounds a walk (moves that undo each other could go on forever).  ``dead``
    replaces ``kernel.is_dead``, to check one part of it alone."""
    dead = dead or kernel.is_dead
    checked = 0
    out = np.zeros(kernel.MAX_MOVES, dtype=np.int64)
    for seed, st, g in walks:
        for _ in range(steps):
            if fires(st) and dead(st):
                try:
                    won, _, _ = solve_state(g, max_states=max_states)
                except StateCapExceeded:
                    break  # too big to check here; not evidence either way
                assert not won, (seed, view(st))
                checked += 1
                break
            n = kernel.gen_moves(st, out, 0)
            if n == 0:
                break
            m = int(choose([int(x) for x in out[:n]]))
            kernel.apply_move(st, m)
            for line in kernel.move_text(m).split("\n"):
                g.apply(line)
        if checked >= want:
            break
    return checked
