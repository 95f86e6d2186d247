"""The contract every game module keeps (solver/games/interface.py), checked the same
way for every registered, implemented game, in the spirit of OpenSpiel's api test: a
new game is covered by its line in solver.games.REGISTRY.

Along seeded random walks through full deals of every variant (the default, every
value of every key of the game's VARIANTS, and all non-default values at once):

(a) the kernel state, in the checker's terms (``checker_view(st)``), equals the
    checker's (``view()``) after every move;
(b) the incremental keys equal a fresh ``rehash`` after every move;
(c) undo restores the state and its keys (and what the search reads of it) exactly,
    for every move offered and all the way back along the walk;
(d) ``pack``/``unpack`` round-trips, into a state of another position;
(e) every move offered (``move_text``, several lines for a macro) is legal for the
    checker and leads to the same state there;
(f) the kernel's variant defaults are the checker's;
(g) ``gen_moves`` returns at most ``MAX_MOVES`` moves and writes only to its
    ``MAX_MOVES`` slots from ``base`` on;
(h) per game, where its pruning is known exactly (``COMPLETE``): the kernel offers
    every move the checker allows except the ones its pruning may drop, and except
    when it plays a safe move alone.
"""

from __future__ import annotations

import importlib
import random
import sys
import types
from pathlib import Path

import numpy as np
import pytest

from solver.cards import card_str, parse_card
from solver.checker import DEFAULT_VARIANTS, GAMES
from solver.deals import seeded_deck, setup_kwargs
from solver.errors import PatienceError
from solver.games import REGISTRY, get_game
from solver.games.interface import REQUIRED_NAMES
from solver.search import NameClash, specialise
from solver.search import astar as astar_engine
from solver.search import dfs as dfs_engine

sys.path.insert(0, str(Path(__file__).parent))
import oracle_search  # noqa: E402
from cap_oracle import legal_successors as cap_legal  # noqa: E402
from duchess_oracle import legal_successors as duchess_legal  # noqa: E402
from gd_oracle import legal_successors as gd_legal  # noqa: E402
from rp_oracle import legal_successors as rp_legal  # noqa: E402

IMPLEMENTED = [name for name, module in REGISTRY.items() if module]
STEPS = 300  # moves at most per walk (some games let a card shuttle for ever)
# Walks per game and variant: seeds from 1 on, at least SEEDS of them and until the
# walks have made MOVES moves (some variants end within a few), at most MAX_SEEDS.
SEEDS, MOVES, MAX_SEEDS = 3, 200, 20
SLOW = (10, 2000, 200)  # the slow sweep's
SENTINEL = -7


def variants_of(spec: dict) -> list[dict]:
    """The default, one variant per non-default value of each key, and the first
    non-default value of every key at once."""
    out = [{}]
    combined = {}
    for key, (kind, default) in spec.items():
        if kind == "bool":
            values = [True, False]
        elif kind[0] == "int":
            values = list(range(kind[1], kind[2] + 1))
        else:
            values = list(kind)
        others = [v for v in values if v != default]
        out += [{key: v} for v in others]
        combined[key] = others[0]
    if len(spec) > 1:
        out.append(combined)
    return out


def variant_id(variant: dict) -> str:
    return ",".join(f"{k}={v}" for k, v in variant.items()) or "default"


CASES = [(name, variant) for name in IMPLEMENTED for variant in variants_of(get_game(name).VARIANTS)]
CASE_IDS = [f"{name}-{variant_id(variant)}" for name, variant in CASES]


# --- (h) per game: which checker-legal moves the kernel may leave out ------------------------


def bd_candidates(g) -> list[str]:
    """Baker's Dozen: every move text that might be legal (the checker decides)."""
    n = len(g.columns)
    tops = [(i, card_str(col[-1])) for i, col in enumerate(g.columns) if col]
    return [f"c{i + 1} F {name}" for i, name in tops] + [
        f"c{i + 1} c{j + 1} {name}" for i, name in tops for j in range(n) if j != i]


def _first_empty(piles) -> int | None:
    return next((i for i, p in enumerate(piles) if not p), None)


def bd_complete(game, g, variant, moves, texts, legal) -> bool:
    """The safe foundation move is played alone; a lone card never moves onto another
    column while spaces stay empty, nor into a space; one space is tried."""
    if len(moves) == 1 and (moves[0] >> 10) & 15 == game.FND and len(legal) > 1:
        return True
    for text in legal - texts:
        src, dst = (int(w[1:]) - 1 for w in text.split()[:2])
        lone = len(g.columns[src]) == 1
        if g.columns[dst]:
            assert lone and g.variant["empty"] == "none", text
        else:
            assert dst != _first_empty(g.columns) or lone, text
    return False


def gd_complete(game, g, variant, moves, texts, legal) -> bool:
    """Without transfers (a macro replaces them) everything legal is offered, except
    when a safe move is played alone."""
    if variant.get("foundation_transfer"):
        return False
    if len(moves) > 1:
        assert texts == legal
    return len(moves) == 1 and len(legal) > 1


def cap_complete(game, g, variant, moves, texts, legal) -> bool:
    """The last round's safe move is played alone; in the last round only the first
    empty pile is a destination, and never for a pile's only card."""
    if len(moves) == 1 and moves[0] & 3 == game.TO_FOUNDATION and g.redeals_left == 0:
        return True
    for text in legal - texts:
        words = text.split()
        assert g.redeals_left == 0 and len(words) == 3 and words[1].startswith("p"), text
        src, dst = int(words[0][1:]) - 1, int(words[1][1:]) - 1
        assert not g.piles[dst] and (dst != _first_empty(g.piles) or len(g.piles[src]) == 1), text
    return False


def duchess_complete(game, g, variant, moves, texts, legal) -> bool:
    """A safe foundation move is played alone; only the first space is a destination."""
    if len(moves) == 1 and len(legal) > 1 and g.base is not None:
        assert moves[0] & 7 == game.KIND_FOUNDATION
        return True
    for text in legal - texts:
        words = text.split()
        assert len(words) == 3 and words[1].startswith("t"), text
        dst = int(words[1][1:]) - 1
        assert not g.columns[dst] and dst != _first_empty(g.columns), text
    return False


def rp_complete(game, g, variant, moves, texts, legal) -> bool:
    """Nothing is pruned while the stock lasts or a redeal is left; in the last round's
    free play only the first empty column is a destination, and never for a whole
    column."""
    for text in legal - texts:
        words = text.split()
        assert g.redeals_left == 0 and not g.stock and len(words) == 3 and words[1].startswith("c"), text
        src, dst = int(words[0][1:]) - 1, int(words[1][1:]) - 1
        whole = g.columns[src][0] == parse_card(words[2]) and all(
            c != parse_card(words[2]) for c in g.columns[src][1:])
        assert not g.columns[dst] and (dst != _first_empty(g.columns) or whole), text
    return False


# game -> (legal successors of a checker state, the check, whether a walk of this
# variant must meet a safe move played alone)
COMPLETE = {
    "bakers-dozen": (lambda g: oracle_search.legal_successors(g, bd_candidates), bd_complete, lambda v: True),
    "grand-duchess": (gd_legal, gd_complete, lambda v: False),
    "parisienne": (gd_legal, gd_complete, lambda v: False),
    "capricieuse": (cap_legal, cap_complete, lambda v: v.get("redeals", 2) == 0),
    "duchess": (duchess_legal, duchess_complete, lambda v: True),
    "russian-patience": (rp_legal, rp_complete, lambda v: False),
}
# game -> the slots before which undo restores the state array exactly (its counters),
# as "module.NAME" under solver.games
EXACT_PREFIX = {"bakers-dozen": "bakers_dozen.W0", "grand-duchess": "grand_duchess.P0",
                "parisienne": "grand_duchess.P0", "capricieuse": "capricieuse.P0", "duchess": "duchess.W0",
                "russian-patience": "russian_patience.C0"}


def exact_prefix(name: str) -> int:
    if name not in EXACT_PREFIX:
        return 0
    module, attr = EXACT_PREFIX[name].split(".")
    return getattr(importlib.import_module(f"solver.games.{module}"), attr)


# --- the walks ------------------------------------------------------------------------------


def kernel_moves(game, st) -> list[int]:
    """(g) gen_moves from an offset: at most MAX_MOVES, nothing written outside
    out[base:base + MAX_MOVES] (the DFS keeps one such slice per depth)."""
    k = game.MAX_MOVES
    out = np.full(3 * k, SENTINEL, dtype=np.int64)
    n = int(game.gen_moves(st, out, k))
    assert 0 <= n <= k
    assert (out[:k] == SENTINEL).all() and (out[2 * k:] == SENTINEL).all()
    return [int(m) for m in out[k:k + n]]


def keys(game, st) -> tuple[int, int]:
    return int(game.key1(st)), int(game.key2(st))


def fresh_keys(game, st) -> tuple[int, int]:
    other = st.copy()
    game.rehash(other)
    return keys(game, other)


def observed(game, st) -> tuple:
    """What the searches read of a state, besides its view and keys."""
    return kernel_moves(game, st), bool(game.is_won(st)), bool(game.is_dead(st)), int(game.lower_bound(st))


def walk(name: str, variant: dict, seed: int) -> dict:
    game = get_game(name)
    rng = random.Random(seed)
    deck = seeded_deck(seed, game.PACKS)
    setup = setup_kwargs(name, seed)  # a seeded deal's redeal seed is its seed
    st = game.initial_state(deck, variant, **setup)
    st0 = st.copy()
    g = GAMES[name](deck, variant, **setup)
    legal_successors, complete, _ = COMPLETE.get(name, (None, None, None))
    exact = exact_prefix(name)
    row = np.zeros(game.PACK_LEN, dtype=np.int8)
    history = []
    forced = 0
    for _ in range(STEPS):
        view = game.checker_view(st)
        assert view == g.view()  # (a)
        here = keys(game, st)
        assert fresh_keys(game, st) == here  # (b)
        seen = observed(game, st)
        moves = seen[0]
        score = int(game.score(st))
        for m in moves:
            # (e) legal for the checker, with the same result; (b) and (c) for this move
            h = g.copy()
            for line in game.move_text(m).split("\n"):
                h.apply(line)
            before = st.copy()
            game.apply_move(st, m)
            assert game.checker_view(st) == h.view(), game.move_text(m)
            assert fresh_keys(game, st) == keys(game, st), game.move_text(m)
            game.undo_move(st, m)
            assert game.checker_view(st) == view and keys(game, st) == here, game.move_text(m)
            assert np.array_equal(st[:exact], before[:exact]), game.move_text(m)
        assert observed(game, st) == seen and int(game.score(st)) == score
        # (d) into the state of another position (the start), as A* unpacks
        game.pack(st, row)
        other = st0.copy()
        game.unpack(row, other)
        assert game.checker_view(other) == view and keys(game, other) == here
        assert observed(game, other) == seen
        if complete is not None:  # (h)
            texts = {game.move_text(m) for m in moves if "\n" not in game.move_text(m)}  # macros aside
            legal = {text for text, _ in legal_successors(g)}
            assert texts <= legal
            forced += complete(game, g, variant, moves, texts, legal)
        if not moves:
            break
        # favour anything but a redeal, so that walks get far in every round
        plays = [m for m in moves if game.move_text(m) != "redeal"]
        m = rng.choice(plays) if plays and rng.random() < 0.95 else rng.choice(moves)
        history.append((m, st.copy(), seen))
        game.apply_move(st, m)
        for line in game.move_text(m).split("\n"):
            g.apply(line)
    # (c) undo all the way back
    for m, before, seen in reversed(history):
        game.undo_move(st, m)
        assert game.checker_view(st) == game.checker_view(before)
        assert keys(game, st) == keys(game, before) and observed(game, st) == seen
        assert np.array_equal(st[:exact], before[:exact])
    return {"moves": len(history), "forced": forced}


def run_walks(name: str, variant: dict, seeds: int, moves: int, max_seeds: int, first: int = 1) -> None:
    results = []
    for seed in range(first, first + max_seeds):
        results.append(walk(name, variant, seed))
        if len(results) >= seeds and sum(r["moves"] for r in results) >= moves:
            break
    assert sum(r["moves"] for r in results) > 0
    if name in COMPLETE and COMPLETE[name][2](variant):
        assert sum(r["forced"] for r in results) > 0  # the safe move was met and checked


@pytest.mark.parametrize("name,variant", CASES, ids=CASE_IDS)
def test_random_walks_keep_the_contract(name, variant):
    run_walks(name, variant, SEEDS, MOVES, MAX_SEEDS)


@pytest.mark.slow
@pytest.mark.parametrize("name,variant", CASES, ids=CASE_IDS)
def test_random_walks_keep_the_contract_many_seeds(name, variant):
    run_walks(name, variant, *SLOW, first=1000)


# --- the module, the variants, the engines ----------------------------------------------------


@pytest.mark.parametrize("name", IMPLEMENTED)
def test_kernel_and_checker_agree_on_variant_defaults(name):
    """(f)"""
    game = get_game(name)
    assert {key: spec[-1] for key, spec in game.VARIANTS.items()} == DEFAULT_VARIANTS[name]
    assert game.NAME == name and GAMES[name].name == name


@pytest.mark.parametrize("name", IMPLEMENTED)
def test_module_provides_the_interface(name):
    game = get_game(name)
    assert all(hasattr(game, attr) for attr in REQUIRED_NAMES)
    assert game.initial_state(seeded_deck(1, game.PACKS), {}, **setup_kwargs(name, 1)).shape == (game.STATE_LEN,)


def test_get_game_names_every_missing_name(monkeypatch):
    fake = types.ModuleType("solver.games.half_a_game")
    fake.NAME, fake.PACKS = "half-a-game", 1
    monkeypatch.setitem(sys.modules, fake.__name__, fake)
    monkeypatch.setitem(REGISTRY, "half-a-game", "half_a_game")
    with pytest.raises(PatienceError) as e:
        get_game("half-a-game")
    missing = [n for n in REQUIRED_NAMES if n not in ("NAME", "PACKS")]
    assert ", ".join(missing) in str(e.value)
    assert "\n" not in str(e.value)


def test_specialise_refuses_to_rebind_a_name():
    """The engines' ctx slots have names of their own (DFS_*, ASTAR_*); a helper that
    would rebind a game's name to another object, or a template that would replace a
    function of the game's, is an error, not a silent change."""
    for key in set(dfs_engine.HELPERS) & set(astar_engine.HELPERS):
        assert dfs_engine.HELPERS[key] is astar_engine.HELPERS[key]  # LOST, WON, ...: shared
    assert not {"STARTED", "LENGTH"} & (set(dfs_engine.HELPERS) | set(astar_engine.HELPERS))
    namespace = {"__name__": "solver.games.example"}
    specialise(namespace, (), {"STARTED": 3})
    specialise(namespace, (), {"STARTED": namespace["STARTED"]})  # the same object: fine
    with pytest.raises(NameClash, match="STARTED"):
        specialise(namespace, (), {"STARTED": 4})
    with pytest.raises(NameClash, match="LENGTH, dfs"):
        specialise({"__name__": "x", "LENGTH": 9, "dfs": print}, dfs_engine.TEMPLATES,
                   {"LENGTH": 4, **dfs_engine.HELPERS})
    # the public names solver.solve reads are still there
    assert (dfs_engine.NODES, dfs_engine.LENGTH, astar_engine.LENGTH) == (
        dfs_engine.DFS_NODES, dfs_engine.DFS_LENGTH, astar_engine.ASTAR_LENGTH)
