"""Do strong stubborn sets cut Baker's Dozen's search?  (Issue 19: the hard losses
without the king rule need searches of more than 45 million nodes.)

Strong stubborn sets (Wehrle and Helmert 2014) are a partial-order reduction from
planning: in each state, expand only the applicable actions of a set that holds a
disjunctive action landmark of the goal, every action that interferes with one of its
applicable actions, and an enabling set of each of its inapplicable ones.  Some optimal
plan from every solvable state starts with one of them, so a complete graph search over
the reduced successors decides every deal the full search decides.

This plain-Python prototype encodes Baker's Dozen (``empty=none``) in SAS+: B[x] what
card x lies on (a card, the column's bottom, the foundation), T[y] what lies on card y
(nothing, a card, or HOME once y is home), F[s] the foundation of suit s; an action
moves x from u onto a card v one rank higher, or home.  The moves of a column's only
card onto another column are left out of the task (the kernels' dominance pruning).
The landmark is the move home of some suit's top card, the suit whose closure keeps
fewest actions.  Two measurements:

* ``--ranks R --columns C``: complete searches of reduced deals with and without the
  reduction, their verdicts (they must agree) and states visited;
* ``--walks N``: on full deals, random walks of 40 moves from the start, the share of
  the legal moves a stubborn set keeps.

Measured (2026-12-03): reduced deals without the king rule, 4 columns, seeds 1..5:
every verdict agrees; 4 ranks 1,833 states in all without the reduction against 1,611
with it (88%), 5 ranks 778 against 679 (87%); with the king rule (5 ranks, all 5 won,
where a search stops at its first win) 1,062 against 1,103.  Full deals (seeds 3, 16
and 74 without the king rule, 5 walks each, 600 states): the stubborn sets keep 4,724
of 5,053 legal moves (93%).  Moves onto the cards of one rank interfere with each
other almost everywhere, so the reduction is too weak to pay for its cost (about 5 ms
a state here); it was not taken into the kernels.

    python experiments/bd_stubborn_sets.py --ranks 5 --columns 4 --seeds 1..5
    python experiments/bd_stubborn_sets.py --walks 5 --seeds 3,16,74
"""

import argparse
import random
import sys
from collections import defaultdict
from pathlib import Path

from solver.deals import seeded_deck
from solver.games.bakers_dozen import layout_columns

sys.path.insert(0, str(Path(__file__).parent))
from bench import seed_range  # noqa: E402

NONE, HOME, BOT, FND = -1, -2, -3, -4


def rank(c):
    return c % 13 + 1


def suit(c):
    return c // 13


class Game:
    def __init__(self, deck, nranks, ncols, kings=True):
        self.n = nranks
        self.cols0 = layout_columns(deck, {"kings_to_bottom": kings}, nranks, ncols)
        self.cards = sorted(deck)
        self.byrank = defaultdict(list)
        for c in self.cards:
            self.byrank[rank(c)].append(c)

    def start(self):
        return (tuple(tuple(c) for c in self.cols0), (0, 0, 0, 0))

    @staticmethod
    def key(st):
        cols, f = st
        return (frozenset(tuple(c) for c in cols if c), f)

    def won(self, st):
        return all(x == self.n for x in st[1])

    def legal(self, st):
        cols, f = st
        out = []
        for i, col in enumerate(cols):
            if not col:
                continue
            x = col[-1]
            u = col[-2] if len(col) > 1 else BOT
            if f[suit(x)] == rank(x) - 1:
                out.append((x, u, FND))
            if u == BOT or rank(x) == self.n:
                continue
            for j, c2 in enumerate(cols):
                if j != i and c2 and rank(c2[-1]) == rank(x) + 1:
                    out.append((x, u, c2[-1]))
        return out

    def apply(self, st, a):
        x, u, v = a
        cols = [list(c) for c in st[0]]
        f = list(st[1])
        for c in cols:
            if c and c[-1] == x:
                c.pop()
                break
        if v == FND:
            f[suit(x)] += 1
        else:
            for c in cols:
                if c and c[-1] == v:
                    c.append(x)
                    break
        return (tuple(tuple(c) for c in cols), tuple(f))

    # ---- stubborn sets
    def facts(self, st):
        cols, f = st
        B, T = {}, {}
        for c in self.cards:
            if f[suit(c)] >= rank(c):
                B[c], T[c] = FND, HOME
        for col in cols:
            for p, c in enumerate(col):
                B[c] = col[p - 1] if p else BOT
                T[c] = col[p + 1] if p + 1 < len(col) else NONE
        return B, T, f

    def actions_of(self, x, B):
        """Actions of card x that may be applicable in some state reachable from here (no
        other occurs in a plan from here, so the stubborn-set conditions may ignore them)."""
        if B[x] == FND:
            return []
        up = [y for y in self.byrank.get(rank(x) + 1, []) if B[y] != FND] if rank(x) < self.n else []
        us = [B[x]] + [y for y in up if y != B[x]] if B[x] != BOT else [BOT]
        out = []
        for u in us:
            out.append((x, u, FND))
            if u != BOT:
                for y in up:
                    if y != u:
                        out.append((x, u, y))
        return out

    def pre(self, a):
        x, u, v = a
        p = [("B", x, u), ("T", x, NONE)]
        if v == FND:
            p.append(("F", suit(x), rank(x) - 1))
        else:
            p.append(("T", v, NONE))
        return p

    def eff(self, a):
        x, u, v = a
        e = [("B", x, v)]
        if u != BOT:
            e.append(("T", u, NONE))
        if v == FND:
            e += [("T", x, HOME), ("F", suit(x), rank(x))]
        else:
            e.append(("T", v, x))
        return e

    def stubborn(self, st):
        """The applicable actions of a strong stubborn set of st (not a won state)."""
        B, T, f = self.facts(st)
        acts = [a for x in self.cards for a in self.actions_of(x, B)]
        readers, writers = defaultdict(list), defaultdict(list)
        for a in acts:
            for (k, i, val) in self.pre(a):
                readers[(k, i)].append((val, a))
            for (k, i, val) in self.eff(a):
                writers[(k, i)].append((val, a))

        def holds(fact):
            k, i, val = fact
            return (B[i] if k == "B" else T[i] if k == "T" else f[i]) == val

        def applicable(a):
            return all(holds(p) for p in self.pre(a))

        def closure(seed):
            S = set(seed)
            todo = list(seed)
            while todo:
                a = todo.pop()
                if applicable(a):
                    new = []
                    for (k, i, val) in self.eff(a):
                        new += [b for (w, b) in readers[(k, i)] if w != val]
                        new += [b for (w, b) in writers[(k, i)] if w != val]
                    for (k, i, val) in self.pre(a):
                        new += [b for (w, b) in writers[(k, i)] if w != val]
                else:
                    best = None
                    for p in self.pre(a):
                        if holds(p):
                            continue
                        ach = [b for (w, b) in writers[(p[0], p[1])] if w == p[2]]
                        cost = sum(1 for b in ach if b not in S)
                        if best is None or cost < best[0]:
                            best = (cost, ach)
                    new = best[1]
                for b in new:
                    if b not in S:
                        S.add(b)
                        todo.append(b)
            return [a for a in S if applicable(a)]

        best = None
        for s in range(4):
            if f[s] == self.n:
                continue
            seed = [b for (w, b) in writers[("F", s)] if w == self.n]
            app = closure(seed)
            if best is None or len(app) < len(best):
                best = app
        return best


def search(g, use_sss, limit=2_000_000):
    seen = set()
    stack = [g.start()]
    seen.add(g.key(stack[0]))
    while stack:
        st = stack.pop()
        if g.won(st):
            return "won", len(seen)
        moves = g.legal(st)
        if use_sss:
            S = set(g.stubborn(st))
            assert S <= set(moves), (S - set(moves))
            moves = [m for m in moves if m in S]
        for m in moves:
            nx = g.apply(st, m)
            k = g.key(nx)
            if k not in seen:
                seen.add(k)
                if len(seen) > limit:
                    return "unknown", len(seen)
                stack.append(nx)
    return "lost", len(seen)


def seed_list(text):
    """Comma-separated seeds or ranges A..B (bench.seed_range each)."""
    return [s for part in text.split(",") for s in seed_range(part)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ranks", type=int, default=13)
    ap.add_argument("--columns", type=int, default=13)
    ap.add_argument("--kings-to-bottom", action="store_true", help="the standard king rule (default: without)")
    ap.add_argument("--seeds", type=seed_list, default="1..5", help="e.g. 1..5 or 3,16,74")
    ap.add_argument("--walks", type=int, default=0, help="random walks per deal instead of complete searches")
    a = ap.parse_args()
    if a.walks:
        legal = kept = 0
        for seed in a.seeds:
            g = Game([int(c) for c in seeded_deck(seed, 1, ranks=a.ranks)], a.ranks, a.columns, a.kings_to_bottom)
            rng = random.Random(seed)
            for _ in range(a.walks):
                st = g.start()
                for _ in range(40):
                    moves = g.legal(st)
                    if not moves:
                        break
                    legal += len(moves)
                    kept += len(g.stubborn(st))
                    st = g.apply(st, rng.choice(moves))
        print(f"stubborn sets keep {kept} of {legal} legal moves ({kept / max(legal, 1):.0%})")
        return
    tot = [0, 0]
    for seed in a.seeds:
        g = Game([int(c) for c in seeded_deck(seed, 1, ranks=a.ranks)], a.ranks, a.columns, a.kings_to_bottom)
        r0, n0 = search(g, False)
        r1, n1 = search(g, True)
        tot[0] += n0
        tot[1] += n1
        flag = "" if r0 == r1 else "  MISMATCH"
        print(f"seed {seed}: full search {r0}, {n0} states; stubborn sets {r1}, {n1} states{flag}", flush=True)
    print(f"states: {tot[0]} full, {tot[1]} with stubborn sets")


if __name__ == "__main__":
    main()
