"""The registry of games: name -> module.  A new game is one module and one entry here;
the module provides the names of ``solver.games.interface.GameModule``."""

from __future__ import annotations

import importlib

from ..errors import PatienceError
from .interface import missing_names

# Game name (NOTATION.md) -> module under solver.games, or None while not implemented.
REGISTRY = {
    "bakers-dozen": "bakers_dozen",
    "grand-duchess": "grand_duchess",
    "parisienne": "parisienne",
    "duchess": "duchess",
    "capricieuse": "capricieuse",
    "russian-patience": "russian_patience",
}


def get_game(name: str):
    """The game module for ``name``, or a clear error."""
    if name not in REGISTRY:
        raise PatienceError(f"unknown game {name!r} (known: {', '.join(REGISTRY)})")
    module = REGISTRY[name]
    if module is None:
        implemented = ", ".join(k for k, v in REGISTRY.items() if v)
        raise PatienceError(f"game {name!r} is not implemented yet (implemented: {implemented})")
    game = importlib.import_module(f"{__name__}.{module}")
    missing = missing_names(game)
    if missing:
        raise PatienceError(f"game module solver.games.{module} lacks the game interface's "
                            f"{', '.join(missing)} (see solver/games/interface.py)")
    return game
