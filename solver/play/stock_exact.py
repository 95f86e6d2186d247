"""The exact optimal hidden-information win probability of reduced Duchess deals (the
ceiling), and exact values of strategies and of the thoughtful player on the same deals
(docs/PLAYERS.md, "The exact ceiling of the stock games").

Why the value is exact.  A Duchess player who remembers what it has seen faces a
one-player game against chance whose information state is its view: the unseen cards
are the stock's, and given the view every order of them is equally likely (the deck is
uniform, the layout takes fixed deck positions, and the player's moves depend only on
what it saw), so the consistent worlds are the orders of the unseen cards, each with the
same weight.  So the optimum is an expectimax over views:

* moves that show no unseen card (``opaque`` false: anything but a deal, or a space
  filled from the stock) are deterministic and keep the set of unseen cards: a *layer*.
  Inside a layer the value of the entry view is the largest, over every view reachable
  from it by such moves, of what leaving from there is worth (cycles of moves to and fro
  change nothing: a breadth-first search of the layer visits each view once);
* leaving is an opaque move, a chance node: the consistent worlds, each with the move
  made, grouped by the view they show next, each group weighted by its share;
* a won view is worth 1; once nothing is hidden (the first round's stock is out) the
  value is the solver's perfect-information answer for that one world, which must be
  decided (a budget hit raises, never guesses).

Every value is a ``Fraction``.  The values of strategies are exact too: each plays every
consistent world of the deal's first view (every order of the stock) with its random
stream fixed by the deal's seed, and its value is the share it wins; the thoughtful
value is the share of those worlds the solver wins.  No strategy may exceed the optimum
(a test), and the optimum may not exceed the thoughtful value.

Grand Duchess and Parisienne have no ceiling here: their reduced games cannot shrink the
four piles, with one or two ranks every card always has a foundation to go to (every
deal is won by anyone), and with three ranks round one hides twelve cards or more, far
too many worlds to enumerate.
"""

from __future__ import annotations

from collections import deque
from fractions import Fraction
from itertools import permutations

import numpy as np

from ..errors import PatienceError
from ..games import duchess as du
from ..search.dfs import DfsWork
from ..search.table import new_table
from . import duchess_kernels as DK

SOLVE_BUDGET = 5_000_000
SOLVER_WON, SOLVER_LOST = 1, 0


class _Solver:
    """The perfect-information answer for one fully known world, cached."""

    def __init__(self):
        self.table = new_table(16)
        self.work = DfsWork(1000, du.MAX_MOVES)
        self.gen = 0
        self.memo: dict[bytes, int] = {}

    def won(self, st) -> int:
        key = st.tobytes()
        if key not in self.memo:
            w = st.copy()
            du.rehash(w)
            self.gen += 1
            self.work.reset()
            d = self.work
            r = du.dfs(w, self.table, self.gen, self.table, 0, SOLVE_BUDGET, SOLVE_BUDGET, d.moves, d.count, d.nxt,
                       d.scores, d.path, d.ctx)
            if r not in (SOLVER_WON, SOLVER_LOST):
                raise RuntimeError("the solver did not decide a reduced world within its budget")
            self.memo[key] = int(r == SOLVER_WON)
        return self.memo[key]


def _moves(st) -> list[int]:
    out = np.zeros(du.MAX_MOVES, dtype=np.int64)
    return [int(m) for m in out[:du.gen_moves(st, out, 0)]]


def _stock(st) -> tuple:
    return tuple(int(c) for c in st[du.TAL0 + st[du.TK]:du.TAL0 + st[du.TN]])


def _fill(view, stock) -> np.ndarray:
    """The world of ``view`` whose stock is ``stock`` (top first)."""
    w = view.copy()
    k = int(view[du.TK])
    w[du.TAL0 + k:du.TAL0 + k + len(stock)] = stock
    du.rehash(w)
    return w


def _view(st) -> np.ndarray:
    ost = np.zeros_like(st)
    DK.observe(st, ost)
    return ost


class Ceiling:
    """The optimum of one deal's views (memoised by the whole view array)."""

    def __init__(self):
        self.solver = _Solver()
        self.memo: dict[bytes, Fraction] = {}
        self.views = 0

    def value(self, view, stocks: list[tuple]) -> Fraction:
        """The optimal value of ``view`` whose consistent worlds are its view with each of
        ``stocks`` (equally likely) as the stock."""
        key = view.tobytes()
        if key in self.memo:
            return self.memo[key]
        best = Fraction(0)
        seen = {key}
        queue = deque([view])
        while queue and best < 1:
            v = queue.popleft()
            self.views += 1
            if du.is_won(v):
                best = Fraction(1)
                break
            if not DK.hidden(v):
                best = max(best, Fraction(self.solver.won(_fill(v, stocks[0]))))
                continue
            for m in _moves(v):
                if DK.opaque(v, m):
                    best = max(best, self._chance(v, m, stocks))
                    continue
                nxt = v.copy()
                du.apply_move(nxt, m)
                k = nxt.tobytes()
                if k not in seen:
                    seen.add(k)
                    queue.append(nxt)
        self.memo[key] = best
        return best

    def _chance(self, view, m, stocks) -> Fraction:
        groups: dict[bytes, tuple[np.ndarray, list]] = {}
        for stock in stocks:
            w = _fill(view, stock)
            du.apply_move(w, int(DK.true_move(w, m)))
            nv = _view(w)
            groups.setdefault(nv.tobytes(), (nv, []))[1].append(_stock(w))
        total = len(stocks)
        return sum((Fraction(len(g), total) * self.value(nv, g) for nv, g in groups.values()), Fraction(0))


MAX_STOCK = 8  # 8! = 40,320 worlds; 6 ranks without the redeal already took gigabytes and minutes


def deal_worlds(deck) -> list[list[int]]:
    """Every deck of the same layout: the first 16 cards kept, every order of the stock."""
    head, stock = list(deck[:16]), list(deck[16:])
    if len(stock) > MAX_STOCK:
        raise PatienceError(f"the exact ceiling enumerates every order of the stock: at most {MAX_STOCK} stock "
                            f"cards (6 ranks), not {len(stock)}")
    return [head + list(p) for p in sorted(set(permutations(stock)))]


def optimal_value(deck, variant: dict, ranks: int) -> tuple[Fraction, int]:
    """(the optimum of the deal's first view, views visited)."""
    st = du.initial_state(deck, variant, ranks)
    c = Ceiling()
    stocks = [tuple(d[16:]) for d in deal_worlds(deck)]
    return c.value(_view(st), stocks), c.views


def thoughtful_value(deck, variant: dict, ranks: int) -> Fraction:
    solver = _Solver()
    worlds = deal_worlds(deck)
    return Fraction(sum(solver.won(du.initial_state(d, variant, ranks)) for d in worlds), len(worlds))


def strategy_value(deck, variant: dict, ranks: int, strategy: str, options: dict, rng_seed: int) -> Fraction:
    from . import stock_play

    worlds = deal_worlds(deck)
    won = sum(stock_play.play_fast("duchess", d, variant, strategy, options, rng_seed, ranks)[0] for d in worlds)
    return Fraction(won, len(worlds))
