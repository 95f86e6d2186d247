"""NRPA (solver.search.nrpa), the rare-win engine, on reduced deals of every game against
the complete DFS (its verdicts are proofs), and through ``--algorithm nrpa``.

What must hold, and why each check can fail:
- a win is a line the checker (plain Python, independent of the kernels) replays, on a
  deal the complete search calls won; NRPA never says LOST (it proves nothing), so a
  deal the complete search calls lost ends UNKNOWN;
- it finds most wins of the reduced deals: a sampler that ignored its policy or a
  playout that stopped early would not;
- adapting a policy to a line makes that line more likely (a sign slip fails it, and
  so would a playout and an adaptation that read a move's entry under different
  contexts);
- the search is resumable: run in slices of one move or in one call, the same line
  and the same count of moves (all of its state lives in the caller's arrays);
- a game's ``may_return`` that says no line can repeat a state (then playouts skip
  their loop check) holds on random lines of every game and variant: one that said so
  for a game that loops (a mutant: Baker's Dozen's) fails.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from solver.checker import replay
from solver.deals import seeded_deck, setup_kwargs
from solver.games import get_game
from solver.search import portfolio
from solver.search.nrpa import LENGTH, NODES, RUNNING, UNKNOWN, WON, NrpaWork, POLICY_BITS
from solver.solve import solve_deal

from reduced_deals import decided

# game -> (ranks, columns, variants): small enough for the complete DFS (as in test_beam)
REDUCED = {
    "bakers-dozen": (4, 4, [{}, {"kings_to_bottom": False}]),
    "grand-duchess": (2, None, [{"redeals": 0}, {"redeals": 1}]),
    "parisienne": (3, None, [{"redeals": 0}, {"redeals": 1}]),
    "duchess": (4, None, [{"redeals": 0}, {}]),
    "capricieuse": (4, 4, [{"redeals": 0}, {}]),
    "russian-patience": (2, 2, [{"redeals": 0}, {}]),
}
SEEDS = range(1, 13)


def run_nrpa(game, st, max_nodes, slice_nodes=10**9, levels=2, iterations=20, seed=0):
    w = NrpaWork(levels, 400, game.MAX_MOVES)
    w.reset(levels, iterations, seed)
    status = RUNNING
    while status == RUNNING:
        status = game.nrpa(st, max_nodes, slice_nodes, w.pols, w.seqs, w.lens, w.scores, w.iters, w.moves,
                           w.weights, w.seen, w.path, w.ctx)
    return status, [int(m) for m in w.path[: w.ctx[LENGTH]]], int(w.ctx[NODES])


def lines(game, raw):
    return [line for m in raw for line in game.move_text(m).split("\n")]


@pytest.mark.parametrize("name", list(REDUCED))
def test_nrpa_agrees_with_the_complete_search(name):
    ranks, columns, variants = REDUCED[name]
    game = get_game(name)
    tally = {"won": 0, "lost": 0, "nrpa_won": 0}
    for variant, seed, deck, setup, truth in decided(name, ranks, columns, variants, SEEDS):
        tally[truth] += 1
        st = game.initial_state(deck, variant, ranks=ranks, columns=columns, **setup)
        status, raw, _ = run_nrpa(game, st, 20_000)
        if status == WON:
            assert truth == "won", (name, variant, seed)
            check = replay(name, variant, deck, lines(game, raw), ranks=ranks, columns=columns, **setup)
            assert check.won, (name, variant, seed, check.error)
            tally["nrpa_won"] += 1
        else:
            assert status == UNKNOWN, (name, variant, seed, status)
    assert tally["won"] > 0, tally
    assert tally["nrpa_won"] >= 0.8 * tally["won"], tally
    print(name, tally)


def _same(game, a, b):
    """The same position: keys and every card in its place (the kernels' scratch
    entries of the state array may differ)."""
    ra, rb = np.zeros(game.PACK_LEN, dtype=np.int64), np.zeros(game.PACK_LEN, dtype=np.int64)
    game.pack(a, ra)
    game.pack(b, rb)
    return np.array_equal(ra, rb) and game.key1(a) == game.key1(b) and game.key2(a) == game.key2(b)


def _line_logp(game, st, pol, line):
    """log-probability of ``line`` from ``st`` under policy ``pol`` (every move gen_moves
    offers a candidate, as nrpa_adapt counts them)."""
    moves = np.zeros(game.MAX_MOVES, dtype=np.int64)
    code = game.nrpa_code
    total = 0.0
    for m in line:
        n = int(game.gen_moves(st, moves, 0))
        ctx = int(game.nrpa_context(st))
        w = [math.exp(pol[code(int(x), ctx)]) for x in moves[:n]]
        total += math.log(math.exp(pol[code(m, ctx)]) / sum(w))
        game.apply_move(st, m)
    return total


# game -> variants on full deals for the loop check, besides REDUCED's reduced ones
LOOP_VARIANTS = {"grand-duchess": [{}, {"foundation_transfer": True}, {"redeals": 1}],
                 "parisienne": [{}, {"foundation_transfer": True}], "duchess": [{}], "bakers-dozen": [{}],
                 "capricieuse": [{}], "russian-patience": [{}]}


def _no_repeat_on_random_lines(game, st, rng, lines=20, depth=400):
    """False if a random line from st comes back to a state it has been in."""
    moves = np.zeros(game.MAX_MOVES, dtype=np.int64)
    for _ in range(lines):
        s = st.copy()
        seen = {(game.key1(s), game.key2(s))}
        for _ in range(depth):
            n = int(game.gen_moves(s, moves, 0))
            if n == 0:
                break
            game.apply_move(s, int(moves[rng.integers(n)]))
            key = (game.key1(s), game.key2(s))
            if key in seen:
                return False
            seen.add(key)
    return True


@pytest.mark.parametrize("name", list(REDUCED))
def test_may_return_false_only_where_no_line_repeats(name):
    game = get_game(name)
    rng = np.random.default_rng(11)
    ranks, columns, variants = REDUCED[name]
    # the reduced deals as dealt (their verdicts do not matter here), then full ones
    starts = [game.initial_state(seeded_deck(seed, game.PACKS, ranks=ranks), variant, ranks=ranks, columns=columns,
                                 **setup_kwargs(name, seed))
              for variant in variants for seed in range(1, 4)]
    starts += [game.initial_state(seeded_deck(seed, game.PACKS), variant, **setup_kwargs(name, seed))
               for variant in LOOP_VARIANTS[name] for seed in range(1, 4)]
    for st in starts:
        if not game.may_return(st):
            assert _no_repeat_on_random_lines(game, st, rng)
    if name == "bakers-dozen":
        # the check can fail: Baker's Dozen loops (a card moved back and forth), so a
        # may_return that said otherwise would be caught here
        assert not _no_repeat_on_random_lines(game, starts[-1], rng, lines=50)


@pytest.mark.parametrize("name", ["grand-duchess", "bakers-dozen"])
def test_adapting_to_a_line_makes_it_likelier(name):
    game = get_game(name)
    deck = seeded_deck(3, game.PACKS)
    st0 = game.initial_state(deck, {})
    w = NrpaWork(1, 3000, game.MAX_MOVES)
    w.reset(1, 1, 7)
    pol = w.pols[1]
    pol[:] = np.random.default_rng(5).normal(0, 0.5, pol.size)
    st = st0.copy()
    length, score = game.nrpa_playout(st, w.seen, pol, w.moves, w.weights, w.seqs[0], w.ctx)
    assert length > 10 and _same(game, st, st0)  # the playout gives the state back
    line = [int(m) for m in w.seqs[0, :length]]
    before = _line_logp(game, st0.copy(), pol, line)
    game.nrpa_adapt(st, pol, w.seqs[0], length, w.moves, w.weights)
    assert _same(game, st, st0)
    after = _line_logp(game, st0.copy(), pol, line)
    assert after > before + 1.0, (before, after)


def test_grand_duchess_policy_entries_depend_on_the_round():
    """nrpa_context: Grand Duchess's is the round (the redeals taken along a random
    line), and one move's entries in two rounds differ; a game without its own
    context (Baker's Dozen) has 0 throughout."""
    game = get_game("grand-duchess")
    st = game.initial_state(seeded_deck(5, game.PACKS), {})
    rng = np.random.default_rng(3)
    moves = np.zeros(game.MAX_MOVES, dtype=np.int64)
    redeals, contexts = 0, set()
    while (n := int(game.gen_moves(st, moves, 0))) > 0:
        assert game.nrpa_context(st) == redeals
        contexts.add(redeals)
        m = int(moves[rng.integers(n)])
        game.apply_move(st, m)
        redeals += m == game.REDEAL
    assert contexts == {0, 1, 2, 3}
    code = game.nrpa_code
    assert all(code(m, 0) != code(m, 1) for m in range(1, 2000))
    bd = get_game("bakers-dozen")
    st = bd.initial_state(seeded_deck(5), {})
    moves = np.zeros(bd.MAX_MOVES, dtype=np.int64)
    for _ in range(30):
        assert bd.nrpa_context(st) == 0
        n = int(bd.gen_moves(st, moves, 0))
        if n == 0:
            break
        bd.apply_move(st, int(moves[rng.integers(n)]))


@pytest.mark.parametrize("name", ["grand-duchess", "bakers-dozen", "duchess"])
def test_slices_do_not_change_the_search(name):
    game = get_game(name)
    variant = {"redeals": 2} if name == "grand-duchess" else {}
    st = game.initial_state(seeded_deck(5, game.PACKS), variant)
    whole = run_nrpa(game, st.copy(), 60_000, levels=2, iterations=5)
    sliced = run_nrpa(game, st.copy(), 60_000, slice_nodes=97, levels=2, iterations=5)
    other = run_nrpa(game, st.copy(), 60_000, levels=2, iterations=5, seed=1)
    assert whole == sliced
    assert other[1] != whole[1] or other[2] != whole[2]  # the seed picks the random stream


def test_algorithm_nrpa_wins_replays_and_proves_only_dead_ends():
    r = solve_deal("bakers-dozen", {}, seeded_deck(7), algorithm="nrpa", max_nodes=5_000_000, seconds=60)
    assert r.result == "won" and r.moves  # solve_deal replayed it in the checker
    # a deal whose dead-end test fires as dealt: lost, by that test (test_solver's deck)
    from tests.test_solver import sorted_deck
    from solver.cards import card

    deck = sorted_deck()
    i5h, ikh = deck.index(card(5, 2)), deck.index(card(13, 2))
    deck[0], deck[i5h] = deck[i5h], deck[0]
    deck[13], deck[ikh] = deck[ikh], deck[13]
    r = solve_deal("bakers-dozen", {"kings_to_bottom": False}, deck, algorithm="nrpa", max_nodes=10**5, seconds=60)
    assert r.result == "lost" and r.proof == "dead_end"
    # a lost deal the dead-end test does not see (reduced: the complete DFS proves it):
    # the budget runs out, unknown
    # (Capricieuse, 4 ranks, 4 columns, no redeal: seed 4)
    deck = seeded_deck(4, 2, ranks=4)
    small = {"redeals": 0}
    truth = solve_deal("capricieuse", small, deck, "dfs", max_nodes=10**6, ranks=4, columns=4)
    assert truth.result == "lost" and truth.proof == "search"
    r = solve_deal("capricieuse", small, deck, algorithm="nrpa", max_nodes=20_000, seconds=60, ranks=4, columns=4)
    assert r.result == "unknown" and r.stop == "nodes" and r.nodes >= 20_000


def test_a_deeper_retry_plays_new_lines():
    """``--algorithm nrpa``'s random stream depends on the budget: a retry at a larger
    --max-nodes must not replay the lines of the pass before it, which it did with one
    stream for every budget (then a win within both budgets came out the same: the same
    moves played, the same line).  The same budget repeats itself."""
    deck = seeded_deck(7)
    runs = [solve_deal("bakers-dozen", {}, deck, algorithm="nrpa", max_nodes=b, seconds=600)
            for b in (5_000_000, 6_000_000, 5_000_000)]
    assert all(r.result == "won" for r in runs)  # within either budget, so only the stream differs
    assert max(r.nodes for r in runs) < 5_000_000
    assert (runs[0].nodes, runs[0].moves) == (runs[2].nodes, runs[2].moves)
    assert (runs[0].nodes, runs[0].moves) != (runs[1].nodes, runs[1].moves)


def test_memory_estimate_covers_the_arrays():
    for name in REDUCED:
        game = get_game(name)
        w = NrpaWork(portfolio.NRPA_LEVELS, portfolio.MAX_DEPTH, game.MAX_MOVES)
        held = portfolio.held_bytes(w)
        assert held <= portfolio.Workspace.nrpa_bytes(game) <= 1.01 * held + 4096, name
    assert POLICY_BITS >= 12


def test_a_deal_with_no_move_ends_at_the_budget():
    """Capricieuse with 4 ranks, 4 columns, no redeal, seed 6: nothing can move as dealt and
    the dead-end test does not fire.  Every playout is empty; each must still count, or
    the search would never end."""
    name, variant = "capricieuse", {"redeals": 0}
    game = get_game(name)
    deck = [int(c) for c in seeded_deck(6, game.PACKS, ranks=4)]
    st = game.initial_state(deck, variant, ranks=4, columns=4, **setup_kwargs(name, 6))
    moves = np.zeros(game.MAX_MOVES, dtype=np.int64)
    assert game.gen_moves(st.copy(), moves, 0) == 0 and not game.is_won(st) and not game.is_dead(st.copy())
    assert run_nrpa(game, st, 5000) == (UNKNOWN, [], 5000)


def test_auto_runs_nrpa_in_the_games_that_ask_for_it(monkeypatch):
    """Grand Duchess with foundation transfers, seed 197: the depth-first, best-first and
    beam orders of ``auto`` leave it unknown at 100,000 nodes (as they did the published
    row at 300,000), while auto's NRPA attempts (AUTO_NRPA) win it; the win is replayed
    by the checker (solve_deal).  Node-limited runs are repeatable, and NRPA's moves are
    charged to the node budget."""
    variant, deck = {"foundation_transfer": True}, seeded_deck(197, 2)
    gd = get_game("grand-duchess")
    assert gd.AUTO_NRPA and get_game("parisienne").AUTO_NRPA
    with_nrpa = [solve_deal("grand-duchess", variant, deck, "auto", max_nodes=100_000, seconds=600) for _ in range(2)]
    assert with_nrpa[0].result == "won" and with_nrpa[0].nodes <= 100_000
    assert [(r.result, r.nodes, r.moves) for r in with_nrpa[1:]] == [(r.result, r.nodes, r.moves) for r in with_nrpa[:1]]
    monkeypatch.setattr(gd, "AUTO_NRPA", False)
    r = solve_deal("grand-duchess", variant, deck, "auto", max_nodes=100_000, seconds=600)
    assert r.result == "unknown" and r.stop == "nodes" and r.nodes >= 100_000


def test_auto_allocates_nrpa_only_where_it_runs():
    ws = portfolio.Workspace()
    for name in ("bakers-dozen", "duchess", "capricieuse", "russian-patience"):
        assert not getattr(get_game(name), "AUTO_NRPA", False)
        assert not ws.needs(get_game(name), "auto", 10**5, 64)[3], name
    for name in ("grand-duchess", "parisienne"):
        assert ws.needs(get_game(name), "auto", 10**5, 64)[3], name
        assert not ws.needs(get_game(name), "dfs", 10**5, 64)[3], name
