"""Baker's Dozen under hidden information: the referee, the observation, the legal
moves from the observation alone, and the exact sampler of the hidden cards.

The referee
-----------
``FaceDownGame`` holds the truth, a checker ``BakersDozen`` state (RULES.md), and never
hands it to a player.  Besides the truth it keeps, for each column, how many of its
bottom cards have never been seen, ``hidden[c]``.  With ``face_down=true`` that is the
column's dealt height less one at the deal (the top card is face up); with
``face_down=false`` it is 0 from the start, so the same code serves both variants.

Why the unseen cards of a column are always a bottom block of its cards *as dealt*:
only the top card of a column moves, and the top card is always face up, so a card
never seen has never moved and lies where it was dealt.  A card at height p turns face
up as soon as the column is down to p + 1 cards, so the cards seen in a column are the
dealt cards from some height up (a top block of the dealt column) plus whatever was
moved on since, and every card moved onto a column was a face-up top card before.
Hence after every move ``hidden[c] = min(hidden[c], max(len(column) - 1, 0))``, and
positions ``0 .. hidden[c] - 1`` of the current column are exactly positions
``0 .. hidden[c] - 1`` of the dealt column.

The observation
---------------
``Observation`` (immutable, tuples of ints) is everything the rules show and the player
remembers: each column now, bottom to top, with ``HIDDEN`` (-1) for the cards never
seen (so the height of each column is known); each column as dealt (after the king
rule), with ``HIDDEN`` for the same unseen cards (this is the memory of every card seen
and where it was dealt; every card of the game was dealt, so nothing else was ever
seen); the foundations; the variant; the game's size (``ranks``, ``n_columns``).
``observe()`` builds it from the truth and the seen-counts only.

Legal moves depend only on the top cards, the foundations and the variant, all in the
observation: ``legal_moves(obs)``.

The exact sampler
-----------------
``sample_world(obs, rng)`` draws the unseen cards from their exact conditional
distribution given everything the player has seen.  The argument:

1. The deck is uniform over the orders of the pack.  Column c receives a fixed set of
   deck positions (i with i mod n_columns == c), ``n_c`` of them.  Without the king rule
   a dealt layout comes from exactly one deck.  With it, each column is a stable
   partition (kings, rank == ``ranks``, to the bottom, each group keeping its order): a
   dealt column holding k kings comes from exactly C(n_c, k) decks (choose which k of the
   column's n_c deck positions held the kings; the kings fill them in order, the other
   cards the rest in order), and the columns are independent.  So a dealt layout L
   has probability proportional to  prod_c C(n_c, k_c(L)).
2. What the player has seen is a function of the dealt layout and of its own moves; its
   moves depend only on what it saw and on its own random stream, never on the layout
   otherwise.  So P(history | L) is a factor that does not depend on L times
   [L is consistent with what was seen], and the posterior over layouts is the prior
   restricted to the consistent layouts: proportional to prod_c C(n_c, k_c(L)).
3. A consistent layout puts the unseen cards (the pack less every card seen) into the
   hidden slots, positions ``0 .. h_c - 1`` of each dealt column.  With the king rule the
   kings of a dealt column are its bottom block, so if column c's lowest seen dealt
   card (position h_c) is a king, all h_c hidden cards below it are kings; if it is
   not a king, the hidden part holds x_c kings at its bottom (positions 0..x_c-1) and
   non-kings above, for some x_c in 0..h_c.  (If no dealt card of c was seen, h_c = n_c
   and x_c is free in 0..h_c.)  The x_c add up to the number of unseen kings.
4. Given the counts x = (x_c), the consistent layouts are the ways of putting the unseen
   kings into the king slots and the unseen non-kings into the other slots, equally
   many (K! (U - K)!) for every feasible x, and each has the same weight
   prod_c C(n_c, a_c + x_c), a_c being the kings among column c's seen dealt cards.
   So: draw x with probability proportional to prod_c C(n_c, a_c + x_c) over the
   feasible x (an exact dynamic programme over the columns, in integers), then place
   the unseen kings uniformly in the king slots and the unseen non-kings uniformly in
   the rest.  Without the king rule every consistent layout has the same weight: the
   unseen cards go uniformly into the hidden slots.

The hidden slots of the dealt column are the same cards as the hidden slots of the
current column (they never moved), so one draw fills both: ``sample_deal`` gives the
whole dealt layout, ``sample_world`` the whole current layout, and
``deck_for_layout`` a deck that deals a given layout.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from math import comb

from ..cards import card_str, full_pack, rank_of, suit_of
from ..checker.bakers_dozen import BakersDozen
from ..errors import PatienceError

HIDDEN = -1  # a card the player has never seen


@dataclass(frozen=True)
class Observation:
    """What a Baker's Dozen player sees (immutable; plain ints in tuples).

    ``columns[c]``: column c now, bottom to top, ``HIDDEN`` for cards never seen.
    ``dealt[c]``: column c as dealt (after the king rule), ``HIDDEN`` for the same cards.
    ``foundation[s]``: the highest rank on suit s's foundation (0 = none yet).
    ``variant``: the full variant as sorted (key, value) pairs; ``rule(key)`` reads one.
    ``ranks``, ``n_columns``: the game's size (13 and 13 for the real game).
    """

    columns: tuple
    dealt: tuple
    foundation: tuple
    variant: tuple
    ranks: int
    n_columns: int

    def rule(self, key: str):
        return dict(self.variant)[key]

    def hidden_counts(self) -> tuple:
        """How many cards of each column the player has never seen (its bottom ones)."""
        return tuple(sum(1 for c in col if c == HIDDEN) for col in self.columns)

    def unseen_cards(self) -> list[int]:
        """The cards never seen (the pack less every seen dealt card), in code order."""
        seen = {c for col in self.dealt for c in col if c != HIDDEN}
        return [c for c in sorted(full_pack(1, self.ranks)) if c not in seen]


# --------------------------------------------------------------------------- moves


def legal_moves(obs: Observation) -> list[str]:
    """Every legal move (NOTATION.md words, e.g. ``c3 F AH``, ``c3 c7 QH``) from the
    observation alone: only the top cards, the foundations and the variant matter.
    Order: by source column; the foundation move first, then destinations c1, c2, ..."""
    empty_rule = obs.rule("empty")
    tops = [col[-1] if col else None for col in obs.columns]
    moves = []
    for src, t in enumerate(tops):
        if t is None:
            continue
        if t == HIDDEN:
            raise PatienceError(f"the top card of c{src + 1} is not face up: the observation is broken")
        name = card_str(t)
        if rank_of(t) == obs.foundation[suit_of(t)] + 1:
            moves.append(f"c{src + 1} F {name}")
        for dst, d in enumerate(tops):
            if dst == src:
                continue
            if d is None:
                ok = empty_rule == "any" or (empty_rule == "king" and rank_of(t) == obs.ranks)
            else:
                ok = rank_of(d) == rank_of(t) + 1
            if ok:
                moves.append(f"c{src + 1} c{dst + 1} {name}")
    return moves


# --------------------------------------------------------------------------- referee


class FaceDownGame:
    """The referee of one Baker's Dozen game: the truth plus what the player has seen.

    ``face_down=false`` (the default variant) is the same game with every card seen
    from the start.  A player gets ``observe()`` and ``legal_moves()``, never the state;
    ``referee_state()`` (a copy of the truth) is for the referee's own checks and tests.
    """

    def __init__(self, deck, variant: dict | None = None, *, ranks: int = 13, columns: int = 13):
        self._state = BakersDozen(deck, variant, ranks=ranks, columns=columns)
        self.variant = dict(self._state.variant)
        self.ranks = ranks
        self.n_columns = len(self._state.columns)
        self._dealt = [list(col) for col in self._state.columns]
        if self.variant["face_down"]:
            self._hidden = [max(len(col) - 1, 0) for col in self._dealt]
        else:
            self._hidden = [0] * self.n_columns
        self.moves_made: list[str] = []

    def observe(self) -> Observation:
        """The observation, from the truth and the seen-counts only."""
        cols, dealt = [], []
        for c, col in enumerate(self._state.columns):
            h = self._hidden[c]
            cols.append(tuple([HIDDEN] * h + col[h:]))
            dealt.append(tuple([HIDDEN] * h + self._dealt[c][h:]))
        return Observation(
            columns=tuple(cols),
            dealt=tuple(dealt),
            foundation=tuple(self._state.foundation),
            variant=tuple(sorted(self.variant.items())),
            ranks=self.ranks,
            n_columns=self.n_columns,
        )

    def legal_moves(self) -> list[str]:
        return legal_moves(self.observe())

    def apply(self, move: str) -> None:
        """Make one move on the truth (the checker raises IllegalMove, changing nothing,
        on an illegal one); the new top cards turn face up."""
        self._state.apply(move)
        for c, col in enumerate(self._state.columns):
            self._hidden[c] = min(self._hidden[c], max(len(col) - 1, 0))
        self.moves_made.append(move)

    def won(self) -> bool:
        return self._state.won()

    def referee_state(self) -> BakersDozen:
        """A copy of the true state: for the referee and the tests, never for a player."""
        return self._state.copy()


# --------------------------------------------------------------------------- sampler


def _sample_hidden(obs: Observation, rng: random.Random) -> list[list[int]]:
    """The unseen cards of each column, bottom to top, drawn from their exact conditional
    distribution given the observation (the module docstring argues it)."""
    hidden = obs.hidden_counts()
    unseen = obs.unseen_cards()
    if sum(hidden) != len(unseen):
        raise PatienceError(f"the observation has {sum(hidden)} hidden slots but {len(unseen)} unseen cards")
    king = obs.ranks
    if not obs.rule("kings_to_bottom"):
        rng.shuffle(unseen)
        out, i = [], 0
        for h in hidden:
            out.append(unseen[i:i + h])
            i += h
        return out

    kings = [c for c in unseen if rank_of(c) == king]
    others = [c for c in unseen if rank_of(c) != king]
    # Each column's feasible unseen-king counts x and their weights C(n_c, a_c + x).
    options = []
    for c, h in enumerate(hidden):
        dealt = obs.dealt[c]
        n = len(dealt)
        seen_kings = sum(1 for d in dealt[h:] if rank_of(d) == king)
        if h < n and rank_of(dealt[h]) == king:
            xs = [h]  # the lowest seen dealt card is a king: everything below it is too
        else:
            xs = list(range(h + 1))
        options.append([(x, comb(n, seen_kings + x)) for x in xs])
    # total[i][j]: summed weight of columns i.. holding exactly j unseen kings.
    k_all = len(kings)
    total = [[0] * (k_all + 1) for _ in range(len(options) + 1)]
    total[len(options)][0] = 1
    for i in range(len(options) - 1, -1, -1):
        for j in range(k_all + 1):
            total[i][j] = sum(w * total[i + 1][j - x] for x, w in options[i] if x <= j)
    if total[0][k_all] == 0:
        raise PatienceError("no layout is consistent with the observation")
    counts, j = [], k_all
    for i, opts in enumerate(options):
        r = rng.randrange(total[i][j])
        for x, w in opts:
            if x > j:
                continue
            r -= w * total[i + 1][j - x]
            if r < 0:
                break
        counts.append(x)
        j -= x
    rng.shuffle(kings)
    rng.shuffle(others)
    out, ki, oi = [], 0, 0
    for x, h in zip(counts, hidden):
        out.append(kings[ki:ki + x] + others[oi:oi + h - x])
        ki += x
        oi += h - x
    return out


def sample_deal(obs: Observation, rng: random.Random) -> list[list[int]]:
    """A dealt layout (columns bottom to top, after the king rule) drawn from the exact
    conditional distribution given ``obs``."""
    fill = _sample_hidden(obs, rng)
    return [fill[c] + list(col[len(fill[c]):]) for c, col in enumerate(obs.dealt)]


def sample_world(obs: Observation, rng: random.Random) -> list[list[int]]:
    """The current layout (columns bottom to top) with the hidden cards drawn from their
    exact conditional distribution given ``obs``; the foundations are ``obs.foundation``."""
    fill = _sample_hidden(obs, rng)
    return [fill[c] + list(col[len(fill[c]):]) for c, col in enumerate(obs.columns)]


def deck_for_layout(layout: list[list[int]]) -> list[int]:
    """A deck that deals ``layout`` (columns bottom to top, as dealt): card i is row
    i // n of column i mod n.  A dealt layout has its kings at the bottom already, so
    the king rule leaves it as it is."""
    n = len(layout)
    size = sum(len(col) for col in layout)
    deck = [layout[i % n][i // n] for i in range(size)]
    return deck
