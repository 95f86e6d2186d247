"""The players of Grand Duchess, Parisienne and Duchess (solver/play/gd_kernels.py,
parisienne_kernels.py, duchess_kernels.py, on the stock games' referee and strategies in
solver/play/templates.py): what the player sees, the samplers of what it does not, no
peeking, and wins that replay.

* The view hides the round-one stock order and the reserve (Grand Duchess, Parisienne)
  or the first-round stock order (Duchess) and nothing else; the moves the kernels offer
  on the view are the truth's; the view's key is the truth's view key.
* The samplers: Grand Duchess against exact enumeration of every deck of a one-rank
  game; Parisienne's law of the stock (the later copy of each ace and king stays)
  against every arrangement of small decks through the game's own split, and its
  sampler against that law; Duchess, every order of a small stock equally often.
* No peeking: twin decks that differ only in cards the player has not seen get the same
  moves from every strategy (same random stream) until what the player sees differs.
* Every win replays under the independent checker.
"""

import random
import sys
from collections import Counter
from fractions import Fraction
from itertools import combinations, permutations
from math import prod
from pathlib import Path

import numpy as np
import pytest

from solver.cards import full_pack
from solver.checker import replay
from solver.deals import seeded_deck
from solver.games import duchess as du
from solver.games import grand_duchess as gd
from solver.games import parisienne as pa
from solver.play import duchess_kernels as DK
from solver.play import gd_kernels as GK
from solver.play import parisienne_kernels as PK
from solver.play import stock_play
from solver.play.players import GAME_STRATEGIES, parse_options, play_deal

sys.path.insert(0, str(Path(__file__).parent))
from test_play_bakers_dozen import chi_square, wilson_hilferty  # noqa: E402

GAMES = {"grand-duchess": (gd, GK, 2), "parisienne": (pa, PK, 2), "duchess": (du, DK, 1)}
STRATEGIES = GAME_STRATEGIES["grand-duchess"]
CHEAP = {"random": ["max_moves=300"], "eager": [], "greedy": [], "rollout": ["samples=2", "playout_cap=200"],
         "pimc": ["samples=2", "budget=60", "full_budget=20000"],
         "ismcts": ["iterations=8", "playout_cap=200"], "scout": ["budget=60", "full_budget=20000"]}


def test_every_strategy_has_cheap_test_options():
    assert set(CHEAP) == set(STRATEGIES)
    for game in GAMES:
        assert GAME_STRATEGIES[game] == STRATEGIES


def kernel_moves(game, st):
    out = np.zeros(game.MAX_MOVES, dtype=np.int64)
    return sorted(int(m) for m in out[:game.gen_moves(st, out, 0)])


def walk_states(name, seed, steps):
    """States along a random walk of the kernels (the truth), dealing now and then."""
    game, _, packs = GAMES[name]
    rng = random.Random(seed)
    st = game.initial_state(seeded_deck(seed, packs), {})
    for _ in range(steps):
        yield st
        moves = kernel_moves(game, st)
        if not moves:
            return
        game.apply_move(st, rng.choice(moves))


def hidden_cards(name, st):
    """The cards the player has not seen, read from the truth, as a multiset."""
    if name == "duchess":
        return Counter(st[du.TAL0 + st[du.TK]:du.TAL0 + st[du.TN]].tolist()) if st[du.ROUND] == 0 else Counter()
    if st[gd.ROUND] or st[gd.SP] == st[gd.SN]:
        return Counter()
    return Counter(st[gd.K0 + st[gd.SP]:gd.K0 + st[gd.SN]].tolist() + st[gd.R0:gd.R0 + st[gd.NRES]].tolist())


@pytest.mark.parametrize("name", GAMES)
def test_the_view_hides_the_unseen_cards_only(name):
    game, player, _ = GAMES[name]
    ost = np.zeros(game.STATE_LEN, dtype=np.int64)
    scratch = np.zeros(game.STATE_LEN, dtype=np.int64)
    checked = hid = 0
    for seed in range(1, 6):
        for st in walk_states(name, seed, 160):
            player.observe(st, ost)
            truth, view = game.checker_view(st), game.checker_view(ost)
            unseen = hidden_cards(name, st)
            if name == "duchess":
                assert view["columns"] == truth["columns"] and view["fans"] == truth["fans"]
                assert view["waste"] == truth["waste"] and view["found"] == truth["found"]
                assert set(view["stock"]) <= ({DK.HIDC} if unseen else set(truth["stock"]))
            else:
                assert view["tableau"] == truth["tableau"] and view["up"] == truth["up"]
                if unseen:
                    assert set(view["stock"]) == {GK.HID} or not view["stock"]
                    assert (ost[gd.R0:gd.R0 + st[gd.NRES]] == GK.HID).all()
                else:
                    assert view == truth
            # the moves read seen cards only: the view's, made true, are the truth's
            assert sorted(int(player.true_move(st, m)) for m in kernel_moves(game, ost)) == kernel_moves(game, st)
            assert player.view_key(ost) == player.view_key(st)
            n = player.unseen_cards(ost, scratch)
            assert Counter(scratch[:n].tolist()) == unseen
            assert bool(player.hidden(ost)) == bool(unseen)
            checked += 1
            hid += bool(unseen)
    assert checked > 300 and hid > 100


@pytest.mark.parametrize("name", GAMES)
def test_moves_on_a_view_keep_its_key_the_truths(name):
    """A move a strategy tries on its view (any but a deal) leaves the view's key equal to
    the truth's after the same move: the keys the visited tables hold mean the same."""
    game, player, _ = GAMES[name]
    ost = np.zeros(game.STATE_LEN, dtype=np.int64)
    tried = 0
    for seed in range(1, 4):
        for st in walk_states(name, seed, 120):
            player.observe(st, ost)
            for m in kernel_moves(game, ost):
                if player.opaque(ost, m):
                    continue
                t = st.copy()
                game.apply_move(t, int(player.true_move(st, m)))
                game.apply_move(ost, m)
                assert player.view_key(ost) == player.view_key(t)
                game.undo_move(ost, m)
                tried += 1
    assert tried > 200


def _all_decks(cards):
    """Every distinct order of a multiset, each once (a uniform deck makes them equally likely)."""
    return set(permutations(cards))


def test_grand_duchess_sampler_against_every_deck_of_a_one_rank_game():
    """One rank, two packs: 8 cards, 2,520 distinct decks.  After the first deal the
    player sees t1..t4; the two reserve cards and the two left in the stock are hidden.
    Every deck giving the same view is equally likely: the sampled worlds must come up
    in those proportions."""
    decks = _all_decks(full_pack(2, 1))
    assert len(decks) == 2520
    by_view = {}
    ost = np.zeros(gd.STATE_LEN, dtype=np.int64)
    for deck in decks:
        st = gd.initial_state(list(deck), {}, ranks=1)
        GK.observe(st, ost)
        hidden = (tuple(st[gd.R0:gd.R0 + 2].tolist()), tuple(st[gd.K0 + 6:gd.K0 + 8].tolist()))
        by_view.setdefault(ost.tobytes(), Counter())[hidden] += 1
    view_bytes, worlds = max(by_view.items(), key=lambda kv: len(kv[1]))
    assert len(worlds) >= 6
    view = np.frombuffer(view_bytes, dtype=np.int64).copy()
    world = np.zeros_like(view)
    scratch = np.zeros_like(view)
    rng = np.array([2024], dtype=np.uint64)
    draws = 300 * len(worlds)
    freq = Counter()
    for _ in range(draws):
        GK.sample_world(view, rng, world, scratch)
        freq[(tuple(world[gd.R0:gd.R0 + 2].tolist()), tuple(world[gd.K0 + 6:gd.K0 + 8].tolist()))] += 1
        assert world[gd.HASH1] == _rehashed(gd, world)[gd.HASH1]
    assert chi_square(freq, worlds, draws) < wilson_hilferty(len(worlds) - 1)


def _rehashed(game, st):
    t = st.copy()
    game.rehash(t)
    return t


def _stock_law(cards, ranks):
    """The exact law of Parisienne's stock over every arrangement of ``cards``."""
    law = Counter()
    for deck in _all_decks(cards):
        law[tuple(pa.split_deck(list(deck), ranks)[1])] += 1
    return law


def _product_weight(stock, ranks):
    """prod over the aces and kings left in the stock, j-th by position p (0-based): p + j."""
    places = [p for p, c in enumerate(stock) if PK.is_special(c, ranks)]
    return prod(p + j for j, p in enumerate(places, start=1))


@pytest.mark.parametrize("cards", [
    [0, 0, 2, 2, 1, 1],  # ranks 3: two aces, two "kings" (rank 3), two twos of spades
    [0, 0, 2, 2, 1, 14, 14],  # and a suit whose twos are not special
    [0, 0, 13, 13, 1, 1, 14],  # two suits' aces
])
def test_parisienne_stock_law_is_the_product_of_places(cards):
    """Every arrangement of a small deck through the game's own split: the number of
    decks giving each stock is exactly prod (p(j) + j) (parisienne_kernels' docstring)."""
    law = _stock_law(cards, 3)
    assert len(law) > 1 and len(set(law.values())) > 1  # the law is not uniform
    for stock, count in law.items():
        assert count == _product_weight(stock, 3), stock
    total = sum(law.values())
    assert sum(Fraction(_product_weight(s, 3), total) for s in law) == 1


def _parisienne_view(ranks, deals):
    for seed in range(1, 100):
        st = pa.initial_state(seeded_deck(seed, 2, ranks=ranks), {}, ranks=ranks)
        for _ in range(deals):
            moves = [m for m in kernel_moves(pa, st) if m & 3 == gd.KIND_DEAL]
            pa.apply_move(st, moves[0])
        if PK.hidden(st):
            ost = np.zeros(pa.STATE_LEN, dtype=np.int64)
            PK.observe(st, ost)
            return st, ost
    raise AssertionError("no such deal")


def test_parisienne_sampler_draws_the_places_of_aces_and_kings_by_the_law():
    """A three-rank Parisienne view after two deals: 8 hidden positions.  The places the
    sampler gives the unseen aces and kings follow the product law (every set of places
    enumerated), which aces and kings go where is uniform, and the rest is uniform."""
    st, ost = _parisienne_view(3, 1)
    sn = int(ost[gd.SN])
    hidden_pos = [p for p in range(sn) if GK.hidden_position(ost, p)]
    seen_special = [p for p in range(sn) if p not in hidden_pos and PK.is_special(int(ost[gd.K0 + p]), 3)]
    scratch = np.zeros(pa.STATE_LEN, dtype=np.int64)
    n = PK.unseen_cards(ost, scratch)
    unseen = scratch[:n].tolist()
    m = sum(PK.is_special(c, 3) for c in unseen)
    assert 0 < m < len(hidden_pos)
    law = Counter()
    for places in combinations(hidden_pos, m):
        law[places] = prod(p + j for j, p in enumerate(sorted(seen_special + list(places)), start=1))
    world = np.zeros_like(ost)
    rng = np.array([77], dtype=np.uint64)
    draws = 200 * len(law)
    freq, first = Counter(), Counter()
    for _ in range(draws):
        PK.sample_world(ost, rng, world, scratch)
        stock = world[gd.K0:gd.K0 + sn].tolist()
        assert Counter(stock[p] for p in hidden_pos) == Counter(unseen)
        assert all(world[gd.R0 + i] == stock[6 * (i // 2) + 4 + i % 2] for i in range(int(world[gd.NRES])))
        places = tuple(p for p in hidden_pos if PK.is_special(stock[p], 3))
        freq[places] += 1
        first[stock[places[0]]] += 1
    assert chi_square(freq, law, draws) < wilson_hilferty(len(law) - 1)
    specials = Counter({c: 1 for c in unseen if PK.is_special(c, 3)})
    assert chi_square(first, specials, draws) < wilson_hilferty(len(specials) - 1)


def test_duchess_sampler_draws_every_order_of_the_stock_equally_often():
    """Five ranks: 20 cards, 16 in the layout, a stock of 4: every deck with the same
    layout is equally likely, so each of the 24 orders is."""
    deck = [int(c) for c in seeded_deck(3, 1, ranks=5)]
    st = du.initial_state(deck, {}, ranks=5)
    ost = np.zeros(du.STATE_LEN, dtype=np.int64)
    DK.observe(st, ost)
    worlds = Counter(_all_decks(deck[16:]))
    world = np.zeros_like(ost)
    scratch = np.zeros_like(ost)
    rng = np.array([5], dtype=np.uint64)
    draws = 200 * len(worlds)
    freq = Counter()
    for _ in range(draws):
        DK.sample_world(ost, rng, world, scratch)
        freq[tuple(world[du.TAL0:du.TAL0 + 4].tolist())] += 1
    assert chi_square(freq, worlds, draws) < wilson_hilferty(len(worlds) - 1)
    assert world[du.HASH1] == _rehashed(du, world)[du.HASH1]


def twin_decks(name, seed):
    """A seeded deck and a twin with two cards the player cannot see at the start
    swapped: Grand Duchess and Parisienne a reserve card (round one's first deal) and a
    card deep in the stock, Duchess two cards deep in the stock."""
    game, _, packs = GAMES[name]
    deck = [int(c) for c in seeded_deck(seed, packs)]
    twin = deck.copy()
    if name == "duchess":
        i, j = 30, 45  # stock positions 14 and 29
    elif name == "grand-duchess":
        i, j = 5, 80
    else:  # Parisienne: find the deck positions of stock positions 5 and 80
        keep = [k for k in range(len(deck)) if k not in _first_copies(deck)]
        plain = [k for k in keep[80:] if deck[k] % 13 not in (0, 12) and deck[k] != deck[keep[5]]]
        i, j = keep[5], plain[0]  # an ace or king moved up could take its first copy's part
    twin[i], twin[j] = twin[j], twin[i]
    return deck, twin


def _first_copies(deck):
    seen, out = set(), set()
    for k, c in enumerate(deck):
        if c % 13 in (0, 12) and c not in seen:
            seen.add(c)
            out.add(k)
    return out


def _views(name, deck, moves):
    game, player, _ = GAMES[name]
    st = game.initial_state(deck, {})
    ost = np.zeros(game.STATE_LEN, dtype=np.int64)
    out = []
    for m in moves:
        player.observe(st, ost)
        out.append(ost.tobytes())
        game.apply_move(st, m)
    return out


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("strategy", STRATEGIES)
def test_no_peeking(name, strategy):
    """Same moves until the player's view differs (the whole view array: cards seen,
    memory and keys)."""
    options = parse_options(strategy, CHEAP[strategy])
    pairs = compared = differ = 0
    for seed in range(1, 9):
        deck, twin = twin_decks(name, seed)
        if deck == twin:
            continue
        a = stock_play.play_fast(name, deck, {}, strategy, options, 99)[1]
        b = stock_play.play_fast(name, twin, {}, strategy, options, 99)[1]
        va, vb = _views(name, deck, a), _views(name, twin, b)
        n = 0
        while n < min(len(a), len(b)) and va[n] == vb[n]:
            n += 1
        assert a[:n] == b[:n], (seed, n)
        pairs += 1
        compared += n
        differ += a != b
    assert pairs >= 6 and compared >= 5 * pairs
    assert differ > 0  # the games do part once the views do: the comparison is not empty


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("strategy", STRATEGIES)
def test_wins_replay_and_games_end(name, strategy):
    _, _, packs = GAMES[name]
    options = parse_options(strategy, CHEAP[strategy])
    wins = 0
    for seed in range(1, 6):
        deck = seeded_deck(seed, packs)
        r = play_deal(name, deck, {}, strategy, options, seed, trace=seed == 1)
        verdict = replay(name, {}, deck, r.moves)
        assert verdict.legal and verdict.won == r.won, (seed, verdict)
        assert r.stopped == (not r.won and len(r.moves) >= options["max_moves"])
        if seed == 1:
            assert len(r.observations) == len(r.moves) and r.observations[0].lines()
        wins += r.won
    if strategy == "pimc" and name != "duchess":
        assert wins >= 3  # PIMC wins most Grand Duchess and Parisienne deals


def test_players_on_reduced_deals_and_every_variant():
    for name, (game, _, packs) in GAMES.items():
        variants = [{"redeals": k} for k in range(4)] if name != "duchess" else [{"redeals": 0}, {"moves": "whole"}]
        ranks = 5 if name == "duchess" else 4
        for variant in variants:
            for strategy in STRATEGIES:
                options = parse_options(strategy, CHEAP[strategy])
                for seed in (1, 2):
                    deck = seeded_deck(seed, packs, ranks=ranks)
                    r = play_deal(name, deck, variant, strategy, options, seed, ranks=ranks)
                    assert replay(name, variant, deck, r.moves, ranks=ranks).won == r.won


def test_the_hidden_information_page_sets_each_games_best_beside_its_casual_player(tmp_path):
    from solver.batch import run_play
    from solver.batch.hidden_report import hidden_table, write_hidden_report

    assert write_hidden_report(tmp_path) is None  # nothing run yet: nothing written
    for strategy, words in (("eager", []), ("rollout", CHEAP["rollout"])):
        run_play("grand-duchess", [], strategy, parse_options(strategy, words), 1, 6, 1, tmp_path, progress=False)
    md = write_hidden_report(tmp_path, "test")
    table = hidden_table(tmp_path)
    assert list(table["game"]) == ["grand-duchess"] and table["casual"][0] == "eager"
    assert table["best"][0].split()[0] in ("eager", "rollout") and table["best_deals"][0] == 6
    assert "| Grand Duchess | `standard` |" in md.read_text() and (tmp_path / "hidden-information.png").exists()


def test_the_duchess_ceiling_bounds_every_strategy_and_is_bounded_by_the_thoughtful_value():
    """Reduced Duchess (5 ranks: a stock of 4, 24 worlds a deal): no strategy's exact value
    exceeds the optimum, the optimum does not exceed the thoughtful value, and the
    values are not all equal (random loses some worlds), so the comparison has teeth."""
    from solver.play import stock_exact as E

    below = 0
    for seed in (1, 2, 3):
        deck = [int(c) for c in seeded_deck(seed, 1, ranks=5)]
        for variant in ({"redeals": 0}, {}):
            opt, views = E.optimal_value(deck, variant, 5)
            assert views > 0 and opt <= E.thoughtful_value(deck, variant, 5)
            for strategy in STRATEGIES:
                value = E.strategy_value(deck, variant, 5, strategy, parse_options(strategy, CHEAP[strategy]), seed)
                assert value <= opt, (seed, variant, strategy)
                below += value < opt
    assert below > 0
