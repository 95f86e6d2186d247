"""The beam search (solver.search.beam) on reduced deals of every game, against the
complete DFS (its verdicts are proofs: it searches every reachable state), and its
place in auto's portfolio.

What must hold, and why each check can fail:
- a beam wide enough never to drop a state is a breadth-first search: it decides
  every deal as the DFS does (LOST is then a proof);
- a narrow beam drops states, so it may miss a win: it must then say UNKNOWN, never
  LOST (the reduced deals include won ones that a width-1 beam misses; a beam that
  forgot it had dropped states would call them lost);
- every win replays under the checker (plain Python, independent of the kernels).
"""

from __future__ import annotations

import pytest

from solver.checker import replay
from solver.deals import seeded_deck, setup_kwargs
from solver.games import get_game
from solver.search import portfolio
from solver.search.beam import CUT, LENGTH, LOST, RUNNING, UNKNOWN, WON, BeamWork
from solver.search.table import new_table
from solver.solve import solve_deal

from reduced_deals import decided

# game -> (ranks, columns, variants, wide): small enough that the complete DFS
# finishes, and a breadth-first search too (a beam of ``wide``, never cut) except in
# Duchess, whose tableau moves make layers of 10^5 states even with 16 cards (wide
# None: only the narrow beams there).  Grand Duchess's plays commute, so 24 cards
# already make layers that large: 2 ranks (16 cards), and Parisienne's 3 (16 dealt).
REDUCED = {
    "bakers-dozen": (4, 4, [{}, {"kings_to_bottom": False}], 400_000),
    "grand-duchess": (2, None, [{"redeals": 0}], 400_000),
    "parisienne": (3, None, [{"redeals": 0}, {"redeals": 1}], 400_000),
    "duchess": (4, None, [{"redeals": 0}, {}], None),
    "capricieuse": (4, 4, [{"redeals": 0}, {}], 400_000),
    "russian-patience": (2, 2, [{"redeals": 0}, {}], 400_000),
}
SEEDS = range(1, 13)


def run_beam(game, st, width: int, max_nodes: int = 10**9):
    w = BeamWork(min(width * 400, 4_000_000), width, game.PACK_LEN, game.MAX_MOVES, 400,
                 candidates=min(width * game.MAX_MOVES, 4_000_000))
    w.reset(width, max_nodes)
    status = RUNNING
    while status == RUNNING:
        status = game.beam(st, new_table(1), 1, 5, w.rows, w.parent, w.via, w.cscore, w.cparent, w.cmove, w.moves,
                           w.row, w.path, w.ctx)
    return status, [int(m) for m in w.path[: w.ctx[LENGTH]]], bool(w.ctx[CUT])


def lines(game, raw):
    return [line for m in raw for line in game.move_text(m).split("\n")]


@pytest.mark.parametrize("name", list(REDUCED))
def test_beam_agrees_with_the_complete_search(name):
    ranks, columns, variants, wide = REDUCED[name]
    game = get_game(name)
    tally = {"won": 0, "lost": 0, "narrow_unknown_on_won": 0, "wide_exact": 0}
    for variant, seed, deck, setup, truth in decided(name, ranks, columns, variants, SEEDS):
        tally[truth] += 1
        for width in (1, 2) + ((wide,) if wide else ()):
            st = game.initial_state(deck, variant, ranks=ranks, columns=columns, **setup)
            status, raw, cut = run_beam(game, st, width)
            if status == WON:
                assert truth == "won", (name, variant, seed, width)
                check = replay(name, variant, deck, lines(game, raw), ranks=ranks, columns=columns, **setup)
                assert check.won, (name, variant, seed, width, check.error)
            elif status == LOST:
                assert truth == "lost" and not cut, (name, variant, seed, width)
            else:
                assert status == UNKNOWN and cut, (name, variant, seed, width)
                if truth == "won":
                    tally["narrow_unknown_on_won"] += 1
            if width == wide and not cut:  # breadth-first, so exact
                assert status == (WON if truth == "won" else LOST), (name, variant, seed)
                tally["wide_exact"] += 1
    assert tally["won"] > 0, tally
    if wide:
        assert tally["wide_exact"] >= 0.9 * (tally["won"] + tally["lost"]), tally
    print(name, tally)


def test_some_narrow_beam_misses_a_win_and_says_unknown():
    """The check above on narrow beams is only a test if some narrow beam drops the
    state a win needed: on these deals one does (a beam that ignored its cuts would call
    that deal lost)."""
    misses = 0
    for name in ("bakers-dozen", "russian-patience", "capricieuse"):
        ranks, columns, variants, wide = REDUCED[name]
        game = get_game(name)
        for seed in SEEDS:
            deck = [int(c) for c in seeded_deck(seed, game.PACKS, ranks=ranks)]
            setup = setup_kwargs(name, seed)
            st = game.initial_state(deck, variants[0], ranks=ranks, columns=columns, **setup)
            status, _, cut = run_beam(game, st, 1)
            st = game.initial_state(deck, variants[0], ranks=ranks, columns=columns, **setup)
            exact, _, _ = run_beam(game, st, wide)
            if exact == WON and status == UNKNOWN:
                misses += 1
    assert misses > 0


def test_node_budget_stops_the_beam():
    game = get_game("grand-duchess")
    st = game.initial_state(seeded_deck(1, 2), {})
    status, _, _ = run_beam(game, st, 1000, max_nodes=5000)
    assert status == UNKNOWN


def test_auto_runs_beams_after_its_threshold(monkeypatch):
    """With the threshold at 0 the schedule's third attempt is a beam, and the deal
    (Grand Duchess seed 317: the DFS portfolio left it unknown at 300,000 nodes, a
    beam of 100 wins it) is won by a line the checker replays."""
    monkeypatch.setattr(portfolio, "BEAM_AFTER", 0)
    calls = []
    original = portfolio.beam_attempt

    def spy(*args, **kwargs):
        a = original(*args, **kwargs)
        calls.append(a.status)
        return a

    monkeypatch.setattr(portfolio, "beam_attempt", spy)
    r = solve_deal("grand-duchess", {}, seeded_deck(317, 2), "auto", max_nodes=2_000_000, seconds=60)
    assert r.result == "won" and calls and calls[-1] == WON


def test_memory_estimate_covers_the_arrays():
    """grow_beam checks memory with beam_bytes before it allocates: the estimate must
    not fall short of what BeamWork really allocates, for every game."""
    for name in REDUCED:
        game = get_game(name)
        for width in (100, 3000):
            w = BeamWork(width * portfolio.BEAM_LAYERS, width, game.PACK_LEN, game.MAX_MOVES, portfolio.BEAM_LAYERS)
            held = portfolio.held_bytes(w)
            assert held <= portfolio.Workspace.beam_bytes(game, width) <= 1.01 * held + 4096, (name, width)
