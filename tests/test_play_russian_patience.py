"""The Russian Patience players (solver/play/rp_kernels.py): what the player sees, the
sampler of what it does not, no peeking, and wins that replay.

* The view hides the stock's order and the redeal seed and nothing else; the moves the
  kernels offer on the view are the moves of the truth (they read seen cards only).
* The sampler: the stock of a sampled world is always the multiset of unseen cards, and
  every distinct order of it comes up equally often (chi-square against the exact
  uniform law: the deck is uniform and everything dealt so far is in sight); each world
  draws its own redeal seed.
* No peeking: twin deals that agree on everything dealt so far but differ in the stock's
  order further down, and in their redeal seeds, get the same moves from every strategy
  (same random stream) until what the player sees differs.
* Every win replays under the independent checker.
"""

import random
import sys
from collections import Counter
from itertools import permutations
from pathlib import Path

import numpy as np
import pytest

from solver.checker import RussianPatience, replay
from solver.deals import seeded_deck
from solver.games import russian_patience as rp
from solver.play import rp_kernels as R
from solver.play.players import GAME_STRATEGIES, parse_options, play_deal

sys.path.insert(0, str(Path(__file__).parent))
from test_play_bakers_dozen import chi_square, wilson_hilferty  # noqa: E402

GAME = "russian-patience"
STRATEGIES = GAME_STRATEGIES[GAME]
CHEAP = {"random": ["max_moves=400"], "greedy": [], "rollout": ["samples=2", "playout_cap=200"],
         "pimc": ["samples=2", "budget=60", "full_budget=5000"], "ismcts": ["iterations=8", "playout_cap=200"]}


def test_every_strategy_has_cheap_test_options():
    assert set(CHEAP) == set(STRATEGIES)


def kernel_moves(st):
    out = np.zeros(rp.MAX_MOVES, dtype=np.int64)
    return sorted(int(m) for m in out[:rp.gen_moves(st, out, 0)])


def walk_states(seed, steps, redeals=2):
    """States along a random walk of the kernels (the truth), redeals rarely."""
    rng = random.Random(seed)
    st = rp.initial_state(seeded_deck(seed, 2), {"redeals": redeals}, redeal_seed=seed)
    for _ in range(steps):
        yield st
        moves = kernel_moves(st)
        if not moves:
            return
        plays = [m for m in moves if m & 3 != rp.REDEAL]
        m = rng.choice(plays) if plays and rng.random() < 0.97 else rng.choice(moves)
        rp.apply_move(st, m)


def test_the_view_hides_the_stock_order_and_the_redeal_seed_only():
    ost = np.zeros(rp.STATE_LEN, dtype=np.int64)
    checked = 0
    for seed in range(1, 6):
        for st in walk_states(seed, 150):
            R.observe(st, ost)
            sp, sn = int(st[rp.SP]), int(st[rp.SN])
            assert (ost[rp.STK0 + sp:rp.STK0 + sn] == -1).all()
            assert ost[rp.RSEED] == 0 and ost[rp.HASH1] == 0 and ost[rp.HASH2] == 0
            assert rp.checker_view(ost)["columns"] == rp.checker_view(st)["columns"]
            assert kernel_moves(ost) == kernel_moves(st)  # the moves read seen cards only
            # the unseen cards are exactly the stock's, as a multiset
            out = np.zeros(104, dtype=np.int64)
            n = R.unseen_cards(ost, out)
            assert Counter(out[:n].tolist()) == Counter(st[rp.STK0 + sp:rp.STK0 + sn].tolist())
            checked += 1
    assert checked > 300


def _small_stock_view(want: int):
    """A view of a full deal whose stock holds ``want`` cards (the last rows dealt)."""
    for seed in range(1, 200):
        st = rp.initial_state(seeded_deck(seed, 2), {"redeals": 0})
        while st[rp.SN] - st[rp.SP] > want:
            deal = [m for m in kernel_moves(st) if m & 3 == rp.DEAL]
            rp.apply_move(st, deal[0])
        if st[rp.SN] - st[rp.SP] == want and len(set(st[rp.STK0 + st[rp.SP]:rp.STK0 + st[rp.SN]].tolist())) >= 4:
            ost = np.zeros(rp.STATE_LEN, dtype=np.int64)
            R.observe(st, ost)
            return st, ost
    raise AssertionError("no such deal")


def test_sampler_draws_every_order_of_the_unseen_cards_equally_often():
    st, ost = _small_stock_view(5)
    sp, sn = int(ost[rp.SP]), int(ost[rp.SN])
    stock = st[rp.STK0 + sp:rp.STK0 + sn].tolist()
    worlds = Counter(set(permutations(stock)))  # each distinct order once: the exact law is uniform
    world = np.zeros(rp.STATE_LEN, dtype=np.int64)
    scratch = np.zeros(rp.STATE_LEN, dtype=np.int64)
    rng = np.array([12345], dtype=np.uint64)
    draws = 40 * len(worlds)
    freq = Counter()
    seeds = set()
    for _ in range(draws):
        R.sample_world(ost, rng, world, scratch)
        freq[tuple(world[rp.STK0 + sp:rp.STK0 + sn].tolist())] += 1
        seeds.add(int(world[rp.RSEED]))
        assert rp.checker_view(world)["columns"] == rp.checker_view(st)["columns"]
    assert chi_square(freq, worlds, draws) < wilson_hilferty(len(worlds) - 1)
    assert len(seeds) == draws  # a fresh redeal seed each time
    other = world.copy()
    rp.rehash(other)
    assert other[rp.HASH1] == world[rp.HASH1]  # the world's keys are computed


def twin_decks(seed: int, rng: random.Random):
    """A seeded deck and a twin that deals the same row one (the same cards consumed by
    its automatic plays) and differs only in the order of the stock's last cards."""
    deck = [int(c) for c in seeded_deck(seed, 2)]
    g = RussianPatience(deck, {"redeals": 0})
    used = len(deck) - len(g.stock)
    tail = deck[used + 48:]  # rows two to five come out alike; the later rows may not
    twin = deck[:used + 48] + rng.sample(tail, len(tail))
    return deck, twin


@pytest.mark.parametrize("name", STRATEGIES)
def test_no_peeking(name):
    """Same moves until the player's view differs.  The twins' redeal seeds differ too:
    what a redeal brings is as hidden as the stock."""
    options = parse_options(name, CHEAP[name])
    rng = random.Random(7)
    pairs = compared = differ = 0
    for seed in range(1, 13):
        deck, twin = twin_decks(seed, rng)
        if deck == twin:
            continue
        a = play_deal(GAME, deck, {}, name, options, 99, trace=True, redeal_seed=seed)
        b = play_deal(GAME, twin, {}, name, options, 99, trace=True, redeal_seed=seed + 1000)
        n = 0
        while n < min(len(a.moves), len(b.moves)) and a.observations[n] == b.observations[n]:
            n += 1
        assert a.moves[:n] == b.moves[:n], (seed, n)
        pairs += 1
        compared += n
        differ += a.moves != b.moves
    assert pairs >= 10 and compared >= 5 * pairs  # five or more moves a pair: rows two to five at least
    assert differ > 0  # the games do part once the views do: the comparison is not empty


@pytest.mark.parametrize("name", STRATEGIES)
def test_wins_replay_and_games_end(name):
    options = parse_options(name, CHEAP[name])
    wins = 0
    for seed in range(1, 7):
        deck = seeded_deck(seed, 2)
        r = play_deal(GAME, deck, {}, name, options, seed, redeal_seed=seed)
        verdict = replay(GAME, {}, deck, r.moves, redeal_seed=seed)
        assert verdict.legal and verdict.won == r.won, (seed, verdict)
        assert r.stopped == (not r.won and len(r.moves) >= options["max_moves"])
        wins += r.won
    if name == "pimc":
        assert wins >= 3  # with a redeal seed of its own per world, PIMC still wins most deals


def test_players_on_reduced_deals_and_without_redeals():
    for name in STRATEGIES:
        options = parse_options(name, CHEAP[name])
        for seed in range(1, 4):
            deck = seeded_deck(seed, 2, ranks=5)
            r = play_deal(GAME, deck, {"redeals": 0}, name, options, seed, ranks=5, columns=6)
            assert replay(GAME, {"redeals": 0}, deck, r.moves, ranks=5, columns=6).won == r.won

