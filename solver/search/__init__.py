"""Game-agnostic search engines (DFS, A*) and the transposition table.

An engine is written once, as plain Python functions that call the game's
kernels by name (``gen_moves``, ``apply_move``, ...).  ``specialise`` compiles
those functions inside one game module's namespace, so each game gets its own
numba compilation with direct calls to its kernels, cached on disk like any
other @njit(cache=True) function.  (Passing the kernels as function arguments
instead makes numba refuse to cache the search.)  The kernel pieces games share
(solver/games/kernels.py) are compiled the same way.
"""

from __future__ import annotations

import inspect
import sys

from numba import njit


class NameClash(RuntimeError):
    """``specialise`` was asked to bind a name the game's namespace already binds to
    something else: a template would silently use the wrong object."""


def specialise(game_globals: dict, templates, helpers: dict | None = None, *, inline: bool = False) -> None:
    """Define an @njit(cache=True) copy of each template function in ``game_globals``
    (``inline``: one that numba inlines into every caller, as small kernel pieces want).

    ``helpers`` are the names the templates use besides the game's kernels
    (engine constants, cached helper functions); they are added to the namespace.
    A helper may already be bound there only to the very same object (the engines
    share ``LOST``, ``WON``, ...), and a template's name not at all: anything else
    raises ``NameClash`` naming each clash, rather than letting one engine's
    constant or a game's own function stand in for another's.
    """
    helpers = helpers or {}
    clashes = [name for name, value in helpers.items() if name in game_globals and game_globals[name] is not value]
    clashes += [t.__name__ for t in templates if t.__name__ in game_globals]
    if clashes:
        raise NameClash(f"specialise in {game_globals.get('__name__')}: already bound to something else: "
                        + ", ".join(clashes))
    game_globals.update(helpers)
    if not templates:
        return
    filename = sys.modules[game_globals["__name__"]].__file__
    for template in templates:
        lines, first = inspect.getsourcelines(template)
        source = "\n" * (first - 1) + "".join(lines)
        exec(compile(source, filename, "exec"), game_globals)
        options = {"inline": "always"} if inline else {}
        game_globals[template.__name__] = njit(cache=True, **options)(game_globals[template.__name__])


def specialise_engines(game_globals: dict) -> None:
    """Compile the DFS and the A* engines against the kernels of the game module whose
    namespace this is: defines ``dfs``, ``astar``, ``beam`` and ``nrpa`` there (the module's last step)."""
    from . import astar, beam, dfs, nrpa

    game_globals.setdefault("DEAD_MEMO", False)  # dfs.dfs_dead: a game may set it True
    if "may_return" not in game_globals:  # nrpa's loop check: a game may define its own
        specialise(game_globals, (nrpa.may_return,))
    if "nrpa_context" not in game_globals:  # what else a move's policy entry depends on
        specialise(game_globals, (nrpa.nrpa_context,))
    if "root_dead" not in game_globals:  # a costlier dead-end test of the root: none
        specialise(game_globals, (dfs.root_dead,))
    if "dead_costly" not in game_globals:  # where is_dead's test is costly: nowhere
        specialise(game_globals, (dfs.dead_costly,))
    specialise(game_globals, dfs.TEMPLATES, dfs.HELPERS)
    specialise(game_globals, nrpa.TEMPLATES, nrpa.HELPERS)
    specialise(game_globals, astar.TEMPLATES, astar.HELPERS)
    specialise(game_globals, beam.TEMPLATES, beam.HELPERS)
