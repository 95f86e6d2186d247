"""The independent checker: replay a solution move by move under RULES.md.

This module is deliberately written apart from the solver: plain Python, no numba,
and no import of ``solver.games`` or ``solver.search``.  It works straight from the
text of RULES.md and NOTATION.md, so a bug in a search kernel cannot hide itself by
also being in the checker.  Speed does not matter here; being obviously right does.

Each game is a small rule class: ``__init__(deck, variant, ranks=..., columns=...)``
deals the layout, ``apply(move_text)`` makes one move or raises ``IllegalMove`` with
the reason, ``won()`` says whether every card is on the foundations.  ``GAMES`` maps
the NOTATION.md game name to its class; a new game is one class and one entry.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from .cards import RANKS, SUITS, card_str, check_deck, parse_card, rank_of, suit_of
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


def _bakers_dozen_variant(variant: dict | None) -> dict:
    """The variant with defaults filled in; anything unknown is an error, not ignored,
    because a checker that silently ignores a rule would approve the wrong game."""
    full = dict(BAKERS_DOZEN_VARIANT)
    for key, value in (variant or {}).items():
        if key not in full:
            raise PatienceError(f"unknown variant {key!r} for bakers-dozen (known: {', '.join(full)})")
        full[key] = value
    for key in ("kings_to_bottom", "face_down"):
        if not isinstance(full[key], bool):
            raise PatienceError(f"variant {key} must be true or false, not {full[key]!r}")
    if full["empty"] not in EMPTY_RULES:
        raise PatienceError(f"variant empty takes one of {'|'.join(EMPTY_RULES)}, not {full['empty']!r}")
    return full


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


def _rank_name(rank: int) -> str:
    return RANKS[rank - 1]


class BakersDozen:
    """Baker's Dozen as RULES.md states it, optionally shrunk to ``ranks`` and ``columns``."""

    name = "bakers-dozen"

    def __init__(self, deck, variant: dict | None = None, *, ranks: int = 13, columns: int = 13):
        self.variant = _bakers_dozen_variant(variant)
        self.ranks = ranks
        self.columns = deal_columns(deck, self.variant, ranks=ranks, columns=columns)
        self.foundation = [0] * 4  # highest rank on each suit's foundation, 0 = none yet

    # -- reading a move

    def _column(self, word: str) -> int:
        """Index of column ``cN``; any other name is not a column of this game."""
        n = len(self.columns)
        # str(int(...)) == digits rejects spellings like "c03" or "c+3".
        if word.startswith("c") and word[1:].isdigit() and str(int(word[1:])) == word[1:]:
            if 1 <= int(word[1:]) <= n:
                return int(word[1:]) - 1
        raise IllegalMove(f"unknown pile {word!r}: this game has columns c1..c{n} and the foundations F")

    def _card(self, word: str) -> int:
        try:
            c = parse_card(word)
        except PatienceError as e:
            raise IllegalMove(str(e)) from None
        if rank_of(c) > self.ranks:
            raise IllegalMove(f"{card_str(c)} is not in this game's deck (ranks A..{_rank_name(self.ranks)})")
        return c

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


# Game name (NOTATION.md) -> rule class.
GAMES = {
    "bakers-dozen": BakersDozen,
}


# --------------------------------------------------------------------------- replay


def replay(game: str, variant: dict, deck, moves: list[str], *, ranks: int = 13, columns: int = 13) -> ReplayResult:
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
