"""The ``patience`` command: solve, check and deal single deals; win rates in batch.

    patience solve GAME [VARIANT...] (--seed N | --deck FILE | --pysol N) [--json]
    patience check GAME [VARIANT...] (--seed N | --deck FILE | --pysol N) --solution FILE
    patience deal GAME [VARIANT...] (--seed N | --deck FILE | --pysol N) [--json]
    patience winrate GAME [VARIANT...] --deals N [--start S] [--jobs J] ...
    patience report GAME [--out DIR]

VARIANT words are ``key=value`` (RULES.md).  Exit status: 0 success (any verdict for
``solve``), 1 a solution that does not replay to a win (``check``), 2 bad input (one
``patience: error: ...`` line on stderr, never a traceback), 130 interrupted.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import sys

from .cards import card_str, deck_str
from .errors import PatienceError
from .games import get_game
from .variants import parse_variant, variant_str
from .solve import ALGORITHMS

PROG = "patience"


class UsageError(Exception):
    """argparse found bad usage; main turns it into the one-line error and exit 2."""


class Parser(argparse.ArgumentParser):
    # argparse prints the whole usage block and exits by itself; we want exactly one
    # line on stderr and the exit status decided in main (tests call main directly).
    def error(self, message):
        raise UsageError(message)


# ------------------------------------------------------------------ argument types


def _whole(text: str, minimum: int) -> int:
    # argparse prefixes these messages with "argument --seed: ".
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if n < minimum:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least {minimum}, not {n}")
    return n


def nonneg_int(text: str) -> int:
    return _whole(text, 0)


def pos_int(text: str) -> int:
    return _whole(text, 1)


def pos_float(text: str) -> float:
    try:
        x = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, not {text!r}") from None
    if not 0 < x < float("inf"):
        raise argparse.ArgumentTypeError(f"expected a positive number, not {text!r}")
    return x


# ------------------------------------------------------------------ the parser


def usable_cpus() -> int:
    # sched_getaffinity honours CPU pinning (containers, taskset); cpu_count does not.
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return os.cpu_count() or 1


def _add_game(p) -> None:
    p.add_argument("game", help="game name, e.g. bakers-dozen")
    p.add_argument("variant", nargs="*", help="variant options key=value, e.g. face_down=true")


def _add_deck_source(p) -> None:
    g = p.add_mutually_exclusive_group(required=True)
    g.add_argument("--seed", type=nonneg_int, help="the project's seeded deal number N")
    g.add_argument("--deck", metavar="FILE", help="a deck file: card codes in deal order")
    g.add_argument("--pysol", type=nonneg_int, metavar="N", help="PySolFC game number N")


def _add_solver(p) -> None:
    p.add_argument("--algorithm", choices=ALGORITHMS, default="auto",
                   help="auto: DFS and best-first restarts (default); dfs: DFS restarts only; astar: exact A*, shortest solution")
    p.add_argument("--max-nodes", type=pos_int, help="node budget per deal (default: the solver's)")
    p.add_argument("--seconds", type=pos_float, help="time budget per deal (default: the solver's)")
    p.add_argument("--tt-mb", type=pos_int, help="transposition table size in MB (default: the solver's)")


def build_parser() -> Parser:
    parser = Parser(prog=PROG, description="Solve patience games and measure their win rates.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    sub.required = True

    p = sub.add_parser("solve", help="solve one deal and print the verdict and solution")
    _add_game(p)
    _add_deck_source(p)
    _add_solver(p)
    p.add_argument("--json", action="store_true", help="print one JSON object (NOTATION.md)")

    p = sub.add_parser("check", help="replay a solution; exit 0 only if legal and won")
    _add_game(p)
    _add_deck_source(p)
    p.add_argument("--solution", metavar="FILE", required=True, help="moves, one a line, or JSON")

    p = sub.add_parser("deal", help="show a deal's layout and its deck")
    _add_game(p)
    _add_deck_source(p)
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("winrate", help="solve seeds START.. in parallel; results under --out")
    _add_game(p)
    p.add_argument("--deals", type=pos_int, required=True, help="number of deals")
    p.add_argument("--start", type=nonneg_int, default=1, help="first seed (default 1)")
    p.add_argument("--jobs", type=pos_int, default=usable_cpus(), help="worker processes (default: usable CPUs)")
    _add_solver(p)
    p.add_argument("--chunk-size", type=pos_int, help="deals per part file (default: automatic, at most 100)")
    p.add_argument("--out", default="results", metavar="DIR", help="results folder (default results)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--retry-unknown", action="store_true",
                   help="solve again the deals on disk as unknown that had a smaller budget than the one given now")

    p = sub.add_parser("report", help="rebuild a game's win-rate table and plot from disk")
    p.add_argument("game")
    p.add_argument("--out", default="results", metavar="DIR")
    return parser


def parse_args(argv: list[str]) -> argparse.Namespace:
    """Parse, letting variant words also come after the options
    (``solve bakers-dozen --seed 3 face_down=true``): argparse leaves those over, and
    they join the variant words, where parse_variant judges them."""
    args, extra = build_parser().parse_known_args(argv)
    stray = [w for w in extra if w.startswith("-") or not hasattr(args, "variant")]
    if stray:
        raise UsageError(f"unrecognized arguments: {' '.join(stray)}")
    if extra:
        args.variant = list(args.variant) + extra
    return args


# ------------------------------------------------------------------ shared steps


def load_game(args):
    """(game module, full variant dict) from GAME and the variant words."""
    game = get_game(args.game)
    variant = parse_variant(args.game, game.VARIANTS, getattr(args, "variant", []))
    return game, variant


def load_deck(args, game):
    """The deck from --seed, --deck or --pysol, as an int8 array."""
    from . import deals

    if args.deck is not None:
        return deals.read_deck_file(args.deck, packs=game.PACKS)
    if args.pysol is not None:
        return deals.pysol_deck(args.game, args.pysol)
    return deals.seeded_deck(args.seed, game.PACKS)


def deck_origin(args) -> str:
    if args.deck is not None:
        return f"deck file {args.deck}"
    if args.pysol is not None:
        return f"PySolFC game {args.pysol}"
    return f"seed {args.seed}"


def solver_kwargs(args) -> dict:
    """Only the limits the user gave: solve_deal keeps its own defaults otherwise."""
    given = {"max_nodes": args.max_nodes, "seconds": args.seconds, "tt_mb": args.tt_mb}
    return {k: v for k, v in given.items() if v is not None}


# ------------------------------------------------------------------ commands


def cmd_solve(args, out) -> int:
    game, variant = load_game(args)
    deck = load_deck(args, game)
    from .solve import solve_deal  # after the input checks: numba is slow to import

    r = solve_deal(args.game, variant, deck, algorithm=args.algorithm, **solver_kwargs(args))
    if args.json:
        obj = {
            "game": args.game,
            "variant": variant,
            "deck": [card_str(int(c)) for c in deck],
            "result": r.result,
            "moves": list(r.moves),
            "nodes": int(r.nodes),
            "seconds": float(r.seconds),
        }
        print(json.dumps(obj), file=out)
        return 0
    # Header lines start with '#' so that the whole output is a valid solution file
    # (NOTATION.md ignores them) and can be given to `patience check` as it is.
    print(f"# {args.game} {variant_str(variant, game.VARIANTS)}, {deck_origin(args)}", file=out)
    print(f"# deck: {deck_str(deck)}", file=out)
    print(f"# result: {r.result}", file=out)
    print(f"# nodes: {int(r.nodes)}", file=out)
    print(f"# seconds: {float(r.seconds):.3f}", file=out)
    if r.result == "won":
        print(f"# moves: {len(r.moves)}", file=out)
    for m in r.moves:
        print(m, file=out)
    return 0


def cmd_check(args, out) -> int:
    from .replay import read_solution, replay

    game, variant = load_game(args)
    deck = load_deck(args, game)
    moves = read_solution(args.solution)
    r = replay(args.game, variant, deck, moves)
    if r.legal and r.won:
        print(f"legal and won ({len(moves)} moves)", file=out)
        return 0
    if not r.legal:
        # replay's error already names the move: "move 5 'c3 c7 QH': reason".
        print(f"illegal {r.error}", file=out)
    else:
        print(f"legal but not won: {r.error}", file=out)
    return 1


def cmd_deal(args, out) -> int:
    game, variant = load_game(args)
    deck = load_deck(args, game)
    if args.json:
        obj = {"game": args.game, "variant": variant, "deck": [card_str(int(c)) for c in deck]}
        print(json.dumps(obj), file=out)
        return 0
    # The layout is printed as '#' comments: the whole output is then a deck file.
    print(f"# {args.game} {variant_str(variant, game.VARIANTS)}, {deck_origin(args)}", file=out)
    for line in game.layout_text(deck, variant).splitlines():
        print(f"# {line}".rstrip(), file=out)
    print(deck_str(deck), file=out)
    return 0


def cmd_winrate(args, out, argv) -> int:
    from .batch import run_winrate

    _, variant = load_game(args)
    command = " ".join([PROG] + [shlex.quote(a) for a in argv])
    run_winrate(
        args.game, variant, args.start, args.deals, args.jobs, args.algorithm,
        args.max_nodes, args.seconds, args.out, progress=not args.no_progress,
        command=command, tt_mb=args.tt_mb, chunk_size=args.chunk_size, out=out,
        retry_unknown=args.retry_unknown,
    )
    return 0


def cmd_report(args, out) -> int:
    from .batch import write_report

    get_game(args.game)  # a clear error for a misspelt game rather than "no runs"
    md = write_report(args.game, args.out)
    if md is None:
        raise PatienceError(f"no runs of {args.game} under {os.path.join(args.out, 'runs', args.game)}")
    print(md.read_text(), end="", file=out)
    print(f"report: {md}", file=out)
    return 0


# ------------------------------------------------------------------ entry point


def error(message: str, status: int = 2) -> int:
    print(f"{PROG}: error: {message}", file=sys.stderr)
    return status


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    out = sys.stdout
    try:
        args = parse_args(argv)
        if args.command == "solve":
            return cmd_solve(args, out)
        if args.command == "check":
            return cmd_check(args, out)
        if args.command == "deal":
            return cmd_deal(args, out)
        if args.command == "winrate":
            return cmd_winrate(args, out, argv)
        return cmd_report(args, out)
    except (UsageError, PatienceError) as e:
        return error(str(e))
    except SystemExit as e:
        # Only --help and --version get here (our Parser never exits on errors).
        return e.code if isinstance(e.code, int) else 0
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted (finished work is saved; the same command resumes a winrate run)", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # Output piped into `head` and closed early: not an error worth a traceback.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
