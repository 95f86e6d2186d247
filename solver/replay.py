"""The independent checker: replay a solution move by move under RULES.md.

This module is deliberately written apart from the solver: plain Python, no numba,
and no import of ``solver.games`` or ``solver.search``.  It works straight from the
text of RULES.md and NOTATION.md, so a bug in a search kernel cannot hide itself by
also being in the checker.  Speed does not matter here; being obviously right does.

Each game is a small rule class: ``__init__(deck, variant, ranks=..., columns=...)``
(``columns=None`` is the game's own number of piles)
deals the layout, ``apply(move_text)`` makes one move or raises ``IllegalMove`` with
the reason, ``won()`` says whether every card is on the foundations.  ``GAMES`` maps
the NOTATION.md game name to its class; a new game is one class and one entry.
``apply`` checks everything before it changes anything, so a move that raises leaves
the state as it was (searches over the rules, such as tests/gd_oracle.py, rely on it).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from .cards import RANKS, SUITS, card_str, check_deck, is_red, parse_card, rank_of, suit_of
from .errors import PatienceError

SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")  # in code order C D H S


class IllegalMove(Exception):
    """One move breaks the rules (or is not a move at all); the message is the reason."""


@dataclass
class ReplayResult:
    legal: bool  # every move was legal
    won: bool  # ... and afterwards every card is on the foundations
    moves_applied: int  # legal moves made before stopping
    error: str | None  # the first illegal move and why, or why a legal replay is not won


# --------------------------------------------------------------------------- files


def read_solution(path) -> list[str]:
    """The moves of a solution file: one move a line, or JSON (a list, or {"moves": [...]})."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise PatienceError(f"solution file {str(path)!r} does not exist") from None
    except (OSError, UnicodeDecodeError) as e:
        raise PatienceError(f"cannot read solution file {str(path)!r}: {e}") from None

    stripped = text.lstrip()
    # A plain move line starts with a pile name or a word like "deal", never with
    # "[" or "{", so those two characters safely mean the file is JSON.
    if not stripped.startswith(("[", "{")):
        moves = []
        for line in text.splitlines():
            line = line.strip()
            if line and not line.startswith("#"):
                moves.append(line)
        return moves

    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise PatienceError(
            f"solution file {str(path)!r} is not valid JSON: {e.msg} (line {e.lineno}, column {e.colno})"
        ) from None
    if isinstance(data, dict):
        if "moves" not in data:
            raise PatienceError(f"solution file {str(path)!r} is a JSON object without a \"moves\" list")
        data = data["moves"]
    if not isinstance(data, list) or not all(isinstance(m, str) for m in data):
        raise PatienceError(f"solution file {str(path)!r}: the moves must be a JSON list of strings such as \"c3 F AH\"")
    return [m.strip() for m in data]


# ------------------------------------------------------------------ Baker's Dozen

BAKERS_DOZEN_VARIANT = {"kings_to_bottom": True, "face_down": False, "empty": "none"}
EMPTY_RULES = ("none", "any", "king")


def _checked_variant(game: str, defaults: dict, variant: dict | None, *, bools=(), redeals: int | None = None,
                     choices: dict | None = None) -> dict:
    """The variant with defaults filled in.  Anything unknown is an error, not ignored,
    because a checker that silently ignores a rule would approve the wrong game; so is
    a bad value: ``bools`` must be true or false, ``redeals`` (when given, its upper
    limit) a whole number from 0, and each key of ``choices`` one of its words."""
    full = dict(defaults)
    for key, value in (variant or {}).items():
        if key not in full:
            raise PatienceError(f"unknown variant {key!r} for {game} (known: {', '.join(full)})")
        full[key] = value
    if redeals is not None:
        n = full["redeals"]
        # bool is a subclass of int in Python; "redeals=True" is a mistake, not 1.
        if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= redeals:
            raise PatienceError(f"variant redeals takes a whole number from 0 to {redeals}, not {n!r}")
    for key in bools:
        if not isinstance(full[key], bool):
            raise PatienceError(f"variant {key} must be true or false, not {full[key]!r}")
    for key, words in (choices or {}).items():
        if not isinstance(full[key], str) or full[key] not in words:
            raise PatienceError(f"variant {key} takes one of {'|'.join(words)}, not {full[key]!r}")
    return full


def _bakers_dozen_variant(variant: dict | None) -> dict:
    return _checked_variant("bakers-dozen", BAKERS_DOZEN_VARIANT, variant, bools=("kings_to_bottom", "face_down"),
                            choices={"empty": EMPTY_RULES})


def _check_size(ranks: int, columns: int) -> None:
    if not 1 <= ranks <= 13:
        raise PatienceError(f"ranks must be from 1 to 13, not {ranks}")
    if columns < 1:
        raise PatienceError(f"columns must be at least 1, not {columns}")


def deal_columns(deck, variant: dict | None = None, ranks: int = 13, columns: int = 13) -> list[list[int]]:
    """Baker's Dozen layout, each column listed bottom to top.

    Deck card i goes on top of column (i mod columns) + 1; then, with the king rule
    on, each column is stably partitioned with kings (rank ``ranks``) at the bottom.
    """
    _check_size(ranks, columns)
    variant = _bakers_dozen_variant(variant)
    cards = [int(c) for c in deck]
    check_deck(cards, packs=1, ranks=ranks)
    cols: list[list[int]] = [[] for _ in range(columns)]
    for i, c in enumerate(cards):
        cols[i % columns].append(c)
    if variant["kings_to_bottom"]:
        cols = [
            [c for c in col if rank_of(c) == ranks] + [c for c in col if rank_of(c) != ranks]
            for col in cols
        ]
    return cols


def _pile_number(word: str, letter: str, n: int) -> int | None:
    """0-based index of pile ``<letter>N`` for N in 1..n, else None.  Comparing
    str(int(...)) with the digits rejects spellings like "c03" or "c+3"."""
    digits = word[1:]
    if word.startswith(letter) and digits.isdigit() and str(int(digits)) == digits and 1 <= int(digits) <= n:
        return int(digits) - 1
    return None


def _rank_name(rank: int) -> str:
    return RANKS[rank - 1]


def _move_card(word: str, ranks: int) -> int:
    """The CARD word of a move; a bad code or a rank above ``ranks`` is an illegal move."""
    try:
        c = parse_card(word)
    except PatienceError as e:
        raise IllegalMove(str(e)) from None
    if rank_of(c) > ranks:
        raise IllegalMove(f"{card_str(c)} is not in this game's deck (ranks A..{_rank_name(ranks)})")
    return c


class BakersDozen:
    """Baker's Dozen as RULES.md states it, optionally shrunk to ``ranks`` and ``columns``."""

    name = "bakers-dozen"

    def __init__(self, deck, variant: dict | None = None, *, ranks: int = 13, columns: int | None = 13):
        self.variant = _bakers_dozen_variant(variant)
        columns = 13 if columns is None else columns
        self.ranks = ranks
        self.columns = deal_columns(deck, self.variant, ranks=ranks, columns=columns)
        self.foundation = [0] * 4  # highest rank on each suit's foundation, 0 = none yet

    # -- reading a move

    def _column(self, word: str) -> int:
        """Index of column ``cN``; any other name is not a column of this game."""
        n = len(self.columns)
        i = _pile_number(word, "c", n)
        if i is not None:
            return i
        raise IllegalMove(f"unknown pile {word!r}: this game has columns c1..c{n} and the foundations F")

    def _card(self, word: str) -> int:
        return _move_card(word, self.ranks)

    # -- the rules

    def apply(self, move_text: str) -> None:
        words = move_text.split()
        if len(words) == 1:
            raise IllegalMove(f"{words[0]!r} is not a move in Baker's Dozen (moves are 'cN cM CARD' and 'cN F CARD')")
        if len(words) != 3:
            raise IllegalMove(f"a move is three words 'SOURCE DESTINATION CARD', this has {len(words)}")
        src_word, dst_word, card_word = words
        if src_word == "F":
            raise IllegalMove("a card on a foundation never moves again")
        src = self._column(src_word)
        dst = None if dst_word == "F" else self._column(dst_word)
        c = self._card(card_word)
        name = card_str(c)

        # Only the top card of a column moves.
        column = self.columns[src]
        if not column:
            raise IllegalMove(f"{src_word} is empty")
        if column[-1] != c:
            raise IllegalMove(f"{name} is not the top card of {src_word} (top is {card_str(column[-1])})")

        if dst is None:
            # Foundations are built up by suit from the ace to the top rank.
            s = suit_of(c)
            have = self.foundation[s]
            if rank_of(c) != have + 1:
                if have == 0:
                    needs = f"it needs A{SUITS[s]} first"
                else:
                    needs = f"it has {_rank_name(have)}{SUITS[s]} on top, so it takes {_rank_name(have + 1)}{SUITS[s]} next"
                raise IllegalMove(f"{name} cannot go to the {SUIT_NAMES[s]} foundation: {needs}")
            self.foundation[s] = have + 1
            column.pop()
            return

        if dst == src:
            raise IllegalMove("a card cannot move onto its own column")
        target = self.columns[dst]
        if target:
            # Onto a card exactly one rank higher, any suit.
            top = target[-1]
            if rank_of(top) != rank_of(c) + 1:
                if rank_of(c) == self.ranks:
                    needs = "no card is one rank higher than a king"
                else:
                    needs = f"it needs a {_rank_name(rank_of(c) + 1)}, one rank higher, of any suit"
                raise IllegalMove(f"{name} cannot go on {card_str(top)}, the top card of {dst_word}: {needs}")
        else:
            # Empty columns: never filled (standard), or by any card, or by kings only.
            rule = self.variant["empty"]
            if rule == "none":
                raise IllegalMove(f"{dst_word} is empty and an empty column is never filled (empty=none)")
            if rule == "king" and rank_of(c) != self.ranks:
                raise IllegalMove(
                    f"{dst_word} is empty and only a king (rank {_rank_name(self.ranks)}) may fill it (empty=king)"
                )
        target.append(column.pop())

    def cards_left(self) -> int:
        """Cards not on the foundations."""
        return sum(len(col) for col in self.columns)

    def won(self) -> bool:
        return self.cards_left() == 0


# ------------------------------------------------- Grand Duchess and Parisienne

GRAND_DUCHESS_VARIANT = {"redeals": 3, "foundation_transfer": False, "reserve_first": False}
GD_PILES = ("t1", "t2", "t3", "t4")
# One deal of a round with a reserve goes to these piles, in this order ("R" = reserve);
# a round without one deals only the first four.
GD_DEAL_ORDER = ("t1", "t2", "t3", "t4", "R", "R")


def _grand_duchess_variant(game: str, variant: dict | None) -> dict:
    return _checked_variant(game, GRAND_DUCHESS_VARIANT, variant, redeals=3,
                            bools=("foundation_transfer", "reserve_first"))


class GrandDuchess:
    """Grand Duchess (Duchess of Luynes) as RULES.md states it, optionally shrunk to ``ranks``.

    The state, all plain lists and ints (read them freely; change them only via ``apply``):

    - ``tableau``: four lists, ``tableau[0]`` is t1, each listed bottom to top (top = [-1]).
    - ``reserve``: the reserve cards in the order they went into the reserve (first dealt
      first).  Face down while ``stock`` is non-empty, face up (all available) once it is empty.
    - ``stock``: the stock in dealing order, ``stock[0]`` is the next card dealt.
    - ``up[s]`` / ``down[s]``: the rank of the top card of suit s's up / down foundation
      (suits C D H S = 0..3), 0 when that foundation is empty.  An up foundation holds
      A..up[s], a down foundation holds ranks..down[s], so the top rank says everything.
    - ``round``: 1 for the first round, +1 per redeal; ``redeals_left``.
    - ``has_reserve``: whether the current round deals to a reserve (False only in a
      round after the last allowed redeal).

    The first deal is made in ``__init__`` (it is not a move); a redeal leaves the new
    round undealt and the player's ``deal`` makes its first deal.
    """

    name = "grand-duchess"

    def __init__(self, deck, variant: dict | None = None, *, ranks: int = 13, columns: int | None = None):
        if not 1 <= ranks <= 13:
            raise PatienceError(f"ranks must be from 1 to 13, not {ranks}")
        # The tableau is always four piles; 13 is replay()'s default for every game.
        if columns not in (None, 4, 13):
            raise PatienceError(f"{self.name} always has four tableau piles t1..t4; columns={columns} is not supported")
        self.variant = _grand_duchess_variant(self.name, variant)
        self.ranks = ranks
        cards = [int(c) for c in deck]
        check_deck(cards, packs=2, ranks=ranks)
        self.tableau: list[list[int]] = [[], [], [], []]
        self.reserve: list[int] = []
        self.up = [0] * 4
        self.down = [0] * 4
        self.round = 1
        self.redeals_left = self.variant["redeals"]
        self.stock = self._setup(cards)
        self._deal()  # the first deal is made before play starts

    def _setup(self, cards: list[int]) -> list[int]:
        """Put any cards on the foundations before play; return the stock (Grand Duchess: all)."""
        return list(cards)

    def copy(self):
        """An independent copy of the whole state (for searches over the rules)."""
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.tableau = [list(p) for p in self.tableau]
        other.reserve = list(self.reserve)
        other.stock = list(self.stock)
        other.up = list(self.up)
        other.down = list(self.down)
        return other

    @property
    def has_reserve(self) -> bool:
        # The round after the last allowed redeal has no reserve; with redeals=0 there
        # is no such round, so round one keeps its reserve.
        return not (self.variant["redeals"] > 0 and self.redeals_left == 0)

    def _deal(self) -> None:
        """One deal: t1 t2 t3 t4 R R (or t1..t4 without a reserve), fewer when the stock runs out."""
        order = GD_DEAL_ORDER if self.has_reserve else GD_DEAL_ORDER[:4]
        for pile in order:
            if not self.stock:
                break
            c = self.stock.pop(0)
            if pile == "R":
                self.reserve.append(c)
            else:
                self.tableau[GD_PILES.index(pile)].append(c)

    # -- reading a move

    def _card(self, word: str) -> int:
        return _move_card(word, self.ranks)

    def _foundation_name(self, which: str, s: int) -> str:
        return f"the {SUIT_NAMES[s]} {'up' if which == 'U' else 'down'} foundation"

    def _fits(self, c: int, which: str) -> str | None:
        """None if card c fits the up ('U') or down ('D') foundation of its suit, else why not."""
        s, r, n = suit_of(c), rank_of(c), self.ranks
        where = f"{card_str(c)} cannot go to {self._foundation_name(which, s)}"
        if which == "U":
            top = self.up[s]
            if top == 0:
                return None if r == 1 else f"{where}: it is empty and an up foundation starts with the ace"
            if top == n:
                return f"{where}: it is complete (up to {_rank_name(n)}{SUITS[s]})"
            want = top + 1
        else:
            top = self.down[s]
            if top == 0:
                return None if r == n else (
                    f"{where}: it is empty and a down foundation starts with the king (rank {_rank_name(n)})"
                )
            if top == 1:
                return f"{where}: it is complete (down to A{SUITS[s]})"
            want = top - 1
        if r == want:
            return None
        return f"{where}: it has {_rank_name(top)}{SUITS[s]} on top, so it takes {_rank_name(want)}{SUITS[s]} next"

    def _place(self, c: int, which: str) -> None:
        s = suit_of(c)
        if which == "U":
            self.up[s] = rank_of(c)
        else:
            self.down[s] = rank_of(c)

    # -- the rules

    def apply(self, move_text: str) -> None:
        words = move_text.split()
        if len(words) == 1:
            if words[0] == "deal":
                if not self.stock:
                    raise IllegalMove("deal: the stock is empty")
                self._deal()
                return
            if words[0] == "redeal":
                self._redeal()
                return
            raise IllegalMove(
                f"{words[0]!r} is not a move in {self.name} (moves are 'SOURCE U|D CARD', 'deal' and 'redeal')"
            )
        if len(words) != 3:
            raise IllegalMove(f"a move is three words 'SOURCE DESTINATION CARD' or one word, this has {len(words)}")
        src, dst, card_word = words
        if src not in GD_PILES + ("R", "U", "D"):
            raise IllegalMove(f"unknown pile {src!r}: this game's cards move from t1..t4, R (and U/D with foundation_transfer)")
        if dst not in ("U", "D"):
            if dst in GD_PILES or dst == "R":
                raise IllegalMove(f"nothing is ever built on the tableau or the reserve: {dst} cannot take a card")
            raise IllegalMove(f"unknown destination {dst!r}: cards go only to U or D (the up or down foundation of their suit)")
        c = self._card(card_word)
        name = card_str(c)
        s = suit_of(c)

        if src in GD_PILES:
            # The top card of a tableau pile.
            pile = self.tableau[GD_PILES.index(src)]
            if not pile:
                raise IllegalMove(f"{src} is empty")
            if pile[-1] != c:
                raise IllegalMove(f"{name} is not the top card of {src} (top is {card_str(pile[-1])})")
            why = self._fits(c, dst)
            if why:
                raise IllegalMove(why)
            pile.pop()
            self._place(c, dst)
            return

        if src == "R":
            # Any reserve card, but only once the stock is empty (the reserve is face down till then).
            if not self.has_reserve:
                raise IllegalMove("this round has no reserve (no reserve after the last redeal)")
            if self.stock:
                raise IllegalMove("no reserve card may move while the stock has cards (the reserve is face down)")
            if c not in self.reserve:
                raise IllegalMove(f"{name} is not in the reserve")
            why = self._fits(c, dst)
            if why:
                raise IllegalMove(why)
            # Copies are interchangeable; take the first-dealt one (list.remove does).
            self.reserve.remove(c)
            self._place(c, dst)
            return

        # src is U or D: a foundation transfer.
        if not self.variant["foundation_transfer"]:
            raise IllegalMove("a card on a foundation never moves again (foundation_transfer is off)")
        if src == dst:
            raise IllegalMove(f"a card cannot move onto its own foundation ({src} {dst})")
        top = self.up[s] if src == "U" else self.down[s]
        if top == 0:
            raise IllegalMove(f"{self._foundation_name(src, s)} is empty")
        if top != rank_of(c):
            raise IllegalMove(
                f"{name} is not the top card of {self._foundation_name(src, s)} (top is {_rank_name(top)}{SUITS[s]})"
            )
        why = self._fits(c, dst)
        if why:
            raise IllegalMove(why)
        r = rank_of(c)
        if src == "U":
            self.up[s] = r - 1  # 0 when the ace leaves: empty
        else:
            self.down[s] = r + 1 if r < self.ranks else 0  # empty when the king leaves
        self._place(c, dst)

    def _redeal(self) -> None:
        if self.stock:
            raise IllegalMove(f"redeal: only once the stock is empty ({len(self.stock)} cards left in it)")
        if self.redeals_left == 0:
            allowed = self.variant["redeals"]
            raise IllegalMove(f"redeal: no redeals left (this game allows {allowed})")
        # t1 on t2, on t3, on t4, turned face down: t4 deals first, each pile from its
        # bottom card up; the reserve goes under the packet (or over it, reserve_first),
        # in the order its cards went into the reserve.
        piles = [c for p in reversed(self.tableau) for c in p]
        if self.variant["reserve_first"]:
            self.stock = list(self.reserve) + piles
        else:
            self.stock = piles + list(self.reserve)
        self.tableau = [[], [], [], []]
        self.reserve = []
        self.redeals_left -= 1
        self.round += 1

    def cards_left(self) -> int:
        """Cards not on the foundations."""
        return sum(len(p) for p in self.tableau) + len(self.reserve) + len(self.stock)

    def won(self) -> bool:
        return self.cards_left() == 0


class Parisienne(GrandDuchess):
    """Grand Duchess with the first copy of each ace and king on the foundations before play."""

    name = "parisienne"

    def __init__(self, deck, variant: dict | None = None, *, ranks: int = 13, columns: int | None = None):
        if ranks == 1:
            # With one rank the ace is the king: "the first copy of each ace and each
            # king" would put one card on two foundations.
            raise PatienceError("parisienne needs ranks of at least 2 (with ranks=1 the ace is also the king)")
        super().__init__(deck, variant, ranks=ranks, columns=columns)

    def _setup(self, cards: list[int]) -> list[int]:
        stock = []
        for c in cards:
            s, r = suit_of(c), rank_of(c)
            if r == 1 and self.up[s] == 0:
                self.up[s] = 1  # the first ace of the suit starts its up foundation
            elif r == self.ranks and self.down[s] == 0:
                self.down[s] = self.ranks  # the first king starts its down foundation
            else:
                stock.append(c)
        return stock


# ------------------------------------------------------------------- Capricieuse

CAPRICIEUSE_VARIANT = {"redeals": 2, "deal_plays": True}
CAPRICIEUSE_PILES = 12  # p1..p12 in the real game


def _capricieuse_variant(variant: dict | None) -> dict:
    return _checked_variant("capricieuse", CAPRICIEUSE_VARIANT, variant, redeals=2, bools=("deal_plays",))


def capricieuse_fits(c: int, which: str, up: list[int], down: list[int], ranks: int) -> str | None:
    """None if card c fits the up ('U') or down ('D') foundation of its suit, else why not.

    ``up[s]`` / ``down[s]`` are the top ranks of suit s's foundations, 0 when empty:
    an up foundation starts with the ace and is built up to rank ``ranks``, a down
    foundation starts with rank ``ranks`` (the king's part) and is built down to the ace.
    """
    s, r, n = suit_of(c), rank_of(c), ranks
    where = f"{card_str(c)} cannot go to the {SUIT_NAMES[s]} {'up' if which == 'U' else 'down'} foundation"
    if which == "U":
        top = up[s]
        if top == 0:
            return None if r == 1 else f"{where}: it is empty and an up foundation starts with the ace"
        if top == n:
            return f"{where}: it is complete (up to {_rank_name(n)}{SUITS[s]})"
        want = top + 1
    else:
        top = down[s]
        if top == 0:
            return None if r == n else (
                f"{where}: it is empty and a down foundation starts with the king (rank {_rank_name(n)})"
            )
        if top == 1:
            return f"{where}: it is complete (down to A{SUITS[s]})"
        want = top - 1
    if r == want:
        return None
    return f"{where}: it has {_rank_name(top)}{SUITS[s]} on top, so it takes {_rank_name(want)}{SUITS[s]} next"


def capricieuse_deal(stock, piles: list[list[int]], up: list[int], down: list[int],
                     ranks: int, deal_plays: bool = True) -> list[tuple[str, int]]:
    """The Capricieuse deal procedure (RULES.md), changing ``piles``, ``up``, ``down`` in place.

    The cards of ``stock`` (first dealt first) are dealt one at a time to the piles in
    turn, p1 p2 .. pN p1 ..  With ``deal_plays``, a card that fits a foundation when it
    is dealt goes there at once (up first if it fits both) and the next card is dealt to
    the same pile; only the card being dealt is checked, never the cards already on the
    piles.  Without ``deal_plays`` every card goes to its pile in turn.

    Returns the foundation plays made, ``("U" | "D", card)`` in the order they happened.
    """
    plays: list[tuple[str, int]] = []
    i = 0  # the pile the next card goes to
    for c in stock:
        if deal_plays:
            placed = False
            for which in ("U", "D"):  # a card that fits both goes up
                if capricieuse_fits(c, which, up, down, ranks) is None:
                    if which == "U":
                        up[suit_of(c)] = rank_of(c)
                    else:
                        down[suit_of(c)] = rank_of(c)
                    plays.append((which, c))
                    placed = True
                    break
            if placed:
                continue  # the next card goes to the same pile
        piles[i].append(c)
        i = (i + 1) % len(piles)
    return plays


class Capricieuse:
    """Capricieuse as RULES.md states it, optionally shrunk to ``ranks`` and ``columns`` piles.

    The state, all plain lists and ints (read them freely; change them only via ``apply``):

    - ``piles``: N lists (12 unless ``columns`` says otherwise), ``piles[0]`` is p1, each
      listed bottom to top (top = [-1]).
    - ``up[s]`` / ``down[s]``: the rank of the top card of suit s's up / down foundation
      (suits C D H S = 0..3), 0 when that foundation is empty.  An up foundation holds
      A..up[s], a down foundation holds ranks..down[s], so the top rank says everything.
    - ``round``: 1 for the first round, +1 per redeal; ``redeals_left``.

    There is no stock between moves: the deal procedure runs at once, in ``__init__``
    and inside each ``redeal``, and its foundation plays are not moves.
    """

    name = "capricieuse"

    def __init__(self, deck, variant: dict | None = None, *, ranks: int = 13, columns: int | None = None):
        if isinstance(ranks, bool) or not isinstance(ranks, int) or not 1 <= ranks <= 13:
            raise PatienceError(f"ranks must be from 1 to 13, not {ranks!r}")
        columns = CAPRICIEUSE_PILES if columns is None else columns
        if isinstance(columns, bool) or not isinstance(columns, int) or not 1 <= columns <= CAPRICIEUSE_PILES:
            raise PatienceError(f"{self.name} has from 1 to {CAPRICIEUSE_PILES} piles, not columns={columns!r}")
        self.variant = _capricieuse_variant(variant)
        if ranks == 1 and not self.variant["deal_plays"]:
            # With one rank the ace is also the king: "the first copy of each ace and
            # each king" would put one card on two foundations.
            raise PatienceError("capricieuse deal_plays=false needs ranks of at least 2 (with ranks=1 the ace is also the king)")
        self.ranks = ranks
        cards = [int(c) for c in deck]
        check_deck(cards, packs=2, ranks=ranks)
        self.piles: list[list[int]] = [[] for _ in range(columns)]
        self.up = [0] * 4
        self.down = [0] * 4
        self.round = 1
        self.redeals_left = self.variant["redeals"]
        stock = cards
        if not self.variant["deal_plays"]:
            # PySolFC: the first copy of each ace and each king starts its foundation.
            stock = []
            for c in cards:
                s, r = suit_of(c), rank_of(c)
                if r == 1 and self.up[s] == 0:
                    self.up[s] = 1
                elif r == ranks and self.down[s] == 0:
                    self.down[s] = ranks
                else:
                    stock.append(c)
        self._deal(stock)

    def _deal(self, stock: list[int]) -> None:
        capricieuse_deal(stock, self.piles, self.up, self.down, self.ranks, self.variant["deal_plays"])

    def copy(self):
        """An independent copy of the whole state (for searches over the rules)."""
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.piles = [list(p) for p in self.piles]
        other.up = list(self.up)
        other.down = list(self.down)
        return other

    # -- reading a move

    def _pile(self, word: str) -> int:
        """Index of pile ``pN``; any other name is not a pile of this game."""
        n = len(self.piles)
        i = _pile_number(word, "p", n)
        if i is not None:
            return i
        raise IllegalMove(f"unknown pile {word!r}: this game has piles p1..p{n} and the foundations U and D")

    # -- the rules

    def apply(self, move_text: str) -> None:
        words = move_text.split()
        if len(words) == 1:
            if words[0] == "redeal":
                self._redeal()
                return
            if words[0] == "deal":
                raise IllegalMove("there is no 'deal' move in capricieuse: the deal runs by itself, at the start and after each redeal")
            raise IllegalMove(
                f"{words[0]!r} is not a move in {self.name} (moves are 'pN U|D CARD', 'pN pM CARD' and 'redeal')"
            )
        if len(words) != 3:
            raise IllegalMove(f"a move is three words 'SOURCE DESTINATION CARD' or one word, this has {len(words)}")
        src_word, dst_word, card_word = words
        if src_word in ("U", "D"):
            raise IllegalMove("a card on a foundation never moves again")
        src = self._pile(src_word)
        dst = dst_word if dst_word in ("U", "D") else self._pile(dst_word)
        c = _move_card(card_word, self.ranks)
        name = card_str(c)

        # Only the top card of a pile moves.
        pile = self.piles[src]
        if not pile:
            raise IllegalMove(f"{src_word} is empty")
        if pile[-1] != c:
            raise IllegalMove(f"{name} is not the top card of {src_word} (top is {card_str(pile[-1])})")

        if dst in ("U", "D"):
            why = capricieuse_fits(c, dst, self.up, self.down, self.ranks)
            if why:
                raise IllegalMove(why)
            pile.pop()
            if dst == "U":
                self.up[suit_of(c)] = rank_of(c)
            else:
                self.down[suit_of(c)] = rank_of(c)
            return

        if dst == src:
            raise IllegalMove("a card cannot move onto its own pile")
        target = self.piles[dst]
        if target:
            # Onto a card of the same suit one rank higher or lower; K and A are not adjacent.
            top = target[-1]
            if suit_of(top) != suit_of(c) or abs(rank_of(top) - rank_of(c)) != 1:
                s, r = suit_of(c), rank_of(c)
                wanted = [f"{_rank_name(x)}{SUITS[s]}" for x in (r - 1, r + 1) if 1 <= x <= self.ranks]
                needs = f"it needs {' or '.join(wanted)} (same suit, one rank lower or higher)" if wanted else (
                    "no card is one rank from it"
                )
                raise IllegalMove(f"{name} cannot go on {card_str(top)}, the top card of {dst_word}: {needs}")
        # An empty pile takes any card.
        target.append(pile.pop())

    def _redeal(self) -> None:
        if self.redeals_left == 0:
            allowed = self.variant["redeals"]
            raise IllegalMove(f"redeal: no redeals left (this game allows {allowed})")
        # p1 on p2, .. on pN, turned face down: the new stock deals pN first, each pile
        # from its bottom card up, then pN-1, .., p1; the deal starts again at p1.
        stock = [c for p in reversed(self.piles) for c in p]
        self.piles = [[] for _ in self.piles]
        self.redeals_left -= 1
        self.round += 1
        self._deal(stock)

    def cards_left(self) -> int:
        """Cards not on the foundations."""
        return sum(len(p) for p in self.piles)

    def won(self) -> bool:
        return self.cards_left() == 0


# ------------------------------------------------------------------------ Duchess

DUCHESS_VARIANT = {"redeals": 1, "moves": "any"}
DUCHESS_MOVE_RULES = ("any", "whole")
DUCHESS_FANS = ("r1", "r2", "r3", "r4")
DUCHESS_COLUMNS = ("t1", "t2", "t3", "t4")


def _duchess_variant(variant: dict | None) -> dict:
    return _checked_variant("duchess", DUCHESS_VARIANT, variant, redeals=1, choices={"moves": DUCHESS_MOVE_RULES})


class Duchess:
    """Duchess (Glenwood) as RULES.md states it, optionally shrunk to ``ranks`` (4..13).

    The state, all plain lists and ints (read them freely; change them only via ``apply``):

    - ``fans``: the four reserve fans, ``fans[0]`` is r1, each listed bottom to top.
    - ``columns``: the four tableau columns, ``columns[0]`` is t1, bottom to top.
    - ``stock``: the stock in dealing order, ``stock[0]`` is the next card dealt.
    - ``waste``: bottom to top (top = [-1]); ``waste[0]`` was dealt first.
    - ``base``: the base rank, set by the first move; None before it.
    - ``found[s]``: how many cards of suit s (C D H S = 0..3) are on its foundation,
      0..ranks.  A foundation holds base, base+1, .. (wrapping from rank ``ranks`` to
      the ace), so the count says which cards.
    - ``redeals_left``.

    Rank ``ranks`` plays the king's part: it goes on an ace in the tableau, and the ace
    follows it on a foundation.
    """

    name = "duchess"

    def __init__(self, deck, variant: dict | None = None, *, ranks: int = 13, columns: int | None = None):
        # 16 cards are needed for the fans and the columns, so at least 4 ranks.
        if isinstance(ranks, bool) or not isinstance(ranks, int) or not 4 <= ranks <= 13:
            raise PatienceError(f"duchess needs ranks from 4 to 13 (16 cards for the layout), not {ranks!r}")
        if columns is not None and (isinstance(columns, bool) or not isinstance(columns, int) or columns != 4):
            raise PatienceError(f"{self.name} always has four tableau columns t1..t4; columns={columns!r} is not supported")
        self.variant = _duchess_variant(variant)
        self.ranks = ranks
        cards = [int(c) for c in deck]
        check_deck(cards, packs=1, ranks=ranks)
        self.fans: list[list[int]] = [[], [], [], []]
        for i, c in enumerate(cards[:12]):
            self.fans[i % 4].append(c)  # each card on top of the one before
        self.columns: list[list[int]] = [[c] for c in cards[12:16]]
        self.stock: list[int] = cards[16:]  # deck card 16 is dealt first
        self.waste: list[int] = []
        self.base: int | None = None
        self.found = [0] * 4
        self.redeals_left = self.variant["redeals"]

    def copy(self):
        """An independent copy of the whole state (for searches over the rules)."""
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.fans = [list(p) for p in self.fans]
        other.columns = [list(p) for p in self.columns]
        other.stock = list(self.stock)
        other.waste = list(self.waste)
        other.found = list(self.found)
        return other

    # -- helpers

    def _reserve_left(self) -> int:
        return sum(len(f) for f in self.fans)

    def _next_rank(self, s: int) -> int:
        """The rank suit s's foundation takes next (base set, foundation not complete)."""
        return (self.base - 1 + self.found[s]) % self.ranks + 1

    def _fits_foundation(self, c: int) -> str | None:
        """None if card c may go to its suit's foundation now, else why not."""
        s, r = suit_of(c), rank_of(c)
        if self.base is None:
            return None  # the first move: any fan top starts its foundation (checked by the caller)
        where = f"{card_str(c)} cannot go to the {SUIT_NAMES[s]} foundation"
        if self.found[s] == self.ranks:
            return f"{where}: it is complete"
        want = self._next_rank(s)
        if r == want:
            return None
        if self.found[s] == 0:
            return (f"{where}: it is empty and starts with the base rank, "
                    f"so it takes {_rank_name(want)}{SUITS[s]}")
        top = (want - 2) % self.ranks + 1
        return f"{where}: it has {_rank_name(top)}{SUITS[s]} on top, so it takes {_rank_name(want)}{SUITS[s]} next"

    def _goes_on(self, c: int, under: int) -> bool:
        """Whether card c may lie on card ``under`` in a column: one rank lower (a rank
        ``ranks`` card on an ace), the other colour."""
        r, u = rank_of(c), rank_of(under)
        lower = u == r + 1 or (r == self.ranks and u == 1)
        return lower and is_red(c) != is_red(under)

    def _fits_column(self, c: int, dst: int, dst_word: str) -> str | None:
        """None if card c may go onto non-empty column ``dst``, else why not."""
        top = self.columns[dst][-1]
        if self._goes_on(c, top):
            return None
        r = rank_of(c)
        want_rank = 1 if r == self.ranks else r + 1
        colour = "black" if is_red(c) else "red"
        return (f"{card_str(c)} cannot go on {card_str(top)}, the top card of {dst_word}: "
                f"it needs a {colour} {_rank_name(want_rank)} (one rank higher, the other colour)")

    def _space_source(self) -> str:
        """Which pile may fill a space now: 'r' (a fan), 'W' or 'S'."""
        if self._reserve_left():
            return "r"
        return "W" if self.waste else "S"

    def _space_error(self, src_word: str, dst_word: str) -> str | None:
        """None if ``src_word``'s pile may fill empty column ``dst_word`` now, else why not."""
        if src_word.startswith("t"):
            return f"{dst_word} is empty and a column card or run never moves into a space"
        allowed = self._space_source()
        kind = "r" if src_word.startswith("r") else src_word
        if kind == allowed:
            return None
        if allowed == "r":
            n = self._reserve_left()
            return f"{dst_word} is empty and a space takes only a reserve fan's top card while any reserve card is left ({n} left)"
        if allowed == "W":
            return f"{dst_word} is empty and, with the reserve empty, a space takes the top card of the waste (it is not empty)"
        return f"{dst_word} is empty and, with the reserve and the waste empty, a space takes the top card of the stock"

    # -- the rules

    def apply(self, move_text: str) -> None:
        words = move_text.split()
        if len(words) == 1:
            if words[0] in ("deal", "redeal"):
                if self.base is None:
                    raise IllegalMove(
                        f"{words[0]}: the first move must take the top card of a reserve fan to its foundation (rN F CARD)"
                    )
                if words[0] == "deal":
                    self._deal()
                else:
                    self._redeal()
                return
            raise IllegalMove(
                f"{words[0]!r} is not a move in duchess (moves are 'SOURCE DESTINATION CARD', 'deal' and 'redeal')"
            )
        if len(words) != 3:
            raise IllegalMove(f"a move is three words 'SOURCE DESTINATION CARD' or one word, this has {len(words)}")
        src_word, dst_word, card_word = words
        if src_word == "F":
            raise IllegalMove("a card on a foundation never moves again")
        if src_word not in DUCHESS_FANS + DUCHESS_COLUMNS + ("W", "S"):
            raise IllegalMove(f"unknown pile {src_word!r}: cards move from r1..r4, t1..t4, W and S")
        if dst_word != "F" and dst_word not in DUCHESS_COLUMNS:
            if dst_word in DUCHESS_FANS:
                raise IllegalMove(f"nothing is ever placed on a reserve fan: {dst_word} cannot take a card")
            if dst_word in ("W", "S"):
                raise IllegalMove(f"no move places a card on {dst_word} (only 'deal' and 'redeal' fill the waste and the stock)")
            raise IllegalMove(f"unknown destination {dst_word!r}: cards go to F (their foundation) or t1..t4")
        c = _move_card(card_word, self.ranks)
        name = card_str(c)

        if self.base is None and not (src_word in DUCHESS_FANS and dst_word == "F"):
            raise IllegalMove("the first move must take the top card of a reserve fan to its foundation (rN F CARD)")

        # Where the card (or run) is taken from: ``pile`` and the index of its first card.
        if src_word in DUCHESS_FANS or src_word == "W":
            pile = self.fans[DUCHESS_FANS.index(src_word)] if src_word != "W" else self.waste
            label = src_word if src_word != "W" else "the waste"
            if not pile:
                raise IllegalMove(f"{label} is empty")
            if pile[-1] != c:
                raise IllegalMove(f"{name} is not the top card of {label} (top is {card_str(pile[-1])})")
            start = len(pile) - 1
        elif src_word == "S":
            if dst_word == "F":
                raise IllegalMove("the stock's top card goes only into a space (S tM CARD), never to a foundation")
            pile = self.stock
            if not pile:
                raise IllegalMove("the stock is empty")
            if pile[0] != c:
                raise IllegalMove(f"{name} is not the top card of the stock (top is {card_str(pile[0])})")
            start = 0
        else:
            src = DUCHESS_COLUMNS.index(src_word)
            pile = self.columns[src]
            if not pile:
                raise IllegalMove(f"{src_word} is empty")
            if c not in pile:
                raise IllegalMove(f"{name} is not in {src_word}")
            start = pile.index(c)
            if dst_word == "F" and start != len(pile) - 1:
                raise IllegalMove(
                    f"only the top card of a column goes to a foundation: {name} is not the top card of "
                    f"{src_word} (top is {card_str(pile[-1])})"
                )
            # A run: every card above `start` lies one rank below the card under it, other colour.
            for j in range(start + 1, len(pile)):
                if not self._goes_on(pile[j], pile[j - 1]):
                    raise IllegalMove(
                        f"the cards from {name} up to the top of {src_word} are not a properly built run "
                        f"({card_str(pile[j])} does not go on {card_str(pile[j - 1])})"
                    )
            if self.variant["moves"] == "whole" and 0 < start < len(pile) - 1:
                raise IllegalMove(
                    f"moves=whole: only the top card or the whole column moves onto another column, "
                    f"not the run from {name} in {src_word}"
                )

        if dst_word == "F":
            if self.base is None:
                # The first move: its rank becomes the base rank.
                pile.pop()
                self.base = rank_of(c)
                self.found[suit_of(c)] = 1
                return
            why = self._fits_foundation(c)
            if why:
                raise IllegalMove(why)
            pile.pop()
            self.found[suit_of(c)] += 1
            return

        dst = DUCHESS_COLUMNS.index(dst_word)
        if src_word == dst_word:
            raise IllegalMove("a card cannot move onto its own column")
        target = self.columns[dst]
        if target:
            if src_word == "S":
                raise IllegalMove("the stock's top card only fills a space; it never goes onto a card")
            why = self._fits_column(c, dst, dst_word)
            if why:
                raise IllegalMove(why)
        else:
            why = self._space_error(src_word, dst_word)
            if why:
                raise IllegalMove(why)
        if src_word == "S":
            target.append(pile.pop(0))
        else:
            target.extend(pile[start:])
            del pile[start:]

    def _deal(self) -> None:
        if not self.stock:
            raise IllegalMove("deal: the stock is empty")
        self.waste.append(self.stock.pop(0))

    def _redeal(self) -> None:
        if self.stock:
            raise IllegalMove(f"redeal: only once the stock is empty ({len(self.stock)} cards left in it)")
        if self.redeals_left == 0:
            raise IllegalMove(f"redeal: no redeals left (this game allows {self.variant['redeals']})")
        if not self.waste:
            raise IllegalMove("redeal: the waste is empty, there is nothing to turn over")
        # The waste turned over: the card dealt first to it is dealt first again.
        self.stock = list(self.waste)
        self.waste = []
        self.redeals_left -= 1

    def cards_left(self) -> int:
        """Cards not on the foundations."""
        return 4 * self.ranks - sum(self.found)

    def won(self) -> bool:
        return self.cards_left() == 0


# Game name (NOTATION.md) -> rule class.
GAMES = {
    "bakers-dozen": BakersDozen,
    "grand-duchess": GrandDuchess,
    "parisienne": Parisienne,
    "capricieuse": Capricieuse,
    "duchess": Duchess,
}


# --------------------------------------------------------------------------- replay


def replay(game: str, variant: dict, deck, moves: list[str], *, ranks: int = 13,
           columns: int | None = None) -> ReplayResult:
    """Play ``moves`` from the deal of ``deck``; stop at the first illegal move.

    A bad game, variant or deck is the caller's input error (PatienceError); a bad
    move, even one that is not a move at all, is part of the verdict.
    """
    if game not in GAMES:
        raise PatienceError(f"the checker does not know game {game!r} (known: {', '.join(GAMES)})")
    state = GAMES[game](deck, variant, ranks=ranks, columns=columns)
    for number, text in enumerate(moves, start=1):
        try:
            state.apply(text)
        except IllegalMove as e:
            return ReplayResult(False, False, number - 1, f"move {number} {text!r}: {e}")
    if state.won():
        return ReplayResult(True, True, len(moves), None)
    left = state.cards_left()
    cards = "1 card is" if left == 1 else f"{left} cards are"
    return ReplayResult(True, False, len(moves), f"every move is legal but {cards} not on the foundations")
