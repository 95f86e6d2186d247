"""PySolFC game numbers: the deck that, dealt under RULES.md, gives PySolFC's layout.

PySolFC (sources: pysollib/pysolrandom.py, pysollib/game/__init__.py ``createCards``,
``shuffle`` and ``_shuffleHookMoveSorter``, and each game's module under
pysollib/games/) deals a game number N like this:

- It creates its cards pack by pack, suit by suit in the order C S H D, ranks A..K.
- Numbers 0..31999 use the Microsoft FreeCell LCG (``LCRandom31``); a one-pack game
  first rearranges the pack to FreeCell's order (``ms_rearrange``, which leaves a
  two-pack list alone).  Numbers 32000..10**20 use Python's Mersenne Twister seeded
  with N (``random.Random(N)``), with PySolFC's own float-based ``randint``.
- Both shuffle with: for n = len-1 down to 1: j = randint(0, n); swap seq[n], seq[j].
- The game's ``_shuffleHook`` may then move some cards; the list goes onto the talon
  first card first, and the talon deals from its end.

Each game below turns that into a deck in RULES.md's deal order, and says which
variant reproduces PySolFC's reading of the rules (``PysolGame.required``: the only
values a ``--pysol`` deal accepts; ``defaults``: chosen when the user names none).
Where PySolFC's rules differ in a way no variant covers, ``pysol_deck`` refuses
with the reason (``PysolGame.refusal``) instead of dealing a game that is not the one
PySolFC plays.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from . import cards
from .errors import PatienceError

PYSOL_SUITS = "CSHD"  # PySolFC's suit order; ours is CDHS
PYSOL_MS_LIMIT = 32000  # PySolFC: 0 <= n < 32000 -> MS LCG (pysol_cards says <= 32000)
PYSOL_MAX_NUMBER = 10**20  # PySolFC's MAX_SEED
ACE, KING = 1, 13


def _pysol_pack(packs: int = 1) -> list[tuple[int, int]]:
    """PySolFC's unshuffled card list as (our code, pack index) pairs."""
    return [(cards.card(rank, cards.SUITS.index(s)), p)
            for p in range(packs) for s in PYSOL_SUITS for rank in range(1, 14)]


def _ms_rearrange(pack: list) -> list:
    """FreeCell's starting order (by rank, suits C D H S), which the MS LCG expects;
    PySolFC applies it to a 52-card list only."""
    if len(pack) != 52:
        return list(pack)
    return [pack[i + j] for i in range(13) for j in (0, 39, 26, 13)]


def _ms_randint(number: int):
    """PySolFC's LCRandom31.randint for seeds < 2**31 (the MS FreeCell rand()).

    Written here rather than taken from pysol_cards, whose LCRandom31 refuses seed 0
    while PySolFC deals game 0 with it.
    """
    seedx = number

    def randint(a: int, b: int) -> int:
        nonlocal seedx
        seedx = (seedx * 214013 + 2531011) & 0x1FFFFFFFF
        return a + ((seedx >> 16) & 0x7FFF) % (b + 1 - a)

    return randint


def _mt_randint(number: int):
    """PySolFC's MTRandom.randint: float-based, not Python's own randint/_randbelow."""
    rng = random.Random(number)  # int seeding is identical in random2 (PySolFC) and Python 3

    def randint(a: int, b: int) -> int:
        return a + int(rng.random() * (b + 1 - a))

    return randint


def _shuffled(number: int, packs: int) -> list[tuple[int, int]]:
    """PySolFC's shuffled list of (code, pack) for game ``number``, before any hook."""
    _check_pysol_number(number)
    number = int(number)
    if number < PYSOL_MS_LIMIT:
        seq, randint = _ms_rearrange(_pysol_pack(packs)), _ms_randint(number)
    else:
        seq, randint = _pysol_pack(packs), _mt_randint(number)
    for n in range(len(seq) - 1, 0, -1):
        j = randint(0, n)
        seq[n], seq[j] = seq[j], seq[n]
    return seq


def pysol_shuffled_cards(number: int, packs: int = 1) -> list[int]:
    """PySolFC's shuffled list for game ``number``, before any game's hook.

    The talon receives this list first card first and deals from its end, so a game
    without a hook (FreeCell) deals it last card first.
    """
    return [c for c, _ in _shuffled(number, packs)]


def _check_pysol_number(number) -> None:
    if not isinstance(number, (int, np.integer)) or isinstance(number, bool):
        raise PatienceError(f"a PySolFC game number must be a whole number, not {number!r}")
    if not 0 <= number <= PYSOL_MAX_NUMBER:
        raise PatienceError(f"PySolFC game numbers run from 0 to {PYSOL_MAX_NUMBER}, not {number}")


def _move_sorter(seq: list, select: Callable, ncards: int = 999999):
    """PySolFC's ``_shuffleHookMoveSorter``: (the cards left in place, the selected
    ones sorted by their key, largest first); selection stops after ``ncards``."""
    extracted, rest = [], []
    for pos, item in enumerate(seq):
        key = select(item)
        if key is None:
            rest.append(item)
            continue
        # PySolFC sorts on (key, cards still to come, card): the count breaks ties
        extracted.append((key, len(seq) - pos, item))
        if len(extracted) >= ncards:
            rest += seq[pos + 1:]
            break
    return rest, [x[2] for x in sorted(extracted, reverse=True)]


def _first_aces_and_kings(item):
    """The hook key of Parisienne and Capricieuse: pack 0's aces and kings, by (rank, suit)
    in PySolFC's numbering (ranks from 0, suits C S H D)."""
    code, pack = item
    rank = cards.rank_of(code)
    if pack != 0 or rank not in (ACE, KING):
        return None
    return (rank - 1, PYSOL_SUITS.index(cards.SUITS[cards.suit_of(code)]))


# ------------------------------------------------------------------- the games


def _bakers_dozen_king_swap(seq: list[int], columns: int = 13) -> list[int]:
    """PySolFC's BakersDozen._shuffleHook before its reverse: each king (in list order)
    swaps with the lowest non-king of its column, which leaves the kings at the bottom
    but reorders the other cards (unlike RULES.md's stable king rule)."""
    seq = list(seq)
    kings = [i for i, c in enumerate(seq) if cards.rank_of(c) == KING]
    for i in kings:
        for j in range(i % columns, i, columns):
            if cards.rank_of(seq[j]) != KING:
                seq[i], seq[j] = seq[j], seq[i]
                break
    return seq


def _bakers_dozen(number: int) -> list[int]:
    # The hook reverses the swapped list and the talon deals from the end, so the
    # swapped list is already in deal order: card k goes to column k % 13.  The kings
    # already sit at the bottom, so RULES.md's king rule leaves the columns alone.
    return _bakers_dozen_king_swap(pysol_shuffled_cards(number))


def _duchess(number: int) -> list[int]:
    # Glenwood has no hook: the talon deals the list from its end, three rows of one
    # card to each reserve fan r1..r4, one row to the columns t1..t4, and the rest is
    # the stock, dealt from the same end -- RULES.md's deck order exactly.
    return pysol_shuffled_cards(number)[::-1]


def _capricieuse(number: int) -> list[int]:
    # The hook moves pack 0's aces and kings to the bottom of the talon (the list's
    # start), largest (rank, suit) first; the talon deals 8 rows to p1..p12 from the
    # list's end, then one card to each foundation (up C S H D, down C S H D: each
    # card its own).  RULES.md's deal_plays=false takes the first copy in the deck of
    # each ace and king to its foundation first, then deals the rest in turn.
    rest, found = _move_sorter(_shuffled(number, 2), _first_aces_and_kings, 8)
    return [c for c, _ in found] + [c for c, _ in rest[::-1]]


def _parisienne(number: int) -> list[int]:
    # The hook moves pack 0's aces and kings to the top of the talon (the list's end),
    # the smallest (rank, suit) last, so they are dealt first, one to each foundation.
    # Every later deal gives R t1 t2 t3 t4 R (two reserve piles, one card each); RULES.md
    # deals t1 t2 t3 t4 R R, so each group of six is reordered.  96 cards make 16 full
    # deals: round one is the same card for card.
    rest, found = _move_sorter(_shuffled(number, 2), _first_aces_and_kings)
    order = [c for c, _ in (rest + found)[::-1]]
    head, tail = order[:8], order[8:]
    deck = list(head)
    for k in range(0, len(tail), 6):
        r0, t1, t2, t3, t4, r1 = tail[k:k + 6]
        deck += [t1, t2, t3, t4, r0, r1]
    return deck


GD_TWO_RESERVES = ("its reserve is two piles, the first and the last card of each deal, and a redeal gathers "
                   "one pile after the other (RULES.md has one reserve, gathered in the order its cards came)")


@dataclass(frozen=True)
class PysolGame:
    number: int  # PySolFC's own id of the game
    title: str  # PySolFC's name for it
    deal: Callable[[int], list[int]] | None  # game number -> our deck; None: refused
    required: dict = field(default_factory=dict)  # variant key -> (value, why PySolFC needs it)
    defaults: dict = field(default_factory=dict)  # chosen when not given (PySolFC's reading)
    refusal: str = ""  # why no variant reproduces PySolFC's game
    note: str = ""  # what a player following the deal in PySolFC should know


PYSOL_GAMES = {
    "bakers-dozen": PysolGame(
        31, "Baker's Dozen", _bakers_dozen,
        note="PySolFC moves each king down by swapping it with the lowest non-king beneath it; the deck "
             "reproduces its layout."),
    "duchess": PysolGame(
        282, "Glenwood", _duchess,
        required={"moves": ("whole", "PySolFC moves only the top card or a whole column onto a column")},
        note="PySolFC also lets a reserve card go onto a column before the base rank is chosen, and takes a "
             "card for a space from the stock by dealing it to the waste first; every move here is legal there."),
    "capricieuse": PysolGame(
        292, "Capricieuse", _capricieuse,
        required={"deal_plays": ("false", "PySolFC seats one ace and one king of each suit before the deal and "
                                          "plays nothing during a deal"),
                  "redeals": ("0", "PySolFC shuffles the cards at each redeal, which RULES.md does not: its "
                                   "game can be followed until its first redeal")},
        note="PySolFC allows two shuffled redeals; the deal is followed without them (redeals=0), so 'lost' "
             "here does not mean lost there."),
    "parisienne": PysolGame(
        617, "Parisienne", _parisienne,
        required={"redeals": ("0", "PySolFC's rounds after the first differ: " + GD_TWO_RESERVES)},
        defaults={"foundation_transfer": "true"},
        note="Only PySolFC's first round is reproduced (redeals=0); its three redeals differ ("
             + GD_TWO_RESERVES + "), so 'lost' here does not mean lost there."),
    "grand-duchess": PysolGame(
        557, "Grand Duchess", None,
        refusal="PySolFC's Grand Duchess (game 557) differs from RULES.md in a way no variant covers: round "
                "one ends with a deal of two cards to its reserve and t1 (RULES.md: t1 and t2), and "
                + GD_TWO_RESERVES),
}


def _entry(game_name: str) -> PysolGame:
    entry = PYSOL_GAMES.get(game_name)
    if entry is None:
        known = ", ".join(g for g, e in PYSOL_GAMES.items() if e.deal is not None)
        raise PatienceError(f"PySolFC has no game matching {game_name} (--pysol works for {known})")
    if entry.deal is None:
        raise PatienceError(f"--pysol is refused for {game_name}: {entry.refusal}")
    return entry


def pysol_deck(game_name: str, number: int) -> np.ndarray:
    """The deck that, dealt under RULES.md, gives PySolFC's layout for game ``number``."""
    entry = _entry(game_name)
    packs = 2 if game_name in ("capricieuse", "parisienne") else 1
    return cards.check_deck(entry.deal(number), packs)


def pysol_variant_words(game_name: str, words: list[str]) -> list[str]:
    """The variant words of a ``--pysol`` deal: the user's, checked against what
    reproduces PySolFC, with PySolFC's reading filled in where the user gave nothing.
    A value PySolFC cannot play is a PatienceError saying why."""
    entry = _entry(game_name)
    given = {}
    for w in words:
        key, _, value = w.partition("=")
        given[key.strip()] = value.strip().lower()
    out = list(words)
    for key, (value, why) in entry.required.items():
        if key not in given:
            out.append(f"{key}={value}")
        elif given[key] != value and not (value == "false" and given[key] in ("0", "no", "off")):
            raise PatienceError(f"--pysol for {game_name} needs {key}={value}, not {key}={given[key]}: {why}")
    for key, value in entry.defaults.items():
        if key not in given:
            out.append(f"{key}={value}")
    return out


def pysol_note(game_name: str, number: int) -> str:
    """One line on following this deal in PySolFC (its game id and what differs)."""
    entry = _entry(game_name)
    return f"in PySolFC: {entry.title} (game id {entry.number}), deal number {number}. {entry.note}"
