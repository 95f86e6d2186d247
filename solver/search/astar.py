"""Game-agnostic A* over a game's numba kernels: shortest solutions.

Besides the DFS kernels (see dfs.py) the game supplies ``lower_bound(st)``, an
admissible and consistent bound on the moves still needed, and
``pack(st, row)`` / ``unpack(row, st)`` to keep each stored node in a compact
int8 row.  Every move costs 1.  The goal test is made when a node is taken from
the open list, so the first won state popped has a shortest solution (the game's
pruning only drops or forces moves without lengthening any solution).  LOST means
the open list ran dry: every reachable state was expanded.  UNKNOWN means the node
store (``capacity`` nodes) or the time ran out; exact A* then still leaves a
proven lower bound on the shortest solution in ctx[ASTAR_FLOOR] (see there).
Like the DFS it is resumable and a template that ``solver.search.specialise``
compiles per game; the game also supplies ``lower_bound``, ``pack`` and ``unpack``.
"""

import numpy as np
from numba import njit

from .dfs import LOST, RUNNING, UNKNOWN, WON


@njit(cache=True)
def _heap_push(hkey, hidx, size, key, idx):
    i = size
    hkey[i] = key
    hidx[i] = idx
    while i > 0:
        parent = (i - 1) >> 1
        if hkey[parent] <= hkey[i]:
            break
        hkey[parent], hkey[i] = hkey[i], hkey[parent]
        hidx[parent], hidx[i] = hidx[i], hidx[parent]
        i = parent
    return size + 1


@njit(cache=True)
def _heap_pop(hkey, hidx, size):
    top = hidx[0]
    size -= 1
    hkey[0] = hkey[size]
    hidx[0] = hidx[size]
    i = 0
    while True:
        left = 2 * i + 1
        if left >= size:
            break
        child = left
        if left + 1 < size and hkey[left + 1] < hkey[left]:
            child = left + 1
        if hkey[i] <= hkey[child]:
            break
        hkey[child], hkey[i] = hkey[i], hkey[child]
        hidx[child], hidx[i] = hidx[i], hidx[child]
        i = child
    return top, size


class AStarWork:
    """Preallocated node store, hash slots and heap for ``capacity`` nodes."""

    def __init__(self, capacity: int, pack_len: int, max_moves: int, max_depth: int):
        self.capacity = capacity
        self.rows = np.empty((capacity, pack_len), dtype=np.int8)
        self.g = np.empty(capacity, dtype=np.int32)
        self.parent = np.empty(capacity, dtype=np.int32)
        self.via = np.empty(capacity, dtype=np.int32)
        self.k1s = np.empty(capacity, dtype=np.int64)
        self.k2s = np.empty(capacity, dtype=np.int64)
        self.closed = np.zeros(capacity, dtype=np.bool_)
        tsize = 1
        while tsize < 2 * capacity:
            tsize <<= 1
        self.slots = np.zeros(tsize, dtype=np.int32)  # node index + 1, 0 = empty
        self.hkey = np.empty(capacity, dtype=np.int64)
        self.hidx = np.empty(capacity, dtype=np.int32)
        self.moves = np.empty(max_moves, dtype=np.int64)
        self.row = np.empty(pack_len, dtype=np.int64)
        self.path = np.zeros(max_depth, dtype=np.int64)
        self.ctx = np.zeros(CTX_LEN, dtype=np.int64)

    def reset(self, capacity: int, greedy: int = 0) -> None:
        """Start a new search using the first ``capacity`` nodes of the store."""
        self.ctx[:] = 0
        self.ctx[ASTAR_CAPACITY] = capacity
        self.ctx[ASTAR_GREEDY] = greedy

    @property
    def expanded(self) -> int:
        return int(self.ctx[ASTAR_EXPANDED])


# ctx slots.  The template names them ASTAR_*: it is compiled in the game's
# namespace beside the DFS templates' own slots (specialise refuses a name clash).
ASTAR_HSIZE = 0
ASTAR_USED = 1
ASTAR_EXPANDED = 2
ASTAR_STARTED = 3
ASTAR_LENGTH = 4
# 0: A* on lower_bound; k > 0: best-first on k * depth + score (not exact); k < 0:
# weighted A* on depth + (-k / 10) * lower_bound, whose solutions are at most -k / 10
# times the shortest (the bound is admissible and consistent)
ASTAR_GREEDY = 5
ASTAR_CAPACITY = 6  # nodes this search may store (at most the store's size)
# Exact mode (greedy == 0) only, else 0: a proven lower bound on the length of the
# shortest solution from the root, the largest f = g + h popped so far (after a
# RUNNING return also the f of the heap's top, the entry the next slice pops
# first); the length itself after WON.  Why it is a bound: let s_0 .. s_n be a
# shortest solution (n moves; the pruning keeps one, see the game's gen_moves)
# and, at the top of the loop, i the first index with s_i not yet expanded at
# g = i.  Then s_i is stored at g = i and open: the root is pushed at g = 0, and
# s_{i-1} was expanded at g = i - 1, which stored s_i (or a state of the same key,
# equal up to column order: the same distance and bound) at g <= i unless it was
# already, so at g = i, s_i's distance; it is no dead end, and not won before s_n.
# Its heap entry has f = i + h(s_i) <= n (h admissible), so the heap's top, and so
# every entry popped (stale ones too: each was the top when popped), has f <= n.
# A consistent h also makes the popped f nondecreasing: the bound is the f of the
# last pop, and only grows with the budget.  After UNKNOWN (the store full in the
# middle of an expansion) the heap's top is not used: a child of the last node
# popped may be missing.  Weighted and greedy searches pop by other keys: no bound.
# After LOST there is no solution and the slot means nothing.
ASTAR_FLOOR = 7
CTX_LEN = 8
# the public names, for the callers that read the ctx (solver.solve)
HSIZE, USED, EXPANDED, STARTED = ASTAR_HSIZE, ASTAR_USED, ASTAR_EXPANDED, ASTAR_STARTED
LENGTH, GREEDY, CAPACITY, FLOOR = ASTAR_LENGTH, ASTAR_GREEDY, ASTAR_CAPACITY, ASTAR_FLOOR


def astar(st, slice_nodes, rows, g, parent, via, k1s, k2s, closed, slots,
          hkey, hidx, moves, row, path, ctx):
    """Run (or resume) A* from ``st``.  Returns WON (solution path[:ctx[ASTAR_LENGTH]]),
    LOST, UNKNOWN (node store full) or RUNNING after ``slice_nodes`` expansions;
    exact A* keeps ctx[ASTAR_FLOOR], a lower bound on the shortest solution."""
    cap = min(ctx[ASTAR_CAPACITY], rows.shape[0]) if ctx[ASTAR_CAPACITY] > 0 else rows.shape[0]
    pack_len = rows.shape[1]
    tsize = 1  # hash slots in use: twice the capacity, so small searches clear little
    while tsize < 2 * cap and tsize < slots.shape[0]:
        tsize <<= 1
    tmask = tsize - 1
    if ctx[ASTAR_STARTED] == 0:
        ctx[ASTAR_STARTED] = 1
        closed[:cap] = False
        slots[:tsize] = 0
        if is_dead(st):
            return LOST
        pack(st, row)
        for i in range(pack_len):
            rows[0, i] = row[i]
        g[0] = 0
        parent[0] = -1
        via[0] = 0
        k1s[0] = key1(st)
        k2s[0] = key2(st)
        slots[k1s[0] & tmask] = 1
        ctx[ASTAR_USED] = 1
        h0 = lower_bound(st)
        # heap key: f first, then the smaller bound (deeper node) first
        ctx[ASTAR_HSIZE] = _heap_push(hkey, hidx, 0, h0 * 4096 + h0, 0)
        ctx[ASTAR_EXPANDED] = 0
        ctx[ASTAR_FLOOR] = h0 if ctx[ASTAR_GREEDY] == 0 else 0
    hsize = ctx[ASTAR_HSIZE]
    used = ctx[ASTAR_USED]
    expanded = ctx[ASTAR_EXPANDED]
    exact = ctx[ASTAR_GREEDY] == 0
    floor = ctx[ASTAR_FLOOR]
    stop = expanded + slice_nodes
    while hsize > 0:
        if expanded >= stop:
            if exact and hkey[0] >> 12 > floor:  # the next pop's f (see ASTAR_FLOOR)
                floor = hkey[0] >> 12
            ctx[ASTAR_FLOOR] = floor
            ctx[ASTAR_HSIZE] = hsize
            ctx[ASTAR_USED] = used
            ctx[ASTAR_EXPANDED] = expanded
            return RUNNING
        if exact and hkey[0] >> 12 > floor:  # f of the entry popped now
            floor = hkey[0] >> 12
        idx, hsize = _heap_pop(hkey, hidx, hsize)
        if closed[idx]:
            continue
        closed[idx] = True
        for i in range(pack_len):
            row[i] = rows[idx, i]
        unpack(row, st)
        if is_won(st):
            length = g[idx]
            j = idx
            for d in range(length - 1, -1, -1):
                path[d] = via[j]
                j = parent[j]
            ctx[ASTAR_LENGTH] = length
            ctx[ASTAR_EXPANDED] = expanded
            if exact:
                ctx[ASTAR_FLOOR] = length
            return WON
        expanded += 1
        n = gen_moves(st, moves, 0)
        gc = g[idx] + 1
        for i in range(n):
            m = moves[i]
            apply_move(st, m)
            a = key1(st)
            b = key2(st)
            s = a & tmask
            skip = False
            while slots[s] != 0:
                j = slots[s] - 1
                if k1s[j] == a and k2s[j] == b:
                    if g[j] <= gc:
                        skip = True
                    else:
                        closed[j] = True  # superseded by a shorter path
                    break
                s = (s + 1) & tmask
            # dead children are never stored: testing them when popped instead (issue 19)
            # saved a third of the quick shortening's A* time but filled the store with
            # dead nodes, so store-bound runs finished less often (Baker's Dozen seed 80's
            # full shortening: 154 moves against 118)
            if not skip and not is_dead(st):
                if used == cap:
                    ctx[ASTAR_FLOOR] = floor
                    ctx[ASTAR_EXPANDED] = expanded
                    return UNKNOWN
                pack(st, row)
                for k in range(pack_len):
                    rows[used, k] = row[k]
                g[used] = gc
                parent[used] = idx
                via[used] = m
                k1s[used] = a
                k2s[used] = b
                slots[s] = used + 1
                if ctx[ASTAR_GREEDY] > 0:
                    pri = gc * ctx[ASTAR_GREEDY] + score(st)
                elif ctx[ASTAR_GREEDY] < 0:  # weighted A*: g + w h, w = -greedy / 10
                    h = lower_bound(st)
                    pri = (gc * 10 - ctx[ASTAR_GREEDY] * h) * 4096 + h
                else:
                    h = lower_bound(st)
                    pri = (gc + h) * 4096 + h
                hsize = _heap_push(hkey, hidx, hsize, pri, used)
                used += 1
            undo_move(st, m)
    ctx[ASTAR_FLOOR] = floor
    ctx[ASTAR_EXPANDED] = expanded
    return LOST


TEMPLATES = (astar,)
HELPERS = {"_heap_push": _heap_push, "_heap_pop": _heap_pop, "LOST": LOST, "WON": WON, "UNKNOWN": UNKNOWN,
           "RUNNING": RUNNING, "ASTAR_GREEDY": ASTAR_GREEDY, "ASTAR_CAPACITY": ASTAR_CAPACITY,
           "ASTAR_HSIZE": ASTAR_HSIZE, "ASTAR_USED": ASTAR_USED, "ASTAR_EXPANDED": ASTAR_EXPANDED,
           "ASTAR_STARTED": ASTAR_STARTED, "ASTAR_LENGTH": ASTAR_LENGTH,
           "ASTAR_FLOOR": ASTAR_FLOOR}
