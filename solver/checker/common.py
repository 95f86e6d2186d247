"""What the game checkers share: the verdict types, solution files, variant checking,
reading a move's words (pile names, card words, rank names) and the foundation tests.

Plain Python, no numba, no import of ``solver.games`` or ``solver.search`` (see
``solver/checker/__init__.py``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from ..cards import RANKS, SUITS, card_str, parse_card, rank_of, suit_of
from ..errors import PatienceError

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


def parse_solution(text: str, name: str) -> list[str]:
    """The moves of a solution's text: one move a line (``#`` lines are comments), or
    JSON (a list, or {"moves": [...]}).  ``name`` says where the text came from in the
    error messages, e.g. ``"solution file 'seven.txt'"``."""
    stripped = text.lstrip()
    # A plain move line starts with a pile name or a word like "deal", never with
    # "[" or "{", so those two characters safely mean the text is JSON.
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
        raise PatienceError(f"{name} is not valid JSON: {e.msg} (line {e.lineno}, column {e.colno})") from None
    if isinstance(data, dict):
        if "moves" not in data:
            raise PatienceError(f"{name} is a JSON object without a \"moves\" list")
        data = data["moves"]
    if not isinstance(data, list) or not all(isinstance(m, str) for m in data):
        raise PatienceError(f"{name}: the moves must be a JSON list of strings such as \"c3 F AH\"")
    return [m.strip() for m in data]


def read_solution(path) -> list[str]:
    """The moves of a solution file: one move a line, or JSON (a list, or {"moves": [...]})."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise PatienceError(f"solution file {str(path)!r} does not exist") from None
    except (OSError, UnicodeDecodeError) as e:
        raise PatienceError(f"cannot read solution file {str(path)!r}: {e}") from None
    return parse_solution(text, f"solution file {str(path)!r}")


# ------------------------------------------------------------------------ variants


def checked_variant(game: str, defaults: dict, variant: dict | None, *, bools=(), redeals: int | None = None,
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


# ------------------------------------------------------------------- reading a move


def pile_number(word: str, letter: str, n: int) -> int | None:
    """0-based index of pile ``<letter>N`` for N in 1..n, else None.  Comparing
    str(int(...)) with the digits rejects spellings like "c03" or "c+3"."""
    digits = word[1:]
    if word.startswith(letter) and digits.isdigit() and str(int(digits)) == digits and 1 <= int(digits) <= n:
        return int(digits) - 1
    return None


def pile_index(word: str, letter: str, n: int, piles: str) -> int:
    """0-based index of pile ``<letter>N`` (N in 1..n); any other name is an illegal
    move whose message lists ``piles``, this game's piles."""
    i = pile_number(word, letter, n)
    if i is not None:
        return i
    raise IllegalMove(f"unknown pile {word!r}: this game has {piles}")


def rank_name(rank: int) -> str:
    return RANKS[rank - 1]


def move_card(word: str, ranks: int) -> int:
    """The CARD word of a move; a bad code or a rank above ``ranks`` is an illegal move."""
    try:
        c = parse_card(word)
    except PatienceError as e:
        raise IllegalMove(str(e)) from None
    if rank_of(c) > ranks:
        raise IllegalMove(f"{card_str(c)} is not in this game's deck (ranks A..{rank_name(ranks)})")
    return c


def move_words(move_text: str) -> list[str]:
    """The words of a move: one word, or three ('SOURCE DESTINATION CARD')."""
    words = move_text.split()
    if len(words) not in (1, 3):
        raise IllegalMove(f"a move is three words 'SOURCE DESTINATION CARD' or one word, this has {len(words)}")
    return words


def check_top(pile: list[int], c: int, label: str) -> None:
    """Card c must be the top card of ``pile`` (called ``label`` in the messages)."""
    if not pile:
        raise IllegalMove(f"{label} is empty")
    if pile[-1] != c:
        raise IllegalMove(f"{card_str(c)} is not the top card of {label} (top is {card_str(pile[-1])})")


# ------------------------------------------------------------- up and down foundations


def up_down_fits(c: int, which: str, up: list[int], down: list[int], ranks: int) -> str | None:
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
            return f"{where}: it is complete (up to {rank_name(n)}{SUITS[s]})"
        want = top + 1
    else:
        top = down[s]
        if top == 0:
            return None if r == n else (
                f"{where}: it is empty and a down foundation starts with the king (rank {rank_name(n)})"
            )
        if top == 1:
            return f"{where}: it is complete (down to A{SUITS[s]})"
        want = top - 1
    if r == want:
        return None
    return f"{where}: it has {rank_name(top)}{SUITS[s]} on top, so it takes {rank_name(want)}{SUITS[s]} next"


def place_up_down(c: int, which: str, up: list[int], down: list[int]) -> None:
    """Put card c on its suit's up ('U') or down ('D') foundation (already checked)."""
    if which == "U":
        up[suit_of(c)] = rank_of(c)
    else:
        down[suit_of(c)] = rank_of(c)


def first_aces_and_kings(cards: list[int], up: list[int], down: list[int], ranks: int) -> list[int]:
    """Put the first copy of each ace on its up foundation and of each king (rank
    ``ranks``) on its down foundation; return the other cards in deck order."""
    rest = []
    for c in cards:
        s, r = suit_of(c), rank_of(c)
        if r == 1 and up[s] == 0:
            up[s] = 1
        elif r == ranks and down[s] == 0:
            down[s] = ranks
        else:
            rest.append(c)
    return rest


# ------------------------------------------------------------------------ the base


class RuleGame:
    """What every checker class shares.  A subclass sets ``name``, deals the layout in
    ``__init__(deck, variant, *, ranks=13, columns=...)``, and defines ``apply(move_text)``
    (one move, or IllegalMove with the reason, changing nothing when it raises),
    ``cards_left()`` and ``view()`` (its state as plain lists and ints, the structure
    the game module's ``checker_view(st)`` gives for a kernel state)."""

    name = ""

    def copy(self):
        """An independent copy of the whole state (for searches over the rules)."""
        other = object.__new__(type(self))
        for key, value in self.__dict__.items():
            if isinstance(value, list):
                value = [list(v) if isinstance(v, list) else v for v in value]
            other.__dict__[key] = value
        return other

    def won(self) -> bool:
        return self.cards_left() == 0
