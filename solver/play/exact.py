"""The exact optimal hidden-information win probability of reduced face-down Baker's
Dozen deals (the "ceiling"), and exact values of strategies and of the thoughtful
(all-cards-known) player to compare with it (docs/PLAYERS.md, "The exact ceiling").

Why ``optimal_value`` is exact
------------------------------
A player who sees only the observation and remembers everything it saw faces a
one-player game against chance.  Its information state is the observation, and the
observation already determines everything that matters for the rest of the game:

* the posterior over the hidden cards is the prior prod_c C(n_c, k_c) restricted to the
  layouts consistent with what was seen (``bakers_dozen``'s docstring, points 1-4);
* which layouts are consistent, and their weights, depend only on the current columns
  and the foundations (below), and the moves do too.

So the optimum is an expectimax over information states.  A move whose source column
has a hidden card right under the moving card turns that card up: a chance node over
the card, each outcome weighted by its exact conditional probability (``reveal``).  Any
other move is deterministic.  A won position is worth 1, one with no legal move 0.

Cycles.  Non-revealing moves keep the set of seen cards (a *layer*) and may go round
in circles (a card moved to and fro).  Inside a layer there is no chance, so the value
of a state is the largest, over every state reachable from it by non-revealing moves,
of 1 if it is won and of the best revealing move's expectation there.  ``_Solver``
computes exactly that with Tarjan's strongly connected components over each layer
(iterative, so no recursion limit): every state of a component gets the largest of its
members' own values and its successor components' values.  A revealing move leads to a
layer with one more seen card, so the recursion over layers ends; every value is a
``Fraction``.  Two cut-offs lose nothing: a state worth 1 ends its layer's search (every
state still on Tarjan's stack reaches it, so is worth 1 too), and a chance node stops
once the probability left cannot lift it above the best move found (values are <= 1).

Safe moves.  A card whose rank r is next on its foundation while every card of rank
r - 1 is home (every ace, for one) can never take another card; playing it home at once
loses nothing (any plan that keeps it out can be followed with it home, every other move
staying legal, and turning up the card below it earlier only tells the player more),
so such a state has that one move (``safe_move``).

The compact key.  A state is (columns, foundations), each column a ``bytes`` of card
codes with a hidden card written MARK + n_c (with the king rule; MARK without), n_c
being the column's dealt height.  The suits are renamed in order of first appearance and
the columns sorted (``canonical``): the rules treat all suits and all columns alike
(n_c, the only difference, is in the marks).  Nothing of ``obs.dealt`` is needed: a
column with h > 0 hidden cards has never been below h + 1 cards, so its card at height
h is the dealt one, and with the king rule the kings of a dealt column are its bottom
block: if that card is a king every hidden card below it is a king (a *forced* column);
if not, no seen dealt card of the column is a king and its hidden part holds x kings
(at the bottom) with weight C(n_c, x), x from 0 to h.  The cards seen and gone are the
foundations' cards.

The reveal's probabilities.  Given the counts x_c, every consistent layout puts the
unseen kings in the king slots and the unseen non-kings in the others, all orders
equally likely.  So the top hidden card of a column is a king exactly when all its
hidden cards are (x_c = h_c); that has probability C(n_c, h_c) T(K - h_c) / Z, where T
is the generating polynomial prod over the other free columns of sum_x C(n_j, x) z^x, K
the unseen kings not in forced columns, and Z the same coefficient with every column;
given the type, the card is uniform among the unseen cards of that type.  Without the
king rule it is uniform among all unseen cards.

Exact values of strategies and of the thoughtful player
-------------------------------------------------------
``strategy_value`` enumerates every dealt layout consistent with an initial
observation, with its exact weight (``weighted_deals``), plays the strategy on a deck
that deals it through ``players.play_deal`` with the same random stream, and adds up
the weights of the wins.  A strategy sees only the observation and its own random
stream, so it is a non-anticipating policy and its value can never exceed the optimum:
an exact check with no statistics, which also catches any strategy that peeks.
``thoughtful_value`` is the weighted share of consistent layouts winnable with every
card known (an exhaustive search, with the same keys and safe moves): an upper bound
on the optimum.

Feasible sizes
--------------
Measured on one (shared) core, the caches cleared for each deal, seeds 1..20 at the
deal, ``face_down=true``; "layouts" is how many consistent dealt layouts
``strategy_value`` and ``thoughtful_value`` enumerate (king rule: it depends on the
kings seen).

=====================  =====================  ======================  ====================
ranks x columns        optimum, king rule     optimum, no king rule   layouts (king / not)
=====================  =====================  ======================  ====================
3 x 3 (4, 4, 4)        0.11 s (max 0.22)      0.54 s (max 1.2)        34,560 / 362,880
3 x 4 (3 each)         0.24 s (max 0.36)      0.79 s (max 2.2)        2,160-10,944 / 40,320
3 x 5 (3, 3, 2, 2, 2)  0.06 s (max 0.14)      0.64 s (max 1.8)        1,152-2,592 / 5,040
3 x 6 (2 each)         0.01 s                 0.17 s (max 0.5)        48-720 / 720
4 x 8 (2 each)         0.35 s (max 1.0)       90-150 s                15,120-40,320 / 40,320
4 x 6 (3 or 2)         about 40 s             about 300 s             about 10^6 / 3.6 10^6
4 x 4 (4 each)         not tried              not tried               3 10^7 / 4.8 10^8
=====================  =====================  ======================  ====================

The default of ``experiments/exact_ceiling.py`` is 3 x 4 (columns of three, the real
game's shape less one row).  The enumerations cost more than the optimum: one
``play_deal`` per layout and strategy (about 0.1 ms for the fast players, more for
the searching ones), so 3 x 4 with the king rule takes some 15 s a deal for the five
strategies, and 3 x 5 without it some 10 s.

Plain Python, like the checker: no numba, no import of ``solver.games`` or
``solver.search``.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from math import comb

from ..cards import card_str, full_pack
from ..errors import PatienceError
from .bakers_dozen import HIDDEN, FaceDownGame, Observation, deck_for_layout

ZERO, ONE = Fraction(0), Fraction(1)


# --------------------------------------------------------------------------- the key

MARK = 64  # a hidden card is the byte MARK + n_c (king rule) or MARK; cards are 0..51
_RANK_TABLE = bytes(x % 13 if x < MARK else x for x in range(256))  # card -> rank - 1
_SUIT_TABLE = bytes(x // 13 if x < 52 else 255 for x in range(256))  # hidden -> 255
_RELABEL = {}  # suit permutation -> translate table
for _perm in itertools.permutations(range(4)):
    _RELABEL[_perm] = bytes(_perm[x // 13] * 13 + x % 13 if x < 52 else x for x in range(256))


def raw_key(obs: Observation) -> tuple:
    """``obs`` as (columns, foundations) in the key's coding, columns in game order:
    each column a bytes object, bottom to top, a hidden card written MARK + n_c with the
    king rule (n_c: the column's dealt height) and MARK without."""
    king_rule = obs.rule("kings_to_bottom")
    cols = []
    for col, dealt in zip(obs.columns, obs.dealt):
        h = col.count(HIDDEN)
        if h and col[h] != dealt[h]:
            raise PatienceError("the observation is broken: a column's card above its hidden ones is not the dealt one")
        mark = MARK + len(dealt) if king_rule else MARK
        cols.append(bytes(mark if x == HIDDEN else x for x in col))
    return tuple(cols), tuple(obs.foundation)


def state_key(obs: Observation) -> tuple:
    """The compact information state of ``obs`` (module docstring)."""
    return canonical(*raw_key(obs))


def _rank(c: int) -> int:
    return c % 13 + 1


def canonical(cols, found) -> tuple:
    """The key of a state given by its columns (any order) and foundations: the suits
    renamed in order of first appearance (the columns taken in order of their ranks,
    then the foundations), the columns sorted.  The rules treat every suit and every
    column alike (a column's dealt height is in its hidden marks), so renaming and
    reordering change no value; the order only makes equal states meet more often."""
    order = sorted(cols, key=lambda col: (col.translate(_RANK_TABLE), col))
    suits = b"".join(order).translate(_SUIT_TABLE)
    first = [suits.find(s) for s in (0, 1, 2, 3)]
    ranking = sorted(range(4), key=lambda s: (first[s] if first[s] >= 0 else 99, found[s]))
    perm = [0] * 4
    for new, old in enumerate(ranking):
        perm[old] = new
    table = _RELABEL[tuple(perm)]
    new_found = [0] * 4
    for old, f in enumerate(found):
        new_found[perm[old]] = f
    return tuple(sorted(col.translate(table) for col in cols)), tuple(new_found)


# --------------------------------------------------------------------------- mechanics


def key_moves(cols: tuple, found: tuple, ranks: int, empty: str) -> list[tuple[int, int]]:
    """Every legal move of a key's columns as (source, destination), destination -1 for
    the foundation; the same rules as ``legal_moves`` (tested against it)."""
    moves = []
    tops = [col[-1] if col else None for col in cols]
    for s, t in enumerate(tops):
        if t is None:
            continue
        r = t % 13 + 1
        if r == found[t // 13] + 1:
            moves.append((s, -1))
        for d, u in enumerate(tops):
            if d == s:
                continue
            if u is None:
                ok = empty == "any" or (empty == "king" and r == ranks)
            else:
                ok = u % 13 + 1 == r + 1
            if ok:
                moves.append((s, d))
    return moves


def safe_move(cols: tuple, found: tuple) -> tuple[int, int] | None:
    """A foundation move that loses nothing, if there is one: a card whose rank r is next
    on its foundation while every card of rank r - 1 is already home (every ace, say).
    Such a card can never take another card, so a plan that keeps it out longer can be
    followed with it home (every other move stays legal), and turning up the card below
    it earlier only tells the player more."""
    low = min(found)
    for s, col in enumerate(cols):
        if col:
            t = col[-1]
            r = t % 13 + 1
            if r == found[t // 13] + 1 and r - 1 <= low:
                return s, -1
    return None


def move_text(cols: tuple, move: tuple[int, int]) -> str:
    """A key move in NOTATION.md's words (column numbers are the key's order)."""
    s, d = move
    return f"c{s + 1} {'F' if d < 0 else f'c{d + 1}'} {card_str(cols[s][-1])}"


def key_apply(cols: tuple, found: tuple, move: tuple[int, int]) -> tuple[list, tuple]:
    """The columns (a list, in the same order) and foundations after ``move``; the
    source's new top may be hidden (``turn_up`` shows it)."""
    s, d = move
    out = list(cols)
    card = cols[s][-1]
    out[s] = cols[s][:-1]
    if d < 0:
        f = list(found)
        f[card // 13] += 1
        found = tuple(f)
    else:
        out[d] = cols[d] + bytes((card,))
    return out, found


def turn_up(col: bytes, card: int) -> bytes:
    """The column with its top (hidden) card shown as ``card``."""
    return col[:-1] + bytes((card,))


def reveals(cols: tuple, s: int) -> bool:
    """Whether moving column s's top card turns up a hidden card."""
    col = cols[s]
    return len(col) >= 2 and col[-2] >= MARK


# --------------------------------------------------------------------------- the posterior


def _hidden(col: bytes) -> int:
    return sum(1 for x in col if x >= MARK)


def unseen_cards(cols: tuple, found: tuple, ranks: int) -> list[int]:
    """The cards never seen: the pack less the face-up cards and the foundations' cards."""
    seen = {c for col in cols for c in col if c < MARK}
    return [c for c in full_pack(1, ranks) if c not in seen and _rank(c) > found[c // 13]]


def _poly_mul(a: list[int], b: list[int]) -> list[int]:
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i + j] += x * y
    return out


def reveal(cols: tuple, found: tuple, s: int, ranks: int, king_rule: bool) -> list[tuple[int, Fraction]]:
    """The exact distribution of the top hidden card of column s (the card a move of
    its top card turns up), given the information state: (card, probability) pairs."""
    unseen = unseen_cards(cols, found, ranks)
    if not king_rule:
        p = Fraction(1, len(unseen))
        return [(c, p) for c in unseen]
    kings = [c for c in unseen if _rank(c) == ranks]
    others = [c for c in unseen if _rank(c) != ranks]
    free_kings = len(kings)
    polys = {}  # column -> sum_x C(n, x) z^x, for the free columns with hidden cards
    for i, col in enumerate(cols):
        h = _hidden(col)
        if not h:
            continue
        if _rank(col[h]) == ranks:  # a king above the hidden cards: all of them are kings
            free_kings -= h
        else:
            n = col[0] - MARK
            polys[i] = [comb(n, x) for x in range(h + 1)]
    if s not in polys:  # a forced column: the card is a king
        if not kings:
            raise PatienceError("no layout is consistent with the information state")
        p = Fraction(1, len(kings))
        return [(c, p) for c in kings]
    rest = [1]
    for i, poly in polys.items():
        if i != s:
            rest = _poly_mul(rest, poly)
    mine = polys[s]
    h = len(mine) - 1

    def coeff(poly, k):
        return poly[k] if 0 <= k < len(poly) else 0

    total = sum(mine[x] * coeff(rest, free_kings - x) for x in range(h + 1))
    if total == 0:
        raise PatienceError("no layout is consistent with the information state")
    p_king = Fraction(mine[h] * coeff(rest, free_kings - h), total)
    out = []
    if p_king:
        out += [(c, p_king / len(kings)) for c in kings]
    if p_king != 1:
        out += [(c, (1 - p_king) / len(others)) for c in others]
    return out


# --------------------------------------------------------------------------- the optimum


class _Solver:
    """Expectimax over information states of one game size and variant, memoised."""

    def __init__(self, ranks: int, king_rule: bool, empty: str):
        self.ranks, self.king_rule, self.empty = ranks, king_rule, empty
        self.memo: dict = {}
        self.target = (ranks,) * 4

    def local(self, key) -> tuple[Fraction, list]:
        """(the state's own value: 1 if won, else its best revealing move's
        expectation; the keys its non-revealing moves lead to)."""
        cols, found = key
        if found == self.target:
            return ONE, []
        best, succ, chance = ZERO, [], []
        safe = safe_move(cols, found)
        for move in [safe] if safe else key_moves(cols, found, self.ranks, self.empty):
            new, f2 = key_apply(cols, found, move)
            if reveals(cols, move[0]):
                chance.append((move[0], new, f2))
            else:
                succ.append(canonical(new, f2))
        dists = {}
        for s, new, f2 in chance:
            if s not in dists:
                dists[s] = reveal(cols, found, s, self.ranks, self.king_rule)
            top = new[s]
            ev, left = ZERO, ONE
            for card, p in dists[s]:
                if ev + left <= best:  # this move cannot beat the best one (values are <= 1)
                    break
                new[s] = turn_up(top, card)
                ev += p * self.value(canonical(new, f2))
                left -= p
            if ev > best:
                best = ev
                if best == ONE:
                    break
        return best, succ

    def value(self, root) -> Fraction:
        memo = self.memo
        if root in memo:
            return memo[root]
        # Tarjan's SCCs over the root's layer (non-revealing moves), iteratively.
        index, low, best, stack, on_stack = {}, {}, {}, [], set()
        counter = 0

        def visit(v):
            nonlocal counter
            index[v] = low[v] = counter
            counter += 1
            stack.append(v)
            on_stack.add(v)
            best[v], succ = self.local(v)
            return iter(succ)

        def all_won():
            # Every state on Tarjan's stack reaches the current one (its component's
            # root is on the search path, an ancestor of it), which is worth 1.
            for w in stack:
                memo[w] = ONE
            return ONE

        work = [(root, visit(root))]
        if best[root] == ONE:
            return all_won()
        while work:
            v, it = work[-1]
            advanced = False
            for w in it:
                if w in memo:
                    if memo[w] > best[v]:
                        best[v] = memo[w]
                        if best[v] == ONE:
                            return all_won()
                elif w not in index:
                    work.append((w, visit(w)))
                    if best[w] == ONE:
                        return all_won()
                    advanced = True
                    break
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                u = work[-1][0]
                low[u] = min(low[u], low[v])
                if best[v] > best[u]:
                    best[u] = best[v]
            if low[v] == index[v]:
                members = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    members.append(w)
                    if w == v:
                        break
                val = max(best[w] for w in members)
                for w in members:
                    memo[w] = val
                if work and val > best[work[-1][0]]:
                    best[work[-1][0]] = val
        return memo[root]


_SOLVERS: dict = {}


def _solver(obs: Observation) -> _Solver:
    config = (obs.ranks, bool(obs.rule("kings_to_bottom")), obs.rule("empty"))
    if config not in _SOLVERS:
        _SOLVERS[config] = _Solver(*config)
    return _SOLVERS[config]


def clear_cache() -> None:
    """Forget every memoised value (they stay valid; this only frees memory)."""
    _SOLVERS.clear()
    _PERFECT.clear()


def cache_size() -> int:
    return sum(len(s.memo) for s in _SOLVERS.values())


def optimal_value(obs: Observation) -> Fraction:
    """The exact optimal probability of winning for a player who sees only ``obs`` (and
    remembers what it saw), playing on from ``obs`` (module docstring)."""
    return _solver(obs).value(state_key(obs))


# --------------------------------------------------------------------------- enumeration


def _fills(obs: Observation):
    """(hidden cards of each column bottom to top, weight) for every dealt layout
    consistent with ``obs``; the weight is prod_c C(n_c, kings of dealt column c) with the
    king rule (the number of decks dealing it), 1 without."""
    hidden = obs.hidden_counts()
    unseen = obs.unseen_cards()
    if sum(hidden) != len(unseen):
        raise PatienceError(f"the observation has {sum(hidden)} hidden slots but {len(unseen)} unseen cards")
    ranks = obs.ranks
    if not obs.rule("kings_to_bottom"):
        for perm in itertools.permutations(unseen):
            out, i = [], 0
            for h in hidden:
                out.append(list(perm[i:i + h]))
                i += h
            yield out, 1
        return
    kings = [c for c in unseen if _rank(c) == ranks]
    others = [c for c in unseen if _rank(c) != ranks]
    options = []  # per column: (x, weight) for each feasible count x of hidden kings
    for dealt, h in zip(obs.dealt, hidden):
        n = len(dealt)
        seen_kings = sum(1 for d in dealt[h:] if _rank(d) == ranks)
        xs = [h] if h < n and _rank(dealt[h]) == ranks else range(h + 1)
        options.append([(x, comb(n, seen_kings + x)) for x in xs])
    for combo in itertools.product(*options):
        if sum(x for x, _ in combo) != len(kings):
            continue
        weight = 1
        for _, w in combo:
            weight *= w
        for kp in itertools.permutations(kings):
            for op in itertools.permutations(others):
                out, ki, oi = [], 0, 0
                for (x, _), h in zip(combo, hidden):
                    out.append(list(kp[ki:ki + x]) + list(op[oi:oi + h - x]))
                    ki += x
                    oi += h - x
                yield out, weight


def weighted_deals(obs: Observation):
    """(dealt layout, weight) for every dealt layout consistent with ``obs``; the
    posterior probability of each is its weight over the total."""
    for fill, w in _fills(obs):
        yield [fill[c] + list(col[len(fill[c]):]) for c, col in enumerate(obs.dealt)], w


def weighted_worlds(obs: Observation):
    """(current layout, weight) for every current layout consistent with ``obs``."""
    for fill, w in _fills(obs):
        yield [fill[c] + list(col[len(fill[c]):]) for c, col in enumerate(obs.columns)], w


# --------------------------------------------------------------------------- strategies


def initial_observation(deck, variant: dict | None = None, *, ranks: int = 13, columns: int = 13) -> Observation:
    return FaceDownGame(deck, variant, ranks=ranks, columns=columns).observe()


def _check_initial(obs: Observation) -> None:
    face_down = obs.rule("face_down")
    fresh = all(col.count(HIDDEN) == (max(len(col) - 1, 0) if face_down else 0) for col in obs.columns)
    if not fresh or any(obs.foundation) or obs.columns != obs.dealt:
        raise PatienceError("strategy_value needs the observation at the deal, before any move")


def strategy_value(deck_or_obs, strategy: str, options: dict | None = None, rng_seed: int = 0, *,
                   variant: dict | None = None, ranks: int = 13, columns: int = 13,
                   game_name: str = "bakers-dozen", player=None) -> Fraction:
    """The exact win probability of ``strategy`` (a name of ``players.STRATEGY_OPTIONS``,
    with ``options``; the defaults if None) from the observation at the deal of
    ``deck_or_obs`` (a deck, dealt with ``variant``, ``ranks``, ``columns``, or that
    Observation): the weighted share of the consistent dealt layouts on which it wins,
    each played through ``players.play_deal`` with random stream ``rng_seed``.
    ``player(deck) -> won``, if given, replaces play_deal (for tests)."""
    from . import players

    obs = deck_or_obs if isinstance(deck_or_obs, Observation) else initial_observation(
        deck_or_obs, variant, ranks=ranks, columns=columns)
    _check_initial(obs)
    if player is None:
        opts = players.parse_options(strategy, None) if options is None else options
        game_variant = dict(obs.variant)

        def player(deck):
            return players.play_deal(game_name, deck, game_variant, strategy, opts, rng_seed,
                                     ranks=obs.ranks, columns=obs.n_columns).won

    won = total = 0
    for layout, w in weighted_deals(obs):
        total += w
        if player(deck_for_layout(layout)):
            won += w
    return Fraction(won, total)


# --------------------------------------------------------------------------- thoughtful


_PERFECT: dict = {}


def _perfect_win(cols: tuple, found: tuple, ranks: int, empty: str) -> bool:
    """Whether a fully known position is winnable: exhaustive depth-first search over
    sorted-column states, with caches of won and lost states per (ranks, empty)."""
    won_set, lost_set = _PERFECT.setdefault((ranks, empty), (set(), set()))
    target = (ranks,) * 4
    root = canonical(cols, found)
    if root in won_set:
        return True
    if root in lost_set:
        return False
    seen = {root}
    path = [root]
    stack = [iter(_perfect_children(root, ranks, empty))]
    if root[1] == target:
        won_set.add(root)
        return True
    while stack:
        for child in stack[-1]:
            if child in won_set or child[1] == target:
                won_set.update(path)
                return True
            if child in seen or child in lost_set:
                continue
            seen.add(child)
            path.append(child)
            stack.append(iter(_perfect_children(child, ranks, empty)))
            break
        else:
            stack.pop()
            path.pop()
    lost_set.update(seen)  # everything reachable was searched and none is won
    return False


def _perfect_children(key, ranks, empty):
    cols, found = key
    safe = safe_move(cols, found)
    for move in [safe] if safe else key_moves(cols, found, ranks, empty):
        new, f2 = key_apply(cols, found, move)
        yield canonical(new, f2)


def perfect_win(obs_or_layout, foundation=(0, 0, 0, 0), *, ranks: int, empty: str = "none") -> bool:
    """Whether a current layout (columns bottom to top, every card known) with
    ``foundation`` is winnable."""
    return _perfect_win(tuple(bytes(c) for c in obs_or_layout), tuple(foundation), ranks, empty)


def thoughtful_value(obs: Observation) -> Fraction:
    """The weighted share of the layouts consistent with ``obs`` that are winnable with
    every card known: an upper bound on ``optimal_value(obs)``."""
    won = total = 0
    empty = obs.rule("empty")
    for layout, w in weighted_worlds(obs):
        total += w
        if _perfect_win(tuple(bytes(c) for c in layout), obs.foundation, obs.ranks, empty):
            won += w
    return Fraction(won, total)
