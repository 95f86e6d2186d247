"""Game-agnostic nested rollout policy adaptation (NRPA, Rosin 2011): a rare-win finder.

A playout plays from the root to the end, each move drawn with probability
proportional to exp(policy[code(move)]) among the moves ``gen_moves`` offers (moves
back to a state the playout has already been in are left out, so it cannot loop;
a game whose ``may_return(st)`` says no line from st can come back to a state skips
that check, which costs an apply, a probe and an undo for every offered move);
it scores the cards it got home.  A level-l search runs N searches of level l-1,
each from a copy of its policy, keeps the best line any of them found, and after
each one shifts its policy towards that line (``nrpa_adapt``: +alpha on the line's
move at each of its states, minus alpha times each offered move's probability).
Level 1 runs playouts.  When the top level ends, it starts again from a blank
policy with the random stream where it left off (restarts, as in the literature).

A depth-first search commits to its first moves; a playout policy learns which
move, by its code, belongs to good lines wherever it comes up, and so can find a
line whose first moves the game's ordering ranks low (issue 19: rare-win search
before the complete search).

What it proves: a won state reached is a solution (the playout's moves from the
root; ``solve_deal`` replays every win in the checker).  It never proves a deal
lost: running out of budget is UNKNOWN.  Like the other engines it is a template
compiled per game (``solver.search.specialise``) and resumable: all of its state
lives in the caller's arrays (``NrpaWork``), and each call runs at most
``slice_nodes`` more moves (counted over playouts, a playout at least one, so that
a state with no move cannot stall it), so the caller looks at the clock between
slices.  Hot loops only: no Python objects, no allocation in a
playout.
"""

import numpy as np

from .dfs import RUNNING, UNKNOWN, WON
from .table import table_insert, table_probe

POLICY_BITS = 16  # policy entries: move codes are hashed into 2**16 weights
ALPHA = 1.0  # the adaptation step (Rosin's)
SEEN_BITS = 16  # slots of the table of a playout's states (a playout has at most MAX_DEPTH)

# ctx slots (the template names them NRPA_*)
NRPA_STARTED = 0
NRPA_LEVEL = 1  # the level being run (0: a playout is next)
NRPA_NODES = 2  # moves applied in playouts
NRPA_PLAYOUTS = 3
NRPA_RNG = 4  # the random stream's counter
NRPA_LENGTH = 5  # of the solution, once WON
NRPA_TOP = 6  # levels
NRPA_ITERS = 7  # N: searches of level l-1 a level-l search runs
CTX_LEN = 8
STARTED, LEVEL, NODES, PLAYOUTS, RNG, LENGTH, TOP, ITERS = range(CTX_LEN)
NEG = -(1 << 40)  # the score of "no line yet"


class NrpaWork:
    """Preallocated arrays of NRPA searches of at most ``levels`` levels and lines of
    fewer than ``max_depth`` moves."""

    def __init__(self, levels: int, max_depth: int, max_moves: int, table_bits: int = SEEN_BITS):
        size = 1 << POLICY_BITS
        self.levels = levels
        self.pols = np.zeros((levels + 1, size), dtype=np.float64)  # pols[l]: level l's
        self.seqs = np.zeros((levels + 1, max_depth), dtype=np.int64)  # seqs[l]: level l's best line
        self.lens = np.zeros(levels + 1, dtype=np.int64)
        self.scores = np.zeros(levels + 1, dtype=np.int64)
        self.iters = np.zeros(levels + 1, dtype=np.int64)
        self.moves = np.zeros(max_moves, dtype=np.int64)
        self.weights = np.zeros(max_moves, dtype=np.float64)
        self.seen = np.zeros((1 << table_bits, 3), dtype=np.int64)  # a playout's states (gen = playout)
        self.path = np.zeros(max_depth, dtype=np.int64)
        self.ctx = np.zeros(CTX_LEN, dtype=np.int64)

    def reset(self, levels: int, iterations: int, seed: int) -> None:
        if not 1 <= levels <= self.levels or iterations < 1:
            raise ValueError(f"NRPA needs 1 to {self.levels} levels and N >= 1, not {levels} and {iterations}")
        self.ctx[:] = 0
        self.ctx[NRPA_TOP] = levels
        self.ctx[NRPA_ITERS] = iterations
        self.ctx[NRPA_RNG] = (seed * 0x2545F4914F6CDD1D) & 0x7FFFFFFFFFFFFFFF
        self.seen[:, 2] = 0

    @property
    def nodes(self) -> int:
        return int(self.ctx[NRPA_NODES])


def nrpa_code(m, context):
    """The policy entry of move m in a state of ``context`` (nrpa_context: a hash of
    the two)."""
    h = m ^ (context << 40)
    h = h ^ (h >> 29)
    h = h * 0x2545F4914F6CDD1D
    h = h ^ (h >> 32)
    return h & ((1 << POLICY_BITS) - 1)


def nrpa_random(ctx):
    """A uniform double in [0, 1): splitmix64 over the counter in ctx (int64 arithmetic
    wraps; the masks make the right shifts logical)."""
    ctx[NRPA_RNG] += -7046029254386353131  # 0x9E3779B97F4A7C15
    z = ctx[NRPA_RNG]
    z = (z ^ ((z >> 30) & 0x3FFFFFFFF)) * -4658895280553007687  # 0xBF58476D1CE4E5B9
    z = (z ^ ((z >> 27) & 0x1FFFFFFFFF)) * -7723592293110705685  # 0x94D049BB133111EB
    z = z ^ ((z >> 31) & 0x1FFFFFFFF)
    return ((z >> 11) & ((1 << 53) - 1)) / 9007199254740992.0


def nrpa_playout(st, seen, pol, moves, weights, seq, ctx):
    """One playout from st (given back unchanged) under policy pol; its line in seq.
    Returns (length, score): score = -(cards left), or 1 if the line wins."""
    ctx[NRPA_PLAYOUTS] += 1
    gen = ctx[NRPA_PLAYOUTS]
    loops = may_return(st)  # else no line can repeat a state: no table needed
    if loops:
        table_insert(seen, key1(st), key2(st), gen)
    length = 0
    won = False
    while length < seq.shape[0]:
        n = gen_moves(st, moves, 0)
        context = nrpa_context(st)
        k = 0
        total = 0.0
        for i in range(n):
            m = moves[i]
            fresh = True
            if loops:
                apply_move(st, m)
                fresh = not table_probe(seen, key1(st), key2(st), gen)
                undo_move(st, m)
            if fresh:
                moves[k] = m
                weights[k] = np.exp(pol[nrpa_code(m, context)])
                total += weights[k]
                k += 1
        if k == 0:
            break
        r = nrpa_random(ctx) * total
        j = 0
        while j < k - 1 and r >= weights[j]:
            r -= weights[j]
            j += 1
        apply_move(st, moves[j])
        if loops:
            table_insert(seen, key1(st), key2(st), gen)
        seq[length] = moves[j]
        length += 1
        if is_won(st):
            won = True
            break
    ctx[NRPA_NODES] += max(length, 1)  # a playout with no move still spends the budget
    score = 1 if won else -st[LEFT]
    for d in range(length - 1, -1, -1):
        undo_move(st, seq[d])
    return length, score


def nrpa_adapt(st, pol, seq, length, moves, weights):
    """Shift pol towards the line seq[:length] from st (given back unchanged): at each of
    its states +ALPHA on the line's move, -ALPHA x probability on every move
    ``gen_moves`` offers there.  In place: a state's probabilities are taken from pol
    as the walk found it (Rosin adapts a copy; the two differ only where a move code
    comes up twice on the line)."""
    for d in range(length):
        n = gen_moves(st, moves, 0)
        context = nrpa_context(st)
        total = 0.0
        for i in range(n):
            weights[i] = np.exp(pol[nrpa_code(moves[i], context)])
            total += weights[i]
        # the update of one state uses that state's probabilities before the update
        for i in range(n):
            weights[i] = ALPHA * weights[i] / total
        for i in range(n):
            pol[nrpa_code(moves[i], context)] -= weights[i]
        pol[nrpa_code(seq[d], context)] += ALPHA
        apply_move(st, seq[d])
    for d in range(length - 1, -1, -1):
        undo_move(st, seq[d])


def nrpa(st, max_nodes, slice_nodes, pols, seqs, lens, scores, iters, moves, weights, seen, path, ctx):
    """Run (or resume) NRPA from st (given back unchanged).  Returns WON (solution
    path[:ctx[NRPA_LENGTH]]), UNKNOWN (``max_nodes`` moves played) or RUNNING after
    ``slice_nodes`` more."""
    top = ctx[NRPA_TOP]
    n_iter = ctx[NRPA_ITERS]
    if ctx[NRPA_STARTED] == 0:
        ctx[NRPA_STARTED] = 1
        if is_won(st):
            ctx[NRPA_LENGTH] = 0
            return WON
        iters[top] = n_iter  # as if a top-level search had just ended: the loop starts one
        ctx[NRPA_LEVEL] = top
    level = ctx[NRPA_LEVEL]
    stop = ctx[NRPA_NODES] + slice_nodes
    while True:
        if ctx[NRPA_NODES] >= max_nodes:
            ctx[NRPA_LEVEL] = level
            return UNKNOWN
        if ctx[NRPA_NODES] >= stop:
            ctx[NRPA_LEVEL] = level
            return RUNNING
        if level == 0:
            # a playout under level 1's policy
            length, score = nrpa_playout(st, seen, pols[1], moves, weights, seqs[0], ctx)
            lens[0] = length
            scores[0] = score
            if score == 1:
                for d in range(length):
                    path[d] = seqs[0, d]
                ctx[NRPA_LENGTH] = length
                return WON
            level = 1
        elif iters[level] < n_iter:
            level -= 1
            if level >= 1:
                pols[level, :] = pols[level + 1, :]
                iters[level] = 0
                scores[level] = NEG
            continue
        elif level == top:
            # a top-level search from a blank policy: the first one, or a restart after
            # the last ended (the random stream goes on)
            pols[top, :] = 0.0
            iters[top] = 0
            scores[top] = NEG
            continue
        else:
            level += 1
        # back at ``level`` with its child's result in seqs[level - 1]
        child = level - 1
        if scores[child] >= scores[level]:
            scores[level] = scores[child]
            lens[level] = lens[child]
            for d in range(lens[child]):
                seqs[level, d] = seqs[child, d]
        nrpa_adapt(st, pols[level], seqs[level], lens[level], moves, weights)
        iters[level] += 1


def may_return(st):
    """The default for a game that does not define it: a line from st may come back
    to a state it has been in."""
    return True


def nrpa_context(st):
    """The default for a game that does not define it: a move's policy entry depends on
    the move alone."""
    return 0


TEMPLATES = (nrpa_code, nrpa_random, nrpa_playout, nrpa_adapt, nrpa)
HELPERS = {"table_insert": table_insert, "table_probe": table_probe, "WON": WON, "UNKNOWN": UNKNOWN,
           "RUNNING": RUNNING, "NRPA_STARTED": NRPA_STARTED, "NRPA_LEVEL": NRPA_LEVEL, "NRPA_NODES": NRPA_NODES,
           "NRPA_PLAYOUTS": NRPA_PLAYOUTS, "NRPA_RNG": NRPA_RNG, "NRPA_LENGTH": NRPA_LENGTH, "NRPA_TOP": NRPA_TOP,
           "NRPA_ITERS": NRPA_ITERS, "NEG": NEG,
           "POLICY_BITS": POLICY_BITS, "ALPHA": ALPHA}
