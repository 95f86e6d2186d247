"""Baker's Dozen's dead-end test (bakers_dozen.is_dead) against its definition.

The kernel computes the least fixed point by column frontiers (issue 19: faster).
``reference_dead`` below is the definition written plainly: every fact re-derived
each pass until none changes, as the kernel did before.  The two must agree on every
state; the states come from random walks over full and reduced deals, both king rules
and every empty-column rule.  (That the definition is sound, never calling a winnable
state lost, is checked against the exhaustive oracle in test_game_contract.py.)
"""

import numpy as np
import pytest

from solver.deals import seeded_deck
from solver.games import bakers_dozen as bd


def reference_dead(st) -> bool:
    """clear(x): every card above x is free; home(x): clear(x) and (x next for its suit,
    or home(x - 1)); free(x): clear(x) and (home(x), or a space rule takes it, or some
    clear card one rank higher not beneath x in its column).  Lost iff some card is
    not home at the least fixed point."""
    ncols, nranks, empty = int(st[bd.NCOLS]), int(st[bd.NRANKS]), int(st[bd.EMPTY])
    cols = [[int(c) for c in st[bd.C0 + k * bd.CAP: bd.C0 + k * bd.CAP + st[bd.H0 + k]]] for k in range(ncols)]
    where = {c: (k, p) for k, col in enumerate(cols) for p, c in enumerate(col)}
    clear, free, home = set(), set(), set()
    changed = True
    while changed:
        changed = False
        for k, col in enumerate(cols):
            for p in range(len(col) - 1, -1, -1):
                c = col[p]
                if any(d not in free for d in col[p + 1:]):
                    break
                s, r = divmod(c, 13)
                facts = {"clear"}
                if st[bd.F0 + s] == r or (c - 1) in home:
                    facts.add("home")
                targets = [t * 13 + r + 1 for t in range(4)] if r + 1 < nranks else []
                if ("home" in facts or empty == 1 or (empty == 2 and r + 1 == nranks)
                        or any(t in where and t in clear and not (where[t][0] == k and where[t][1] < p)
                               for t in targets)):
                    facts.add("free")
                for name, held in (("clear", clear), ("home", home), ("free", free)):
                    if name in facts and c not in held:
                        held.add(c)
                        changed = True
    return any(c not in home for col in cols for c in col)


def walk_states(deck, variant, ranks, columns, rng, steps=40):
    st = bd.initial_state(deck, variant, ranks=ranks, columns=columns)
    moves = np.zeros(bd.MAX_MOVES, dtype=np.int64)
    yield st.copy()
    for _ in range(steps):
        n = bd.gen_moves(st, moves, 0)
        if n == 0:
            return
        bd.apply_move(st, moves[rng.integers(n)])
        yield st.copy()


@pytest.mark.parametrize("empty", ["none", "any", "king"])
@pytest.mark.parametrize("kings", [True, False])
def test_is_dead_is_its_definition(kings, empty):
    rng = np.random.default_rng(19)
    variant = {"kings_to_bottom": kings, "empty": empty}
    checked = dead = 0
    for seed in range(1, 31):
        for ranks, columns in ((13, 13), (5, 5), (4, 4)):
            deck = [int(c) for c in seeded_deck(seed, ranks=ranks)]
            for st in walk_states(deck, variant, ranks, columns, rng):
                want = reference_dead(st)
                assert bool(bd.is_dead(st.copy())) == want, (seed, ranks, bd.checker_view(st))
                checked += 1
                dead += want
    assert checked > 1000 and dead < checked
    assert (dead == 0) == (empty == "any")  # a space takes any card: nothing is stuck


def test_is_dead_leaves_the_position_alone():
    """The test uses the state's scratch entries only: the cards, heights, foundations
    and keys are unchanged, so the search may call it anywhere."""
    st = bd.initial_state([int(c) for c in seeded_deck(3)], {"kings_to_bottom": False})
    before = st[: bd.S0].copy()
    bd.is_dead(st)
    assert (st[: bd.S0] == before).all()
