"""Shorter solutions: cut what a search's winning line does in vain, before it is stored.

A depth-first line wanders: it moves a card away and back, or takes five moves to
reach a position two would reach.  ``shorten`` walks the line from the deal and at
each state it reaches looks for the farthest later state of the line that it can
reach sooner:

* with no move at all: the state comes back later in the line (a loop), and the
  moves between are cut;
* with a line of at most ``depth`` moves of ``gen_moves``: the moves that reach the
  later state replace the longer stretch of the original line.

It jumps there and goes on, and walks the new line again until a walk cuts nothing
(or its time is up).  States are compared exactly, by the game's ``pack`` row (every
card in its place, as A*'s node store keeps them), not by the search's keys: keys
treat columns as interchangeable in some games, and a line that reaches a
permutation of a later state could not go on with that state's moves.  Every move
is one ``gen_moves`` offers in the state where it is played, so the new line is
legal and ends where the old one did, in the won state; ``solve_deal`` replays it
through the checker like any other solution.
"""

from __future__ import annotations

import time

import numpy as np


def _states(game, st0, line):
    """The pack rows (bytes) of the states along ``line``, the deal's first."""
    row = np.zeros(game.PACK_LEN, dtype=np.int64)
    st = st0.copy()
    out = []
    game.pack(st, row)
    out.append(row.tobytes())
    for m in line:
        game.apply_move(st, m)
        game.pack(st, row)
        out.append(row.tobytes())
    return out


def _best_jump(game, st, i, later, depth, moves, row):
    """From ``st`` (state i of the line): the farthest (j, moves) with j - i > len(moves),
    over the lines of at most ``depth`` moves from st, or None."""
    best_gain, best = 0, None

    def look(seq):
        nonlocal best_gain, best
        game.pack(st, row)
        j = later.get(row.tobytes(), -1)
        if j - i - len(seq) > best_gain:
            best_gain, best = j - i - len(seq), (j, list(seq))

    def walk(seq, level):
        n = int(game.gen_moves(st, moves, level * game.MAX_MOVES))
        for k in range(n):
            m = int(moves[level * game.MAX_MOVES + k])
            game.apply_move(st, m)
            seq.append(m)
            look(seq)
            if level + 1 < depth and not game.is_won(st):
                walk(seq, level + 1)
            seq.pop()
            game.undo_move(st, m)

    look([])
    if depth > 0 and not game.is_won(st):
        walk([], 0)
    return best


def shorten(game, st0, line, depth: int = 2, seconds: float = 2.0) -> list[int]:
    """A line no longer than ``line`` from ``st0`` to the same final state (see the
    module docstring); ``seconds`` bounds the time spent (the best line so far is kept)."""
    line = [int(m) for m in line]
    stop = time.perf_counter() + seconds
    moves = np.zeros(game.MAX_MOVES * max(1, depth), dtype=np.int64)
    row = np.zeros(game.PACK_LEN, dtype=np.int64)
    while True:
        sigs = _states(game, st0, line)
        later = {s: k for k, s in enumerate(sigs)}  # the last index of each state
        st = st0.copy()
        new, i = [], 0
        while i < len(line):
            jump = None if time.perf_counter() > stop else _best_jump(game, st, i, later, depth, moves, row)
            if jump is None:
                game.apply_move(st, line[i])
                new.append(line[i])
                i += 1
                continue
            j, seq = jump
            for m in seq:
                game.apply_move(st, m)
            new.extend(seq)
            i = j
        if len(new) >= len(line):
            return line
        line = new
        if time.perf_counter() > stop:
            return line


def resolve_tail(game, st0, line, attempt, step: int = 10) -> list[int]:
    """Replace the line's end by a shortest one: ``attempt(st)`` is an exact search
    (A*) from ``st`` returning its moves or None when it cannot finish; the start of
    the tail moves back ``step`` moves at a time, to the deal itself, until it
    cannot finish."""
    line = [int(m) for m in line]
    states = [st0.copy()]
    for m in line:
        st = states[-1].copy()
        game.apply_move(st, m)
        states.append(st)
    i = max(0, len(line) - step)
    while True:
        tail = attempt(states[i].copy())
        if tail is None:
            break
        if len(tail) < len(line) - i:
            line = line[:i] + tail
            states = states[:i + 1]
            for m in tail:
                st = states[-1].copy()
                game.apply_move(st, m)
                states.append(st)
        if i == 0:
            return line
        i = max(0, i - step)
    return line
