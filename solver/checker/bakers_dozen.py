"""Baker's Dozen as RULES.md states it (the checker: plain Python, see solver/checker)."""

from __future__ import annotations

from ..cards import SUITS, card_str, check_deck, rank_of, suit_of
from ..errors import PatienceError
from .common import SUIT_NAMES, IllegalMove, RuleGame, check_top, checked_variant, move_card, pile_index, rank_name

BAKERS_DOZEN_VARIANT = {"kings_to_bottom": True, "face_down": False, "empty": "none"}
EMPTY_RULES = ("none", "any", "king")


def _bakers_dozen_variant(variant: dict | None) -> dict:
    return checked_variant("bakers-dozen", BAKERS_DOZEN_VARIANT, variant, bools=("kings_to_bottom", "face_down"),
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


class BakersDozen(RuleGame):
    """Baker's Dozen as RULES.md states it, optionally shrunk to ``ranks`` and ``columns``.

    The state: ``columns`` (each listed bottom to top, top = [-1]) and ``foundation[s]``,
    the highest rank on suit s's foundation (0 = none yet).
    """

    name = "bakers-dozen"

    def __init__(self, deck, variant: dict | None = None, *, ranks: int = 13, columns: int | None = 13):
        self.variant = _bakers_dozen_variant(variant)
        columns = 13 if columns is None else columns
        self.ranks = ranks
        self.columns = deal_columns(deck, self.variant, ranks=ranks, columns=columns)
        self.foundation = [0] * 4  # highest rank on each suit's foundation, 0 = none yet

    def view(self) -> dict:
        return {"columns": self.columns, "foundation": self.foundation}

    # -- reading a move

    def _column(self, word: str) -> int:
        """Index of column ``cN``; any other name is not a column of this game."""
        n = len(self.columns)
        return pile_index(word, "c", n, f"columns c1..c{n} and the foundations F")

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
        c = move_card(card_word, self.ranks)
        name = card_str(c)

        # Only the top card of a column moves.
        column = self.columns[src]
        check_top(column, c, src_word)

        if dst is None:
            # Foundations are built up by suit from the ace to the top rank.
            s = suit_of(c)
            have = self.foundation[s]
            if rank_of(c) != have + 1:
                if have == 0:
                    needs = f"it needs A{SUITS[s]} first"
                else:
                    needs = f"it has {rank_name(have)}{SUITS[s]} on top, so it takes {rank_name(have + 1)}{SUITS[s]} next"
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
                    needs = f"it needs a {rank_name(rank_of(c) + 1)}, one rank higher, of any suit"
                raise IllegalMove(f"{name} cannot go on {card_str(top)}, the top card of {dst_word}: {needs}")
        else:
            # Empty columns: never filled (standard), or by any card, or by kings only.
            rule = self.variant["empty"]
            if rule == "none":
                raise IllegalMove(f"{dst_word} is empty and an empty column is never filled (empty=none)")
            if rule == "king" and rank_of(c) != self.ranks:
                raise IllegalMove(
                    f"{dst_word} is empty and only a king (rank {rank_name(self.ranks)}) may fill it (empty=king)"
                )
        target.append(column.pop())

    def cards_left(self) -> int:
        """Cards not on the foundations."""
        return sum(len(col) for col in self.columns)
