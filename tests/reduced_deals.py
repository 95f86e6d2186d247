"""Reduced deals of every game with their true verdicts, for the tests that hold a
search engine (beam, NRPA) to the complete DFS: its verdicts are proofs, since it
searches every reachable state of a deal this small."""

from __future__ import annotations

from solver.deals import seeded_deck, setup_kwargs
from solver.games import get_game
from solver.solve import solve_deal


def decided(name, ranks, columns, variants, seeds):
    """(variant, seed, deck, setup, truth) for each variant and seed; truth is "won" or
    "lost" (an undecided deal fails the caller's test: the deal is not small enough)."""
    game = get_game(name)
    for variant in variants:
        for seed in seeds:
            deck = [int(c) for c in seeded_deck(seed, game.PACKS, ranks=ranks)]
            setup = setup_kwargs(name, seed)
            truth = solve_deal(name, variant, deck, algorithm="dfs", max_nodes=3_000_000, seconds=60, ranks=ranks,
                               columns=columns, shorten="none", **setup).result
            assert truth != "unknown", (name, variant, seed)
            yield variant, seed, deck, setup, truth
