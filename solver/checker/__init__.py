"""The independent checker: replay a solution move by move under RULES.md.

This package is deliberately written apart from the solver: plain Python, no numba,
and no import of ``solver.games`` or ``solver.search`` (tests/test_checker_independent.py
holds it to that).  It works straight from the text of RULES.md and NOTATION.md, so
a bug in a search kernel cannot hide itself by also being in the checker.  Speed does
not matter here; being obviously right does.

Each game is a small rule class in a module of its own (``bakers_dozen``,
``grand_duchess`` with Parisienne, ``capricieuse``, ``duchess``, ``russian_patience``), built on
``common.RuleGame``: ``__init__(deck, variant, ranks=..., columns=...)``
(``columns=None`` is the game's own number of piles; Russian Patience also takes
``redeal_seed=``, which fixes its redeal shuffles) deals the layout,
``apply(move_text)`` makes one move or raises ``IllegalMove`` with the reason,
``won()`` says whether every card is on the foundations, ``view()`` gives the state as
plain lists and ints (the game module's ``checker_view(st)`` gives the same for a
kernel state).  ``apply`` checks everything before it changes anything, so a move
that raises leaves the state as it was (searches over the rules, such as
tests/gd_oracle.py, rely on it).  ``GAMES`` maps the NOTATION.md game name to its
class; a new game is one module and one entry.  ``common`` holds what the games
share: move words, foundation tests, variant checking, solution files.
"""

from __future__ import annotations

from ..errors import PatienceError
from .bakers_dozen import BAKERS_DOZEN_VARIANT, EMPTY_RULES, BakersDozen, deal_columns
from .capricieuse import CAPRICIEUSE_PILES, CAPRICIEUSE_VARIANT, Capricieuse, capricieuse_deal, capricieuse_fits
from .common import SUIT_NAMES, IllegalMove, ReplayResult, RuleGame, checked_variant, parse_solution, read_solution
from .duchess import DUCHESS_COLUMNS, DUCHESS_FANS, DUCHESS_MOVE_RULES, DUCHESS_VARIANT, Duchess
from .grand_duchess import GD_DEAL_ORDER, GD_PILES, GRAND_DUCHESS_VARIANT, GrandDuchess, Parisienne
from .russian_patience import RUSSIAN_PATIENCE_COLUMNS, RUSSIAN_PATIENCE_VARIANT, RussianPatience, russian_patience_deal

# Game name (NOTATION.md) -> rule class.
GAMES = {
    "bakers-dozen": BakersDozen,
    "grand-duchess": GrandDuchess,
    "parisienne": Parisienne,
    "capricieuse": Capricieuse,
    "duchess": Duchess,
    "russian-patience": RussianPatience,
}

# Each game's variant with every default filled in (the kernels' VARIANTS defaults
# must agree: tests/test_game_contract.py).
DEFAULT_VARIANTS = {
    "bakers-dozen": BAKERS_DOZEN_VARIANT,
    "grand-duchess": GRAND_DUCHESS_VARIANT,
    "parisienne": GRAND_DUCHESS_VARIANT,
    "capricieuse": CAPRICIEUSE_VARIANT,
    "duchess": DUCHESS_VARIANT,
    "russian-patience": RUSSIAN_PATIENCE_VARIANT,
}


def replay(game: str, variant: dict, deck, moves: list[str], *, ranks: int = 13,
           columns: int | None = None, redeal_seed: int | None = None) -> ReplayResult:
    """Play ``moves`` from the deal of ``deck``; stop at the first illegal move.

    A bad game, variant or deck is the caller's input error (PatienceError); a bad
    move, even one that is not a move at all, is part of the verdict.  ``redeal_seed``
    fixes Russian Patience's redeal shuffles (a seeded deal's is its seed); it goes to
    that game only, the other games' redeals need none and ignore it.  A Russian
    Patience redeal without one is an input error too.
    """
    if game not in GAMES:
        raise PatienceError(f"the checker does not know game {game!r} (known: {', '.join(GAMES)})")
    if game == "russian-patience":
        state = GAMES[game](deck, variant, ranks=ranks, columns=columns, redeal_seed=redeal_seed)
    else:
        state = GAMES[game](deck, variant, ranks=ranks, columns=columns)
    for number, text in enumerate(moves, start=1):
        try:
            state.apply(text)
        except IllegalMove as e:
            return ReplayResult(False, False, number - 1, f"move {number} {text!r}: {e}")
    if state.won():
        return ReplayResult(True, True, len(moves), None)
    left = state.cards_left()
    cards = "1 card is" if left == 1 else f"{left} cards are"
    return ReplayResult(True, False, len(moves), f"every move is legal but {cards} not on the foundations")


__all__ = [
    "BAKERS_DOZEN_VARIANT", "CAPRICIEUSE_PILES", "CAPRICIEUSE_VARIANT", "DEFAULT_VARIANTS", "DUCHESS_COLUMNS",
    "DUCHESS_FANS", "DUCHESS_MOVE_RULES", "DUCHESS_VARIANT", "EMPTY_RULES", "GAMES", "GD_DEAL_ORDER", "GD_PILES",
    "GRAND_DUCHESS_VARIANT", "SUIT_NAMES", "BakersDozen", "Capricieuse", "Duchess", "GrandDuchess", "IllegalMove",
    "Parisienne", "RUSSIAN_PATIENCE_COLUMNS", "RUSSIAN_PATIENCE_VARIANT", "ReplayResult", "RuleGame",
    "RussianPatience", "capricieuse_deal", "capricieuse_fits", "checked_variant",
    "deal_columns", "parse_solution", "read_solution", "replay", "russian_patience_deal",
]
