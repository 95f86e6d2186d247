"""Capricieuse as RULES.md states it (the checker: plain Python, see solver/checker)."""

from __future__ import annotations

from ..cards import SUITS, card_str, check_deck, rank_of, suit_of
from ..errors import PatienceError
from .common import (
    IllegalMove, RuleGame, check_top, checked_variant, first_aces_and_kings, move_card, move_words, pile_index,
    place_up_down, rank_name, up_down_fits,
)

CAPRICIEUSE_VARIANT = {"redeals": 2, "deal_plays": True}
CAPRICIEUSE_PILES = 12  # p1..p12 in the real game

# None if card c fits the up ('U') or down ('D') foundation of its suit, else why not.
capricieuse_fits = up_down_fits


def _capricieuse_variant(variant: dict | None) -> dict:
    return checked_variant("capricieuse", CAPRICIEUSE_VARIANT, variant, redeals=2, bools=("deal_plays",))


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
                if up_down_fits(c, which, up, down, ranks) is None:
                    place_up_down(c, which, up, down)
                    plays.append((which, c))
                    placed = True
                    break
            if placed:
                continue  # the next card goes to the same pile
        piles[i].append(c)
        i = (i + 1) % len(piles)
    return plays


class Capricieuse(RuleGame):
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
            stock = first_aces_and_kings(cards, self.up, self.down, ranks)
        self._deal(stock)

    def _deal(self, stock: list[int]) -> None:
        capricieuse_deal(stock, self.piles, self.up, self.down, self.ranks, self.variant["deal_plays"])

    def view(self) -> dict:
        return {"piles": self.piles, "up": self.up, "down": self.down, "round": self.round,
                "redeals_left": self.redeals_left}

    # -- reading a move

    def _pile(self, word: str) -> int:
        """Index of pile ``pN``; any other name is not a pile of this game."""
        n = len(self.piles)
        return pile_index(word, "p", n, f"piles p1..p{n} and the foundations U and D")

    # -- the rules

    def apply(self, move_text: str) -> None:
        words = move_words(move_text)
        if len(words) == 1:
            if words[0] == "redeal":
                self._redeal()
                return
            if words[0] == "deal":
                raise IllegalMove("there is no 'deal' move in capricieuse: the deal runs by itself, at the start and after each redeal")
            raise IllegalMove(
                f"{words[0]!r} is not a move in {self.name} (moves are 'pN U|D CARD', 'pN pM CARD' and 'redeal')"
            )
        src_word, dst_word, card_word = words
        if src_word in ("U", "D"):
            raise IllegalMove("a card on a foundation never moves again")
        src = self._pile(src_word)
        dst = dst_word if dst_word in ("U", "D") else self._pile(dst_word)
        c = move_card(card_word, self.ranks)
        name = card_str(c)

        # Only the top card of a pile moves.
        pile = self.piles[src]
        check_top(pile, c, src_word)

        if dst in ("U", "D"):
            why = up_down_fits(c, dst, self.up, self.down, self.ranks)
            if why:
                raise IllegalMove(why)
            pile.pop()
            place_up_down(c, dst, self.up, self.down)
            return

        if dst == src:
            raise IllegalMove("a card cannot move onto its own pile")
        target = self.piles[dst]
        if target:
            # Onto a card of the same suit one rank higher or lower; K and A are not adjacent.
            top = target[-1]
            if suit_of(top) != suit_of(c) or abs(rank_of(top) - rank_of(c)) != 1:
                s, r = suit_of(c), rank_of(c)
                wanted = [f"{rank_name(x)}{SUITS[s]}" for x in (r - 1, r + 1) if 1 <= x <= self.ranks]
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
