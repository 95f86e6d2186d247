"""Grand Duchess and Parisienne: the numba kernels and solvers against answers known
for a reason.

* (the kernels against the independent checker along random walks, and the rest of
  the game interface: tests/test_game_contract.py;)
* the redeal orders and the last round's deal;
* hand-built decks whose verdict follows from an argument written beside them;
* an exhaustive breadth-first oracle (tests/gd_oracle.py, which knows only the
  checker's rules) on tiny deals: DFS and A* must give its verdict, A* its length;
* DFS and A* agreeing on 200 seeded deals of each game (reduced ranks, so that
  exact A* finishes), and every "won" replaying through the checker.
"""

import random
import sys
from pathlib import Path

import pytest

from solver.cards import card
from solver.checker import GAMES, replay
from solver.deals import seeded_deck
from solver.games import grand_duchess as gd
from solver.games import parisienne
from solver.solve import solve_deal

sys.path.insert(0, str(Path(__file__).parent))
from gd_oracle import legal_successors, solve_exhaustive  # noqa: E402

GAMES_UNDER_TEST = ("grand-duchess", "parisienne")
VARIANTS = [
    {},
    {"redeals": 0},
    {"redeals": 1},
    {"redeals": 2},
    {"foundation_transfer": True},
    {"reserve_first": True},
    {"redeals": 1, "reserve_first": True, "foundation_transfer": True},
]


# --- hand-built decks ------------------------------------------------------------------------


def won_without_redeal_deck():
    """Every tableau card fits a foundation the moment it is dealt, and the reserve holds
    exactly what the down foundations need at the end.

    Tableau stream: the up foundations A..K rank by rank (52 cards), then the down
    foundations' K Q J T of every suit and 9C 9D (18 cards): 70 = 17 deals x 4 + the
    last deal's 2.  Reserve stream: the rest of the down foundations, 9H 9S 8C .. AS
    (34 = 17 x 2), all face up once the stock is out, so they go down in order."""
    up = [card(r, s) for r in range(1, 14) for s in range(4)]
    down = [card(r, s) for r in range(13, 0, -1) for s in range(4)]
    tableau, reserve = up + down[:18], down[18:]
    deck = []
    for j in range(17):
        deck += tableau[4 * j:4 * j + 4] + reserve[2 * j:2 * j + 2]
    return deck + tableau[68:70]


def blocked_deck():
    """Both copies of every ace, king, 2 and queen (32 cards) and one 7C and one 7D lie in
    the reserve; the four cards dealt last to the tableau (the tops when the stock is
    out) are 7C 7D 7H 7S.  Before the stock is out no foundation can even start (no
    ace or king reaches the tableau).  After it, the reserve takes the up foundations
    to 2 and the down ones to Q; they then need 3s and jacks, the second copies of
    A, 2, K, Q need those too, and the only other cards on view are the four 7s.
    With redeals=0 nothing else can happen: lost."""
    reserve = [card(r, s) for r in (1, 13, 2, 12) for s in range(4) for _ in range(2)] + [card(7, 0), card(7, 1)]
    tops = [card(7, s) for s in range(4)]
    used = {}
    for c in reserve + tops:
        used[c] = used.get(c, 0) + 1
    rest = [card(r, s) for s in range(4) for r in range(1, 14) for _ in range(2 - used.get(card(r, s), 0))]
    tableau = rest + tops  # deal 17 gives rest[64], rest[65], 7C, 7D; the last deal 7H, 7S
    deck = []
    for j in range(17):
        deck += tableau[4 * j:4 * j + 4] + reserve[2 * j:2 * j + 2]
    return deck + tableau[68:70]


@pytest.mark.parametrize("algorithm", ["dfs", "astar", "auto"])
def test_deck_won_without_redeal(algorithm):
    deck = won_without_redeal_deck()
    for variant in ({}, {"redeals": 0}, {"foundation_transfer": True}):
        r = solve_deal("grand-duchess", variant, deck, algorithm=algorithm, max_nodes=200_000, seconds=60)
        assert r.result == "won"
        assert "redeal" not in r.moves
        if algorithm == "astar":
            # 104 plays and 17 deals, each a move: nothing shorter exists
            assert len(r.moves) == 121


@pytest.mark.parametrize("algorithm", ["dfs", "astar", "auto"])
def test_blocked_deck_is_lost(algorithm):
    deck = blocked_deck()
    r = solve_deal("grand-duchess", {"redeals": 0}, deck, algorithm=algorithm, max_nodes=200_000, seconds=60)
    assert r.result == "lost"
    # and the checker agrees that the stock can be dealt out with no play at all
    g = GAMES["grand-duchess"](deck, {"redeals": 0})
    plays = [t for t, _ in legal_successors(g) if t != "deal"]
    assert plays == []


def test_parisienne_start():
    """The first copy of each ace and king is on its foundation before the first deal;
    the second copies stay in the stock, in deck order."""
    deck = seeded_deck(11, 2)
    view = parisienne.checker_view(parisienne.initial_state(deck, {}))
    piles, reserve, stock, up, down = (view[k] for k in ("tableau", "reserve", "stock", "up", "down"))
    assert up == [1, 1, 1, 1] and down == [13, 13, 13, 13]
    dealt = [c for c in deck]
    for s in range(4):
        dealt.remove(card(1, s))
        dealt.remove(card(13, s))
    assert [piles[0][0], piles[1][0], piles[2][0], piles[3][0], reserve[0], reserve[1]] == dealt[:6]
    assert stock == dealt[6:]
    assert len(stock) == 90  # 96 cards: 16 deals of six, the first already made


def test_redeal_orders():
    """RULES.md: the new stock is t4 bottom card first, then t3, t2, t1, then the reserve
    in the order it was dealt; reserve_first puts the reserve first."""
    deck = seeded_deck(2, 2)
    for reserve_first in (False, True):
        st = gd.initial_state(deck, {"reserve_first": reserve_first})
        while st[gd.SP] < st[gd.SN]:
            gd.apply_move(st, gd._deal_move(st))
        before = gd.checker_view(st)
        gd.apply_move(st, gd.REDEAL)
        after = gd.checker_view(st)
        piles, reserve, stock = before["tableau"], before["reserve"], after["stock"]
        tableau = piles[3] + piles[2] + piles[1] + piles[0]
        assert stock == (reserve + tableau if reserve_first else tableau + reserve)
        assert after["round"] == 2 and len(stock) == 104


def test_last_round_deals_four_without_reserve():
    deck = seeded_deck(4, 2)
    for redeals in (1, 2, 3):
        st = gd.initial_state(deck, {"redeals": redeals})
        for _ in range(redeals):
            while st[gd.SP] < st[gd.SN]:
                gd.apply_move(st, gd._deal_move(st))
            gd.apply_move(st, gd.REDEAL)
        m = gd._deal_move(st)
        assert (m >> 2) & 7 == 4
        gd.apply_move(st, m)
        assert st[gd.NRES] == 0 and [st[gd.H0 + p] for p in range(4)] == [1, 1, 1, 1]
    st = gd.initial_state(deck, {"redeals": 0})
    assert st[gd.NRES] == 2  # redeals=0: the only round keeps its reserve


# --- the exhaustive oracle on tiny deals -----------------------------------------------------


ORACLE_CASES = [
    (game, ranks, i, seed)
    for game in GAMES_UNDER_TEST
    for ranks in (2, 3)
    for i in range(len(VARIANTS))
    for seed in range(1, 6)
]


@pytest.mark.slow
@pytest.mark.parametrize("game,ranks,vi,seed", ORACLE_CASES)
def test_solvers_match_the_oracle(game, ranks, vi, seed):
    variant = VARIANTS[vi]
    deck = seeded_deck(seed, 2, ranks)
    won, shortest, _ = solve_exhaustive(game, variant, deck, ranks, max_states=400_000)
    for algorithm in ("dfs", "astar"):
        r = solve_deal(game, variant, deck, algorithm=algorithm, max_nodes=1_000_000, seconds=60, ranks=ranks)
        assert r.result == ("won" if won else "lost"), algorithm
        if won:
            check = replay(game, variant, deck, r.moves, ranks=ranks)
            assert check.won, check.error
    if won and not variant.get("foundation_transfer"):
        # a transfer macro is one kernel move but several written ones, so only
        # without transfers is A*'s count of moves the written length
        assert len(r.moves) == len(shortest)


# --- DFS and A* on 200 seeded deals of each game ----------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES_UNDER_TEST)
def test_dfs_and_astar_agree_on_200_deals(game):
    """Reduced ranks, where exact A* finishes: Grand Duchess with 4 ranks (32 cards),
    Parisienne with 5 (40 cards, of which 16 start on the foundations).  The variants
    cycle; Parisienne's redeals=0 deals supply lost ones (every 4-rank Grand Duchess
    deal seen so far is won).  redeals=1 and 2 are left to the oracle test: when the
    last round fails, exact A* must exhaust every earlier round at the same bound,
    which even 32 cards make too big for a test.  A deal that either search leaves
    undecided within 3M nodes is counted, not compared; at most 10 of 200 may be."""
    tally = {"won": 0, "lost": 0, "unknown": 0}
    cycle = [{"redeals": 0}, {}, {"foundation_transfer": True, "redeals": 0}, {"reserve_first": True}]
    for seed in range(1, 201):
        variant = cycle[seed % len(cycle)]
        ranks = 5 if game == "parisienne" and variant.get("redeals", 3) == 0 else 4
        deck = seeded_deck(seed, 2, ranks)
        a = solve_deal(game, variant, deck, algorithm="dfs", max_nodes=3_000_000, seconds=60, ranks=ranks)
        b = solve_deal(game, variant, deck, algorithm="astar", max_nodes=3_000_000, seconds=60, ranks=ranks)
        if "unknown" in (a.result, b.result):
            # an exhausted node store is not an answer; only a contradiction is a failure
            tally["unknown"] += 1
            continue
        assert a.result == b.result, (seed, variant, a.result, b.result)
        tally[a.result] += 1
        if a.result == "won" and not variant.get("foundation_transfer"):
            assert len(b.moves) <= len(a.moves)
    assert tally["won"] > 0 and tally["unknown"] <= 10, tally
    print(game, tally)
    if game == "parisienne":
        assert tally["lost"] > 0, tally


@pytest.mark.parametrize("variant", [{"redeals": 0}, {"redeals": 1}, {"redeals": 0, "foundation_transfer": True}],
                         ids=str)
@pytest.mark.slow
def test_tiny_lost_deck_against_the_oracle(variant):
    """tests/test_replay_grand_duchess.py's hand-built 3-rank deck (its argument is
    written there): lost with redeals=0, won with a redeal or with transfers.  The
    solvers must give the oracle's verdict, and A* its length."""
    from test_replay_grand_duchess import lost_deck

    deck = lost_deck()
    won, shortest, _ = solve_exhaustive("grand-duchess", variant, deck, 3)
    assert won == (variant != {"redeals": 0})
    for algorithm in ("dfs", "astar", "auto"):
        r = solve_deal("grand-duchess", variant, deck, algorithm=algorithm, max_nodes=2_000_000, seconds=60, ranks=3)
        assert r.result == ("won" if won else "lost"), algorithm
        if won and algorithm == "astar" and not variant.get("foundation_transfer"):
            assert len(r.moves) == len(shortest)


@pytest.mark.parametrize("variant,ranks,most", [
    ({"redeals": 0}, 6, 18), ({"redeals": 1}, 6, 18),
    # with transfers the test fires only earlier, with more cards left
    ({"redeals": 0, "foundation_transfer": True}, 8, 44), ({"redeals": 1, "foundation_transfer": True}, 13, 56),
], ids=str)
@pytest.mark.slow
def test_dead_end_test_only_cuts_lost_states(variant, ranks, most):
    """is_dead's claim checked state by state: along random walks (mostly greedy, so
    that they get far), the first state it calls dead with at most ``most`` cards left
    is handed, as the checker's position, to the exhaustive oracle, which must find
    it lost."""
    checked = _dead_walks(variant, ranks, rng_seed=11, last_seed=400, want=8, most=most)
    assert checked >= 8


def _suits_only(slack):
    """``suits_dead`` alone, on states where the fixpoint proves nothing (``slack`` > 0:
    the broken version its docstring describes, for the mutant test)."""
    def dead(st):
        if st[gd.ROUND] != st[gd.MAXRED] or st[gd.TRANSFER]:
            return False
        nres = gd.fixpoint_dead(st)
        if nres < 0:
            return False
        return bool(gd.suits_dead(st, nres, slack))
    return dead


def _dead_walks(variant, ranks, *, rng_seed, last_seed, want, most, dead=None):
    """first_dead_states_are_lost on random walks (mostly greedy, so that they get far)
    through the tiny deals of seeds 1..last_seed - 1, checked once at most ``most``
    cards are left; ``dead`` replaces is_dead."""
    from gd_oracle import solve_state
    from oracle_search import first_dead_states_are_lost

    rng = random.Random(rng_seed)

    def walks():
        for seed in range(1, last_seed):
            deck = seeded_deck(seed, 2, ranks)
            yield seed, gd.initial_state(deck, variant, ranks=ranks), GAMES["grand-duchess"](deck, variant, ranks=ranks)

    def choose(moves):
        plays = [m for m in moves if m & 3 == gd.KIND_PLAY]
        return rng.choice(plays if plays and rng.random() < 0.9 else moves)

    return first_dead_states_are_lost(gd, walks(), choose, solve_state, want=want, max_states=300_000,
                                      fires=lambda st: st[gd.LEFT] <= most, view=gd.checker_view, dead=dead)


def _suit_walks(variant, ranks, slack, want):
    return _dead_walks(variant, ranks, rng_seed=5, last_seed=3000, want=want, most=20, dead=_suits_only(slack))


@pytest.mark.parametrize("variant", [{"redeals": 0}, {"redeals": 1}], ids=str)
@pytest.mark.slow
def test_suit_test_only_cuts_lost_states(variant):
    """suits_dead's claim, on states the fixpoint alone cannot refute, checked against
    the exhaustive oracle (6-rank deals: round one with its reserve for redeals=0, a
    last round without one for redeals=1)."""
    assert _suit_walks(variant, 6, 0, 8) >= 8


@pytest.mark.slow
def test_suit_test_mutant_is_caught():
    """The same check catches a broken argument: other suits' cards kept in the way two
    deals longer than the fixpoint's earliest times makes suits_dead call some won
    state lost."""
    with pytest.raises(AssertionError):
        _suit_walks({"redeals": 0}, 6, 2, 40)
