"""Duchess `redeals=0`: the relaxed game R of solver/games/duchess_relax.py (where its
argument is written), with a plain-Python search of it and a check of its premise
along real lines (issue 19).

R keeps the stock, the waste, the fans and the foundations exactly, and the tableau
as a bag: the set T of cards on no other pile, which must split into at most four
chains.  ``Relaxed.solve_base`` is the plain-Python search of R from one first move
(each base rank), ``Relaxed.solve_base_compiled`` the solver's (the same order, so
the same verdicts at the same budget).  ``line_breaks_r`` replays a real line in the
checker and tests R's premise at every move: every column is one run (so the columns
split into at most four chains, each column's top ending its own), and a waste card
going onto the tableau has a card to lie on there unless the reserve is empty.  The solver runs R on every first move of a `redeals=0` deal
(solver.search.portfolio.relaxed_first_moves); this script runs it alone:

    python experiments/duchess_chain_relaxation.py --seeds 1..100 --max-states 2000000
    python experiments/duchess_chain_relaxation.py --seeds 1..20 --max-states 20000000
    python experiments/duchess_chain_relaxation.py --ranks 7 --seeds 1..30 --check

``--bases`` runs R+ instead, the solver's (R with the columns' bottom cards kept; its
argument is in the same module), which has no plain twin:

    python experiments/duchess_chain_relaxation.py --seeds 1..30 --max-states 20000000 --bases

``--check`` also searches each first move alone with the complete DFS (2,000,000
nodes, 30 s; ``real_wins``); for each win it replays the line in the checker, testing
the premise above at every move (``line_breaks_r``, and with ``--bases``
``line_breaks_bases`` too), and stops if R (R+) loses that first move.  Memory: the
table, 16 bytes a slot and at least two slots a state (1 GiB at 20,000,000 states),
checked against the memory available first.
"""

from __future__ import annotations

import argparse
import functools
import os
import sys
import time

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import numpy as np  # noqa: E402

from bench import seed_range  # noqa: E402
from solver.cards import RED_SUITS as RED  # noqa: E402
from solver.games.duchess_relax import chains_by_blocks  # noqa: E402


def parents(c, ranks):
    """The cards c could lie on: one rank higher (an ace under rank ``ranks``), the
    other colour."""
    s, r = divmod(c, 13)
    r += 1
    up = 1 if r == ranks else r + 1
    red = s in RED
    return [t * 13 + up - 1 for t in range(4) if (t in RED) != red]


def children(c, ranks):
    s, r = divmod(c, 13)
    r += 1
    down = ranks if r == 1 else r - 1
    red = s in RED
    return [t * 13 + down - 1 for t in range(4) if (t in RED) != red]


def chains(cards_in, parent_of):
    """Fewest chains the set ``cards_in`` splits into: |T| minus a largest matching of
    cards to parents (augmenting paths; each card has two possible parents)."""
    owner = {}  # parent -> child matched to it

    def augment(c, seen):
        for p in parent_of[c]:
            if p in cards_in and p not in seen:
                seen.add(p)
                if p not in owner or augment(owner[p], seen):
                    owner[p] = c
                    return True
        return False

    matched = 0
    for c in cards_in:
        if augment(c, set()):
            matched += 1
    return len(cards_in) - matched


class Relaxed:
    def __init__(self, deck, ranks):
        from solver.checker.duchess import Duchess

        layout = Duchess(deck, {"redeals": 0}, ranks=ranks)  # the rules' layout (and a checked deck)
        self.ranks = ranks
        self.deck = list(deck)
        self.work = None  # the compiled search's arrays
        self.fans = [list(f) for f in layout.fans]
        self.stock = list(layout.stock)
        self.ncards = len(deck)
        self.parent_of = {c: parents(c, ranks) for c in deck}
        self.t0 = sum(1 << col[0] for col in layout.columns)  # the four column cards start T
        self.cover = {}  # T (a bit mask of cards) -> fewest chains

    def chains(self, tmask, top=-1):
        """Fewest chains of the cards in the bit mask tmask, with nothing on card ``top``
        (see ``chains_by_blocks``)."""
        n = self.cover.get((tmask, top))
        if n is None:
            n = chains_by_blocks(tmask, self.ranks, top)
            self.cover[tmask, top] = n
        return n

    def next_card(self, base, found, s):
        if found[s] == self.ranks:
            return -1
        r = (base - 1 + found[s]) % self.ranks + 1
        return s * 13 + r - 1

    def safe(self, base, found, c):
        """Both cards that could lie on c are home (c is next for its foundation)."""
        for k in children(c, self.ranks):
            pos = ((k % 13 + 1) - base) % self.ranks  # k's place in its foundation order
            if found[k // 13] <= pos:
                return False
        return True

    def solve_base_compiled(self, f0, max_states, bases=False):
        """solve_base by the solver's compiled search (solver/games/duchess_relax.py:
        the same order, so the same verdicts); with ``bases``, the solver's R+ instead
        (no plain twin: it keeps the columns' bottom cards)."""
        from solver.games import duchess, duchess_relax
        from solver.search.portfolio import Clock

        st = duchess.initial_state(self.deck, {"redeals": 0}, ranks=self.ranks)
        moves = np.zeros(duchess.MAX_MOVES, dtype=np.int64)
        duchess.gen_moves(st, moves, 0)
        duchess.apply_move(st, moves[f0])  # the first moves are the fans' top cards in order
        if self.work is None or self.work.capacity < max_states:
            self.work = duchess_relax.RelaxWork(max_states)
        v = duchess_relax.search(self.work, st, max_states, Clock(float("inf")), bases=bases)
        return {duchess_relax.WON_R: True, duchess_relax.LOST: False, duchess_relax.OPEN: None}[v]

    def solve_base(self, f0, max_states):
        """R from the first move taking fan f0's top card home: True (R won), False (R
        lost: every line searched) or None (more than max_states states)."""
        first = self.fans[f0][-1]
        base = first % 13 + 1
        found = [0, 0, 0, 0]
        found[first // 13] = 1
        fh = [3, 3, 3, 3]
        fh[f0] = 2
        seen = set()
        stack = [(0, 0, tuple(fh), tuple(found), self.t0)]
        S = len(self.stock)
        while stack:
            state = stack.pop()
            if state in seen:
                continue
            seen.add(state)
            if len(seen) > max_states:
                return None
            p, waste, fh, found, T = state
            if sum(found) == self.ncards:
                return True
            nexts = [self.next_card(base, found, s) for s in range(4)]
            wtop = self.stock[waste.bit_length() - 1] if waste else -1
            tops = [(self.fans[f][fh[f] - 1] if fh[f] else -1) for f in range(4)]

            def home(c):
                nf = list(found)
                nf[c // 13] += 1
                if c == wtop:
                    return (p, waste & ~(1 << (waste.bit_length() - 1)), fh, tuple(nf), T)
                if c in tops:
                    nfh = list(fh)
                    nfh[tops.index(c)] -= 1
                    return (p, waste, tuple(nfh), tuple(nf), T)
                return (p, waste, fh, tuple(nf), T & ~(1 << c))

            safe = [c for c in nexts if c >= 0 and (c == wtop or c in tops or T >> c & 1)
                    and self.safe(base, found, c)]
            if safe:  # played at once, alone
                stack.append(home(safe[0]))
                continue
            succ = []
            for c in nexts:
                if c < 0:
                    continue
                if c == wtop or c in tops or (T >> c & 1 and self.chains(T, top=c) <= 4):
                    succ.append(home(c))
            for f in range(4):
                c = tops[f]
                if c >= 0 and self.chains(T | 1 << c, top=c) <= 4:
                    nfh = list(fh)
                    nfh[f] -= 1
                    succ.append((p, waste, tuple(nfh), found, T | 1 << c))
            if wtop >= 0:
                ok = not any(fh) or any(T >> q & 1 for q in self.parent_of[wtop])
                if ok and self.chains(T | 1 << wtop, top=wtop) <= 4:
                    succ.append((p, waste & ~(1 << (waste.bit_length() - 1)), fh, found, T | 1 << wtop))
            if p < S:
                succ.append((p + 1, waste | (1 << p), fh, found, T))
            stack.extend(reversed(succ))  # home moves tried first, the deal last
        return False


def line_breaks_r(deck, ranks, moves):
    """Replay a real line (move texts) in the checker and test the premise of the
    argument at every step: every column is one run (so the columns' cards split into
    at most four chains, each column's top ending its own), and a waste card (or the
    stock's top card) that goes onto the tableau has a card it could lie on there
    already, unless the reserve is empty.  Returns None, or what broke it."""
    from solver.checker.duchess import Duchess

    game = Duchess(deck, {"redeals": 0}, ranks=ranks)
    parent_of = {c: parents(c, ranks) for c in deck}
    for i, move in enumerate(moves):
        before = {c for col in game.columns for c in col}
        reserve = sum(len(f) for f in game.fans)
        waste, stock = len(game.waste), len(game.stock)
        game.apply(move)
        after = {c for col in game.columns for c in col}
        for col in game.columns:
            if any(up not in parent_of[c] for c, up in zip(col[1:], col)):
                return f"move {i + 1} ({move}): a column is not one run"
        n = chains(after, parent_of)
        if n > 4:
            return f"move {i + 1} ({move}): the columns make {n} chains"
        came = after - before
        if (len(game.waste) < waste or len(game.stock) < stock and len(game.waste) == waste) and came:
            (c,) = came
            if reserve and not any(q in before for q in parent_of[c]):
                return f"move {i + 1} ({move}): a waste card went to the tableau with no card to lie on"
    return None


def line_breaks_bases(deck, ranks, moves):
    """The premise R+ adds (the columns' bottom cards kept), tested along a real line
    replayed in the checker: a card becomes a column's bottom card only by coming into
    an empty column from a fan while the reserve has cards, or from the waste or the
    stock once it is empty (never from another column: a run never moves into a
    space); and a bottom card stops being one only by leaving its column (home) or
    with its whole column onto another column's top card, which it continues.
    Returns None, or what broke it."""
    from solver.checker.duchess import Duchess

    game = Duchess(deck, {"redeals": 0}, ranks=ranks)
    parent_of = {c: parents(c, ranks) for c in deck}
    for i, move in enumerate(moves):
        bottoms = {col[0] for col in game.columns if col}
        tableau = {c for col in game.columns for c in col}
        reserve = sum(len(f) for f in game.fans)
        fan_tops = {f[-1] for f in game.fans if f}
        game.apply(move)
        new_bottoms = {col[0] for col in game.columns if col}
        for c in new_bottoms - bottoms:
            if c in tableau:
                return f"move {i + 1} ({move}): {c} became a bottom card from the tableau"
            if reserve and c not in fan_tops:
                return f"move {i + 1} ({move}): {c} came into a space from the waste or stock with reserve cards left"
            if not reserve and c in fan_tops:
                return f"move {i + 1} ({move}): impossible, a fan card with the reserve empty"
        for c in bottoms - new_bottoms:
            col = next((col for col in game.columns if c in col), None)
            if col is not None and col.index(c) == 0:
                return f"move {i + 1} ({move}): {c} is still a bottom card"
            if col is not None and col[col.index(c) - 1] not in parent_of[c]:
                return f"move {i + 1} ({move}): {c} lies on a card it does not continue"
    return None


def real_wins(deck, ranks, max_nodes, seconds):
    """(fan, line as move texts) for each first move (a fan's top card home) from which
    the DFS, searching that first move alone, wins: R does not take part (the solver
    runs it only from a deal's start), so its verdicts are tested, not used."""
    from solver.games import duchess
    from solver.search.portfolio import WON, search

    st0 = duchess.initial_state(deck, {"redeals": 0}, ranks=ranks)
    moves = np.zeros(duchess.MAX_MOVES, dtype=np.int64)
    for f in range(int(duchess.gen_moves(st0, moves, 0))):
        st = st0.copy()
        duchess.apply_move(st, moves[f])
        out = search(duchess, st, "dfs", max_nodes, seconds, 64)
        if out.status == WON:
            yield f, [duchess.move_text(int(m)) for m in [int(moves[f])] + out.raw]


def bad_limits(prog: str, ranks: int, max_states: int) -> str | None:
    """The one line that says why ``--ranks``/``--max-states`` cannot run (the table is
    checked against the memory available), or None."""
    from solver.games.duchess_relax import MAX_STATES, work_bytes
    from solver.memory import available_bytes

    if not 4 <= ranks <= 13:
        return f"{prog}: --ranks runs from 4 to 13, not {ranks}"
    if not 1 <= max_states <= MAX_STATES:
        return f"{prog}: --max-states runs from 1 to {MAX_STATES}, not {max_states}"
    need, free = work_bytes(max_states), available_bytes()
    if need > free:
        return f"{prog}: --max-states {max_states} needs about {need / 1e9:.1f} GB, {free / 1e9:.1f} GB are free"
    return None


def main(argv=None) -> int:
    from solver.deals import seeded_deck

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=seed_range, default=seed_range("1..20"))
    ap.add_argument("--ranks", type=int, default=13)
    ap.add_argument("--max-states", type=int, default=200_000, help="per base rank")
    ap.add_argument("--python", action="store_true", help="the plain-Python search (slow; the compiled one's reference)")
    ap.add_argument("--bases", action="store_true", help="R+ (the solver's: the columns' bottom cards kept), not R")
    ap.add_argument("--check", action="store_true",
                    help="also run the complete DFS on each first move (2,000,000 nodes, 30 s)")
    args = ap.parse_args(argv)
    bad = bad_limits("duchess_chain_relaxation.py", args.ranks, args.max_states)
    if bad:
        print(bad, file=sys.stderr)
        return 2
    tally = {"lost": 0, "won in R": 0, "open": 0}
    for seed in args.seeds:
        deck = [int(c) for c in seeded_deck(seed, 1, ranks=args.ranks)]
        rel = Relaxed(deck, args.ranks)
        t0 = time.perf_counter()
        if args.python and args.bases:
            print("duchess_chain_relaxation.py: --python searches R only, not R+ (--bases)", file=sys.stderr)
            return 2
        solve = rel.solve_base if args.python else functools.partial(rel.solve_base_compiled, bases=args.bases)
        verdicts = []
        for f in range(4):  # one base rank won in R: the deal cannot be proved lost (--check tries all)
            verdicts.append(solve(f, args.max_states) if args.check or True not in verdicts else "skipped")
        dt = time.perf_counter() - t0
        if all(v is False for v in verdicts):
            word = "lost"
        elif any(v is True for v in verdicts):
            word = "won in R"
        else:
            word = "open"
        tally[word] += 1
        marks = {True: "W", False: "L", None: "?", "skipped": "-"}
        line = f"seed {seed}: {word} ({' '.join(marks[v] for v in verdicts)}) {dt:.2f} s"
        if args.check:
            won = []
            for f, moves in real_wins(deck, args.ranks, 2_000_000, 30):
                won.append(f + 1)
                broke = line_breaks_r(deck, args.ranks, moves)
                broke = broke or (line_breaks_bases(deck, args.ranks, moves) if args.bases else None)
                if broke or verdicts[f] is False:
                    print(line)
                    print(f"UNSOUND: {broke or f'R loses first move {f + 1}, which the DFS wins'}", file=sys.stderr)
                    return 1
            line += f"; the DFS wins first moves {won or 'none'}"
        print(line, flush=True)
    print(tally)
    return 0


if __name__ == "__main__":
    sys.exit(main())
