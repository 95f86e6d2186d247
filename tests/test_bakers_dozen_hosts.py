"""Baker's Dozen's host count (solver/games/bakers_dozen_hosts.py), the dead-end test
the portfolio runs on the root of a deal (``root_dead``).

``reference_dead`` is the module docstring's argument written plainly over sets, with
every foundation the moment before a card's move can have enumerated outright.  The
kernel must agree with it on every state of random walks; the states it calls lost must
be lost for the exhaustive oracle on reduced deals; the same check must catch a broken
form of the argument; and no state of a checked winning line may be called lost.
"""

import itertools
import random

import numpy as np
import pytest

from solver.cards import card_str
from solver.checker import GAMES
from solver.deals import seeded_deck
from solver.games import bakers_dozen as bd
from solver.search.portfolio import search
from solver.solve import solve_deal

from oracle_search import Oracle, first_dead_states_are_lost, packed
from test_bakers_dozen_dead import walk_states

NO_KING_RULE = {"kings_to_bottom": False}


def columns_of(st) -> list[list[int]]:
    return [[int(c) for c in st[bd.C0 + k * bd.CAP: bd.C0 + k * bd.CAP + st[bd.H0 + k]]]
            for k in range(st[bd.NCOLS])]


def reference_dead(st, mutant: str = "") -> bool:
    """The host count: for some card c, every foundation F the moment before c's move
    can have (c next for its suit; no card home from under a king that is not) leaves
    more displaced cards of NOT home of some rank than cards of the next rank up that
    could take them, or else no choice of the cards kept in place meets the count.
    ``mutant`` breaks one step of the argument, for the mutant test: "home_need" also
    counts displaced cards that are home; "only_tops" lets only a column's top card
    (or a displaced card) take a card; "no_choice" keeps every card in place that need
    not have left.  "no_prefixes" is the count without its last step (not a mutant: a
    weaker test).  Raises TooMany where the choices are too many to enumerate."""
    if st[bd.EMPTY] != 0:
        return False
    nranks = int(st[bd.NRANKS])
    king = nranks - 1
    cols = columns_of(st)
    cards = [c for col in cols for c in col]
    beneath_king = [(col[p], set(col[:p])) for col in cols for p in range(len(col)) if col[p] % 13 == king]
    # the order's cycles are the other part of the test: a king above a lower card of its suit
    for k, under in beneath_king:
        if any(y // 13 == k // 13 for y in under):
            return True
    found = [int(st[bd.F0 + s]) for s in range(4)]
    for c in cards:
        ranges = [range(found[s], nranks + 1) for s in range(4)]
        ranges[c // 13] = [c % 13]
        if all(_fails(cols, cards, beneath_king, king, c, f, mutant) for f in itertools.product(*ranges)):
            return True
    return False


class TooMany(Exception):
    """More choices of prefixes than the reference enumerates."""


def _fails(cols, cards, beneath_king, king, c, f, mutant) -> bool:
    home = {y for y in cards if y % 13 < f[y // 13]}
    if any(under & home and k not in home for k, under in beneath_king):
        return True  # no win has this foundation then
    gone = home | {c}
    displaced = set()
    for col in cols:
        low = next((p for p, y in enumerate(col) if y in gone), None)
        if low is not None:
            displaced.update(col[low + 1:])
    need = displaced if mutant == "home_need" else displaced - home
    covered = set().union(*[under for k, under in beneath_king if k not in home])
    if mutant == "only_tops":
        covered |= {y for col in cols for y in col[:-1] if y not in displaced}
    for r in range(king + 1):
        n = sum(1 for x in need if x % 13 == r)
        hosts = sum(1 for y in cards if y % 13 == r + 1 and y not in gone and y not in covered)
        if n > (hosts if r < king else 0):
            return True
    return mutant != "no_prefixes" and not _some_prefixes_meet(cols, home, c, king, mutant)


def _some_prefixes_meet(cols, home, c, king, mutant, limit=20_000) -> bool:
    """Each column keeps in place a run from the bottom ending at some t: at least its
    highest king below the lowest card gone, below that card, or c itself if c is the
    lowest card gone and stays; every card above t not home rests on a card one rank
    higher: a resting card or a top (not c).  Is there a choice meeting every count?"""
    gone = home | {c}
    options = []
    for col in cols:
        low = next((p for p, y in enumerate(col) if y in gone), len(col))
        floor = max((p for p in range(low) if col[p] % 13 == king), default=-1)
        stays_top = low if low < len(col) and col[low] == c else low - 1
        tops = range(stays_top, floor - 1, -1) if stays_top >= 0 else [-1]
        if mutant == "no_choice":
            tops = [stays_top]
        options.append([([y for y in col[t + 1:] if y not in home], col[t] if t >= 0 else None) for t in tops])
    if np.prod([len(o) for o in options]) > limit:
        raise TooMany
    for choice in itertools.product(*options):
        need, places = [0] * (king + 2), [0] * (king + 2)
        for resting, top in choice:
            for x in resting:
                need[x % 13] += 1
                places[x % 13] += x != c
            if top is not None and top != c:
                places[top % 13] += 1
        if need[king] == 0 and all(need[r] <= places[r + 1] for r in range(king)):
            return True
    return False


@pytest.mark.parametrize("kings", [False, True])
def test_kernel_is_the_reference(kings):
    rng = np.random.default_rng(74)
    variant = {"kings_to_bottom": kings}
    checked = dead = by_prefixes = 0
    for seed in range(1, 41):
        for ranks, columns in ((13, 13), (5, 5), (4, 4)):
            deck = [int(c) for c in seeded_deck(seed, ranks=ranks)]
            for st in walk_states(deck, variant, ranks, columns, rng, steps=15):
                try:
                    want = reference_dead(st)
                except TooMany:
                    continue
                assert bool(bd.hosts_dead(st.copy())) == want, (seed, ranks, bd.checker_view(st))
                checked += 1
                dead += want
                by_prefixes += want and not reference_dead(st, "no_prefixes")
    assert checked > 1000 and dead < checked
    assert by_prefixes > 0 or kings  # the last step is exercised
    # with the kings at the bottom no king lies on a card: the count rests on the suits'
    # order alone, and it decided none of the million-deal run's lost or unknown deals
    assert dead > 0 or kings


@pytest.mark.parametrize("empty", ["any", "king"])
def test_off_when_a_space_takes_a_card(empty):
    """A space is a place for any card (or any king): the count does not hold."""
    st = bd.initial_state([int(c) for c in seeded_deck(74)], {**NO_KING_RULE, "empty": empty})
    assert not bd.hosts_dead(st)


def test_leaves_the_position_alone():
    st = bd.initial_state([int(c) for c in seeded_deck(74)], NO_KING_RULE)
    before = st[: bd.S0].copy()
    assert bd.hosts_dead(st)
    assert (st[: bd.S0] == before).all()


def test_seed_74_by_hand():
    """Seed 74 without the king rule (the module docstring's example): KC lies on AH
    and KD on 3C, so when KC goes home every club but KC and every diamond is home and
    no heart is; QH (on TC, 8C, AD) and QS (on KD) have left their places and can rest
    only on kings; KD is home, KC is the card going home, and KS lies under KH.  Two
    queens, one king: lost.  is_dead's relaxation (cards moved never block) misses it,
    and a DFS of 100,000,000 nodes did not finish it."""
    st = bd.initial_state([int(c) for c in seeded_deck(74)], NO_KING_RULE)
    cols = [" ".join(card_str(c) for c in col) for col in columns_of(st)]
    assert cols[4] == "3S 3C KD QS" and cols[7] == "AD 8C TC QH" and cols[8] == "AH 3H KC 8H"
    assert cols[3] == "KS JS KH 7D"
    assert not bd.is_dead(st.copy())
    assert bd.hosts_dead(st.copy()) and reference_dead(st)
    kc = next(c for col in columns_of(st) for c in col if card_str(c) == "KC")
    kd = next(c for col in columns_of(st) for c in col if card_str(c) == "KD")
    # the moment before KC's move, hearts and spades at 0: two queens need a king, one is free
    cols = columns_of(st)
    cards = [c for col in cols for c in col]
    beneath_king = [(col[p], set(col[:p])) for col in cols for p in range(len(col)) if col[p] % 13 == 12]
    f = [0, 0, 0, 0]
    f[kd // 13] = 13
    f[kc // 13] = 12
    assert _fails(cols, cards, beneath_king, 12, kc, f, "")


def test_the_root_test_decides_seed_74():
    st = bd.initial_state([int(c) for c in seeded_deck(74)], NO_KING_RULE)
    out = search(bd, st, "auto", max_nodes=1000, seconds=10, tt_mb=1)
    assert out.dead_end and out.root_test and out.nodes == 0
    r = solve_deal("bakers-dozen", NO_KING_RULE, [int(c) for c in seeded_deck(74)], "dfs", max_nodes=1000, seconds=10)
    assert r.result == "lost" and r.proof == "root_dead"  # named apart from is_dead's proofs
    # seed 1's root is dead by the cheap test: its proof keeps that name
    one = solve_deal("bakers-dozen", NO_KING_RULE, [int(c) for c in seeded_deck(1)], "dfs", max_nodes=1000, seconds=10)
    assert bd.is_dead(bd.initial_state([int(c) for c in seeded_deck(1)], NO_KING_RULE))
    assert one.result == "lost" and one.proof == "dead_end"


def test_no_state_of_a_winning_line_is_called_lost():
    """Wins of full deals without the king rule, replayed from the deal: every state on
    the line is winnable, so the count may not fire on any."""
    lines = 0
    for seed in range(1, 61):
        deck = [int(c) for c in seeded_deck(seed)]
        r = solve_deal("bakers-dozen", NO_KING_RULE, deck, "dfs", max_nodes=200_000, seconds=10, shorten="none")
        if r.result != "won":
            continue
        lines += 1
        st = bd.initial_state(deck, NO_KING_RULE)
        for text in r.moves:
            assert not bd.hosts_dead(st.copy()), (seed, text)
            [m] = [m for m in _legal(st) if bd.move_text(m) == text]
            bd.apply_move(st, m)
    assert lines >= 5


def _legal(st):
    """Every legal move of the kernel's encoding (gen_moves prunes; a line may use others)."""
    moves = []
    ncols = int(st[bd.NCOLS])
    tops = [(k, int(st[bd.C0 + k * bd.CAP + st[bd.H0 + k] - 1])) for k in range(ncols) if st[bd.H0 + k]]
    for k, c in tops:
        if st[bd.F0 + c // 13] == c % 13:
            moves.append(c | (k << 6) | (bd.FND << 10))
        for j, t in tops:
            if j != k and t % 13 == c % 13 + 1:
                moves.append(c | (k << 6) | (j << 10))
    return moves


# --- soundness against the exhaustive oracle ---------------------------------------------------


def _state_key(g) -> bytes:
    return packed(g.columns, g.foundation)


def _candidates(g) -> list[str]:
    n = len(g.columns)
    tops = [(i, card_str(col[-1])) for i, col in enumerate(g.columns) if col]
    return [f"c{i + 1} F {name}" for i, name in tops] + [
        f"c{i + 1} c{j + 1} {name}" for i, name in tops for j in range(n) if j != i]


ORACLE = Oracle(_state_key, _candidates, lambda g: sum(len(col) for col in g.columns))


def _check(dead, want, seeds=range(1, 3000)):
    """first_dead_states_are_lost over random walks of reduced deals without the king
    rule (4 to 6 ranks, 4 and 5 columns), where is_dead does not already fire."""
    rng = random.Random(19)

    def walks():
        for seed in seeds:
            for ranks, columns in ((4, 4), (5, 4), (5, 5), (6, 5)):
                deck = [int(c) for c in seeded_deck(seed, ranks=ranks)]
                yield (seed, bd.initial_state(deck, NO_KING_RULE, ranks=ranks, columns=columns),
                       GAMES["bakers-dozen"](deck, NO_KING_RULE, ranks=ranks, columns=columns))

    return first_dead_states_are_lost(bd, walks(), rng.choice, ORACLE.solve_state, want=want, max_states=300_000,
                                      steps=60, fires=lambda st: not bd.is_dead(st.copy()),
                                      view=bd.checker_view, dead=dead)


@pytest.mark.slow
def test_states_it_calls_lost_are_lost():
    assert _check(lambda st: bd.hosts_dead(st.copy()), want=40) >= 40


@pytest.mark.slow
def test_states_only_the_prefixes_call_lost_are_lost():
    """The same, for the states that the count calls lost only by its last step."""
    def by_prefixes(st):
        try:
            return bd.hosts_dead(st.copy()) and not reference_dead(st, "no_prefixes")
        except TooMany:
            return False

    assert _check(by_prefixes, want=20) >= 20


@pytest.mark.slow
@pytest.mark.parametrize("mutant", ["home_need", "only_tops", "no_choice"])
def test_the_oracle_check_catches_a_broken_argument(mutant):
    def dead(st):
        try:
            return reference_dead(st, mutant)
        except TooMany:
            return False

    with pytest.raises(AssertionError):
        _check(dead, want=200)


def test_relabel_names_the_root_test_in_stored_rows(tmp_path):
    """experiments/relabel_root_proofs.py: rows stored before the proof was named read
    "dead_end"; it renames those only the host count decides (seed 74), keeps is_dead's
    (seed 1) and every other column, records itself, and a second run changes nothing."""
    import importlib.util
    import json
    from pathlib import Path

    import pandas as pd

    from solver.batch import store
    from solver.variants import parse_variant

    spec = importlib.util.spec_from_file_location(
        "relabel", Path(__file__).resolve().parent.parent / "experiments" / "relabel_root_proofs.py")
    relabel = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(relabel)
    folder = tmp_path / "runs" / "bakers-dozen" / "kings_to_bottom=false"
    folder.mkdir(parents=True)
    variant = parse_variant("bakers-dozen", bd.VARIANTS, ["kings_to_bottom=false"])
    store.write_command(folder, "bakers-dozen", "kings_to_bottom=false", variant, "patience winrate ...")

    def row(seed, result, proof, nodes):
        return {"seed": seed, "game": "bakers-dozen", "variant": "kings_to_bottom=false", "algorithm": "auto",
                "result": result, "proof": proof, "stop": "nodes" if result == "unknown" else "", "nodes": nodes,
                "seconds": 0.01, "solution_length": -1, "max_nodes": 1000, "max_seconds": 10.0, "tt_mb": 1.0}

    store.write_part(folder, [row(1, "lost", "dead_end", 1), row(74, "lost", "dead_end", 0),
                              row(3, "unknown", "", 1000)])
    store.fold(folder)
    before = store.read_rows(folder)
    assert relabel.main(["--out", str(tmp_path)]) == 0
    after = store.read_rows(folder)
    assert dict(zip(after["seed"], after["proof"].astype(str))) == {1: "dead_end", 3: "", 74: "root_dead"}
    pd.testing.assert_frame_equal(before.drop(columns="proof"), after.drop(columns="proof"))
    meta = json.loads((folder / store.COMMAND).read_text())
    assert [r["rows"] for r in meta["relabels"]] == [1] and meta["runs"] == []
    # later runs keep the record; a second relabel finds nothing to change
    store.write_command(folder, "bakers-dozen", "kings_to_bottom=false", variant, "patience winrate ...")
    assert relabel.main(["--out", str(tmp_path)]) == 0
    assert len(json.loads((folder / store.COMMAND).read_text())["relabels"]) == 1
    assert store.read_rows(folder)["proof"].astype(str).tolist() == after["proof"].astype(str).tolist()
