"""Playing under hidden information: what a player sees, and the hidden cards' exact
conditional distribution given what it has seen (docs/PLAYERS.md).

A *referee* holds the true state (a checker state from ``solver.checker``) and hands a
player only an immutable *observation*, the legal moves computed from it, and the
player's own random stream.  ``bakers_dozen`` does this for Baker's Dozen, face down and
face up, in plain Python (the specification, with the exact sampler argued in its
docstring); ``strategies`` holds plain-Python players and the loop the tests use.

The strategies users run are numba kernels over the same rules (``bd_kernels``: the
referee's bookkeeping, the player's view, the sampler; ``bd_policies``: greedy,
rollouts, PIMC; ``bd_ismcts``: information-set MCTS; ``bd_play``: the referee loop),
tested against the specification; ``players`` is the front end every caller uses.
"""

from __future__ import annotations

from .bakers_dozen import HIDDEN, FaceDownGame, Observation, deck_for_layout, legal_moves, sample_deal, sample_world
from .strategies import STRATEGIES, GreedyStrategy, PlayResult, RandomStrategy, play_game

__all__ = ["HIDDEN", "STRATEGIES", "FaceDownGame", "GreedyStrategy", "Observation", "PlayResult", "RandomStrategy",
           "deck_for_layout", "legal_moves", "play_game", "sample_deal", "sample_world"]
