"""Grand Duchess (Duchess of Luynes) and Parisienne as RULES.md states them (the
checker: plain Python, see solver/checker)."""

from __future__ import annotations

from ..cards import SUITS, card_str, check_deck, rank_of, suit_of
from ..errors import PatienceError
from .common import (
    SUIT_NAMES, IllegalMove, RuleGame, check_top, checked_variant, first_aces_and_kings, move_card, move_words,
    place_up_down, rank_name, up_down_fits,
)

GRAND_DUCHESS_VARIANT = {"redeals": 3, "foundation_transfer": False, "reserve_first": False}
GD_PILES = ("t1", "t2", "t3", "t4")
# One deal of a round with a reserve goes to these piles, in this order ("R" = reserve);
# a round without one deals only the first four.
GD_DEAL_ORDER = ("t1", "t2", "t3", "t4", "R", "R")


def _grand_duchess_variant(game: str, variant: dict | None) -> dict:
    return checked_variant(game, GRAND_DUCHESS_VARIANT, variant, redeals=3,
                           bools=("foundation_transfer", "reserve_first"))


class GrandDuchess(RuleGame):
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

    def view(self) -> dict:
        return {"tableau": self.tableau, "reserve": self.reserve, "stock": self.stock, "up": self.up,
                "down": self.down, "round": self.round, "redeals_left": self.redeals_left}

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

    def _foundation_name(self, which: str, s: int) -> str:
        return f"the {SUIT_NAMES[s]} {'up' if which == 'U' else 'down'} foundation"

    def _fits(self, c: int, which: str) -> str | None:
        """None if card c fits the up ('U') or down ('D') foundation of its suit, else why not."""
        return up_down_fits(c, which, self.up, self.down, self.ranks)

    # -- the rules

    def apply(self, move_text: str) -> None:
        words = move_words(move_text)
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
        src, dst, card_word = words
        if src not in GD_PILES + ("R", "U", "D"):
            raise IllegalMove(f"unknown pile {src!r}: this game's cards move from t1..t4, R (and U/D with foundation_transfer)")
        if dst not in ("U", "D"):
            if dst in GD_PILES or dst == "R":
                raise IllegalMove(f"nothing is ever built on the tableau or the reserve: {dst} cannot take a card")
            raise IllegalMove(f"unknown destination {dst!r}: cards go only to U or D (the up or down foundation of their suit)")
        c = move_card(card_word, self.ranks)
        name = card_str(c)
        s = suit_of(c)

        if src in GD_PILES:
            # The top card of a tableau pile.
            pile = self.tableau[GD_PILES.index(src)]
            check_top(pile, c, src)
            why = self._fits(c, dst)
            if why:
                raise IllegalMove(why)
            pile.pop()
            place_up_down(c, dst, self.up, self.down)
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
            place_up_down(c, dst, self.up, self.down)
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
                f"{name} is not the top card of {self._foundation_name(src, s)} (top is {rank_name(top)}{SUITS[s]})"
            )
        why = self._fits(c, dst)
        if why:
            raise IllegalMove(why)
        r = rank_of(c)
        if src == "U":
            self.up[s] = r - 1  # 0 when the ace leaves: empty
        else:
            self.down[s] = r + 1 if r < self.ranks else 0  # empty when the king leaves
        place_up_down(c, dst, self.up, self.down)

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
        return first_aces_and_kings(cards, self.up, self.down, self.ranks)
