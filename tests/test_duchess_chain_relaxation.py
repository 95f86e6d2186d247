"""experiments/duchess_chain_relaxation.py, the plain-Python twin of Duchess
`redeals=0`'s relaxation (solver/games/duchess_relax.py; issue 19): real wins of
reduced deals keep its premise at every move and are wins of the relaxation, a broken
premise is caught, and the solver's compiled search gives the plain one's verdicts."""

from pathlib import Path

import pytest

from solver.deals import seeded_deck

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def relaxation(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT / "experiments"))
    import duchess_chain_relaxation

    return duchess_chain_relaxation


def _wins(relaxation, ranks, seeds):
    """(deck, fan of the first move, line) of the DFS's wins, one first move at a time."""
    for seed in seeds:
        deck = [int(c) for c in seeded_deck(seed, 1, ranks=ranks)]
        for fan, moves in relaxation.real_wins(deck, ranks, 200_000, 20):
            yield deck, fan, moves


def test_real_wins_keep_the_premise_and_win_the_relaxation(relaxation):
    checked = 0
    for ranks in (5, 6, 7):
        for deck, fan, moves in _wins(relaxation, ranks, range(1, 9)):
            assert relaxation.line_breaks_r(deck, ranks, moves) is None
            assert relaxation.Relaxed(deck, ranks).solve_base(fan, 50_000) is not False
            checked += 1
    assert checked >= 60


def test_chains_count_the_fewest_runs(relaxation):
    parent_of = {c: relaxation.parents(c, 13) for c in range(52)}
    # 9S 8H 7C is one run; 9D apart; 8S lies on 9D: two runs; KC alone: three
    nine_s, eight_h, seven_c, nine_d, eight_s, king_c = 47, 33, 6, 21, 46, 12
    assert relaxation.chains({nine_s, eight_h, seven_c}, parent_of) == 1
    assert relaxation.chains({nine_s, eight_h, seven_c, nine_d, eight_s}, parent_of) == 2
    assert relaxation.chains({nine_s, eight_h, seven_c, nine_d, eight_s, king_c}, parent_of) == 3
    # a king lies on an ace of the other colour
    ace_h = 26
    assert relaxation.chains({ace_h, king_c}, parent_of) == 1


def test_a_broken_premise_is_caught(relaxation, monkeypatch):
    """Mutant: cards lie on the same colour.  The real columns then no longer split
    into the mutant's chains, and the line check says so on some real win."""
    real = relaxation.parents

    def same_colour(c, ranks):
        s, r = divmod(c, 13)
        up = 1 if r + 1 == ranks else r + 2
        return [t * 13 + up - 1 for t in range(4) if (t in relaxation.RED) == (s in relaxation.RED)]

    wins = list(_wins(relaxation, 6, range(1, 9)))
    monkeypatch.setattr(relaxation, "parents", same_colour)
    assert any(relaxation.line_breaks_r(deck, 6, moves) for deck, _, moves in wins)
    monkeypatch.setattr(relaxation, "parents", real)
    assert not any(relaxation.line_breaks_r(deck, 6, moves) for deck, _, moves in wins)


def test_the_compiled_search_gives_the_plain_one_s_verdicts(relaxation):
    """The same order of moves, so the same verdict at the same state budget: lost,
    won and open all come up (full seed 3's first base rank is lost in R)."""
    seen = set()
    for ranks, seed in ((13, 3), (11, 3), (11, 1), (6, 2)):
        rel = relaxation.Relaxed([int(c) for c in seeded_deck(seed, 1, ranks=ranks)], ranks)
        for f in range(4):
            v = rel.solve_base(f, 3_000)
            assert rel.solve_base_compiled(f, 3_000) is v
            seen.add(v)
    assert seen == {True, False, None}


def test_the_block_count_is_the_matching_count(relaxation):
    """chains_by_blocks (sums of minima) against chains (augmenting paths) on random
    sets of full and reduced packs, also with a card nothing may lie on."""
    import random

    rng = random.Random(19)
    for ranks in (5, 8, 13):
        pack = [s * 13 + r for s in range(4) for r in range(ranks)]
        parent_of = {c: relaxation.parents(c, ranks) for c in pack}
        for _ in range(500):
            t = set(rng.sample(pack, rng.randint(0, len(pack))))
            mask = sum(1 << c for c in t)
            assert relaxation.chains_by_blocks(mask, ranks) == relaxation.chains(t, parent_of)
            if t:  # with one card that nothing may lie on: not a parent in the matching
                top = rng.choice(sorted(t))
                no_top = {c: [q for q in ps if q != top] for c, ps in parent_of.items()}
                assert relaxation.chains_by_blocks(mask, ranks, top) == relaxation.chains(t, no_top)


def test_real_wins_keep_the_bottom_cards_premise_and_win_r_plus(relaxation):
    """R+ (the solver's: R with the columns' bottom cards kept) on the same real wins:
    its premise holds at every move and it does not lose their first moves.  Both
    kinds of change it relies on come up: a card into a space, and a bottom card
    leaving (home, or its whole column onto another)."""
    from solver.checker.duchess import Duchess

    checked = came = left = 0
    for ranks in (5, 6, 7):
        for deck, fan, moves in _wins(relaxation, ranks, range(1, 9)):
            assert relaxation.line_breaks_bases(deck, ranks, moves) is None
            assert relaxation.Relaxed(deck, ranks).solve_base_compiled(fan, 50_000, bases=True) is not False
            game = Duchess(deck, {"redeals": 0}, ranks=ranks)
            for move in moves:
                before = {col[0] for col in game.columns if col}
                game.apply(move)
                after = {col[0] for col in game.columns if col}
                came += len(after - before)
                left += len(before - after)
            checked += 1
    assert checked >= 60 and came >= 20 and left >= 20


def test_fits_is_the_matching_with_bottom_cards_on_nothing(relaxation):
    """duchess_relax.fits against chains (augmenting paths) with the bottom cards lying
    on nothing: T fits B when the cards not in B all lie on others, that is when T
    makes exactly |B| chains; also with a card nothing may lie on.  And the slack
    (what R+'s moves are tested by) answers each move's question as fits does."""
    import random

    import numpy as np

    from solver.games import duchess_relax as R

    rng = random.Random(19)
    sl = np.zeros((13, 2), dtype=np.int64)
    valid = 0
    for ranks in (5, 8, 13):
        pack = [s * 13 + r for s in range(4) for r in range(ranks)]
        parent_of = {c: relaxation.parents(c, ranks) for c in pack}
        for _ in range(300):
            t = set(rng.sample(pack, rng.randint(0, min(12, len(pack)))))
            bottoms = set(rng.sample(sorted(t), min(len(t), rng.randint(0, 4))))
            mask, bm = sum(1 << c for c in t), sum(1 << c for c in bottoms)
            on_nothing = {c: ([] if c in bottoms else ps) for c, ps in parent_of.items()}
            fit = R.fits(mask, bm, ranks)
            assert fit == (relaxation.chains(t, on_nothing) == len(bottoms))
            for top in sorted(t):
                no_top = {c: [q for q in ps if q != top] for c, ps in on_nothing.items()}
                assert R.fits(mask, bm, ranks, top) == (relaxation.chains(t, no_top) == len(bottoms))
            if not fit:
                continue
            valid += 1
            R.slack(mask, bm, ranks, sl)
            for c in pack:
                if c in t:  # home from T: nothing lies on c
                    assert (R._slack_of(sl, c, ranks, True) >= 1) == R.fits(mask, bm, ranks, c)
                    continue
                # c comes in onto a card of T; or into the space a whole column leaves
                assert (R._slack_of(sl, c, ranks, False) >= 1) == R.fits(mask | 1 << c, bm, ranks, c)
                for x in bottoms:
                    assert (R._slack_of(sl, x, ranks, False) >= 1) == R.fits(mask | 1 << c, (bm & ~(1 << x)) | 1 << c,
                                                                             ranks, c)
    assert valid >= 100
