"""The independent checker's old address: everything is in ``solver.checker`` now
(one module per game).  Kept so that ``from solver.replay import replay`` still works."""

from .checker import *  # noqa: F401,F403
from .checker import __all__  # noqa: F401
