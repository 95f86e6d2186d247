"""The numba players (solver/play/bd_*.py) against the plain-Python specification
(solver/play/bakers_dozen.py): the same legal moves, the same observation, the same
exact distribution of the hidden cards; every strategy blind to hidden cards (twin
deals, and the kernels' own contract of reading seen positions only); wins replay."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

from solver.checker import replay
from solver.deals import seeded_deck
from solver.games import bakers_dozen as bd
from solver.play import HIDDEN, FaceDownGame, legal_moves
from solver.play import bd_kernels as K
from solver.play import bd_policies as P
from solver.play.bd_play import work
from solver.play.players import GAME_STRATEGIES, parse_options, play_deal
from test_play_bakers_dozen import (CASES, case_worlds, chi_square, draws_for, first_disagreement, random_walk,
                                    twin_pairs, wilson_hilferty)

BD_STRATEGIES = GAME_STRATEGIES["bakers-dozen"]  # the strategies Baker's Dozen has

FD = {"face_down": True}
# options that keep every strategy quick enough for the fast tier
CHEAP = {"random": [], "greedy": [], "rollout": ["samples=1", "playout_cap=60"],
         "pimc": ["samples=2", "budget=40", "full_budget=2000"],
         "ismcts": ["iterations=8", "playout_cap=60"]}


def test_every_strategy_has_cheap_test_options():
    assert set(CHEAP) == set(BD_STRATEGIES)


def kernel_game(g: FaceDownGame):
    """The kernels' truth for the referee ``g`` after its moves."""
    st, hid, dealt, dealt_h = K.new_game(g._deck, g.variant, g.ranks, g.n_columns)
    for w in g.moves_made:
        m = word_to_move(st, w)
        bd.apply_move(st, m)
        K.update_seen(st, hid, (m >> 6) & 15)
    return st, hid, dealt, dealt_h


def word_to_move(st, word):
    out = np.zeros(bd.MAX_MOVES * 2, dtype=np.int64)
    n = K.legal_moves(st, out)
    texts = {bd.move_text(int(m)): int(m) for m in out[:n]}
    return texts[word]


def walks(count=40):
    for k in range(count):
        variant = dict(FD, kings_to_bottom=k % 3 != 0, empty=("none", "any", "king")[k % 3])
        ranks, columns = ((13, 13), (4, 4), (3, 3), (5, 4))[k % 4]
        deck = list(seeded_deck(k, ranks=ranks))
        g = FaceDownGame(deck, variant, ranks=ranks, columns=columns)
        g._deck = deck
        rng = random.Random(k)
        yield g
        for _ in range(60):
            moves = g.legal_moves()
            if not moves:
                break
            g.apply(rng.choice(moves))
            yield g


def test_legal_moves_and_observation_equal_the_specifications():
    ost = np.zeros(bd.STATE_LEN, dtype=np.int64)
    odealt = np.zeros(13 * bd.CAP, dtype=np.int64)
    out = np.zeros(bd.MAX_MOVES * 2, dtype=np.int64)
    checked = 0
    for g in walks():
        st, hid, dealt, dealt_h = kernel_game(g)
        obs = g.observe()
        K.observe(st, hid, dealt, dealt_h, ost, odealt)
        for c in range(g.n_columns):
            h = int(ost[bd.H0 + c])
            assert tuple(int(x) for x in ost[bd.C0 + c * bd.CAP:bd.C0 + c * bd.CAP + h]) == obs.columns[c]
            assert tuple(int(x) for x in odealt[c * bd.CAP:c * bd.CAP + dealt_h[c]]) == obs.dealt[c]
            assert hid[c] == obs.hidden_counts()[c]
        assert tuple(int(x) for x in ost[bd.F0:bd.F0 + 4]) == obs.foundation
        # nothing of the truth beyond the public slots: keys and scratch are zero
        assert ost[bd.HASH1] == 0 and ost[bd.HASH2] == 0 and not ost[bd.S0:].any()
        n = K.legal_moves(ost, out)
        assert [bd.move_text(int(m)) for m in out[:n]] == legal_moves(obs)
        checked += 1
    assert checked > 500


@pytest.mark.parametrize("name", list(CASES))
def test_kernel_sampler_matches_exact_enumeration(name):
    """The numba sampler's worlds against every consistent deck (the enumeration of
    tests/test_play_bakers_dozen.py), chi-square at p = 0.001."""
    g, worlds = case_worlds(name)
    st, hid, dealt, dealt_h = kernel_from_observation(g)
    ost = np.zeros(bd.STATE_LEN, dtype=np.int64)
    odealt = np.zeros(13 * bd.CAP, dtype=np.int64)
    K.observe(st, hid, dealt, dealt_h, ost, odealt)
    world = np.zeros_like(ost)
    wdealt = np.zeros_like(odealt)
    scratch = np.zeros(bd.STATE_LEN, dtype=np.int64)
    rng = np.array([12345], dtype=np.uint64)
    draws = draws_for(worlds)
    freq = Counter()
    king_rule = 1 if g.variant["kings_to_bottom"] else 0
    for _ in range(draws):
        K.sample_world(ost, hid, odealt, dealt_h, king_rule, rng, world, wdealt, scratch)
        layout = tuple(tuple(int(x) for x in world[bd.C0 + c * bd.CAP:bd.C0 + c * bd.CAP + world[bd.H0 + c]])
                       for c in range(g.n_columns))
        freq[layout] += 1
    assert chi_square(freq, worlds, draws) < wilson_hilferty(len(worlds) - 1)


def kernel_from_observation(g: FaceDownGame):
    """The kernels' truth for referee ``g``: its current columns and dealt columns."""
    truth = g.referee_state()
    st = np.zeros(bd.STATE_LEN, dtype=np.int64)
    st[bd.NCOLS] = g.n_columns
    st[bd.NRANKS] = g.ranks
    st[bd.EMPTY] = bd.EMPTY_RULES[g.variant["empty"]]
    for c, col in enumerate(truth.columns):
        st[bd.H0 + c] = len(col)
        st[bd.C0 + c * bd.CAP:bd.C0 + c * bd.CAP + len(col)] = col
    for s in range(4):
        st[bd.F0 + s] = truth.foundation[s]
    st[bd.LEFT] = sum(len(col) for col in truth.columns)
    hid = np.zeros(13, dtype=np.int64)
    hid[:g.n_columns] = g.observe().hidden_counts()
    dealt = np.full(13 * bd.CAP, HIDDEN, dtype=np.int64)
    dealt_h = np.zeros(13, dtype=np.int64)
    for c, col in enumerate(g._dealt):
        dealt_h[c] = len(col)
        dealt[c * bd.CAP:c * bd.CAP + len(col)] = col
    return st, hid, dealt, dealt_h


def test_kernels_read_only_seen_positions():
    """The contract every player kernel keeps (bd_kernels): given a position with its
    unseen cards filled in, or the same position with them masked, greedy's move, the
    candidates, the view key and score and a sampled world (its cards, foundations and
    keys) are the same (same stream)."""
    w = work()
    checked = 0
    for g in walks(24):
        st, hid, dealt, dealt_h = kernel_game(g)
        if K.hidden_total(st, hid) == 0 or st[bd.LEFT] == 0:
            continue
        ost = np.zeros_like(st)
        odealt = np.zeros_like(dealt)
        K.observe(st, hid, dealt, dealt_h, ost, odealt)
        answers = []
        for pos, dl in ((st.copy(), dealt.copy()), (ost.copy(), odealt.copy())):
            w.gen[:] += 1
            rng = np.array([7], dtype=np.uint64)
            k, safe = P.candidates(pos, hid, rng, w.buf, P.R_TOP, w.keys, w.gens, w.gen, P.T_GAME)
            cands = [int(m) for m in w.buf[P.R_TOP, :k]]
            choice = int(P.greedy_choose(pos, hid, rng, w.buf, w.keys, w.gens, w.gen, P.T_GAME))
            world = np.zeros_like(st)
            wdealt = np.zeros_like(dealt)
            K.sample_world(pos, hid, dl, dealt_h, 1 if g.variant["kings_to_bottom"] else 0, rng, world, wdealt,
                           np.zeros(bd.STATE_LEN, dtype=np.int64))
            answers.append((cands, safe, choice, int(K.view_key(pos, hid)), int(P.view_score(pos, hid)),
                            world[:bd.W0].tolist(), columns_of(world), wdealt.tolist()))
        assert answers[0] == answers[1]
        checked += 1
    assert checked > 200


def columns_of(st):
    return [st[bd.C0 + c * bd.CAP:bd.C0 + c * bd.CAP + st[bd.H0 + c]].tolist() for c in range(st[bd.NCOLS])]


@pytest.mark.parametrize("name", list(BD_STRATEGIES))
def test_no_peeking(name):
    """Deals that agree on everything visible but differ in hidden cards get the same
    decisions (same random stream) until the observations differ: every strategy."""
    options = parse_options(name, CHEAP[name] + ["max_moves=120"])
    shared, diverged = [], 0
    for ranks, columns, count in ((13, 13, 12), (4, 4, 30)):
        for k, (deck, twin) in enumerate(twin_pairs(count, ranks, columns)):
            a = play_deal("bakers-dozen", deck, FD, name, options, k, trace=True, ranks=ranks, columns=columns)
            b = play_deal("bakers-dozen", twin, FD, name, options, k, trace=True, ranks=ranks, columns=columns)
            assert first_disagreement(a, b) is None
            same = 0
            while same < min(len(a.observations), len(b.observations)) and a.observations[same] == b.observations[same]:
                same += 1
            shared.append(same)
            diverged += same < max(len(a.observations), len(b.observations))
    assert diverged >= len(shared) // 3 and sum(n >= 5 for n in shared) >= 8


@pytest.mark.parametrize("name", list(BD_STRATEGIES))
@pytest.mark.parametrize("face_down", [True, False])
def test_wins_replay_and_games_end(name, face_down):
    options = parse_options(name, CHEAP[name])
    variant = {"face_down": face_down}
    wins = 0
    for seed in range(1, 7):
        deck = seeded_deck(seed)
        r = play_deal("bakers-dozen", deck, variant, name, options, seed)
        verdict = replay("bakers-dozen", variant, deck, r.moves)
        assert verdict.won == r.won, (seed, verdict)
        assert r.stopped == (not r.won and len(r.moves) >= options["max_moves"])
        assert 0 <= r.decisions <= len(r.moves) + 1
        wins += r.won
    if name in ("pimc",) and not face_down:
        assert wins >= 5  # with every card seen, PIMC is the solver: it wins nearly every deal


def test_rollout_level_two_runs():
    options = parse_options("rollout", ["level=2", "samples=1", "inner_samples=1", "playout_cap=40", "max_moves=60"])
    r = play_deal("bakers-dozen", seeded_deck(3), FD, "rollout", options, 3)
    assert len(r.moves) > 0
    assert replay("bakers-dozen", FD, seeded_deck(3), r.moves).won == r.won


def test_same_rng_seed_same_game_different_seed_differs():
    options = parse_options("greedy", [])
    a = [play_deal("bakers-dozen", seeded_deck(s), FD, "greedy", options, 5).moves for s in range(1, 6)]
    b = [play_deal("bakers-dozen", seeded_deck(s), FD, "greedy", options, 5).moves for s in range(1, 6)]
    c = [play_deal("bakers-dozen", seeded_deck(s), FD, "greedy", options, 6).moves for s in range(1, 6)]
    assert a == b and a != c


def _kernel_game(deck, strategy, words, seed, extra=None):
    from solver.play.bd_play import params_for

    params = params_for(strategy, parse_options(strategy, words), FD)
    for slot, value in (extra or {}).items():
        params[slot] = value
    st, hid, dealt, dealt_h = K.new_game(deck, FD, 13, 13)
    out, moves = work().run(st, hid, dealt, dealt_h, params, seed)
    return out.tolist(), moves.tolist()


def test_pimc_pruned_solves_make_the_same_choices():
    # PIMC skips the solves that cannot change its choice; it must choose exactly as
    # when every (move, world) pair is solved, move for move, random stream included.
    # A budget this size leaves worlds unsolved, so scores below `samples` occur.
    words = ["samples=3", "budget=60", "full_budget=3000"]
    for seed in range(1, 6):
        deck = seeded_deck(seed)
        assert _kernel_game(deck, "pimc", words, seed) == \
            _kernel_game(deck, "pimc", words, seed, {P.P_NO_PRUNE: 1}), seed


def test_random_is_the_same_with_or_without_the_observation():
    # the referee hands random the legal moves and builds no observation for it; the
    # strategy's own branch in `choose` (given the observation) must pick the same moves
    from solver.play import bd_play

    deck = seeded_deck(4)
    fast = _kernel_game(deck, "random", ["max_moves=200"], 9)
    w = work()
    st, hid, dealt, dealt_h = K.new_game(deck, FD, 13, 13)
    params = bd_play.params_for("random", parse_options("random", ["max_moves=200"]), FD)
    w.rng[0] = np.uint64(9)
    moves = []
    for _ in range(200):
        leg = np.zeros(64, dtype=np.int64)
        if st[bd.LEFT] == 0 or K.legal_moves(st, leg) == 0:
            break
        d = w.dfs
        bd_play.observe(st, hid, dealt, dealt_h, w.buf[P.R_OST], w.buf[P.R_OD])
        m = bd_play.choose(w.buf[P.R_OST], hid.copy(), w.buf[P.R_OD], dealt_h.copy(), params, w.rng, w.buf, w.keys,
                           w.gens, w.gen, w.prof, w.table, w.tgen, d.moves, d.count, d.nxt, d.scores, d.path, d.ctx,
                           w.tree.ints, w.tree.floats)
        bd.apply_move(st, m)
        K.update_seen(st, hid, (m >> 6) & 15)
        moves.append(int(m))
    assert fast[1] == moves
