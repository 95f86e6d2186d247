"""Game-agnostic depth-first search over a game's numba kernels.

The game supplies, as @njit functions over its int64 state array:
``gen_moves(st, out, base) -> n`` (moves worth trying, safe pruning already done,
a forced move returned alone), ``apply_move(st, m)``, ``undo_move(st, m)``,
``is_won(st)``, ``score(st)`` (move ordering, lower first), ``is_dead(st)``
(True only for states proven lost), ``key1(st)``, ``key2(st)`` (the state's two
64-bit keys), and ``DEAD_MEMO`` (see ``dfs_dead``; False unless the game sets it).

The functions here are templates: ``solver.search.specialise`` compiles them in
a game module's namespace (``TEMPLATES``, ``HELPERS``), where the kernel names
resolve to that game's kernels; ``MAX_MOVES`` there bounds the moves of a state.

The search is resumable: all of its state lives in the caller's arrays
(``DfsWork``), and each call runs at most ``slice_nodes`` more nodes, so the
caller checks the clock between slices (numba has no clock of its own).

Answers: WON with the move list, LOST when every reachable state was seen (graph
search visits every state reachable from the root, so the order of visits and
the table's memory do not matter for that), RUNNING after a slice.  A search cut
by a budget is UNKNOWN, never LOST; reaching the depth limit also makes a
finished search UNKNOWN.
"""

import numpy as np

from .table import table_insert, table_probe

LOST = 0
WON = 1
UNKNOWN = 2
RUNNING = 3
# dfs_dead keeps "tested, not refuted" under the second key xor this (any odd constant)
LIVE_SALT = 0x5DEECE66D2B7E151
# a costly dead-end test (dead_costly) counts as this many nodes of a slice (not of the
# node count): a test takes milliseconds, a node microseconds, and slices are sized
# from the rate of the nodes before (Parisienne redeals=1 overran a 60 s clock by 38 s)
COSTLY_NODES = 1000

# ctx slots.  The templates name them DFS_*: they are compiled in the game's
# namespace beside the A* template's own slots (specialise refuses a name clash).
DFS_DEPTH = 0
DFS_NODES = 1
DFS_INCOMPLETE = 2
DFS_STARTED = 3
DFS_LENGTH = 4
CTX_LEN = 5
# the public names, for the callers that read the ctx (solver.solve)
DEPTH, NODES, INCOMPLETE, STARTED, LENGTH = DFS_DEPTH, DFS_NODES, DFS_INCOMPLETE, DFS_STARTED, DFS_LENGTH


class DfsWork:
    """Preallocated arrays of one search (reused across deals in a process)."""

    def __init__(self, max_depth: int, max_moves: int):
        self.moves = np.empty(max_depth * max_moves, dtype=np.int64)
        self.count = np.zeros(max_depth, dtype=np.int64)
        self.nxt = np.zeros(max_depth, dtype=np.int64)
        self.scores = np.empty(max_moves, dtype=np.int64)
        self.path = np.zeros(max_depth, dtype=np.int64)
        self.ctx = np.zeros(CTX_LEN, dtype=np.int64)

    def reset(self):
        self.ctx[:] = 0


def root_dead(st):
    """The default of a game's costlier dead-end test of a search's root (none):
    solver.search.portfolio runs it once per deal, beside is_dead."""
    return False


def dead_costly(st):
    """The default of a game's hint that is_dead(st) runs a costly test here (none):
    dfs_dead then remembers a state it did not refute, not to test it again."""
    return False


def dfs_dead(st, dead, dgen):
    """is_dead(st), remembered in the table ``dead`` under number ``dgen`` (one number
    per deal; 0: nothing remembered) when the game sets DEAD_MEMO, for dead-end tests
    that cost milliseconds (Grand Duchess's round before the last): the restarts of a
    deal meet the same states again, and each would test them afresh.  Sound because
    is_dead(s) proves s lost and a state's keys fix its future (what the search's own
    table relies on too).  A state it did not refute where the game says the test is
    costly (``dead_costly``) is kept too, under its second key salted (LIVE_SALT; the
    same bucket, so one table serves both), so that the next restart searches it
    without testing it again: is_dead is deterministic, so the answer would be the
    same.  A forgotten or colliding "not refuted" costs a test or a refutation, never
    a wrong answer; a "lost" read wrongly would need two states to share both keys,
    the risk the search's own table takes."""
    if not DEAD_MEMO or dgen == 0:
        return is_dead(st)
    k1 = key1(st)
    k2 = key2(st)
    if table_probe(dead, k1, k2, dgen):
        return True
    costly = dead_costly(st)
    if costly and table_probe(dead, k1, k2 ^ LIVE_SALT, dgen):
        return False
    if is_dead(st):
        table_insert(dead, k1, k2, dgen)
        return True
    if costly:
        table_insert(dead, k1, k2 ^ LIVE_SALT, dgen)
    return False


def dfs_order(st, table, gen, moves, base, n, scores):
    """Drop from moves[base:base+n] the moves to states this search has seen, sort the
    rest by the score of the state each leads to (insertion sort); return how many
    are left.  A seen state is skipped when its move comes up anyway: probing now
    spares scoring it (a transposition costs one probe, not a score)."""
    k = 0
    for i in range(n):
        m = moves[base + i]
        apply_move(st, m)
        if not table_probe(table, key1(st), key2(st), gen):
            moves[base + k] = m
            scores[k] = score(st) if n > 1 else 0
            k += 1
        undo_move(st, m)
    for i in range(1, k):
        m = moves[base + i]
        s = scores[i]
        j = i - 1
        while j >= 0 and scores[j] > s:
            moves[base + j + 1] = moves[base + j]
            scores[j + 1] = scores[j]
            j -= 1
        moves[base + j + 1] = m
        scores[j + 1] = s
    return k


def dfs_expand(st, table, gen, depth, moves, count, nxt, scores):
    base = depth * MAX_MOVES
    n = gen_moves(st, moves, base)
    count[depth] = dfs_order(st, table, gen, moves, base, n, scores)
    nxt[depth] = 0


def dfs(st, table, gen, dead, dgen, max_nodes, slice_nodes, moves, count, nxt, scores, path, ctx):
    """Run (or resume) the search of ``st``; ``gen`` numbers it in ``table``; ``dead``
    and ``dgen``: the deal's memo of dead ends (dfs_dead; ``dgen`` 0: none).

    Returns WON (solution path[:ctx[DFS_LENGTH]]), LOST, UNKNOWN (``max_nodes`` reached)
    or RUNNING (``slice_nodes`` more nodes done; call again with the same arrays).
    """
    max_depth = count.shape[0]
    if ctx[DFS_STARTED] == 0:
        ctx[DFS_STARTED] = 1
        ctx[DFS_NODES] = 1
        ctx[DFS_DEPTH] = 0
        ctx[DFS_INCOMPLETE] = 0
        table_insert(table, key1(st), key2(st), gen)
        if is_won(st):
            ctx[DFS_LENGTH] = 0
            return WON
        if dfs_dead(st, dead, dgen):
            return LOST
        dfs_expand(st, table, gen, 0, moves, count, nxt, scores)
    depth = ctx[DFS_DEPTH]
    nodes = ctx[DFS_NODES]
    stop = nodes + slice_nodes
    while True:
        if nxt[depth] < count[depth]:
            m = moves[depth * MAX_MOVES + nxt[depth]]
            nxt[depth] += 1
            apply_move(st, m)
            if table_insert(table, key1(st), key2(st), gen):
                undo_move(st, m)
                continue
            nodes += 1
            path[depth] = m
            if is_won(st):
                ctx[DFS_LENGTH] = depth + 1
                ctx[DFS_NODES] = nodes
                return WON
            if dead_costly(st):
                stop -= COSTLY_NODES  # ends the slice sooner: the clock is looked at in time
            if dfs_dead(st, dead, dgen):
                undo_move(st, m)
            elif depth + 1 >= max_depth:
                ctx[DFS_INCOMPLETE] = 1
                undo_move(st, m)
            else:
                depth += 1
                dfs_expand(st, table, gen, depth, moves, count, nxt, scores)
            if nodes >= max_nodes:
                ctx[DFS_NODES] = nodes
                return UNKNOWN
            if nodes >= stop:
                ctx[DFS_DEPTH] = depth
                ctx[DFS_NODES] = nodes
                return RUNNING
        else:
            if depth == 0:
                break
            depth -= 1
            undo_move(st, path[depth])
    ctx[DFS_NODES] = nodes
    return UNKNOWN if ctx[DFS_INCOMPLETE] else LOST


TEMPLATES = (dfs_dead, dfs_order, dfs_expand, dfs)
HELPERS = {"table_insert": table_insert, "table_probe": table_probe, "LIVE_SALT": LIVE_SALT,
           "COSTLY_NODES": COSTLY_NODES, "LOST": LOST, "WON": WON, "UNKNOWN": UNKNOWN, "RUNNING": RUNNING,
           "DFS_DEPTH": DFS_DEPTH, "DFS_NODES": DFS_NODES, "DFS_INCOMPLETE": DFS_INCOMPLETE,
           "DFS_STARTED": DFS_STARTED, "DFS_LENGTH": DFS_LENGTH}
