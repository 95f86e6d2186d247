"""Card codes <-> small integers.

A card is the integer ``suit * 13 + rank - 1`` with suits in the order C D H S
(0..3) and ranks A..K (1..13): AC = 0, KC = 12, AD = 13, KS = 51.  Two-pack games
use the same 52 codes twice (copies are interchangeable, RULES.md).
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from .errors import PatienceError

SUITS = "CDHS"
RANKS = "A23456789TJQK"
RED_SUITS = (1, 2)  # D, H


def card(rank: int, suit: int) -> int:
    return suit * 13 + rank - 1


def rank_of(c: int) -> int:
    return c % 13 + 1


def suit_of(c: int) -> int:
    return c // 13


def is_red(c: int) -> bool:
    return suit_of(c) in RED_SUITS


def card_str(c: int) -> str:
    return RANKS[c % 13] + SUITS[c // 13]


def parse_card(text: str) -> int:
    """Parse one card code such as ``AS``, ``TH`` or ``10H``; case-insensitive."""
    t = text.strip().upper()
    if t.startswith("10"):
        t = "T" + t[2:]
    if len(t) != 2 or t[0] not in RANKS or t[1] not in SUITS:
        raise PatienceError(
            f"unknown card code {text!r}: expected rank (A 2-9 T J Q K) then suit (C D H S), e.g. AS, TH, 7C"
        )
    return SUITS.index(t[1]) * 13 + RANKS.index(t[0])


def full_pack(packs: int = 1, ranks: int = 13) -> list[int]:
    """Every card of ``packs`` packs, restricted to ranks 1..``ranks``."""
    return [card(r, s) for _ in range(packs) for s in range(4) for r in range(1, ranks + 1)]


def check_deck(cards: list[int], packs: int = 1, ranks: int = 13) -> np.ndarray:
    """Return ``cards`` as an int8 array if it is exactly ``packs`` full packs, else a clear error."""
    want = Counter(full_pack(packs, ranks))
    have = Counter(cards)
    if len(cards) != sum(want.values()):
        raise PatienceError(
            f"wrong number of cards: the deck has {len(cards)}, this game needs {sum(want.values())}"
        )
    extra = sorted(c for c in have if have[c] > want.get(c, 0))
    if extra:
        c = extra[0]
        if c in want:
            raise PatienceError(f"duplicate card {card_str(c)}: it appears {have[c]} times, at most {want[c]} allowed")
        raise PatienceError(f"card {card_str(c)} does not belong in this game's deck")
    return np.array(cards, dtype=np.int8)


def deck_str(deck) -> str:
    return " ".join(card_str(int(c)) for c in deck)
