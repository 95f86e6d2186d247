"""How strong and how costly redeal_dead is on a full deal (issue 19).

For one Grand Duchess or Parisienne deal with ``redeals=1``, walks round one
breadth first, deal by deal (every order of plays between two deals; states
deduplicated by their keys, redeals not taken), counts the distinct states after
each deal, and runs ``redeal_dead`` on a sample of the states in which the stock
is out: how many it refutes, and its time per state, by the number of cases it
tries.  ``--exact N`` also checks N of the sampled states the long way (every state
the rest of round one reaches, redealt and dealt once, through the last round's
test), which says how much strength the relaxation gives up.

    python experiments/redeal_dead_reach.py grand-duchess --seed 1 --sample 300
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np


def stock_out_states(kernel, st, cap):
    """The distinct states of round one right after each deal: (counts per deal, the
    states after the last deal)."""
    out = np.zeros(kernel.MAX_MOVES, np.int64)
    frontier = {(kernel.key1(st), kernel.key2(st)): st.copy()}
    counts = []
    while True:
        counts.append(len(frontier))
        if any(v[kernel.SP] == v[kernel.SN] for v in frontier.values()):
            return counts, list(frontier.values())
        seen = dict(frontier)
        stack = list(frontier.values())
        nxt = {}
        while stack:
            s = stack.pop()
            for i in range(kernel.gen_moves(s, out, 0)):
                m = int(out[i])
                if m & 3 == kernel.REDEAL:
                    continue
                s2 = s.copy()
                kernel.apply_move(s2, m)
                key = (kernel.key1(s2), kernel.key2(s2))
                if m & 3 == kernel.KIND_DEAL:
                    nxt[key] = s2
                elif key not in seen:
                    seen[key] = s2
                    stack.append(s2)
            if len(seen) > cap:
                raise SystemExit(f"more than {cap} states between two deals")
        frontier = nxt


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game", choices=["grand-duchess", "parisienne"])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--sample", type=int, default=300)
    ap.add_argument("--exact", type=int, default=0)
    ap.add_argument("--cap", type=int, default=2_000_000, help="states between two deals at most")
    ap.add_argument("--budgets", default="", help="split budgets to compare, e.g. 0,128,1024")
    args = ap.parse_args()
    from solver.deals import seeded_deck
    from solver.games import get_game
    from solver.games import grand_duchess as kernel
    from solver.games.grand_duchess_redeal import MAX_CASES, long_way_live, redeal_dead

    game = get_game(args.game)
    st = game.initial_state(seeded_deck(args.seed, packs=2), {"redeals": 1})
    t0 = time.time()
    counts, xs = stock_out_states(kernel, st, args.cap)
    print(f"{args.game} redeals=1 seed {args.seed}: distinct states after each deal of round one: "
          f"{', '.join(map(str, counts))} ({time.time() - t0:.1f} s)")
    rng = random.Random(args.seed)
    sample = rng.sample(xs, min(args.sample, len(xs)))
    redeal_dead(sample[0].copy())  # compile
    rows = []
    for x in sample:
        y = x.copy()
        t = time.perf_counter()
        dead = bool(redeal_dead(y))
        rows.append((dead, time.perf_counter() - t))
    dead = sum(r[0] for r in rows)
    ms = np.array([r[1] for r in rows]) * 1000
    print(f"redeal_dead at the stock-out: {dead} of {len(rows)} sampled states refuted; "
          f"{ms.mean():.1f} ms a state (median {np.median(ms):.1f}, max {ms.max():.0f})")
    if args.budgets:
        redeal_dead(sample[0].copy(), 0, MAX_CASES, 0)  # compile this signature
    for budget in (int(b) for b in args.budgets.split(",") if b):
        t = time.perf_counter()
        n = sum(bool(redeal_dead(x.copy(), 0, MAX_CASES, budget)) for x in sample)
        print(f"  with at most {budget} branches: {n} of {len(sample)} refuted; "
              f"{(time.perf_counter() - t) / len(sample) * 1000:.1f} ms a state")
    if args.exact:
        live = sum(long_way_live(x) for x in sample[:args.exact])
        missed = sum(1 for x, r in zip(sample[:args.exact], rows) if not r[0] and not long_way_live(x))
        print(f"the long way, {args.exact} of them: {live} can reach a last round the last round's test does not "
              f"refute; {missed} refuted that way but not by redeal_dead")


if __name__ == "__main__":
    main()
