"""The playing front end: which games and strategies can be played, their options,
and ``play_deal``, which plays one deal and returns a ``PlayOutcome``.

Every caller (the ``patience play`` command, the batch, the benchmarks, the tests)
goes through here, so a strategy's options are parsed and documented in one place.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from ..errors import PatienceError

PLAYABLE = ("bakers-dozen", "russian-patience", "grand-duchess", "parisienne", "duchess")
# the strategies each game has (the stock games: rollout level 1 only; scout where the hidden part ends and play goes on)
STOCK_STRATEGIES = ("random", "eager", "greedy", "rollout", "pimc", "ismcts", "scout")
GAME_STRATEGIES = {"bakers-dozen": ("random", "greedy", "rollout", "pimc", "ismcts"),
                   "russian-patience": ("random", "greedy", "rollout", "pimc", "ismcts"),
                   "grand-duchess": STOCK_STRATEGIES, "parisienne": STOCK_STRATEGIES, "duchess": STOCK_STRATEGIES}
STOCK_GAMES = ("russian-patience", "grand-duchess", "parisienne", "duchess")  # solver.play.stock_play

# name -> {option: (type, default, help)}; "max_moves" is every strategy's cap on its game
STRATEGY_OPTIONS: dict[str, dict[str, tuple]] = {
    "random": {},
    "eager": {},
    "greedy": {},
    "rollout": {
        "level": (int, 1, "1: greedy playouts score each move; 2: level-1 rollout playouts do"),
        "samples": (int, 2, "sampled worlds per decision"),
        "inner_samples": (int, 2, "level 2: sampled worlds per decision of the inner level-1 policy"),
        "playout_cap": (int, 400, "moves after which a playout counts as lost"),
    },
    "pimc": {
        "samples": (int, 4, "sampled worlds per decision"),
        "budget": (int, 300, "solver nodes per (move, world)"),
        "full_budget": (int, 200000, "solver nodes once every card is known (its win is then played out)"),
    },
    "scout": {
        "budget": (int, 300, "once every card is known and the full search failed: solver nodes per move"),
        "full_budget": (int, 200000, "solver nodes once every card is known (its win is then played out)"),
    },
    "ismcts": {
        "iterations": (int, 50, "tree iterations per decision, one sampled world each"),
        "explore": (float, 0.7, "UCB1 exploration constant"),
        "playout_cap": (int, 400, "moves after which a greedy leaf playout counts as lost"),
    },
}
COMMON_OPTIONS = {"max_moves": (int, 1000, "moves after which an unfinished game counts as lost")}


@dataclass
class PlayOutcome:
    won: bool
    moves: list  # the moves made, NOTATION.md words, in order
    decisions: int  # times the player chose among two or more legal moves
    stopped: bool  # the game hit max_moves before it ended
    seconds: float
    observations: list = field(default_factory=list)  # with trace=True: the Observation before each move


def option_table(strategy: str) -> dict:
    if strategy not in STRATEGY_OPTIONS:
        raise PatienceError(f"unknown strategy {strategy!r}; choose from {', '.join(STRATEGY_OPTIONS)}")
    return {**STRATEGY_OPTIONS[strategy], **COMMON_OPTIONS}


def parse_options(strategy: str, items: list[str] | None) -> dict:
    """``["key=value", ...]`` -> the full options dict (defaults filled in); a bad
    item raises PatienceError naming it."""
    table = option_table(strategy)
    out = {k: v[1] for k, v in table.items()}
    seen = set()
    for item in items or []:
        key, eq, value = item.partition("=")
        if not eq or key not in table:
            known = ", ".join(table) or "none"
            raise PatienceError(f"bad --option {item!r} for strategy {strategy}: expected key=value with key one of {known}")
        if key in seen:
            raise PatienceError(f"--option {key} given twice")
        seen.add(key)
        kind = table[key][0]
        try:
            out[key] = kind(value)
        except ValueError:
            raise PatienceError(f"bad --option {item!r}: {key} takes {kind.__name__} values") from None
        if kind in (int, float) and out[key] < 0:
            raise PatienceError(f"bad --option {item!r}: {key} must not be negative")
    return out


def options_text(options: dict) -> str:
    """A stable one-word form of the options, for file names and reports."""
    return ",".join(f"{k}={options[k]}" for k in sorted(options)) or "default"


def check_playable(game_name: str, strategy: str, options: dict | None = None) -> None:
    """PatienceError (one line) unless ``game_name`` has a player ``strategy``."""
    if game_name not in PLAYABLE:
        raise PatienceError(f"no player for {game_name} yet; playable: {', '.join(PLAYABLE)}")
    option_table(strategy)
    if strategy not in GAME_STRATEGIES[game_name]:
        raise PatienceError(f"strategy {strategy} is not written for {game_name} yet; "
                            f"its strategies: {', '.join(GAME_STRATEGIES[game_name])}")
    if game_name in STOCK_GAMES and options:
        if options.get("level", 1) != 1:
            raise PatienceError(f"{game_name} has rollout level 1 only (--option level=1)")
        from .templates import KEEP

        if options.get("samples", 1) > KEEP:
            raise PatienceError(f"{game_name} players keep at most {KEEP} sampled worlds: --option samples=1..{KEEP}")


def prepare(game_name: str, strategy: str, announce=None) -> None:
    """Load (or compile, once, announcing it through ``announce(text)``) the kernels
    ``strategy`` runs on, by playing a tiny game; called once per process before any
    clock starts."""
    check_playable(game_name, strategy)
    from ..cards import full_pack

    if game_name in STOCK_GAMES:
        from . import stock_play

        if announce is not None and stock_play.is_cold(game_name):
            announce(f"compiling the players for {game_name} (once)")
        tiny = {"russian-patience": (2, 2, {"redeal_seed": 0}), "grand-duchess": (2, None, {}),
                "parisienne": (2, None, {}), "duchess": (4, None, {})}[game_name]
        ranks, columns, setup = tiny
        stock_play.play_fast(game_name, full_pack(2 if game_name != "duchess" else 1, ranks), {}, strategy,
                             parse_options(strategy, []), 0, ranks, columns, **setup)
        return
    from . import bd_play

    if announce is not None and bd_play.is_cold():
        announce(f"compiling the players for {game_name} (once)")
    bd_play.play_fast(full_pack(1, 2), {"face_down": True}, strategy, parse_options(strategy, []), 0, ranks=2, columns=2)


_WORDS: dict[int, str] = {}  # move_text memo: a random game makes ~900 moves, and formatting each dominated its time


def play_deal(game_name: str, deck, variant: dict, strategy: str, options: dict, rng_seed: int, *,
              trace: bool = False, ranks: int = 13, columns: int | None = None,
              redeal_seed: int | None = None) -> PlayOutcome:
    """Play one deal with ``strategy`` (its own random stream seeded by ``rng_seed``).
    ``variant`` may be partial (defaults filled in); ``ranks``/``columns`` below the
    game's own are the reduced games of the tests and of the exact ceiling;
    ``redeal_seed`` is the deal's own (Russian Patience: solver.deals.setup_kwargs),
    which the referee keeps and the player never sees.  With ``trace`` the outcome holds
    the observation before each move, rebuilt by the plain-Python rules."""
    check_playable(game_name, strategy, options)
    if game_name == "russian-patience":
        return _play_russian_patience(deck, variant, strategy, options, rng_seed, trace, ranks, columns, redeal_seed)
    if game_name in STOCK_GAMES:
        return _play_stock_game(game_name, deck, variant, strategy, options, rng_seed, trace, ranks, columns)
    columns = 13 if columns is None else columns
    from ..checker.bakers_dozen import _bakers_dozen_variant
    from ..games.bakers_dozen import move_text
    from . import bd_play

    full = _bakers_dozen_variant(variant)
    options = {**{k: v[1] for k, v in option_table(strategy).items()}, **options}
    t0 = time.perf_counter()
    won, moves, decisions, stopped = bd_play.play_fast(deck, full, strategy, options, rng_seed, ranks, columns)
    seconds = time.perf_counter() - t0
    words = [_WORDS.get(m) or _WORDS.setdefault(m, move_text(m)) for m in moves]
    seen = []
    if trace:
        from .bakers_dozen import FaceDownGame

        game = FaceDownGame(deck, full, ranks=ranks, columns=columns)
        for w in words:
            seen.append(game.observe())
            game.apply(w)
    return PlayOutcome(won, words, decisions, stopped, seconds, seen)


@dataclass
class RussianPatienceView:
    """What a Russian Patience player saw before a move (the checker's view, the stock's
    order and the redeal seed left out)."""

    columns: list
    up: list
    down: list
    stock_cards: int
    round: int
    redeals_left: int

    def lines(self) -> list[str]:
        from ..cards import RANKS, SUITS, card_str

        def tops(ranks_):
            return " ".join(f"{RANKS[r - 1]}{SUITS[s]}" if r else f"-{SUITS[s]}" for s, r in enumerate(ranks_))

        out = [f"round {self.round}, {self.redeals_left} redeal(s) left, stock {self.stock_cards} cards (order unseen)",
               f"up {tops(self.up)}   down {tops(self.down)}"]
        for i, col in enumerate(self.columns):
            out.append(f"  c{i + 1:<3}{' '.join(card_str(c) for c in col) or '(empty)'}")
        return out


def _play_russian_patience(deck, variant, strategy, options, rng_seed, trace, ranks, columns, redeal_seed):
    from ..checker import RussianPatience
    from ..games.russian_patience import move_text
    from . import stock_play

    options = {**{k: v[1] for k, v in option_table(strategy).items()}, **options}
    t0 = time.perf_counter()
    won, moves, decisions, stopped = stock_play.play_fast("russian-patience", deck, variant, strategy, options,
                                                          rng_seed, ranks, columns, redeal_seed=redeal_seed)
    seconds = time.perf_counter() - t0
    words = [_word("russian-patience", m, move_text) for m in moves]
    seen = []
    if trace:
        game = RussianPatience(deck, variant, ranks=ranks, columns=columns, redeal_seed=redeal_seed)
        for w in words:
            v = game.view()
            seen.append(RussianPatienceView([list(c) for c in v["columns"]], list(v["up"]), list(v["down"]),
                                            len(v["stock"]), v["round"], v["redeals_left"]))
            game.apply(w)
    return PlayOutcome(won, words, decisions, stopped, seconds, seen)


_WORDS_GAME: dict[tuple, str] = {}


def _word(game_name: str, m: int, move_text) -> str:
    key = (game_name, m)
    return _WORDS_GAME.get(key) or _WORDS_GAME.setdefault(key, move_text(m))


@dataclass
class KernelView:
    """What a player saw before a move, as lines (solver.play.views)."""

    text: list

    def lines(self) -> list[str]:
        return self.text


def _play_stock_game(game_name, deck, variant, strategy, options, rng_seed, trace, ranks, columns):
    import numpy as np

    from . import stock_play
    from .views import view_lines

    game, player = stock_play.modules(game_name)
    options = {**{k: v[1] for k, v in option_table(strategy).items()}, **options}
    t0 = time.perf_counter()
    won, moves, decisions, stopped = stock_play.play_fast(game_name, deck, variant, strategy, options, rng_seed,
                                                          ranks, columns)
    seconds = time.perf_counter() - t0
    words = []
    for m in moves:  # a move may be a macro of several lines (Grand Duchess transfers)
        words.extend(_word(game_name, m, game.move_text).split("\n"))
    seen = []
    if trace:
        st = game.initial_state(deck, variant, ranks, columns)
        ost = np.zeros_like(st)
        for m in moves:
            player.observe(st, ost)
            text = view_lines(game_name, ost, player)
            seen.append(KernelView(text))
            for _ in game.move_text(m).split("\n")[1:]:
                seen.append(KernelView(text))  # a macro's lines share the view before it
            game.apply_move(st, m)
    return PlayOutcome(won, words, decisions, stopped, seconds, seen)
