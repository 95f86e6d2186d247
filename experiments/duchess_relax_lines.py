"""Duchess `redeals=0` decided by R+ alone (solver/games/duchess_relax.py, issue 19):
each first move of each deal searched in R+, a win of R+ made into a real line
(solver/games/duchess_relax_line.py, replayed in the checker there), until a first
move is won or all are searched.  Per deal: won (a real line), lost (every first move
lost in R+, a proof), or open; marks per first move: L lost, W won with a real line,
w won in R+ with no real line, ? the state budget ran out.

    python experiments/duchess_relax_lines.py --seeds 1..30 --max-states 20000000
    python experiments/duchess_relax_lines.py --ranks 12 --seeds 1..20 --max-states 5000000

Memory: R+'s table, 16 bytes a slot and at least two slots a state, checked against
the memory available first.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import numpy as np  # noqa: E402

from bench import seed_range  # noqa: E402
from duchess_chain_relaxation import bad_limits  # noqa: E402


def main(argv=None) -> int:
    from solver.deals import seeded_deck
    from solver.games import duchess
    from solver.games import duchess_relax as relax
    from solver.search.portfolio import Clock

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=seed_range, default=seed_range("1..20"))
    ap.add_argument("--ranks", type=int, default=13)
    ap.add_argument("--max-states", type=int, default=2_000_000, help="per first move")
    args = ap.parse_args(argv)
    bad = bad_limits("duchess_relax_lines.py", args.ranks, args.max_states)
    if bad:
        print(bad, file=sys.stderr)
        return 2
    work = relax.RelaxWork(args.max_states)
    forever = Clock(float("inf"))
    moves = np.zeros(duchess.MAX_MOVES, dtype=np.int64)
    tally = {"won": 0, "lost": 0, "open": 0}
    states = seconds = 0.0
    for seed in args.seeds:
        deck = [int(c) for c in seeded_deck(seed, 1, ranks=args.ranks)]
        st0 = duchess.initial_state(deck, {"redeals": 0}, ranks=args.ranks)
        marks, word, t0 = [], "open", time.perf_counter()
        for i in range(int(duchess.gen_moves(st0, moves, 0))):
            st = st0.copy()
            duchess.apply_move(st, moves[i])
            v = relax.search(work, st, args.max_states, forever)
            states += int(work.ctx[relax.STATES])
            if v == relax.WON_R:
                line = relax.won_line(work, st0, int(moves[i]))
                marks.append("W" if line is not None else "w")
                if line is not None:
                    word = "won"
                    break
            else:
                marks.append("L" if v == relax.LOST else "?")
        if marks and all(m == "L" for m in marks):
            word = "lost"
        dt = time.perf_counter() - t0
        seconds += dt
        tally[word] += 1
        print(f"seed {seed}: {word} ({' '.join(marks)}) {dt:.2f} s", flush=True)
    rate = states / seconds / 1e6 if seconds else 0.0
    print(f"{tally}; {int(states):,} states in {seconds:.1f} s, {rate:.2f} M states/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
