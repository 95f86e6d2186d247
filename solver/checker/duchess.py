"""Duchess (Glenwood) as RULES.md states it (the checker: plain Python, see solver/checker)."""

from __future__ import annotations

from ..cards import SUITS, card_str, check_deck, is_red, rank_of, suit_of
from ..errors import PatienceError
from .common import SUIT_NAMES, IllegalMove, RuleGame, check_top, checked_variant, move_card, move_words, rank_name

DUCHESS_VARIANT = {"redeals": 1, "moves": "any"}
DUCHESS_MOVE_RULES = ("any", "whole")
DUCHESS_FANS = ("r1", "r2", "r3", "r4")
DUCHESS_COLUMNS = ("t1", "t2", "t3", "t4")


def _duchess_variant(variant: dict | None) -> dict:
    return checked_variant("duchess", DUCHESS_VARIANT, variant, redeals=1, choices={"moves": DUCHESS_MOVE_RULES})


class Duchess(RuleGame):
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

    def view(self) -> dict:
        return {"fans": self.fans, "columns": self.columns, "stock": self.stock, "waste": self.waste,
                "base": self.base, "found": self.found, "redeals_left": self.redeals_left}

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
                    f"so it takes {rank_name(want)}{SUITS[s]}")
        top = (want - 2) % self.ranks + 1
        return f"{where}: it has {rank_name(top)}{SUITS[s]} on top, so it takes {rank_name(want)}{SUITS[s]} next"

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
                f"it needs a {colour} {rank_name(want_rank)} (one rank higher, the other colour)")

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
        words = move_words(move_text)
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
        c = move_card(card_word, self.ranks)
        name = card_str(c)

        if self.base is None and not (src_word in DUCHESS_FANS and dst_word == "F"):
            raise IllegalMove("the first move must take the top card of a reserve fan to its foundation (rN F CARD)")

        # Where the card (or run) is taken from: ``pile`` and the index of its first card.
        if src_word in DUCHESS_FANS or src_word == "W":
            pile = self.fans[DUCHESS_FANS.index(src_word)] if src_word != "W" else self.waste
            label = src_word if src_word != "W" else "the waste"
            check_top(pile, c, label)
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
