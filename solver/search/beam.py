"""Game-agnostic beam search over a game's numba kernels: a rare-win finder.

Layer by layer from the root, every state of the layer is expanded; its children
not seen before in this search are ranked by the game's move-ordering ``score``
(lower first), and the best ``width`` of them not proven dead (``is_dead``) form
the next layer.  The dead-end test is made in rank order while the layer is filled,
not on every child: it is among the costliest kernels of every game (Grand Duchess's
looks through a redeal), and a layer keeps a few of the children it ranks.  A
depth-first search commits to its first choices and backtracks only near the
leaves; a beam keeps ``width`` lines abreast, so it can find wins whose first moves
the depth-first order ranks low (issue 19: the "streamliner" of the literature).

What it proves: a won state reached is a solution (path from the root).  When no
layer was ever cut to ``width`` the beam is a breadth-first search of every
reachable state, and running dry proves the deal LOST; once a layer has been cut
it proves nothing, and the search ends UNKNOWN.  (The transposition table may
forget states when full: that only makes a state be expanded twice.)

Only two layers are ever needed as states, so they are kept packed (the A*
store's ``pack``/``unpack``) in ``2 * width`` rows used in turn (node i in row
i mod 2 width: a layer holds at most ``width`` nodes); every node keeps its parent
and the move that made it, so a solution is read back along the parents.  The
``capacity`` nodes of that record bound its memory; UNKNOWN when they run out, or
when ``max_nodes`` children have been scored.  Like the other engines it is a
template compiled per game (``solver.search.specialise``) and resumable: each call
runs at most ``slice_layers`` layers.
"""

import numpy as np

from .dfs import LOST, RUNNING, UNKNOWN, WON
from .table import table_insert, table_probe

# ctx slots (the template names them BEAM_*: compiled beside the other engines' own)
BEAM_STARTED = 0
BEAM_LO = 1  # the current layer: stored nodes [LO, HI)
BEAM_HI = 2
BEAM_CUT = 3  # 1 once some layer was cut to the width (a LOST is then no proof)
BEAM_NODES = 4  # states generated (children scored)
BEAM_LENGTH = 5
BEAM_WIDTH = 6
BEAM_DEPTH = 7  # layers done
BEAM_MAX_NODES = 8
CTX_LEN = 9
STARTED, LO, HI, CUT, NODES, LENGTH, WIDTH, DEPTH = (BEAM_STARTED, BEAM_LO, BEAM_HI, BEAM_CUT, BEAM_NODES,
                                                     BEAM_LENGTH, BEAM_WIDTH, BEAM_DEPTH)


class BeamWork:
    """Preallocated arrays of beam searches of at most ``width`` nodes a layer,
    ``capacity`` nodes in all and solutions of fewer than ``max_depth`` moves."""

    def __init__(self, capacity: int, width: int, pack_len: int, max_moves: int, max_depth: int,
                 candidates: int | None = None):
        self.width = width
        self.rows = np.empty((2 * width, pack_len), dtype=np.int8)
        self.parent = np.empty(capacity, dtype=np.int32)
        self.via = np.empty(capacity, dtype=np.int32)  # a move fits in 32 bits (as in A*'s store)
        ncand = width * max_moves if candidates is None else candidates  # children of one layer
        self.cscore = np.empty(ncand, dtype=np.int64)
        self.cparent = np.empty(ncand, dtype=np.int32)
        self.cmove = np.empty(ncand, dtype=np.int64)
        self.moves = np.empty(max_moves, dtype=np.int64)
        self.row = np.empty(pack_len, dtype=np.int64)
        self.path = np.zeros(max_depth, dtype=np.int64)
        self.ctx = np.zeros(CTX_LEN, dtype=np.int64)

    def reset(self, width: int, max_nodes: int) -> None:
        self.ctx[:] = 0
        self.ctx[BEAM_WIDTH] = min(width, self.width)
        self.ctx[BEAM_MAX_NODES] = max_nodes

    @property
    def nodes(self) -> int:
        return int(self.ctx[BEAM_NODES])


def beam_load(st, rows, idx, row):
    """Unpack node idx (kept in row idx mod rows) into st."""
    k = idx % rows.shape[0]
    for i in range(rows.shape[1]):
        row[i] = rows[k, i]
    unpack(row, st)


def beam_store(st, rows, idx, row):
    """Pack st as node idx (into row idx mod rows)."""
    pack(st, row)
    k = idx % rows.shape[0]
    for i in range(rows.shape[1]):
        rows[k, i] = row[i]


def beam_path(parent, via, idx, path):
    """Write the moves from the root to stored node idx into path; return their number."""
    n = 0
    j = idx
    while parent[j] >= 0:
        n += 1
        j = parent[j]
    j = idx
    for d in range(n - 1, -1, -1):
        path[d] = via[j]
        j = parent[j]
    return n


def beam(st, table, gen, slice_layers, rows, parent, via, cscore, cparent, cmove, moves, row, path, ctx):
    """Run (or resume) the beam search from ``st`` (overwritten: it is the work state).
    Returns WON (solution path[:ctx[BEAM_LENGTH]]), LOST (only if no layer was cut:
    then it is a proof), UNKNOWN (cut and ran dry, the record full, or the node
    budget spent) or RUNNING after ``slice_layers`` layers."""
    cap = parent.shape[0]
    width = ctx[BEAM_WIDTH]
    if ctx[BEAM_STARTED] == 0:
        ctx[BEAM_STARTED] = 1
        table_insert(table, key1(st), key2(st), gen)
        if is_won(st):
            ctx[BEAM_LENGTH] = 0
            return WON
        if is_dead(st):
            return LOST
        beam_store(st, rows, 0, row)
        parent[0] = -1
        via[0] = 0
        ctx[BEAM_LO] = 0
        ctx[BEAM_HI] = 1
    lo = ctx[BEAM_LO]
    hi = ctx[BEAM_HI]
    nodes = ctx[BEAM_NODES]
    for _ in range(slice_layers):
        if ctx[BEAM_DEPTH] + 1 >= path.shape[0]:
            ctx[BEAM_CUT] = 1  # the solution would not fit in path: no proof either way
            lo = hi
        if lo == hi:
            ctx[BEAM_NODES] = nodes
            return UNKNOWN if ctx[BEAM_CUT] else LOST
        if nodes >= ctx[BEAM_MAX_NODES]:
            ctx[BEAM_NODES] = nodes
            return UNKNOWN
        nc = 0
        for idx in range(lo, hi):
            beam_load(st, rows, idx, row)
            n = gen_moves(st, moves, 0)
            for i in range(n):
                m = moves[i]
                apply_move(st, m)
                if not table_probe(table, key1(st), key2(st), gen):
                    nodes += 1
                    if is_won(st):
                        length = beam_path(parent, via, idx, path)
                        path[length] = m
                        ctx[BEAM_LENGTH] = length + 1
                        ctx[BEAM_NODES] = nodes
                        return WON
                    if nc == cscore.shape[0]:
                        ctx[BEAM_CUT] = 1  # more children than the arrays hold: dropped
                    else:
                        cscore[nc] = score(st)
                        cparent[nc] = idx
                        cmove[nc] = m
                        nc += 1
                undo_move(st, m)
        order = np.argsort(cscore[:nc], kind="mergesort")  # stable: ties keep generation order
        used = hi
        for j in range(nc):
            c = order[j]
            beam_load(st, rows, cparent[c], row)
            apply_move(st, cmove[c])
            if is_dead(st):
                continue
            if used - hi == width:
                ctx[BEAM_CUT] = 1  # a live child left out
                break
            if table_insert(table, key1(st), key2(st), gen):
                continue  # the same state reached twice in this layer
            if used == cap:
                ctx[BEAM_NODES] = nodes
                return UNKNOWN
            beam_store(st, rows, used, row)
            parent[used] = cparent[c]
            via[used] = cmove[c]
            used += 1
        lo = hi
        hi = used
        ctx[BEAM_DEPTH] += 1
    ctx[BEAM_LO] = lo
    ctx[BEAM_HI] = hi
    ctx[BEAM_NODES] = nodes
    return RUNNING


TEMPLATES = (beam_load, beam_store, beam_path, beam)
HELPERS = {"table_insert": table_insert, "table_probe": table_probe, "LOST": LOST, "WON": WON, "UNKNOWN": UNKNOWN,
           "RUNNING": RUNNING, "BEAM_STARTED": BEAM_STARTED, "BEAM_LO": BEAM_LO, "BEAM_HI": BEAM_HI,
           "BEAM_CUT": BEAM_CUT, "BEAM_NODES": BEAM_NODES, "BEAM_LENGTH": BEAM_LENGTH, "BEAM_WIDTH": BEAM_WIDTH,
           "BEAM_DEPTH": BEAM_DEPTH, "BEAM_MAX_NODES": BEAM_MAX_NODES}
