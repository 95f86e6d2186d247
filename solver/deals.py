"""Where decks come from: a seed, a deck file, or a PySolFC game number.

A deck is the card codes of ``cards.py`` in deal order (the first card is dealt first,
RULES.md "Cards and decks").

Seeded decks
------------
``seeded_deck(seed, packs, ranks)`` must give the same deck everywhere, forever, so it
uses no library generator; the algorithm below is the definition and can be
reproduced in any language with 64-bit unsigned arithmetic (all operations mod 2**64):

1. Start from the unshuffled pack ``cards.full_pack(packs, ranks)``: for each pack,
   suits C D H S, ranks A..(ranks) -- i.e. codes ``suit * 13 + rank - 1`` in that order.
2. Generator: SplitMix64 with ``state = seed`` (0 <= seed < 2**64). Each draw::

       state = state + 0x9E3779B97F4A7C15
       z = state
       z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
       z = (z ^ (z >> 27)) * 0x94D049BB133111EB
       z = z ^ (z >> 31)
       return z

3. Fisher-Yates from the last index down: for i = n-1, n-2, ..., 1: let m = i + 1;
   draw x until ``x < 2**64 - (2**64 mod m)`` (rejection, so j is exactly uniform);
   ``j = x mod m``; swap deck[i] and deck[j].

Seeds are integers from 0 to 2**64-1 (the generator's state; larger numbers would
only repeat smaller ones and are refused).

PySolFC game numbers
--------------------
``pysol_deck(game, number)`` reproduces the layout PySolFC deals for that number; the
procedure, game by game, and the variant each needs are in ``solver/pysol.py``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from . import cards
from .errors import PatienceError

MASK64 = (1 << 64) - 1

# ---------------------------------------------------------------------------
# Seeded decks
# ---------------------------------------------------------------------------


def _splitmix64(seed: int):
    """Endless SplitMix64 stream (Steele, Lea & Flood 2014), as in the module docstring."""
    state = seed & MASK64
    while True:
        state = (state + 0x9E3779B97F4A7C15) & MASK64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        yield z ^ (z >> 31)


def _uniform_below(draws, m: int) -> int:
    """Uniform integer in [0, m): reject the top 2**64 mod m values so no j is favoured."""
    limit = (1 << 64) - ((1 << 64) % m)
    while True:
        x = next(draws)
        if x < limit:
            return x % m


def seeded_deck(seed: int, packs: int = 1, ranks: int = 13) -> np.ndarray:
    """The deck for ``seed``: identical on every platform and library version."""
    if not isinstance(seed, (int, np.integer)) or isinstance(seed, bool):
        raise PatienceError(f"a seed must be a whole number, not {seed!r}")
    if seed < 0:
        raise PatienceError(f"a seed must be 0 or more, not {seed}")
    if seed > MASK64:
        raise PatienceError(f"seeds run from 0 to 2**64-1 = {MASK64}, not {seed}")
    deck = cards.full_pack(packs, ranks)
    draws = _splitmix64(int(seed))
    for i in range(len(deck) - 1, 0, -1):
        j = _uniform_below(draws, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return np.array(deck, dtype=np.int8)


# ---------------------------------------------------------------------------
# Russian Patience redeal shuffles
# ---------------------------------------------------------------------------

# Redeal k starts SplitMix64 at redeal_seed XOR (k * REDEAL_SALT mod 2**64).  XOR with an
# odd constant far from the generator's own increment keeps the streams of the deck
# shuffle (state = seed) and of redeals 1 and 2 from being one stream shifted by a few
# draws, which adding a multiple of 0x9E3779B97F4A7C15 to the seed would make them.
REDEAL_SALT = 0xD6E8FEB86659FD93


SEEDED_REDEALS = ("russian-patience",)  # games whose redeals shuffle, from a seed of the deal's own


def setup_kwargs(game_name: str, redeal_seed) -> dict:
    """What a game's ``initial_state`` (and checker) take besides deck and variant: the
    redeal seed for the games whose redeals shuffle, nothing for the others."""
    return {"redeal_seed": redeal_seed} if game_name in SEEDED_REDEALS else {}


def check_redeal_seed(redeal_seed) -> int:
    if not isinstance(redeal_seed, (int, np.integer)) or isinstance(redeal_seed, bool):
        raise PatienceError(f"a redeal seed must be a whole number, not {redeal_seed!r}")
    if not 0 <= redeal_seed <= MASK64:
        raise PatienceError(f"redeal seeds run from 0 to 2**64-1 = {MASK64}, not {redeal_seed}")
    return int(redeal_seed)


def redeal_order(gathered, redeal_seed: int, k: int) -> list[int]:
    """The new stock of Russian Patience redeal ``k`` (1, 2): ``gathered`` is the column
    cards gathered c1..c12, each from its bottom card up; the result is them shuffled,
    first card dealt first.

    The definition, for any independent program: SplitMix64 (module docstring, step 2)
    with ``state = redeal_seed XOR (k * 0xD6E8FEB86659FD93 mod 2**64)``, then
    Fisher-Yates exactly as step 3 on the gathered list (i from n-1 down to 1, j uniform
    in 0..i by rejection, swap).  A seeded deal's redeal seed is its deal seed, so the
    seed fixes the whole game; a deck file's is given with the deal (``--redeal-seed``).
    """
    redeal_seed = check_redeal_seed(redeal_seed)
    order = [int(c) for c in gathered]
    draws = _splitmix64(redeal_seed ^ ((k * REDEAL_SALT) & MASK64))
    for i in range(len(order) - 1, 0, -1):
        j = _uniform_below(draws, i + 1)
        order[i], order[j] = order[j], order[i]
    return order


# ---------------------------------------------------------------------------
# Deck files
# ---------------------------------------------------------------------------


def _deck_tokens(text: str):
    """(line number, token) for every card code, skipping ``#`` comment lines."""
    for line_no, line in enumerate(text.splitlines(), start=1):
        # Leading blanks before '#' still make a comment: people indent.
        if line.lstrip().startswith("#"):
            continue
        for token in line.split():
            yield line_no, token


def parse_deck_text(text: str, packs: int = 1, ranks: int = 13) -> np.ndarray:
    """Parse a deck written as card codes separated by white space (RULES.md)."""
    deck = []
    for position, (line_no, token) in enumerate(_deck_tokens(text), start=1):
        try:
            deck.append(cards.parse_card(token))
        except PatienceError as e:
            # Name the position so a 52-code file can be fixed without counting by hand.
            raise PatienceError(f"card {position} of the deck (line {line_no}): {e}") from None
    return cards.check_deck(deck, packs, ranks)


def read_deck_file(path, packs: int = 1, ranks: int = 13) -> np.ndarray:
    """Read a deck file; every problem is a one-line PatienceError naming the file."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise PatienceError(f"deck file not found: {path}") from None
    except (OSError, UnicodeDecodeError) as e:
        reason = e.strerror if isinstance(e, OSError) and e.strerror else type(e).__name__
        raise PatienceError(f"cannot read deck file {path}: {reason}") from None
    try:
        return parse_deck_text(text, packs, ranks)
    except PatienceError as e:
        raise PatienceError(f"deck file {path}: {e}") from None


# ---------------------------------------------------------------------------
# PySolFC game numbers: solver/pysol.py (re-exported here, where the deck sources live)
# ---------------------------------------------------------------------------

from .pysol import PYSOL_GAMES, pysol_deck, pysol_shuffled_cards  # noqa: E402,F401
