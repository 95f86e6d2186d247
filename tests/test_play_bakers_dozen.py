"""The Baker's Dozen player framework (solver/play, docs/PLAYERS.md): the observation
hides exactly the unseen cards, the legal moves from the observation are the checker's,
and the sampler of the hidden cards follows their exact conditional distribution
(chi-square against an exact enumeration of decks on tiny games)."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter

import pytest

from solver.cards import card_str, full_pack, parse_card, rank_of
from solver.checker import IllegalMove, deal_columns, replay
from solver.deals import seeded_deck
from solver.play import HIDDEN, FaceDownGame, Observation, deck_for_layout, legal_moves, sample_deal, sample_world
from solver.play.strategies import STRATEGIES, GreedyStrategy, play_game

FD = {"face_down": True}


def checker_legal_moves(state) -> set[str]:
    """The moves the checker accepts, found by trying every candidate on a copy."""
    n = len(state.columns)
    out = set()
    for s, col in enumerate(state.columns):
        if not col:
            continue
        name = card_str(col[-1])
        for dst in ["F"] + [f"c{d + 1}" for d in range(n) if d != s]:
            move = f"c{s + 1} {dst} {name}"
            try:
                state.copy().apply(move)
            except IllegalMove:
                continue
            out.add(move)
    return out


def random_walk(deck, variant, steps, seed, ranks=13, columns=13):
    """A referee after up to ``steps`` uniformly random legal moves."""
    g = FaceDownGame(deck, variant, ranks=ranks, columns=columns)
    rng = random.Random(seed)
    for _ in range(steps):
        moves = g.legal_moves()
        if not moves:
            break
        g.apply(rng.choice(moves))
    return g


# --------------------------------------------------------------------------- observation


def test_observation_at_the_deal_shows_only_the_top_cards():
    deck = seeded_deck(7)
    g = FaceDownGame(deck, FD)
    obs = g.observe()
    truth = g.referee_state().columns
    assert isinstance(obs, Observation)
    assert obs.n_columns == 13 and obs.ranks == 13 and obs.foundation == (0, 0, 0, 0)
    for col, true_col in zip(obs.columns, truth):
        assert isinstance(col, tuple) and len(col) == len(true_col) == 4
        assert col[:-1] == (HIDDEN,) * 3 and col[-1] == true_col[-1]
    assert obs.dealt == obs.columns
    assert len(obs.unseen_cards()) == 39
    # face up: the same code, everything seen from the start
    up = FaceDownGame(deck).observe()
    assert up.columns == tuple(tuple(c) for c in deal_columns(deck)) and up.hidden_counts() == (0,) * 13
    assert up.unseen_cards() == []


@pytest.mark.parametrize("variant", [FD, {"face_down": True, "kings_to_bottom": False},
                                     {"face_down": True, "empty": "any"}, {"face_down": True, "empty": "king"}])
def test_observation_along_random_games(variant):
    for seed in range(4):
        deck = seeded_deck(seed)
        g = FaceDownGame(deck, variant)
        dealt = deal_columns(deck, g.variant)
        rng = random.Random(seed)
        seen_ever: set[int] = {col[-1] for col in dealt}
        for _ in range(60):
            obs = g.observe()
            truth = g.referee_state()
            assert obs.foundation == tuple(truth.foundation)
            for c, (col, true_col) in enumerate(zip(obs.columns, truth.columns)):
                assert len(col) == len(true_col)
                h = obs.hidden_counts()[c]
                # hidden cards: a bottom block, the column's cards as dealt, never seen
                assert col[:h] == (HIDDEN,) * h and HIDDEN not in col[h:]
                assert list(col[h:]) == true_col[h:] and true_col[:h] == dealt[c][:h]
                assert not seen_ever & set(true_col[:h])
                assert obs.dealt[c] == (HIDDEN,) * h + tuple(dealt[c][h:])
                assert all(type(x) is int for x in col)
            assert set(obs.unseen_cards()) == set(full_pack()) - seen_ever
            moves = g.legal_moves()
            assert moves == legal_moves(obs) and len(set(moves)) == len(moves)
            assert set(moves) == checker_legal_moves(truth)
            if not moves:
                break
            g.apply(rng.choice(moves))
            seen_ever |= {col[-1] for col in g.referee_state().columns if col}


def test_legal_moves_equal_the_checkers_on_tiny_games():
    for seed in range(40):
        ranks, columns = 3 + seed % 3, 3 + seed % 4
        variant = {"face_down": True, "empty": ("none", "any", "king")[seed % 3],
                   "kings_to_bottom": seed % 2 == 0}
        g = FaceDownGame(seeded_deck(seed, ranks=ranks), variant, ranks=ranks, columns=columns)
        rng = random.Random(seed)
        for _ in range(40):
            moves = g.legal_moves()
            assert set(moves) == checker_legal_moves(g.referee_state())
            if not moves:
                break
            g.apply(rng.choice(moves))


# --------------------------------------------------------------------------- sampler: consistency


@pytest.mark.parametrize("variant", [FD, {"face_down": True, "kings_to_bottom": False},
                                     {"face_down": True, "empty": "any"}])
def test_sampled_deals_reproduce_the_observation(variant):
    """A sampled dealt layout, dealt from a deck and played with the same moves, shows
    the player exactly what it saw (and the current layout is the sampled world)."""
    rng = random.Random(5)
    for seed in range(8):
        g = random_walk(seeded_deck(seed), variant, steps=seed * 7, seed=seed)
        obs = g.observe()
        for _ in range(3):
            deal = sample_deal(obs, rng)
            other = FaceDownGame(deck_for_layout(deal), variant)
            assert [list(c) for c in deal_columns(deck_for_layout(deal), other.variant)] == deal
            for m in g.moves_made:
                other.apply(m)
            assert other.observe() == obs
            world = sample_world(obs, random.Random(rng.random()))
            assert sorted(c for col in world for c in col) == sorted(c for col in g.referee_state().columns
                                                                     for c in col)
            for col, ocol in zip(world, obs.columns):
                assert all(o in (HIDDEN, w) for w, o in zip(col, ocol)) and len(col) == len(ocol)


# --------------------------------------------------------------------------- sampler: exact distribution


def stable_kings_down(order, ranks, king_rule):
    """RULES.md's king rule on one column's cards in deck order (written out again here)."""
    if not king_rule:
        return tuple(order)
    return tuple([c for c in order if rank_of(c) == ranks] + [c for c in order if rank_of(c) != ranks])


def exact_worlds(g: FaceDownGame) -> Counter:
    """For the referee ``g`` (a tiny game after ``g.moves_made``): every current layout
    consistent with its observation, with the number of decks that give the same
    observation after the same moves and that layout.

    Decks are enumerated through their pre-images: each split of the unseen cards among
    the columns, and every order of each column's cards over its deck positions; each
    column's order goes through the king rule (counted: several orders give one dealt
    column).  A dealt column that disagrees with a seen dealt card cannot give the same
    observation (the observation shows every seen dealt card), so those are dropped
    early; every dealt layout left is then dealt and replayed through the referee, and
    kept only if the observation is the same."""
    target = g.observe()
    ranks, n = g.ranks, g.n_columns
    king_rule = g.variant["kings_to_bottom"]
    known = [[c for c in col if c != HIDDEN] for col in target.dealt]
    all_known = {c for col in known for c in col}
    unseen = [c for c in full_pack(1, ranks) if c not in all_known]
    heights = [len(range(c, 4 * ranks, n)) for c in range(n)]
    sizes = [heights[c] - len(known[c]) for c in range(n)]
    worlds: Counter = Counter()

    def splits(cards, sizes):
        if not sizes:
            yield []
            return
        for pick in itertools.combinations(cards, sizes[0]):
            rest = [c for c in cards if c not in pick]
            for tail in splits(rest, sizes[1:]):
                yield [list(pick)] + tail

    for split in splits(unseen, sizes):
        per_column = []
        for c in range(n):
            counts = Counter(stable_kings_down(order, ranks, king_rule)
                             for order in itertools.permutations(known[c] + split[c]))
            counts = {col: k for col, k in counts.items()
                      if all(o in (HIDDEN, x) for x, o in zip(col, target.dealt[c]))}
            per_column.append(counts)
        for combo in itertools.product(*(list(pc.items()) for pc in per_column)):
            layout = [list(col) for col, _ in combo]
            weight = math.prod(k for _, k in combo)
            other = FaceDownGame(deck_for_layout(layout), g.variant, ranks=ranks, columns=n)
            assert [list(col) for col in other.referee_state().columns] == layout
            try:
                for m in g.moves_made:
                    other.apply(m)
            except IllegalMove:
                continue
            if other.observe() == target:
                worlds[tuple(tuple(col) for col in other.referee_state().columns)] += weight
    return worlds


def wilson_hilferty(df: int, z: float = 3.0902) -> float:
    """Chi-square critical value at p = 0.001 (z = 3.0902), Wilson-Hilferty; for the
    df used here it errs on the high side by well under 1%."""
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def chi_square(freq: Counter, worlds: Counter, draws: int) -> float:
    total = sum(worlds.values())
    assert set(freq) <= set(worlds), "a sample outside the consistent worlds"
    return sum((freq[w] - draws * k / total) ** 2 / (draws * k / total) for w, k in worlds.items())


def find_position(variant, ranks, columns, want, tries=400):
    """The first (seed, steps) random walk on a tiny game whose referee satisfies ``want``."""
    for seed in range(tries):
        deck = seeded_deck(seed, ranks=ranks)
        for steps in range(25):
            g = random_walk(deck, variant, steps, seed, ranks=ranks, columns=columns)
            if len(g.moves_made) == steps and want(g):
                return g
    raise AssertionError("no position found")


def empty_column(g):
    return any(not col for col in g.referee_state().columns)


def king_seen(g):
    obs = g.observe()
    return any(c != HIDDEN and rank_of(c) == g.ranks for col in obs.dealt for c in col[:-1])


def king_moved_to_space(g):
    """A king went from one column to another (only an empty one takes it): column
    king counts as dealt are no longer the kings in the columns now."""
    return any(m.split()[1] != "F" and rank_of(parse_card(m.split()[2])) == g.ranks for m in g.moves_made)


def rich(worlds):
    """Enough worlds, of more than one weight, for the chi-square test to mean something."""
    return len(worlds) >= 24 and len(set(worlds.values())) > 1


def hidden_between(lo, hi):
    return lambda g: lo <= sum(g.observe().hidden_counts()) <= hi


CASES = {
    # at the deal: 2 columns of 4, ranks A-2 (the 2s are the kings): weights C(4, k) differ
    "deal-2x2": (FD, 2, 2, lambda g: not g.moves_made and uneven_kings(g)),
    "deal-2x2-no-king-rule": ({"face_down": True, "kings_to_bottom": False}, 2, 2, lambda g: not g.moves_made),
    "deal-3-columns-uneven": (FD, 2, 3, lambda g: not g.moves_made),
    "moves-empty-column": (FD, 3, 3, lambda g: empty_column(g) and hidden_between(3, 6)(g)),
    "moves-king-revealed": (FD, 3, 3, lambda g: king_seen(g) and len(g.moves_made) >= 2 and hidden_between(3, 6)(g)
                            and rich(exact_worlds(g))),
    "moves-no-king-rule": ({"face_down": True, "kings_to_bottom": False}, 3, 3,
                           lambda g: len(g.moves_made) >= 3 and hidden_between(3, 6)(g)),
    "moves-king-into-space": ({"face_down": True, "empty": "any"}, 4, 4,
                              lambda g: king_moved_to_space(g) and hidden_between(3, 6)(g)
                              and rich(exact_worlds(g))),
}


def uneven_kings(g):
    """Both tops are non-kings, so the 2x2 deal's hidden kings split between columns."""
    return all(rank_of(col[-1]) != g.ranks for col in g.referee_state().columns)


_WORLDS: dict = {}


def case_worlds(name):
    if name not in _WORLDS:
        variant, ranks, columns, want = CASES[name]
        g = find_position(variant, ranks, columns, want)
        _WORLDS[name] = (g, exact_worlds(g))
    return _WORLDS[name]


def draws_for(worlds: Counter) -> int:
    """At least 20,000 draws, and enough that every world expects 5 or more."""
    total = sum(worlds.values())
    return max(20_000, math.ceil(5 * total / min(worlds.values())))


@pytest.mark.parametrize("name", list(CASES))
def test_sampler_matches_exact_enumeration(name):
    g, worlds = case_worlds(name)
    obs = g.observe()
    truth = tuple(tuple(col) for col in g.referee_state().columns)
    assert truth in worlds and len(worlds) >= 2
    draws = draws_for(worlds)
    rng = random.Random(2026)
    freq = Counter(tuple(tuple(col) for col in sample_world(obs, rng)) for _ in range(draws))
    stat = chi_square(freq, worlds, draws)
    assert stat < wilson_hilferty(len(worlds) - 1), (name, stat, len(worlds))
    if not g.variant["kings_to_bottom"]:
        assert len(set(worlds.values())) == 1  # without the king rule every world weighs the same


def test_uneven_weights_matter_so_the_test_has_power():
    """On the 2x2 deal the worlds' weights differ, and a sampler uniform over the
    consistent worlds fails the same chi-square check."""
    g, worlds = case_worlds("deal-2x2")
    assert len(set(worlds.values())) > 1
    draws = 5_000
    rng = random.Random(2026)
    keys = sorted(worlds)
    freq = Counter(rng.choice(keys) for _ in range(draws))
    assert chi_square(freq, worlds, draws) > 3 * wilson_hilferty(len(worlds) - 1)


@pytest.mark.parametrize("name", [n for n in CASES if CASES[n][0].get("kings_to_bottom", True)])
def test_a_sampler_ignoring_the_deck_counts_fails(name, monkeypatch):
    """The same sampler with every C(n_c, k_c) weight set to 1 (uniform over the
    consistent layouts) fails the chi-square check on every king-rule case."""
    import solver.play.bakers_dozen as bd

    g, worlds = case_worlds(name)
    monkeypatch.setattr(bd, "comb", lambda n, k: 1)
    draws = 5_000
    rng = random.Random(2026)
    freq = Counter(tuple(tuple(col) for col in sample_world(g.observe(), rng)) for _ in range(draws))
    assert chi_square(freq, worlds, draws) > 3 * wilson_hilferty(len(worlds) - 1)


def test_exact_enumeration_agrees_with_every_deck_on_the_smallest_game():
    """The enumeration's early pruning is harmless: on the 2x2 deal, running every one of
    the 8! decks through the referee finds the same worlds with the same counts."""
    g, worlds = case_worlds("deal-2x2")
    target = g.observe()
    brute: Counter = Counter()
    for deck in itertools.permutations(full_pack(1, 2)):
        other = FaceDownGame(deck, g.variant, ranks=2, columns=2)
        if other.observe() == target:
            brute[tuple(tuple(col) for col in other.referee_state().columns)] += 1
    assert brute == worlds


# --------------------------------------------------------------------------- strategies


def walk_types(value, seen_types: set) -> None:
    """Every type inside an observation (tuples, ints, strings, bools only)."""
    seen_types.add(type(value))
    if isinstance(value, tuple):
        for v in value:
            walk_types(v, seen_types)


class Spy:
    """Wraps a strategy and records what it is handed."""

    def __init__(self, inner):
        self.inner, self.name, self.calls = inner, inner.name, []

    def choose(self, obs, moves, rng):
        self.calls.append((type(obs), type(moves), {type(m) for m in moves}, type(rng)))
        types: set = set()
        for f in (obs.columns, obs.dealt, obs.foundation, obs.variant, obs.ranks, obs.n_columns):
            walk_types(f, types)
        assert types <= {tuple, int, str, bool}, types
        return self.inner.choose(obs, moves, rng)


@pytest.mark.parametrize("name", list(STRATEGIES))
def test_strategies_get_only_the_observation_the_moves_and_their_rng(name):
    spy = Spy(STRATEGIES[name]())
    for seed in range(3):
        play_game(seeded_deck(seed), FD, spy, seed, max_moves=100)
    assert spy.calls
    assert all(c == (Observation, tuple, {str}, random.Random) for c in spy.calls)


@pytest.mark.parametrize("name", list(STRATEGIES))
def test_won_games_replay_as_wins(name):
    wins = 0
    for seed in range(40):
        ranks, columns = 3 + seed % 2, 3 + seed % 3
        variant = {"face_down": seed % 4 != 0, "kings_to_bottom": seed % 3 != 0,
                   "empty": ("none", "any", "king")[seed % 3]}
        deck = seeded_deck(seed, ranks=ranks)
        result = play_game(deck, variant, STRATEGIES[name](), seed, ranks=ranks, columns=columns, max_moves=300)
        verdict = replay("bakers-dozen", variant, deck, result.moves, ranks=ranks, columns=columns)
        assert verdict.legal and verdict.won == result.won
        assert result.decisions <= len(result.moves)
        if result.won:
            wins += 1
        else:
            # it ended for a reason: no legal move left, or the move cap
            g = FaceDownGame(deck, variant, ranks=ranks, columns=columns)
            for m in result.moves:
                g.apply(m)
            assert result.stopped == bool(g.legal_moves()) and (not result.stopped or len(result.moves) == 300)
    assert wins >= 5


def test_greedy_follows_its_rules():
    rng = random.Random(3)
    greedy = GreedyStrategy()
    checked = 0
    for seed in range(10):
        g = random_walk(seeded_deck(seed), FD, steps=seed * 5, seed=seed)
        obs, moves = g.observe(), tuple(g.legal_moves())
        if len(moves) < 2:
            continue
        for _ in range(5):
            m = greedy.choose(obs, moves, rng)
            home = [x for x in moves if " F " in x]
            uncover = [x for x in moves if len(col := obs.columns[int(x.split()[0][1:]) - 1]) >= 2
                       and col[-2] == HIDDEN]
            assert m in (home or uncover or moves)
            checked += 1
    assert checked


def first_disagreement(a, b):
    """The first index at which the two games show the player the same thing but the
    player moves differently; None if there is none before their observations differ."""
    for i, (oa, ob) in enumerate(zip(a.observations, b.observations)):
        if oa != ob:
            return None
        if a.moves[i] != b.moves[i]:
            return i
    return None if len(a.moves) == len(b.moves) else min(len(a.moves), len(b.moves))


def twin_pairs(count, ranks=13, columns=13):
    """(deck, twin) pairs: the twin deals a different layout that shows the same thing at
    the deal.  Even k: the twin's hidden cards are drawn by sample_deal from the first
    deal's observation (they differ almost at once); odd k: the twin swaps the bottom
    cards of two columns, both kings or both not (so the king rule still holds), and the
    games agree until one of them is uncovered."""
    rng = random.Random(99)
    pairs = []
    for seed in range(count):
        deck = list(seeded_deck(seed, ranks=ranks))
        g = FaceDownGame(deck, FD, ranks=ranks, columns=columns)
        layout = g.referee_state().columns
        while True:
            if seed % 2 == 0:
                other = sample_deal(g.observe(), rng)
            else:
                a, b = rng.sample(range(columns), 2)
                if (rank_of(layout[a][0]) == ranks) != (rank_of(layout[b][0]) == ranks):
                    continue
                other = [list(col) for col in layout]
                other[a][0], other[b][0] = other[b][0], other[a][0]
            if other != layout:
                break
        twin = deck_for_layout(other)
        assert [list(c) for c in deal_columns(twin, FD, ranks=ranks, columns=columns)] == other
        assert FaceDownGame(twin, FD, ranks=ranks, columns=columns).observe() == g.observe()
        pairs.append((deck, twin))
    return pairs


@pytest.mark.parametrize("name", list(STRATEGIES))
def test_no_peeking(name):
    """Deals that agree on everything visible but differ in hidden cards get the same
    decisions (same random stream) until the observations differ."""
    strategy = STRATEGIES[name]()
    shared, diverged = [], 0
    for ranks, columns, count, cap in ((13, 13, 30, 150), (4, 4, 60, 100)):
        for k, (deck, twin) in enumerate(twin_pairs(count, ranks, columns)):
            a = play_game(deck, FD, strategy, k, ranks=ranks, columns=columns, max_moves=cap, trace=True)
            b = play_game(twin, FD, strategy, k, ranks=ranks, columns=columns, max_moves=cap, trace=True)
            assert first_disagreement(a, b) is None
            same = 0
            while same < min(len(a.observations), len(b.observations)) and a.observations[same] == b.observations[same]:
                same += 1
            shared.append(same)
            diverged += same < max(len(a.observations), len(b.observations))
    # the pairs do reveal a difference, often after much shared play
    assert diverged >= len(shared) // 2 and sum(n >= 10 for n in shared) >= 20


def test_no_peeking_test_catches_a_peeking_strategy():
    """A strategy that reads the hidden cards (here: through the deck it was not given)
    disagrees with itself on some twin pair, so the property test has power."""
    current = {}

    class Peeker:
        name = "peeker"

        def choose(self, obs, moves, rng):
            return moves[(hash(tuple(current["deck"])) + rng.randrange(len(moves))) % len(moves)]

    caught = 0
    for k, (deck, twin) in enumerate(twin_pairs(10)):
        current["deck"] = deck
        a = play_game(deck, FD, Peeker(), k, max_moves=50, trace=True)
        current["deck"] = twin
        b = play_game(twin, FD, Peeker(), k, max_moves=50, trace=True)
        caught += first_disagreement(a, b) is not None
    assert caught > 0
