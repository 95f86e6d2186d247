"""Where Duchess's stuck-set test (``is_dead``) loses its strength, and what a wider
stuck set would buy (issue 19: Duchess ``redeals=0`` stays mostly unknown).

Random playouts of ``redeals=0`` (foundation moves weighted 6, tableau and fan moves 3,
deals 1), and at every state of the playouts three tests side by side:

- ``is_dead``: the kernel's test, sound (its argument is in solver/games/duchess.py).
- ``wide``: a prototype here, in plain Python: the stuck set taken over every place,
  not only the waste and stock.  A fan card belongs to it when it is covered by a
  card of the set in its fan, or cannot go home (a card its suit needs first is in
  the set), onto a column (each card it could go on is home, or in the set and never
  a column top before a card of the set moves) nor into a space (every column holds
  a card of the set); a column card when no run with a base below it can carry it
  (it is the root or does not continue the card under it), it cannot go home and
  onto no column.  A fan card in the set keeps the reserve from emptying, so no
  waste or stock card gets a space.  (The argument is the kernel's: the first move
  of a card of the set is impossible.  Not checked against the oracle: a measurement
  of how often it would fire, not a test the solver uses.)
- ``no (c)``: the kernel's set without its condition on spaces.  Not sound: how often
  the test would fire if spaces never helped, the upper limit of anything that
  sharpens the space argument.

    python experiments/duchess_stuck_spaces.py --seeds 1..20 --playouts 5

Prints, over all states and over playouts (has the test fired by the end?), how often
each fires, and the stock position at the first firing of each.
"""

from __future__ import annotations

import argparse

import numpy as np

from bench import seed_range  # experiments/bench.py: A..B, one clear error


def places(D, st):
    waste = [int(st[D.WST0 + i]) for i in range(st[D.WN])]
    stock = [int(st[D.TAL0 + i]) for i in range(st[D.TK], st[D.TN])]
    fans = [[int(st[D.FAN0 + f * D.FAN_CARDS + i]) for i in range(st[D.FH0 + f])] for f in range(D.NFANS)]
    cols = [[int(st[D.COL0 + c * D.CAP + i]) for i in range(st[D.H0 + c])] for c in range(D.NCOLS)]
    return waste, stock, fans, cols


def no_spaces_condition(D, st) -> bool:
    """The kernel's stuck set over the waste and stock without condition (c)."""
    if st[D.ROUND] != st[D.MAXRED] or st[D.BASE] < 0 or st[D.WN] == 0:
        return False
    waste, stock, _, _ = places(D, st)
    Y = set(waste) | set(stock)
    order = lambda c: int(st[D.ORD0 + c])
    while True:
        least = [99] * 4
        for c in Y:
            least[c // 13] = min(least[c // 13], order(c))

        def pinned(c):
            if least[c // 13] >= order(c):
                return False
            return all(not (order(q) >= st[D.F0 + q // 13] and q not in Y)
                       for q in (int(st[D.TGT0 + 2 * c]), int(st[D.TGT0 + 2 * c + 1])))
        dropped = covered = False
        for c in reversed(waste):
            if c in Y:
                if not covered and not pinned(c):
                    Y.discard(c)
                    dropped = True
                else:
                    covered = True
        if not covered:
            return False
        for c in stock:
            if c in Y and not pinned(c):
                Y.discard(c)
                dropped = True
        if not dropped:
            return True


def wide_stuck_set(D, st) -> bool:
    """The stuck set over every place (the prototype the docstring describes)."""
    if st[D.ROUND] != st[D.MAXRED] or st[D.BASE] < 0:
        return False
    waste, stock, fans, cols = places(D, st)
    where, colpos, fanpos = {}, {}, {}
    for c in waste:
        where[c] = "w"
    for c in stock:
        where[c] = "s"
    for f, fan in enumerate(fans):
        for i, c in enumerate(fan):
            where[c], fanpos[c] = "f", (f, i)
    for k, col in enumerate(cols):
        for i, c in enumerate(col):
            where[c], colpos[c] = "c", (k, i)
    order = lambda c: int(st[D.ORD0 + c])
    home = lambda c: order(c) < st[D.F0 + c // 13]
    Y = set(where)
    covered = lambda seq, i: any(x in Y for x in seq[i + 1:])
    while Y:
        least = [99] * 4
        for c in Y:
            least[c // 13] = min(least[c // 13], order(c))
        no_home = lambda c: least[c // 13] < order(c)

        def never_a_top(q):
            if home(q):
                return True
            if q not in Y:
                return False
            return where[q] != "c" or covered(cols[colpos[q][0]], colpos[q][1])
        no_column = lambda c: all(never_a_top(int(st[D.TGT0 + 2 * c + k])) for k in range(2))
        held = [any(x in Y for x in col) for col in cols]
        pinned_fans = sum(1 for fan in fans for c in fan if no_home(c) and no_column(c))
        waste_no_space = any(c in Y for fan in fans for c in fan) or sum(held) + pinned_fans >= D.NCOLS
        drop = set()
        for c in Y:
            w = where[c]
            if w == "w":
                ok = covered(waste, waste.index(c)) or (no_home(c) and no_column(c) and waste_no_space)
            elif w == "s":
                ok = no_home(c) and no_column(c) and waste_no_space
            elif w == "f":
                f, i = fanpos[c]
                ok = covered(fans[f], i) or (no_home(c) and no_column(c) and all(held))
            else:
                k, i = colpos[c]
                ok = ((i == 0 or not D._goes_on(st, c, cols[k][i - 1]))
                      and (no_home(c) or covered(cols[k], i)) and no_column(c))
            if not ok:
                drop.add(c)
        if not drop:
            return True
        Y -= drop
    return False


def main(argv=None) -> int:
    from solver.deals import seeded_deck
    from solver.games import duchess as D

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=seed_range, default=seed_range("1..20"), help="A..B (default 1..20)")
    ap.add_argument("--playouts", type=int, default=5, help="random playouts a deal (default 5)")
    ap.add_argument("--rng", type=int, default=1, help="seed of the playouts' choices")
    a = ap.parse_args(argv)
    rng = np.random.default_rng(a.rng)
    out = np.zeros(D.MAX_MOVES, np.int64)
    names = ("is_dead", "wide", "no (c)")
    tests = (lambda st: bool(D.is_dead(st)), lambda st: wide_stuck_set(D, st), lambda st: no_spaces_condition(D, st))
    states, fired_states = 0, [0, 0, 0]
    firsts = [[], [], []]
    for seed in a.seeds:
        deck = seeded_deck(seed)
        for _ in range(a.playouts):
            st = D.initial_state(deck, {"redeals": 0})
            first = [None, None, None]
            for _step in range(400):
                n = D.gen_moves(st, out, 0)
                if n == 0 or st[D.LEFT] == 0:
                    break
                moves = out[:n].copy()
                kinds = moves & 7
                w = np.where(kinds == D.KIND_FOUNDATION, 6.0, np.where(kinds == D.KIND_DEAL, 1.0, 3.0))
                D.apply_move(st, int(rng.choice(moves, p=w / w.sum())))
                if st[D.BASE] < 0:
                    continue
                states += 1
                for j, test in enumerate(tests):
                    if test(st):
                        fired_states[j] += 1
                        if first[j] is None:
                            first[j] = int(st[D.TK])
            for j in range(3):
                firsts[j].append(first[j])
    plays = len(firsts[0])
    print(f"Duchess redeals=0, seeds {a.seeds.start}..{a.seeds.stop - 1}, {plays} playouts, {states:,} states")
    print("| test | states it fires on | playouts it fires in | median stock position at the first firing |")
    print("| --- | ---: | ---: | ---: |")
    for j, name in enumerate(names):
        hit = [x for x in firsts[j] if x is not None]
        med = f"{np.median(hit):.0f} of 36" if hit else "-"
        print(f"| {name} | {fired_states[j]:,} | {len(hit)} | {med} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
