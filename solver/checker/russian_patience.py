"""Russian Patience as RULES.md states it (the checker: plain Python, see solver/checker).

The game in short: N columns (12 in the real game), 8 up/down foundations as in Grand
Duchess, a stock.  A *deal procedure* (at the start and at each redeal) deals row one
and makes the automatic plays; the later rows are dealt by the player's ``deal`` move.
While the stock lasts only ``deal`` and the outside columns' top cards to a foundation
are allowed; once it is empty, top cards go to the foundations, runs of one suit move
between columns, and the player may ``redeal``.

Readings chosen where RULES.md leaves a gap (each the one closest to its words):

- **Short row one.** With fewer cards left than columns (only in reduced games or in a
  late redeal), row one fills c1.. as far as the cards go and the other columns stay
  empty, as "a column left empty because the stock ran out stays empty" says.  If row
  one (with its refills) uses up the stock, play begins at once with the stock empty.
  (Such a deal in fact wins outright: with the stock out, every card not home is alone
  in its column, and each suit's next card up, or down once up is complete, is among
  them, so the scans go on until all are home.)
- **Outside cards.** The rule "while the stock is not empty, only ``deal`` and the top
  card of c1 or cN to a foundation" applies from the end of row one's automatic plays;
  no top card fits a foundation then (the scans stopped because none did), so the
  question "may the outside cards move before the first ``deal``?" never matters.
- **Which copy CARD names.** A run is strictly monotone in rank, so it never holds two
  copies of a card; the run meant by ``cX cY CARD`` starts at the topmost copy of CARD
  in cX (a run starting at a deeper copy would contain that topmost copy as well).
- **No wrap** follows from the arithmetic: neighbours in a run differ by exactly one
  rank, so A and the top rank (K, or ``ranks`` in a reduced game) are never adjacent.
- **The missing redeal seed** is reported only for a redeal that the rules would
  otherwise allow (stock empty, a redeal left): an illegal ``redeal`` is part of a
  solution's verdict, and a game with no redeal left needs no seed.
- **Redeal with every card home** (a won game) is allowed if a redeal is left; it
  deals nothing.  (It cannot matter: the game is already won.)
"""

from __future__ import annotations

from ..cards import SUITS, card_str, check_deck, rank_of, suit_of
from ..deals import check_redeal_seed, redeal_order
from ..errors import PatienceError
from .common import (
    IllegalMove, RuleGame, check_top, checked_variant, move_card, move_words, pile_index, place_up_down, rank_name,
    up_down_fits,
)

RUSSIAN_PATIENCE_VARIANT = {"redeals": 2}
RUSSIAN_PATIENCE_COLUMNS = 12  # c1..c12 in the real game


def _russian_patience_variant(variant: dict | None) -> dict:
    return checked_variant("russian-patience", RUSSIAN_PATIENCE_VARIANT, variant, redeals=2)


def _home(c: int, up: list[int], down: list[int], ranks: int) -> str | None:
    """The foundation an automatic play puts card c on ('U' first, as in Capricieuse), or None."""
    for which in ("U", "D"):
        if up_down_fits(c, which, up, down, ranks) is None:
            return which
    return None


def russian_patience_deal(stock, columns: list[list[int]], up: list[int], down: list[int], ranks: int,
                          plays: list | None = None) -> list[int]:
    """The Russian Patience deal procedure (RULES.md "Row one"): deal row one and make its
    automatic plays.  Returns the stock that remains (a new list, next card first).

    ``stock`` (first dealt first) is not changed; ``columns`` (N lists, bottom to top,
    all empty on entry), ``up`` and ``down`` are changed in place.  If ``plays`` is a
    list, each automatic play is appended to it as ``(which, card, column index)``.

    Row one: one card to each of c1..cN in order while the stock lasts.  Then: scan
    c1..cN; at each column, while its card fits a foundation it goes there (up if it
    fits both) and the column is refilled at once from the stock while the stock lasts
    (the new card is checked too, by the same "while"); after cN scan again from c1,
    until a whole scan moves nothing.  A column left empty because the stock ran out
    stays empty.  Rows two on are not dealt here (they are the player's ``deal``).
    """
    if any(columns):
        raise ValueError("the deal procedure starts with every column empty")
    rest = [int(c) for c in stock]
    for col in columns:
        if rest:
            col.append(rest.pop(0))
    moved = True
    while moved:  # one pass of this loop is one whole scan c1..cN
        moved = False
        for i, col in enumerate(columns):
            while col:
                which = _home(col[-1], up, down, ranks)
                if which is None:
                    break
                c = col.pop()
                place_up_down(c, which, up, down)
                if plays is not None:
                    plays.append((which, c, i))
                moved = True
                if rest:
                    col.append(rest.pop(0))
    return rest


def run_direction(cards: list[int]) -> tuple[str | None, str | None]:
    """``(direction, why_not)`` for ``cards`` listed from the lowest in the column up.

    A run is one suit in rank order, all ascending or all descending going up the
    column: direction "ascending" or "descending", or None for a single card (a run
    of either direction).  When the cards are not a run, why_not says where it breaks.
    """
    if len(cards) == 1:
        return None, None
    step = rank_of(cards[1]) - rank_of(cards[0])  # +1 ascending, -1 descending (checked below)
    for below, above in zip(cards, cards[1:]):
        if suit_of(above) != suit_of(below):
            return None, f"{card_str(above)} on {card_str(below)} is not the same suit"
        d = rank_of(above) - rank_of(below)
        if abs(d) != 1:
            return None, f"{card_str(above)} on {card_str(below)} is not one rank apart"
        if d != step:
            order = "ascending" if step == 1 else "descending"
            return None, f"{card_str(above)} on {card_str(below)} breaks the {order} order"
    return ("ascending" if step == 1 else "descending"), None


class RussianPatience(RuleGame):
    """Russian Patience as RULES.md states it, optionally shrunk to ``ranks`` and ``columns``.

    The state, all plain lists and ints (read them freely; change them only via ``apply``):

    - ``columns``: N lists (12 unless ``columns`` says otherwise), ``columns[0]`` is c1,
      each listed bottom to top (top = [-1]).  c1 and cN are the outside columns.
    - ``stock``: the cards still to deal, the next card first.
    - ``up[s]`` / ``down[s]``: top rank of suit s's up / down foundation, 0 when empty
      (suits C D H S = 0..3), as in Capricieuse.
    - ``round``: 1 for the first round, +1 per redeal; ``redeals_left``.

    ``redeal_seed`` fixes the redeal shuffles (solver.deals.redeal_order); a game that
    redeals without one is an input error (PatienceError), see ``_redeal``.
    """

    name = "russian-patience"

    def __init__(self, deck, variant: dict | None = None, *, ranks: int = 13, columns: int | None = None,
                 redeal_seed: int | None = None):
        if isinstance(ranks, bool) or not isinstance(ranks, int) or not 1 <= ranks <= 13:
            raise PatienceError(f"ranks must be from 1 to 13, not {ranks!r}")
        columns = RUSSIAN_PATIENCE_COLUMNS if columns is None else columns
        if isinstance(columns, bool) or not isinstance(columns, int) or not 1 <= columns <= RUSSIAN_PATIENCE_COLUMNS:
            raise PatienceError(
                f"{self.name} has from 1 to {RUSSIAN_PATIENCE_COLUMNS} columns, not columns={columns!r}"
            )
        self.variant = _russian_patience_variant(variant)
        self.ranks = ranks
        self.redeal_seed = None if redeal_seed is None else check_redeal_seed(redeal_seed)
        cards = [int(c) for c in deck]
        check_deck(cards, packs=2, ranks=ranks)
        self.columns: list[list[int]] = [[] for _ in range(columns)]
        self.stock: list[int] = []
        self.up = [0] * 4
        self.down = [0] * 4
        self.round = 1
        self.redeals_left = self.variant["redeals"]
        self.stock = russian_patience_deal(cards, self.columns, self.up, self.down, ranks)

    def view(self) -> dict:
        return {"columns": self.columns, "stock": self.stock, "up": self.up, "down": self.down,
                "round": self.round, "redeals_left": self.redeals_left}

    def cards_left(self) -> int:
        """Cards not on the foundations: in the columns and in the stock."""
        return sum(len(col) for col in self.columns) + len(self.stock)

    # -- reading a move

    def _column(self, word: str) -> int:
        """Index of column ``cN``; any other name is not a pile of this game."""
        n = len(self.columns)
        return pile_index(word, "c", n, f"columns c1..c{n} and the foundations U and D")

    def _outside(self) -> str:
        n = len(self.columns)
        return "c1" if n == 1 else f"c1 and c{n}"

    def _stock_not_dealt(self, what: str) -> IllegalMove:
        left = len(self.stock)
        cards = "1 card" if left == 1 else f"{left} cards"
        return IllegalMove(
            f"{what}: the stock is not yet dealt ({cards} left); until it is, the only moves are 'deal' "
            f"and the top card of an outside column ({self._outside()}) to a foundation"
        )

    # -- the rules

    def apply(self, move_text: str) -> None:
        words = move_words(move_text)
        if len(words) == 1:
            if words[0] == "deal":
                self._deal_row()
                return
            if words[0] == "redeal":
                self._redeal()
                return
            raise IllegalMove(
                f"{words[0]!r} is not a move in {self.name} (moves are 'cN U|D CARD', 'cN cM CARD', "
                "'deal' and 'redeal')"
            )
        src_word, dst_word, card_word = words
        if src_word in ("U", "D"):
            raise IllegalMove("a card on a foundation never moves again")
        src = self._column(src_word)
        dst = dst_word if dst_word in ("U", "D") else self._column(dst_word)
        c = move_card(card_word, self.ranks)
        if dst in ("U", "D"):
            self._to_foundation(src, src_word, dst, c)
        else:
            self._run_move(src, src_word, dst, dst_word, c)

    def _to_foundation(self, src: int, src_word: str, which: str, c: int) -> None:
        """The top card of a column to the up or down foundation it fits; while the stock
        lasts, only from an outside column (c1, cN)."""
        if self.stock and src not in (0, len(self.columns) - 1):
            raise self._stock_not_dealt(f"{src_word} is not an outside column")
        col = self.columns[src]
        check_top(col, c, src_word)
        why = up_down_fits(c, which, self.up, self.down, self.ranks)
        if why:
            raise IllegalMove(why)
        col.pop()
        place_up_down(c, which, self.up, self.down)

    def _run_move(self, src: int, src_word: str, dst: int, dst_word: str, c: int) -> None:
        """The run from card c up to the top of column src onto column dst (stock empty)."""
        if self.stock:
            raise self._stock_not_dealt("cards move between columns only once the stock is empty")
        if dst == src:
            raise IllegalMove("a run cannot move onto its own column")
        col, target = self.columns[src], self.columns[dst]
        name = card_str(c)
        if not col:
            raise IllegalMove(f"{src_word} is empty")
        if c not in col:
            raise IllegalMove(f"{name} is not in {src_word}")
        start = len(col) - 1 - col[::-1].index(c)  # the topmost copy (see the module docstring)
        run = col[start:]
        direction, why = run_direction(run)
        if why:
            raise IllegalMove(
                f"the cards from {name} up to the top of {src_word} are not a run of one suit in rank order: {why}"
            )
        if target:
            top = target[-1]
            s, r = suit_of(c), rank_of(c)
            if direction == "ascending":
                wanted = [r - 1]
            elif direction == "descending":
                wanted = [r + 1]
            else:
                wanted = [r - 1, r + 1]
            wanted = [x for x in wanted if 1 <= x <= self.ranks]
            if suit_of(top) != s or rank_of(top) not in wanted:
                moving = name if len(run) == 1 else f"the {direction} run {name}..{card_str(run[-1])}"
                needs = (
                    f"it needs {' or '.join(rank_name(x) + SUITS[s] for x in wanted)} (same suit, continuing the run)"
                    if wanted else "no card continues it"
                )
                raise IllegalMove(f"{moving} cannot go on {card_str(top)}, the top card of {dst_word}: {needs}")
        # An empty column takes any run.
        del col[start:]
        target.extend(run)

    def _deal_row(self) -> None:
        """The next row: one card to each of c1..cN in order, covering what is there
        (empty columns included), until the stock runs out.  No automatic plays."""
        if not self.stock:
            raise IllegalMove("deal: the stock is empty")
        for col in self.columns:
            if self.stock:
                col.append(self.stock.pop(0))

    def _redeal(self) -> None:
        """Gather c1..cN, each from its bottom card up; shuffle with redeal_order(..., k)
        (k = 1 for the first redeal, 2 for the second); run the deal procedure again."""
        if self.stock:
            raise self._stock_not_dealt("redeal")
        if self.redeals_left == 0:
            raise IllegalMove(f"redeal: no redeals left (this game allows {self.variant['redeals']})")
        if self.redeal_seed is None:
            raise PatienceError(
                "the deal has no redeal seed, so its redeals are not defined (a seeded deal's redeal seed is "
                "its seed; for a deck file give --redeal-seed N)"
            )
        k = self.round  # round 1 -> redeal 1, round 2 -> redeal 2
        gathered = [c for col in self.columns for c in col]
        new_stock = redeal_order(gathered, self.redeal_seed, k)
        self.columns = [[] for _ in self.columns]
        self.stock = russian_patience_deal(new_stock, self.columns, self.up, self.down, self.ranks)
        self.redeals_left -= 1
        self.round += 1
