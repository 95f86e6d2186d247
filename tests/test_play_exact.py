"""The exact ceiling (solver/play/exact.py): the optimal hidden-information win
probability of reduced face-down Baker's Dozen deals, the exact values of strategies
and of the thoughtful player, and the posterior they use.

What is checked: the key's mechanics against the referee; the reveal probabilities and
the weighted layouts against the exact enumeration of decks of
tests/test_play_bakers_dozen.py; the optimum against a hand-worked deal, against an
independent exhaustive search with nothing hidden, and against an independent value
iteration over raw observations (no Tarjan, no canonical keys, no safe moves);
thoughtful >= optimal >= every strategy's exact value; and a peeking player beating
the optimum, so that last check has power."""

from __future__ import annotations

import random
import sys
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

from solver.cards import card_str, parse_card, rank_of, suit_of
from solver.checker import IllegalMove
from solver.checker.bakers_dozen import BakersDozen, deal_columns
from solver.deals import seeded_deck
from solver.play import HIDDEN, FaceDownGame, Observation, deck_for_layout, legal_moves
from solver.play import exact
from solver.play.players import GAME_STRATEGIES, parse_options
from solver.play.strategies import play_game

BD_STRATEGIES = GAME_STRATEGIES["bakers-dozen"]  # the strategies Baker's Dozen has

sys.path.insert(0, str(Path(__file__).parent))
from test_play_bakers_dozen import case_worlds, exact_worlds, find_position, random_walk  # noqa: E402

NO_KING = {"face_down": True, "kings_to_bottom": False}


def deal_obs(seed, ranks, columns, variant):
    return exact.initial_observation(list(seeded_deck(seed, ranks=ranks)), variant, ranks=ranks, columns=columns)


# --------------------------------------------------------------------------- an independent perfect-information search


def checker_winnable(state: BakersDozen) -> bool:
    """Depth-first search over checker states (every candidate move tried on a copy; the
    checker decides legality), to the last reachable state: whether a won one is."""
    def key(g):
        return tuple(map(tuple, g.columns)), tuple(g.foundation)

    seen = {key(state)}
    todo = [state]
    n = len(state.columns)
    while todo:
        g = todo.pop()
        if g.won():
            return True
        for s, col in enumerate(g.columns):
            if not col:
                continue
            for dst in ["F"] + [f"c{d + 1}" for d in range(n) if d != s]:
                h = g.copy()
                try:
                    h.apply(f"c{s + 1} {dst} {card_str(col[-1])}")
                except IllegalMove:
                    continue
                k = key(h)
                if k not in seen:
                    seen.add(k)
                    todo.append(h)
    return False


# --------------------------------------------------------------------------- an independent optimum


def naive_optimum(obs: Observation) -> Fraction:
    """The optimum by value iteration over raw observations: every legal move (no safe
    moves), columns in game order (no canonical key, no Tarjan), each reveal's
    probabilities from the weighted layouts consistent with the observation (not
    exact.reveal).  Chance always adds a seen card, so the layers (observations with the
    same number of hidden cards) are solved from the fewest hidden up, each by iterating
    V <- max over moves from V = 0, which reaches the least fixed point (the optimal
    probability of reaching a win) in finitely many rounds."""
    ranks = obs.ranks
    graph: dict = {obs: None}  # obs -> list of moves, each a list of (probability, child obs)
    todo = [obs]
    while todo:
        o = todo.pop()
        marginals: dict = {}  # (column, slot) -> Counter of card weights, from one enumeration
        options = []
        for m in legal_moves(o):
            src_w, dst_w, card_w = m.split()
            s, c = int(src_w[1:]) - 1, parse_card(card_w)
            cols = [list(col) for col in o.columns]
            dealt = [list(col) for col in o.dealt]
            found = list(o.foundation)
            cols[s].pop()
            if dst_w == "F":
                found[suit_of(c)] += 1
            else:
                cols[int(dst_w[1:]) - 1].append(c)
            outcomes = [(Fraction(1), cols, dealt)]
            if cols[s] and cols[s][-1] == HIDDEN:
                slot = len(cols[s]) - 1
                if not marginals:
                    for layout, w in exact.weighted_deals(o):
                        for cc, h in enumerate(o.hidden_counts()):
                            if h:
                                marginals.setdefault((cc, h - 1), Counter())[layout[cc][h - 1]] += w
                marginal = marginals[(s, slot)]
                total = sum(marginal.values())
                outcomes = []
                for x, w in sorted(marginal.items()):
                    c2 = [list(col) for col in cols]
                    d2 = [list(col) for col in dealt]
                    c2[s][slot] = d2[s][slot] = x
                    outcomes.append((Fraction(w, total), c2, d2))
            branch = []
            for p, c2, d2 in outcomes:
                child = Observation(tuple(map(tuple, c2)), tuple(map(tuple, d2)), tuple(found), o.variant, ranks,
                                    o.n_columns)
                branch.append((p, child))
                if child not in graph:
                    graph[child] = None
                    todo.append(child)
            options.append(branch)
        graph[o] = options
    won = (ranks,) * 4
    value: dict = {}
    layers: dict = {}
    for o in graph:
        layers.setdefault(sum(o.hidden_counts()), []).append(o)
    for hidden in sorted(layers):
        # each state's own value (won, or its best revealing move: children solved
        # already), then the largest own value reachable, by rounds until nothing changes
        same = {}
        for o in layers[hidden]:
            own = Fraction(int(o.foundation == won))
            same[o] = []
            for branch in graph[o]:
                if len(branch) == 1 and sum(branch[0][1].hidden_counts()) == hidden:
                    same[o].append(branch[0][1])
                else:
                    own = max(own, sum(p * value[ch] for p, ch in branch))
            value[o] = own
        changed = True
        while changed:
            changed = False
            for o, children in same.items():
                for ch in children:
                    if value[ch] > value[o]:
                        value[o] = value[ch]
                        changed = True
    return value[obs]


# --------------------------------------------------------------------------- the key's mechanics


@pytest.mark.parametrize("variant", [{"face_down": True}, NO_KING, {"face_down": True, "empty": "any"},
                                     {"face_down": True, "empty": "king"}, {"face_down": False}])
def test_key_mechanics_agree_with_the_referee(variant):
    """On the key (columns in game order), the moves are legal_moves', a move turns up a
    card exactly when the referee does, and the key after it (the true card turned up)
    is the referee's; the canonical key is the same for the suit-renamed game."""
    checked = 0
    for seed in range(12):
        ranks, columns = 3 + seed % 2, 3 + seed % 4
        deck = seeded_deck(seed, ranks=ranks)
        g = FaceDownGame(deck, variant, ranks=ranks, columns=columns)
        rng = random.Random(seed)
        for _ in range(30):
            obs = g.observe()
            cols, found = exact.raw_key(obs)
            moves = exact.key_moves(cols, found, ranks, g.variant["empty"])
            assert [exact.move_text(cols, m) for m in moves] == legal_moves(obs)
            for m in moves:
                h = FaceDownGame(deck, variant, ranks=ranks, columns=columns)
                for done in g.moves_made + [exact.move_text(cols, m)]:
                    h.apply(done)
                new, f2 = exact.key_apply(cols, found, m)
                after = h.observe()
                assert exact.reveals(cols, m[0]) == (after.hidden_counts() != obs.hidden_counts())
                if exact.reveals(cols, m[0]):
                    new[m[0]] = exact.turn_up(new[m[0]], after.columns[m[0]][-1])
                assert exact.canonical(new, f2) == exact.state_key(after)
                checked += 1
            if not moves:
                break
            g.apply(rng.choice(legal_moves(obs)))
    assert checked > 100


def test_canonical_key_ignores_suit_names_and_column_order():
    obs = deal_obs(5, 3, 4, {"face_down": True})
    cols, found = exact.raw_key(obs)
    swap = {0: 2, 1: 0, 2: 3, 3: 1}
    renamed = [bytes(swap[x // 13] * 13 + x % 13 if x < 52 else x for x in col) for col in reversed(cols)]
    f2 = [0] * 4
    for s, f in enumerate(found):
        f2[swap[s]] = f
    assert exact.canonical(renamed, f2) == exact.canonical(cols, found)


# --------------------------------------------------------------------------- the posterior


POSTERIOR_CASES = ["deal-2x2", "deal-2x2-no-king-rule", "deal-3-columns-uneven", "moves-empty-column",
                   "moves-king-revealed", "moves-no-king-rule"]


@pytest.mark.parametrize("name", POSTERIOR_CASES)
def test_posterior_is_the_exact_enumeration_of_decks(name):
    """weighted_worlds' weights, normalised, are exact_worlds' deck counts, normalised;
    and each column's reveal distribution is the marginal of its top hidden card."""
    g, worlds = case_worlds(name)
    obs = g.observe()
    total = sum(worlds.values())
    mine = Counter()
    for layout, w in exact.weighted_worlds(obs):
        mine[tuple(map(tuple, layout))] += w
    mine_total = sum(mine.values())
    assert {k: Fraction(v, mine_total) for k, v in mine.items()} == {k: Fraction(v, total) for k, v in worlds.items()}
    cols, found = exact.raw_key(obs)
    tested = 0
    for c, h in enumerate(obs.hidden_counts()):
        if not h:
            continue
        marginal = Counter()
        for world, k in worlds.items():
            marginal[world[c][h - 1]] += k
        want = {x: Fraction(k, total) for x, k in marginal.items()}
        got = dict(exact.reveal(cols, found, c, obs.ranks, obs.rule("kings_to_bottom")))
        assert sum(got.values()) == 1 and got == want
        tested += 1
    assert tested


def test_reveal_after_a_king_into_a_space():
    """With empty=any a king may sit on a column that is not its own; the reveal
    distribution still matches the enumeration of decks."""
    g = find_position({"face_down": True, "empty": "any"}, 3, 3,
                      lambda g: any(m.split()[1] != "F" and rank_of(parse_card(m.split()[2])) == 3
                                    for m in g.moves_made) and sum(g.observe().hidden_counts()) >= 2)
    worlds = exact_worlds(g)
    obs, total = g.observe(), sum(worlds.values())
    cols, found = exact.raw_key(obs)
    for c, h in enumerate(obs.hidden_counts()):
        if h:
            marginal = Counter()
            for world, k in worlds.items():
                marginal[world[c][h - 1]] += k
            assert dict(exact.reveal(cols, found, c, 3, True)) == {x: Fraction(k, total) for x, k in marginal.items()}


def test_king_rule_weights_by_hand():
    """Ranks A-2 (the 2s are the kings), 2 columns of 4, tops AC and AD.  Hidden: AH, AS
    and the four 2s; each column's hidden part is x kings under 3 - x aces, x1 + x2 = 4,
    so x is (1, 3), (2, 2) or (3, 1), each with 4! 2! layouts of weight C(4, x1) C(4, x2):
    16, 36, 16.  The top hidden card of c1 is a king only when x1 = 3: 16 / 68 = 4/17
    (a uniform posterior would say 1/3).  Every case is won (aces home, then the 2s)."""
    layout = [[parse_card(c) for c in "2C 2D AH AC".split()], [parse_card(c) for c in "2H 2S AS AD".split()]]
    deck = deck_for_layout(layout)
    variant = {"face_down": True}
    assert deal_columns(deck, variant, ranks=2, columns=2) == layout
    obs = exact.initial_observation(deck, variant, ranks=2, columns=2)
    cols, found = exact.raw_key(obs)
    dist = dict(exact.reveal(cols, found, 0, 2, True))
    assert sum(p for c, p in dist.items() if rank_of(c) == 2) == Fraction(4, 17)
    assert dist[parse_card("AH")] == dist[parse_card("AS")] == Fraction(13, 34)
    assert exact.optimal_value(obs) == exact.thoughtful_value(obs) == 1


# --------------------------------------------------------------------------- the optimum


def test_hand_worked_chain_deal():
    """Ranks A-2, 4 columns of 2, no king rule, nothing may fill a space.  Face up: AC,
    2D, 2H, 2S; face down, one under each: AD, AH, AS, 2C, every arrangement equally
    likely.  A 2 moves only home (nothing is higher), so the game is forced: AC home
    turns up the card under it; if it is 2C that goes home and nothing else can move
    (the other aces are under their own 2s); if it is an ace, that ace goes home, then
    its 2, turning up the next card, and so on.  It is won exactly when 2C turns up
    last: 3/4 * 2/3 * 1/2 = 1/4.  No choice, so the thoughtful value is 1/4 too, and
    every strategy's value is 1/4."""
    tops = [parse_card(c) for c in "AC 2D 2H 2S".split()]
    bottoms = [parse_card(c) for c in "AD AH AS 2C".split()]
    layout = [[b, t] for b, t in zip(bottoms, tops)]
    deck = deck_for_layout(layout)
    variant = {"face_down": True, "kings_to_bottom": False}
    obs = exact.initial_observation(deck, variant, ranks=2, columns=4)
    assert obs.columns == tuple((HIDDEN, t) for t in tops)
    assert exact.optimal_value(obs) == exact.thoughtful_value(obs) == Fraction(1, 4)
    assert naive_optimum(obs) == Fraction(1, 4)
    for name in BD_STRATEGIES:
        assert exact.strategy_value(deck, name, None, 1, variant=variant, ranks=2, columns=4) == Fraction(1, 4)


@pytest.mark.parametrize("empty", ["none", "any", "king"])
def test_nothing_hidden_gives_the_perfect_information_answer(empty):
    """Face up, the optimum is 1 on a winnable deal and 0 on a lost one, as an
    independent breadth-first search over checker states says; so is the thoughtful
    value and exact.perfect_win."""
    answers = Counter()
    for seed in range(1, 31):
        ranks, columns = (3, 3 + seed % 3) if seed % 2 else (2, 2 + seed % 3)
        variant = {"face_down": False, "kings_to_bottom": seed % 3 != 0, "empty": empty}
        deck = list(seeded_deck(seed, ranks=ranks))
        obs = exact.initial_observation(deck, variant, ranks=ranks, columns=columns)
        truth = checker_winnable(BakersDozen(deck, variant, ranks=ranks, columns=columns))
        assert exact.optimal_value(obs) == exact.thoughtful_value(obs) == int(truth)
        assert exact.perfect_win(deal_columns(deck, variant, ranks=ranks, columns=columns), ranks=ranks,
                                 empty=empty) == truth
        answers[truth] += 1
    assert answers[True] and answers[False]


VALUE_ITERATION_CASES = [  # (ranks, columns, variant, seeds), each a second or two
    (2, 3, NO_KING, (1, 2, 3)),
    (2, 2, {**NO_KING, "empty": "king"}, (1, 3)),
    (2, 4, NO_KING, (1, 2, 3, 4)),
    (2, 3, {"face_down": True}, (1, 2)),
    (2, 2, {"face_down": True, "empty": "any"}, (1,)),
]


@pytest.mark.parametrize("ranks,columns,variant,seeds", VALUE_ITERATION_CASES)
def test_optimum_equals_an_independent_value_iteration(ranks, columns, variant, seeds):
    for seed in seeds:
        obs = deal_obs(seed, ranks, columns, variant)
        assert exact.optimal_value(obs) == naive_optimum(obs), seed


@pytest.mark.slow
@pytest.mark.parametrize("ranks,columns,variant,seeds", [
    (2, 3, {**NO_KING, "empty": "any"}, range(1, 7)),  # seed 3: 3/4, below the thoughtful 4/5
    (2, 2, {**NO_KING, "empty": "king"}, range(1, 11)),
    (2, 3, {"face_down": True}, range(1, 11)),
])
def test_optimum_equals_an_independent_value_iteration_on_more_deals(ranks, columns, variant, seeds):
    test_optimum_equals_an_independent_value_iteration(ranks, columns, variant, seeds)


def test_optimum_after_moves_equals_the_value_iteration():
    """From observations part way through a game, not only at the deal."""
    for seed in range(6):
        variant = {**NO_KING, "empty": ("none", "any")[seed % 2]}
        g = random_walk(seeded_deck(seed, ranks=2), variant, 1 + seed % 3, seed, ranks=2, columns=3)
        obs = g.observe()
        assert exact.optimal_value(obs) == naive_optimum(obs)


# --------------------------------------------------------------------------- thoughtful >= optimal >= strategies


def check_order(deals, strategies, options=()):
    """thoughtful >= optimal >= every strategy (with ``options``, key=value words), on
    each (seed, ranks, columns, variant)."""
    gaps = Counter()
    for seed, ranks, columns, variant in deals:
        obs = deal_obs(seed, ranks, columns, variant)
        opt, thought = exact.optimal_value(obs), exact.thoughtful_value(obs)
        assert 0 <= opt <= thought <= 1
        gaps["thoughtful"] += thought > opt
        for name in strategies:
            v = exact.strategy_value(obs, name, parse_options(name, list(options)), seed)
            assert 0 <= v <= opt, (name, seed, ranks, columns, variant, v, opt)
            gaps[name] += v < opt
    return gaps


def test_no_strategy_beats_the_optimum():
    """Every strategy, on small deals (a short move cap keeps random's to-and-fro short;
    any cap gives a valid policy)."""
    deals = [(seed, 2, columns, {"face_down": True, "kings_to_bottom": king, "empty": empty})
             for seed in range(1, 4) for columns in (3, 4) for king in (True, False) for empty in ("none", "any")]
    deals += [(1, 3, 6, {"face_down": True, "kings_to_bottom": king}) for king in (True, False)]
    gaps = check_order(deals, list(BD_STRATEGIES), ["max_moves=100"])
    assert gaps["thoughtful"] and any(gaps[name] for name in BD_STRATEGIES)


@pytest.mark.slow
def test_no_strategy_beats_the_optimum_on_more_deals():
    """Ranks A-3 in 5 columns (up to 5,040 layouts a deal), the strategies' own options
    but a move cap of 200 (each strategy plays every layout of every deal: four deals
    keep the expensive strategies to minutes)."""
    deals = [(seed, 3, 5, {"face_down": True, "kings_to_bottom": king, "empty": "none"})
             for seed in range(1, 3) for king in (True, False)]
    check_order(deals, list(BD_STRATEGIES), ["max_moves=200"])


def test_a_peeking_player_beats_the_optimum():
    """A player that reads the deck it was not given (and searches with every card
    known) wins every winnable layout: its value is the thoughtful value, above the
    optimum on this deal, so the check above would catch a strategy that peeks."""
    variant = {"face_down": True, "kings_to_bottom": False, "empty": "any"}
    obs = deal_obs(3, 2, 3, variant)
    opt, thought = exact.optimal_value(obs), exact.thoughtful_value(obs)
    assert (opt, thought) == (Fraction(3, 4), Fraction(4, 5))

    class Peeker:
        name = "peeker"

        def __init__(self, deck):
            self.dealt = deal_columns(deck, variant, ranks=2, columns=3)

        def choose(self, o, moves, rng):
            # the true current layout: the hidden cards are the dealt ones
            truth = [[self.dealt[c][i] if x == HIDDEN else x for i, x in enumerate(col)]
                     for c, col in enumerate(o.columns)]
            for m in moves:
                g = BakersDozen.__new__(BakersDozen)
                g.variant, g.ranks = dict(variant, kings_to_bottom=False, empty="any"), 2
                g.columns, g.foundation = [list(col) for col in truth], list(o.foundation)
                g.apply(m)
                if checker_winnable(g):
                    return m
            return moves[0]

    def peek(deck):
        return play_game(deck, variant, Peeker(deck), 0, ranks=2, columns=3, max_moves=100).won

    assert exact.strategy_value(obs, "peeker", player=peek) == thought > opt


def test_strategy_value_needs_the_deal_observation():
    g = random_walk(seeded_deck(1, ranks=3), {"face_down": True}, 2, 1, ranks=3, columns=4)
    with pytest.raises(Exception, match="at the deal"):
        exact.strategy_value(g.observe(), "random")
