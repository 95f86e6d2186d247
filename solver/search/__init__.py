"""Game-agnostic search engines (DFS, A*) and the transposition table.

An engine is written once, as plain Python functions that call the game's
kernels by name (``gen_moves``, ``apply_move``, ...).  ``specialise`` compiles
those functions inside one game module's namespace, so each game gets its own
numba compilation with direct calls to its kernels, cached on disk like any
other @njit(cache=True) function.  (Passing the kernels as function arguments
instead makes numba refuse to cache the search.)
"""

from __future__ import annotations

import inspect
import sys

from numba import njit


def specialise(game_globals: dict, templates, helpers: dict) -> None:
    """Define an @njit(cache=True) copy of each template function in ``game_globals``.

    ``helpers`` are the names the templates use besides the game's kernels
    (engine constants, cached helper functions); they are added to the namespace.
    """
    for name, value in helpers.items():
        game_globals.setdefault(name, value)
    filename = sys.modules[game_globals["__name__"]].__file__
    for template in templates:
        lines, first = inspect.getsourcelines(template)
        source = "\n" * (first - 1) + "".join(lines)
        exec(compile(source, filename, "exec"), game_globals)
        game_globals[template.__name__] = njit(cache=True)(game_globals[template.__name__])
