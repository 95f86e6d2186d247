"""Baker's Dozen players and the loop that runs a game (docs/PLAYERS.md).

A strategy is an object with ``name`` and ``choose(obs, moves, rng) -> move``: it sees
only the ``Observation``, the legal moves (a tuple of move strings, computed from the
observation) and its own ``random.Random``; never the referee or the true state.  The
strategies here hold no state of their own, so a decision depends on exactly those
three things.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from .bakers_dozen import HIDDEN, FaceDownGame, Observation, legal_moves


class RandomStrategy:
    """A uniformly random legal move."""

    name = "random"

    def choose(self, obs: Observation, moves: tuple, rng: random.Random) -> str:
        return rng.choice(moves)


class GreedyStrategy:
    """Rules of thumb, no look-ahead.  In order of preference:

    1. a move to a foundation;
    2. a move that uncovers a hidden card (the card under the moving one is face down);
    3. any other move.

    Ties within the first class that has a move are broken uniformly by the rng.
    """

    name = "greedy"

    def choose(self, obs: Observation, moves: tuple, rng: random.Random) -> str:
        home = [m for m in moves if m.split()[1] == "F"]
        if home:
            return rng.choice(home)
        uncover = []
        for m in moves:
            col = obs.columns[int(m.split()[0][1:]) - 1]
            if len(col) >= 2 and col[-2] == HIDDEN:
                uncover.append(m)
        return rng.choice(uncover or list(moves))


STRATEGIES = {"random": RandomStrategy, "greedy": GreedyStrategy}


@dataclass
class PlayResult:
    won: bool
    moves: list[str]  # the moves made, in order
    decisions: int  # how many times the player chose among two or more legal moves
    stopped: bool  # the game hit max_moves before it ended
    observations: list[Observation] = field(default_factory=list)  # with trace=True: before each move


def play_game(deck, variant: dict | None, strategy, rng_seed: int, *, ranks: int = 13, columns: int = 13,
              max_moves: int = 1000, trace: bool = False) -> PlayResult:
    """Play one game to its end: won, no legal move left, or ``max_moves`` made (a
    random player can move a card to and fro for ever; ``stopped`` says so).  The
    strategy gets its own ``random.Random(rng_seed)``; the referee uses no randomness."""
    game = FaceDownGame(deck, variant, ranks=ranks, columns=columns)
    rng = random.Random(rng_seed)
    moves: list[str] = []
    seen: list[Observation] = []
    decisions = 0
    while not game.won() and len(moves) < max_moves:
        obs = game.observe()
        legal = tuple(legal_moves(obs))  # from the observation just built, not a second one
        if not legal:
            break
        if trace:
            seen.append(obs)
        if len(legal) > 1:
            decisions += 1
        move = strategy.choose(obs, legal, rng)
        if move not in legal:
            raise ValueError(f"strategy {strategy.name!r} chose {move!r}, which is not a legal move")
        game.apply(move)
        moves.append(move)
    stopped = not game.won() and len(moves) >= max_moves and bool(game.legal_moves())
    return PlayResult(game.won(), moves, decisions, stopped, seen)
