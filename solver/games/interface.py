"""What a game module provides: the one interface between a game and the rest.

A game is a module under ``solver.games`` and a line in ``solver.games.REGISTRY``.
``GameModule`` below lists every name such a module must define (``get_game``
checks them when it loads a module and names every one missing); the search
engines, ``solver.solve``, the command line and tests/test_game_contract.py use
nothing else.  The kernels are numba functions (@njit(cache=True)) over the game's
state, one int64 array ``st`` of ``STATE_LEN`` entries whose layout is the game's
own; a move is an int64 whose encoding is the game's own too.  ``dfs``,
``astar``, ``beam`` and ``nrpa`` are the engines of ``solver.search`` compiled against
the kernels by ``solver.search.specialise`` (the game module calls it last); ``nrpa``
scores a playout by ``st[LEFT]``, the cards not on the foundations, so a module that
compiles the engines defines ``LEFT``.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np


class GameModule(Protocol):
    """The names a game module defines (a module satisfies this structurally)."""

    NAME: str  # the NOTATION.md game name, e.g. "grand-duchess"
    PACKS: int  # 1 or 2: a deck holds PACKS * 52 cards
    # key -> (kind, default), kind "bool", ("int", lo, hi) or a tuple of words
    # (solver.variants.parse_variant); the defaults must be the checker's
    VARIANTS: dict
    STATE_LEN: int  # entries of the state array
    PACK_LEN: int  # entries of pack()'s int8 row (A*'s node store)
    MAX_MOVES: int  # gen_moves never returns more moves than this
    PROFILES: list  # move-ordering weights of the fixed restart profiles (set_profile)
    # True when a deal won with k redeals is won with k + 1 by the same moves (the
    # rules differ in nothing else): solver.batch.monotone may then decide across them
    REDEALS_MONOTONE: bool

    # -- plain Python

    def initial_state(self, deck, variant: dict, ranks: int = 13, columns: int | None = None) -> np.ndarray:
        """The state after the deal (``ranks``/``columns`` shrink the game for tests;
        ``columns=None``: the game's own number of piles); bad input raises PatienceError."""

    def set_profile(self, st: np.ndarray, k: int) -> None:
        """Set the move ordering of restart attempt k in ``st`` (profile k, then noise)."""

    def layout_text(self, deck, variant: dict) -> str:
        """The layout for people (``patience deal``)."""

    def move_text(self, m: int) -> str:
        """A move in NOTATION.md words; a macro move gives several lines, one move each."""

    def checker_view(self, st: np.ndarray) -> dict:
        """The state in the checker's terms: equal to ``view()`` of the checker's
        object (solver.checker) for the same position."""

    # -- kernels (@njit)

    def gen_moves(self, st: np.ndarray, out: np.ndarray, base: int) -> int:
        """Write the moves worth trying at out[base:], return how many (at most
        MAX_MOVES; pruning proven safe; a forced move returned alone)."""

    def apply_move(self, st: np.ndarray, m: int) -> None:
        """Make move m, keeping the keys up to date."""

    def undo_move(self, st: np.ndarray, m: int) -> None:
        """Take back move m, the last one made: the state and its keys as before."""

    def is_won(self, st: np.ndarray) -> bool:
        """Every card is on the foundations."""

    def is_dead(self, st: np.ndarray) -> bool:
        """True only for states proven lost."""

    def root_dead(self, st: np.ndarray) -> bool:
        """True only for states proven lost, by a test too costly for every node: the
        portfolio runs it once, on the deal's start; a game that does not define it
        gets False (solver.search.specialise_engines)."""

    def score(self, st: np.ndarray) -> int:
        """Move ordering: lower is tried first."""

    def lower_bound(self, st: np.ndarray) -> int:
        """An admissible and consistent bound on the moves still needed (A*)."""

    def key1(self, st: np.ndarray) -> int:
        """The state's first 64-bit key (kept up to date by the moves)."""

    def key2(self, st: np.ndarray) -> int:
        """The second, independent key."""

    def rehash(self, st: np.ndarray) -> None:
        """Compute the keys from scratch (they must equal the incremental ones)."""

    def pack(self, st: np.ndarray, row: np.ndarray) -> None:
        """Write the state compactly into an int8 row of PACK_LEN."""

    def unpack(self, row: np.ndarray, st: np.ndarray) -> None:
        """Inverse of pack, into a state of the same deal and variant."""

    def may_return(self, st: np.ndarray) -> bool:
        """Whether a line from st may come back to a state it has been in (NRPA's
        playouts skip their loop check when not); a game that does not define it
        gets True (solver.search.specialise_engines)."""

    def nrpa_context(self, st: np.ndarray) -> int:
        """A small number that NRPA's policy entries depend on besides the move (so that
        one move can be learnt as good in one phase of a game and bad in another); a
        game that does not define it gets 0."""

    # -- the engines, specialised (solver.search.specialise)

    def dfs(self, st, table, gen, max_nodes, slice_nodes, moves, count, nxt, scores, path, ctx) -> int:
        """solver.search.dfs.dfs against this game's kernels."""

    def astar(self, st, slice_nodes, rows, g, parent, via, k1s, k2s, closed, slots,
              hkey, hidx, moves, row, path, ctx) -> int:
        """solver.search.astar.astar against this game's kernels."""

    def beam(self, st, table, gen, slice_layers, rows, parent, via, cscore, cparent, cmove, moves, row, path,
             ctx) -> int:
        """solver.search.beam.beam against this game's kernels."""

    def nrpa(self, st, max_nodes, slice_nodes, pols, seqs, lens, scores, iters, moves, weights, seen, path,
             ctx) -> int:
        """solver.search.nrpa.nrpa against this game's kernels."""


REQUIRED_NAMES: tuple[str, ...] = tuple(GameModule.__annotations__) + tuple(
    name for name, value in vars(GameModule).items() if callable(value) and not name.startswith("_")
)


def missing_names(module) -> list[str]:
    """The names of ``GameModule`` that ``module`` does not define, in the order above."""
    return [name for name in REQUIRED_NAMES if not hasattr(module, name)]
