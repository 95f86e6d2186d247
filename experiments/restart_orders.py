"""Which restart orders win the deals a game's heuristic leaves unknown (issue 19).

    python experiments/restart_orders.py GAME random|noisy SEEDS ATTEMPTS BUDGET [VARIANT...]

Runs up to ATTEMPTS depth-first attempts of BUDGET nodes on each seed of the comma-
separated SEEDS, each in its own order: ``random`` (common.RANDOM_ORDER: weights zero,
a salted hash of each child state) or ``noisy`` (the heuristic's profiles with a little
noise, as the portfolio's short attempts use by default).  Prints, per seed, the first
attempt that wins (attempt, nodes, moves) or proves the deal lost, and the nodes spent.
Measured with an earlier form of this probe (other salts, so other random orders):
Baker's Dozen, 12 unknown seeds of the published row, random orders (one attempt of
200,000 nodes, then up to 40 of 20,000) won 10, noisy ones 1 of 6 within 800,000
nodes; Grand Duchess seeds 37,90,92,93,118,126,136,197,199,235, 10 x 20,000: random
won 0, noisy 7.
"""
import sys, time
from solver.games import get_game
from solver.games.common import RANDOM_ORDER
from solver.deals import seeded_deck, setup_kwargs
from solver.variants import parse_variant
from solver.search import portfolio as P
from solver.search.portfolio import SHORT_PROFILES, Clock
name, mode, seeds, attempts, budget = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
g = get_game(name)
variant = parse_variant(name, g.VARIANTS, sys.argv[6:])
ws = P.WORKSPACE
ws.prepare(g, "dfs", 10**6, 64)
won = 0
for seed in [int(s) for s in seeds.split(",")]:
    st0 = g.initial_state(seeded_deck(seed, g.PACKS), variant, **setup_kwargs(name, seed))
    ws.load(g, st0, "dfs")
    t = time.time(); found = None; total = 0
    for k in range(attempts):
        st = st0.copy()
        g.set_profile(st, (RANDOM_ORDER if mode == "random" else SHORT_PROFILES) + k)
        a = P.dfs_attempt(ws, g, st, budget, Clock(120))
        total += a.nodes
        if a.status == 1:
            found = (k, a.nodes, len(a.raw)); break
        if a.status == 0:
            found = "lost"; break
    won += found is not None
    print(seed, mode, found, total, round(time.time() - t, 2), flush=True)
print("decided", won)
