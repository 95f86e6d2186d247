"""Duchess `redeals=0`: a relaxed game with a bag for a tableau proves deals lost
(issue 19; a prototype: nothing in solver/ uses it yet).

The relaxation R keeps the stock, the waste (a stack: only its top leaves), the fans
and the foundations exactly, and forgets how the tableau's cards are arranged: the
tableau is the set T of cards on no other pile, under one condition, that T splits
into at most four chains (each card one rank below the one before, the other
colour; rank `ranks` below an ace), as four columns of real runs always do.  Moves
of R, for the base rank the first move fixes:

- deal a card;
- the waste's top card, or a fan's top card, home if it is next there;
- a card of T home if it is next there and T stays at most four chains (wherever it
  lies in its column: R lets it);
- a fan's top card into T, if T stays at most four chains (in the real game it
  goes onto a column's top card or into a space: either way four columns hold T);
- the waste's top card into T, if T stays at most four chains and the card has a
  card it could lie on in T or the reserve is empty (in the real game it goes onto
  a column's top card, or into a space, which takes a waste card only once the
  reserve is empty).

Every move of the real game is a move of R or changes nothing R sees (moves
between columns; a stock card into a space is a deal and a waste move of R), and
every real state's T is four columns of runs, so a real win is a win of R: a deal
whose four base ranks all lose in R is lost.

The fewest chains T splits into is |T| minus a largest matching of cards to a card
they could lie on.  A card of rank r and one colour lies only on the two cards of
rank r + 1 of the other colour, and those take only the two cards of rank r of the
first colour, so the matching splits into blocks of at most two cards a side, and
the count is |T| minus the sum of min(children, parents) over the blocks
(``chains_by_blocks``; ``chains`` is the plain matching it is tested against).  A
ring of cards, were one possible, would count as no chain: fewer chains only allow
more moves, so that stays sound.

A card next for its foundation with both cards that could lie on it home is played
at once, alone: nothing lies on it in T or ever can, so taking it home first leaves
T no more chains (it ends its chain) and takes away no card a waste card could lie
on; any line of R stays a line of R with that card played first.

R's state is the cards dealt, the waste (which dealt cards are still there), the
fan heights and the foundations (T follows from them).  Each base rank is searched
depth-first, every state once, to its end or a state budget: lost (every line
searched), won in R (no proof), or open.  ``solve_base`` is the plain-Python search,
``solve_base_fast`` the compiled one in the same order (the same verdicts).

    python experiments/duchess_chain_relaxation.py --seeds 1..100 --max-states 2000000
    python experiments/duchess_chain_relaxation.py --seeds 1..20 --max-states 20000000
    python experiments/duchess_chain_relaxation.py --ranks 7 --seeds 1..30 --check

``--check`` also solves each deal with the complete DFS (2,000,000 nodes, 30 s); for
each win it replays the line in the checker, testing the premise above at every move
(``line_breaks_r``), and stops if R loses the win's base rank.  Memory: about 130
bytes a state of the budget (the table and the stack of pending states: 2.5 GB at
20,000,000), checked against the free memory first.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import numpy as np  # noqa: E402
from numba import njit  # noqa: E402

from bench import seed_range  # noqa: E402
from solver.cards import RED_SUITS as RED  # noqa: E402


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
        self.fans = [list(f) for f in layout.fans]
        self.stock = list(layout.stock)
        self.ncards = len(deck)
        self.parent_of = {c: parents(c, ranks) for c in deck}
        self.t0 = sum(1 << col[0] for col in layout.columns)  # the four column cards start T
        self.cover = {}  # T (a bit mask of cards) -> fewest chains

    def chains(self, tmask):
        """Fewest chains of the cards in the bit mask tmask (see ``chains_by_blocks``)."""
        n = self.cover.get(tmask)
        if n is None:
            n = chains_by_blocks(tmask, self.ranks)
            self.cover[tmask] = n
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

    def solve_base_compiled(self, f0, max_states):
        """solve_base by the compiled search (the same order, so the same verdicts)."""
        fans = np.array(self.fans, dtype=np.int64)
        stock = np.array(self.stock, dtype=np.int64)
        bits = max(16, (2 * max_states + 2).bit_length())
        v = solve_base_fast(stock, fans, self.t0, self.ranks, f0, max_states, bits)
        return {1: True, 0: False, -1: None}[int(v)]

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
                if c == wtop or c in tops or (T >> c & 1 and self.chains(T & ~(1 << c)) <= 4):
                    succ.append(home(c))
            for f in range(4):
                c = tops[f]
                if c >= 0 and self.chains(T | 1 << c) <= 4:
                    nfh = list(fh)
                    nfh[f] -= 1
                    succ.append((p, waste, tuple(nfh), found, T | 1 << c))
            if wtop >= 0:
                ok = not any(fh) or any(T >> q & 1 for q in self.parent_of[wtop])
                if ok and self.chains(T | 1 << wtop) <= 4:
                    succ.append((p, waste & ~(1 << (waste.bit_length() - 1)), fh, found, T | 1 << wtop))
            if p < S:
                succ.append((p + 1, waste | (1 << p), fh, found, T))
            stack.extend(reversed(succ))  # home moves tried first, the deal last
        return False


@njit(cache=True)
def chains_by_blocks(T, ranks):
    """``chains`` of the cards in the bit mask T, without a matching search: a card of
    rank r and one colour can lie only on the two cards of rank r + 1 of the other
    colour, and those take only the two cards of rank r of the first colour, so the
    matching splits into blocks of at most two cards a side, each matching
    min(children, parents)."""
    count = np.zeros((14, 2), dtype=np.int64)
    size = 0
    for c in range(52):
        if (T >> c) & 1:
            s = c // 13
            count[c % 13 + 1, 1 if (s == 1 or s == 2) else 0] += 1
            size += 1
    matched = 0
    for r in range(1, ranks + 1):
        up = 1 if r == ranks else r + 1
        for red in range(2):
            matched += min(count[r, red], count[up, 1 - red])
    return size - matched


@njit(cache=True)
def _safe_home(c, base, ranks, found):
    """Both cards that could lie on c (the other colour, one rank lower) are home."""
    r = c % 13 + 1
    down = ranks if r == 1 else r - 1
    red = (c // 13 == 1) or (c // 13 == 2)
    for t in range(4):
        if (t == 1 or t == 2) != red:
            pos = (down - base) % ranks  # that card's place in suit t's foundation order
            if found[t] <= pos:
                return False
    return True


@njit(cache=True)
def solve_base_fast(stock, fans, t0, ranks, f0, max_states, table_bits):
    """Relaxed.solve_base compiled: 1 (R won), 0 (R lost), -1 (over max_states)."""
    S = stock.shape[0]
    size = 1 << table_bits
    mask = size - 1
    K1 = np.full(size, -1, dtype=np.int64)
    K2 = np.zeros(size, dtype=np.int64)
    cap = 3 * max_states + 64  # pending successors; overflow reads as open
    SK1 = np.zeros(cap, dtype=np.int64)
    SK2 = np.zeros(cap, dtype=np.int64)
    ST = np.zeros(cap, dtype=np.int64)
    first = fans[f0, 2]
    base = first % 13 + 1
    ncards = 4 * ranks
    found = np.zeros(4, dtype=np.int64)
    fh = np.zeros(4, dtype=np.int64)
    nexts = np.zeros(4, dtype=np.int64)
    tops = np.zeros(4, dtype=np.int64)
    sk1 = np.zeros(16, dtype=np.int64)
    sk2 = np.zeros(16, dtype=np.int64)
    st_ = np.zeros(16, dtype=np.int64)
    fh0 = np.full(4, 3, dtype=np.int64)
    fh0[f0] = 2
    k1 = 0
    for f in range(4):
        k1 |= fh0[f] << (42 + 2 * f)
    SK1[0] = k1
    SK2[0] = 1 << (4 * (first // 13))
    ST[0] = t0
    sp = 1
    states = 0
    while sp > 0:
        sp -= 1
        a, b, T = SK1[sp], SK2[sp], ST[sp]
        h = ((a * -7046029254386353131) ^ (b * -4658895280553007687)) & 0x7FFFFFFFFFFFFFFF
        i = (h ^ (h >> 29)) & mask
        dup = False
        while K1[i] != -1:
            if K1[i] == a and K2[i] == b:
                dup = True
                break
            i = (i + 1) & mask
        if dup:
            continue
        states += 1
        if states > max_states or states * 2 > size:
            return -1
        K1[i] = a
        K2[i] = b
        waste = a & ((1 << 36) - 1)
        p = (a >> 36) & 63
        home_total = 0
        for s in range(4):
            fh[s] = (a >> (42 + 2 * s)) & 3
            found[s] = (b >> (4 * s)) & 15
            home_total += found[s]
        if home_total == ncards:
            return 1
        for s in range(4):
            if found[s] == ranks:
                nexts[s] = -1
            else:
                nexts[s] = s * 13 + (base - 1 + found[s]) % ranks
        wi = -1
        wtop = -1
        if waste != 0:
            wi = 63 - _clz(waste)
            wtop = stock[wi]
        any_fan = False
        for f in range(4):
            tops[f] = fans[f, fh[f] - 1] if fh[f] > 0 else -1
            if fh[f] > 0:
                any_fan = True
        n = 0
        # a safe home move, alone
        safe = -1
        for s in range(4):
            c = nexts[s]
            if c < 0:
                continue
            avail = c == wtop or ((T >> c) & 1) == 1
            for f in range(4):
                if tops[f] == c:
                    avail = True
            if avail and _safe_home(c, base, ranks, found):
                safe = c
                break
        for s in range(4):
            c = nexts[s]
            if c < 0 or (safe >= 0 and c != safe):
                continue
            nb = b + (1 << (4 * (c // 13)))
            if c == wtop:
                sk1[n], sk2[n], st_[n] = a & ~(1 << wi), nb, T
                n += 1
                continue
            fan = -1
            for f in range(4):
                if tops[f] == c:
                    fan = f
            if fan >= 0:
                sk1[n], sk2[n], st_[n] = a - (1 << (42 + 2 * fan)), nb, T
                n += 1
            elif (T >> c) & 1:
                T2 = T & ~(1 << c)
                if safe >= 0 or chains_by_blocks(T2, ranks) <= 4:
                    sk1[n], sk2[n], st_[n] = a, nb, T2
                    n += 1
        if safe < 0:
            for f in range(4):
                c = tops[f]
                if c >= 0 and chains_by_blocks(T | (1 << c), ranks) <= 4:
                    sk1[n], sk2[n], st_[n] = a - (1 << (42 + 2 * f)), b, T | (1 << c)
                    n += 1
            if wtop >= 0:
                ok = not any_fan
                r = wtop % 13 + 1
                up = 1 if r == ranks else r + 1
                red = (wtop // 13 == 1) or (wtop // 13 == 2)
                for t in range(4):
                    if (t == 1 or t == 2) != red and (T >> (t * 13 + up - 1)) & 1:
                        ok = True
                if ok and chains_by_blocks(T | (1 << wtop), ranks) <= 4:
                    sk1[n], sk2[n], st_[n] = a & ~(1 << wi), b, T | (1 << wtop)
                    n += 1
            if p < S:
                sk1[n], sk2[n], st_[n] = (a | (1 << p)) + (1 << 36), b, T
                n += 1
        if sp + n > cap:
            return -1
        for j in range(n - 1, -1, -1):  # the first successor is popped first
            SK1[sp], SK2[sp], ST[sp] = sk1[j], sk2[j], st_[j]
            sp += 1
    return 0


@njit(cache=True)
def _clz(x):
    n = 0
    for k in range(63, -1, -1):
        if (x >> k) & 1:
            return n
        n += 1
    return 64


def line_breaks_r(deck, ranks, moves):
    """Replay a real line (move texts) in the checker and test the premise of the
    argument at every step: the columns' cards split into at most four chains, and a
    waste card (or the stock's top card) that goes onto the tableau has a card it
    could lie on there already, unless the reserve is empty.  Returns None, or what
    broke it."""
    from solver.checker.duchess import Duchess

    game = Duchess(deck, {"redeals": 0}, ranks=ranks)
    parent_of = {c: parents(c, ranks) for c in deck}
    for i, move in enumerate(moves):
        before = {c for col in game.columns for c in col}
        reserve = sum(len(f) for f in game.fans)
        waste, stock = len(game.waste), len(game.stock)
        game.apply(move)
        after = {c for col in game.columns for c in col}
        n = chains(after, parent_of)
        if n > 4:
            return f"move {i + 1} ({move}): the columns make {n} chains"
        came = after - before
        if (len(game.waste) < waste or len(game.stock) < stock and len(game.waste) == waste) and came:
            (c,) = came
            if reserve and not any(q in before for q in parent_of[c]):
                return f"move {i + 1} ({move}): a waste card went to the tableau with no card to lie on"
    return None


def main(argv=None) -> int:
    from solver.deals import seeded_deck

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=seed_range, default=seed_range("1..20"))
    ap.add_argument("--ranks", type=int, default=13)
    ap.add_argument("--max-states", type=int, default=200_000, help="per base rank")
    ap.add_argument("--python", action="store_true", help="the plain-Python search (slow; the compiled one's reference)")
    ap.add_argument("--check", action="store_true", help="also run the complete DFS (2,000,000 nodes, 30 s)")
    args = ap.parse_args(argv)
    need = 130 * args.max_states
    free = os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    if not 4 <= args.ranks <= 13:
        print(f"duchess_chain_relaxation.py: --ranks runs from 4 to 13, not {args.ranks}", file=sys.stderr)
        return 2
    if args.max_states < 1 or need > free:
        print(f"duchess_chain_relaxation.py: --max-states {args.max_states} needs about {need / 1e9:.1f} GB, "
              f"{free / 1e9:.1f} GB are free", file=sys.stderr)
        return 2
    tally = {"lost": 0, "won in R": 0, "open": 0}
    for seed in args.seeds:
        deck = [int(c) for c in seeded_deck(seed, 1, ranks=args.ranks)]
        rel = Relaxed(deck, args.ranks)
        t0 = time.perf_counter()
        solve = rel.solve_base if args.python else rel.solve_base_compiled
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
            from solver.solve import solve_deal
            r = solve_deal("duchess", {"redeals": 0, "moves": "any"}, deck, algorithm="dfs", max_nodes=2_000_000,
                           seconds=30, ranks=args.ranks, shorten="none")
            line += f"; DFS {r.result}"
            if r.result == "won":
                broke = line_breaks_r(deck, args.ranks, r.moves)
                f = int(r.moves[0][1]) - 1  # the first move "rN F CARD" fixes the base
                if broke or verdicts[f] is False:
                    print(line)
                    print(f"UNSOUND: {broke or 'R loses the base rank of a real win'}", file=sys.stderr)
                    return 1
        print(line, flush=True)
    print(tally)
    return 0


if __name__ == "__main__":
    sys.exit(main())
