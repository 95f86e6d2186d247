"""The ``patience`` command: solve, check and deal single deals; win rates in batch.

    patience solve GAME [VARIANT...] (--seed N | --deck FILE | --pysol N) [--json]
    patience check GAME [VARIANT...] (--seed N | --deck FILE | --pysol N) --solution FILE
    patience deal GAME [VARIANT...] (--seed N | --deck FILE | --pysol N) [--json]
    patience show GAME [VARIANT...] (--seed N | --deck FILE | --pysol N) [--solution FILE] [--out FILE | --text]
    patience winrate GAME [VARIANT...] --deals N [--start S] [--jobs J | --scheduler ADDRESS | --cluster-workers N] ... [--out DIR | --publish]
    patience report GAME [--out DIR | --publish]
    patience play GAME [VARIANT...] --strategy NAME [--option K=V ...] (--seed N | --deck FILE) [--rng-seed K] [--json]
    patience play GAME [VARIANT...] --strategy NAME [--option K=V ...] --deals N [--start S] [--jobs J | --scheduler ADDRESS | --cluster-workers N] ... [--out DIR | --publish]
    patience games
    patience --version

``--deck -`` and ``--solution -`` read standard input (one of them at a time).

``show`` writes one self-contained HTML page that steps through a solution (solved
now, or ``--solution FILE`` replayed by the checker), or with ``--text`` prints the
board after each move (solver/show.py).

``play`` with ``--seed``/``--deck`` plays one deal and prints a solution file (the
moves, and as ``#`` comments what the player saw before each move); with ``--deals``
it is a resumable batch like ``winrate`` (solver/batch/play.py: folders, rng seeds).

VARIANT words are ``key=value`` (RULES.md).  Exit status: 0 success (any verdict for
``solve``), 1 a solution that does not replay to a win (``check``), 2 bad input (one
``patience: error: ...`` line on stderr, never a traceback), 130 interrupted.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import signal
import sys
import threading
from pathlib import Path

# The solver does no linear algebra: one BLAS thread spares the start-up of a pool
# (about 90 ms of CPU when numpy loads, taken from the solver on a busy machine).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

# Only light modules here: `patience --version`, `--help` and bad usage must not
# wait for numpy or numba (the solver's modules import them when a command needs them).
from . import DEFAULT_OUT, SOURCE_HASH, __version__
from .errors import PatienceError
from .solve import ALGORITHMS, MAX_NODES, SECONDS, SHORTEN, TT_MB
from .variants import parse_variant, variant_str

PROG = "patience"
# solver.deals.MASK64, repeated so that parsing a seed loads no numpy
MAX_SEED = (1 << 64) - 1  # seeds are SplitMix64 states
STDIN = "-"


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


def seed_int(text: str) -> int:
    n = _whole(text, 0)
    if n > MAX_SEED:
        raise argparse.ArgumentTypeError(f"seeds run from 0 to 2**64-1 = {MAX_SEED}, not {n}")
    return n


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
    g.add_argument("--seed", type=seed_int, help="the project's seeded deal number N (0 to 2**64-1)")
    g.add_argument("--deck", metavar="FILE", help="a deck file: card codes in deal order (- reads standard input)")
    g.add_argument("--pysol", type=nonneg_int, metavar="N",
                   help="PySolFC game number N (Baker's Dozen, Duchess, Capricieuse, Parisienne; with the variant "
                        "that PySolFC plays, see `patience games`)")
    p.add_argument("--redeal-seed", type=seed_int, metavar="N",
                   help="russian-patience: the seed of the redeal shuffles (default: the deal's --seed; a deck "
                        "file may carry it as a line '# redeal-seed: N')")


def _add_solver(p) -> None:
    p.add_argument("--algorithm", choices=ALGORITHMS, default="auto",
                   help="auto: DFS and best-first restarts, then beams and (Grand Duchess, Parisienne) NRPA too "
                        "(default); dfs: DFS restarts only; astar: exact A*, shortest "
                        "solution; nrpa: nested rollout policy adaptation, finds wins the others miss in the redeal "
                        "variants but proves nothing lost (nodes: moves played)")
    p.add_argument("--max-nodes", type=pos_int, help=f"node budget per deal (default {MAX_NODES}; astar: nodes stored)")
    p.add_argument("--seconds", type=pos_float, help=f"time budget per deal (default {SECONDS:g})")
    p.add_argument("--tt-mb", type=pos_int, help=f"transposition table size in MB (default {TT_MB})")


def _add_out(p) -> None:
    g = p.add_mutually_exclusive_group()
    g.add_argument("--out", metavar="DIR", help=f"results folder (default {DEFAULT_OUT}, in the current folder)")
    g.add_argument("--publish", action="store_true",
                   help="write into the repository's own results/ (the published reports)")


def _add_cluster(p, batch: str = "") -> None:
    g = p.add_argument_group("Dask cluster (optional; docs/CLUSTER.md)").add_mutually_exclusive_group()
    g.add_argument("--scheduler", metavar="ADDRESS",
                   help=f"{batch}run the chunks on the Dask cluster whose scheduler is at ADDRESS, e.g. "
                        "tcp://host:8786, instead of local worker processes (needs pip install '.[cluster]')")
    g.add_argument("--cluster-workers", type=pos_int, metavar="N",
                   help=f"{batch}run the chunks on a Dask cluster of N worker processes started on this machine "
                        "for the run (needs pip install '.[cluster]')")


def build_parser() -> Parser:
    parser = Parser(prog=PROG, description="Solve patience games and measure their win rates.")
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__} (source {SOURCE_HASH})")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    sub.required = True

    p = sub.add_parser("solve", help="solve one deal and print the verdict and solution")
    _add_game(p)
    _add_deck_source(p)
    _add_solver(p)
    p.add_argument("--shorten", choices=SHORTEN, default="full",
                   help="shorten a win: quick (cut loops and detours, try weighted A*), full (larger A* runs, then re-solve the "
                        "end exactly with A*; default), none (the line as the search found it)")
    p.add_argument("--json", action="store_true", help="print one JSON object (NOTATION.md)")

    p = sub.add_parser("check", help="replay a solution; exit 0 only if legal and won")
    _add_game(p)
    _add_deck_source(p)
    p.add_argument("--solution", metavar="FILE", required=True,
                   help="moves, one a line, or JSON (- reads standard input)")

    p = sub.add_parser("deal", help="show a deal's layout and its deck")
    _add_game(p)
    _add_deck_source(p)
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("show", help="an HTML page (or --text) that steps through a deal's solution move by move")
    _add_game(p)
    _add_deck_source(p)
    p.add_argument("--solution", metavar="FILE",
                   help="show these moves (one a line, or JSON; - reads standard input) instead of solving the deal")
    p.add_argument("--out", metavar="FILE",
                   help="the page to write (default GAME[-VARIANT]-SOURCE.html in the current folder); "
                        "with --text, the text goes there instead of standard output")
    p.add_argument("--text", action="store_true", help="print the board after each move as plain text, no page")
    _add_solver(p)
    p.add_argument("--shorten", choices=SHORTEN, default="full", help="when solving: as for solve (default full)")

    p = sub.add_parser("winrate", help="solve seeds START.. in parallel; results under --out")
    _add_game(p)
    p.add_argument("--deals", type=pos_int, required=True, help="number of deals")
    p.add_argument("--start", type=seed_int, default=1, help="first seed (default 1)")
    p.add_argument("--jobs", type=pos_int, help="worker processes (default: usable CPUs)")
    _add_solver(p)
    p.add_argument("--chunk-size", type=pos_int, help="deals per part file (default: automatic, at most 100)")
    _add_out(p)
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--retry-unknown", action="store_true",
                   help="solve again the deals on disk as unknown that had a smaller budget than the one given now")
    _add_cluster(p)

    p = sub.add_parser("play", help="play one deal (--seed/--deck) or seeds START.. (--deals) with a strategy "
                       "that sees only what a player sees")
    _add_game(p)
    p.add_argument("--strategy", required=True, metavar="NAME", help="the player, e.g. random or greedy (docs/PLAYERS.md)")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="a strategy option, e.g. max_moves=300 (repeat for more; a bad one lists the known ones)")
    g = p.add_mutually_exclusive_group(required=True)
    g.add_argument("--seed", type=seed_int, help="play the project's seeded deal N")
    g.add_argument("--deck", metavar="FILE", help="play a deck file (- reads standard input)")
    g.add_argument("--deals", type=pos_int, help="a batch: play N seeded deals, results under --out")
    p.add_argument("--rng-seed", type=seed_int, metavar="K",
                   help="one deal: the player's own random seed (default: the deal's seed, 0 for a deck file); "
                        "a batch: deal S gets g(g(S) xor K), g = the first SplitMix64 output (default: S itself)")
    p.add_argument("--redeal-seed", type=seed_int, metavar="N",
                   help="russian-patience, one deal: the seed of the redeal shuffles (default: the deal's --seed)")
    p.add_argument("--json", action="store_true", help="one deal: print one JSON object")
    p.add_argument("--start", type=seed_int, help="batch: first seed (default 1)")
    p.add_argument("--jobs", type=pos_int, help="batch: worker processes (default: usable CPUs)")
    p.add_argument("--chunk-size", type=pos_int, help="batch: deals per part file (default: automatic, at most 100)")
    _add_out(p)
    p.add_argument("--no-progress", action="store_true", help="batch: no progress bar")
    _add_cluster(p, "batch: ")
    p.set_defaults(pysol=None)

    p = sub.add_parser("report", help="rebuild a game's win-rate and strategy tables and plots from disk")
    p.add_argument("game")
    _add_out(p)

    p = sub.add_parser("merge", help="fold the rows of other results folders (other machines, checkouts, seed "
                       "shards) into --out or --publish, with their run records, then rebuild the reports")
    p.add_argument("sources", nargs="+", metavar="FROM", help="a results folder (the --out of a winrate or play run)")
    _add_out(p)

    sub.add_parser("games", help="list the games, their variants and the deck sources each takes")
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


def get_game(name: str):
    from .games import get_game as get

    return get(name)


def load_game(args):
    """(game module, full variant dict) from GAME and the variant words."""
    game = get_game(args.game)
    words = list(getattr(args, "variant", []))
    if getattr(args, "pysol", None) is not None:
        from .pysol import pysol_variant_words

        words = pysol_variant_words(args.game, words)  # PySolFC's reading, or why it cannot be followed
    variant = parse_variant(args.game, game.VARIANTS, words)
    return game, variant


def read_stdin(what: str) -> str:
    try:
        return sys.stdin.read()
    except (OSError, UnicodeDecodeError, ValueError) as e:
        raise PatienceError(f"cannot read {what} from standard input: {e}") from None


def load_deck(args, game):
    """The deck from --seed, --deck (a file, or - for standard input) or --pysol."""
    from . import deals

    if args.deck == STDIN:
        if getattr(args, "solution", None) == STDIN:
            raise PatienceError("--deck - and --solution - cannot both read standard input: give one of them a file")
        args._deck_text = read_stdin("the deck")
        try:
            return deals.parse_deck_text(args._deck_text, packs=game.PACKS)
        except PatienceError as e:
            raise PatienceError(f"deck from standard input: {e}") from None
    if args.deck is not None:
        deck = deals.read_deck_file(args.deck, packs=game.PACKS)
        args._deck_text = Path(args.deck).read_text(encoding="utf-8")
        return deck
    if args.pysol is not None:
        return deals.pysol_deck(args.game, args.pysol)
    return deals.seeded_deck(args.seed, game.PACKS)


REDEAL_SEED_LINE = "# redeal-seed:"


def _seed_line(text: str, what: str):
    """The N of a '# redeal-seed: N' line of a deck or solution file, or None."""
    found = None
    for line in text.splitlines():
        if line.strip().lower().startswith(REDEAL_SEED_LINE):
            word = line.strip()[len(REDEAL_SEED_LINE):].strip()
            try:
                value = seed_int(word)
            except argparse.ArgumentTypeError as e:
                raise PatienceError(f"{what}: bad redeal seed line {line.strip()!r}: {e}") from None
            if found is not None and value != found:
                raise PatienceError(f"{what} gives two different redeal seeds, {found} and {value}")
            found = value
    return found


def redeal_seed(args, solution_text: str | None = None):
    """The redeal seed of a game whose redeals shuffle (solver.deals.setup_kwargs), or
    None: --redeal-seed, else the --seed, else a '# redeal-seed: N' line of the deck
    file, else of the solution file; two sources that disagree are an error."""
    from .deals import SEEDED_REDEALS

    given = getattr(args, "redeal_seed", None)
    if args.game not in SEEDED_REDEALS:
        if given is not None:
            raise PatienceError(f"--redeal-seed is for {', '.join(SEEDED_REDEALS)}, whose redeals shuffle; "
                                f"{args.game} has no such shuffle")
        return None
    sources = []
    if given is not None:
        sources.append(("--redeal-seed", given))
    if getattr(args, "seed", None) is not None and given is None:
        sources.append(("--seed", args.seed))
    deck_text = getattr(args, "_deck_text", None)
    if deck_text is not None:
        value = _seed_line(deck_text, "the deck file")
        if value is not None:
            sources.append(("the deck file", value))
    if solution_text is not None:
        value = _seed_line(solution_text, "the solution")
        if value is not None:
            sources.append(("the solution", value))
    values = {v for _, v in sources}
    if len(values) > 1:
        raise PatienceError("the redeal seed is given twice with different values: "
                            + ", ".join(f"{w} {v}" for w, v in sources))
    return sources[0][1] if sources else None


def deck_origin(args) -> str:
    if args.deck == STDIN:
        return "deck from standard input"
    if args.deck is not None:
        return f"deck file {args.deck}"
    if args.pysol is not None:
        return f"PySolFC game {args.pysol}"
    return f"seed {args.seed}"


def print_origin(args, game, variant: dict, out) -> None:
    """The first header line of solve and deal; for a PySolFC deal, a second one on
    following it in PySolFC (its game id, what differs there)."""
    print(f"# {args.game} {variant_str(variant, game.VARIANTS)}, {deck_origin(args)}", file=out)
    if args.pysol is not None:
        from .pysol import pysol_note

        print(f"# {pysol_note(args.game, args.pysol)}", file=out)


def solver_kwargs(args) -> dict:
    """Only the limits the user gave: solve_deal keeps its own defaults otherwise."""
    given = {"max_nodes": args.max_nodes, "seconds": args.seconds, "tt_mb": args.tt_mb}
    return {k: v for k, v in given.items() if v is not None}


def _setup(args, variant: dict, solution_text: str | None = None, need: bool = True) -> dict:
    """solver.deals.setup_kwargs for this command: the redeal seed of a game whose
    redeals shuffle.  With ``need``, a game that allows redeals and has no seed from any
    source is an error (one line); without, a missing seed is left to the game (the
    checker refuses a redeal it cannot follow)."""
    from .deals import setup_kwargs

    seed = redeal_seed(args, solution_text)
    kw = setup_kwargs(args.game, seed)
    if kw and seed is None and need and variant.get("redeals", 0) > 0:
        raise PatienceError(f"{args.game} with redeals needs the redeal seed of a deck file: give --redeal-seed N "
                            f"(or a line '{REDEAL_SEED_LINE} N' in the deck file), or redeals=0")
    return kw


# ------------------------------------------------------------------ commands


def solve_args(args, variant: dict, deck):
    """solve_deal as solve and show run it: the limits the user gave, the redeal seed,
    the memory checked (one line) and the engines compiled (saying so) before the
    search; (the result, the setup keywords)."""
    from .solve import ensure_compiled, prepare, solve_deal  # after the input checks

    kwargs = solver_kwargs(args)
    seed_kw = _setup(args, variant)
    prepare(args.game, args.algorithm, **kwargs)  # memory: one line, before anything compiles
    ensure_compiled(args.game, announce=sys.stderr)
    r = solve_deal(args.game, variant, deck, algorithm=args.algorithm, **kwargs, **seed_kw, shorten=args.shorten)
    return r, seed_kw


def cmd_solve(args, out) -> int:
    from .cards import card_str, deck_str

    game, variant = load_game(args)
    deck = load_deck(args, game)
    r, seed_kw = solve_args(args, variant, deck)
    if args.json:
        obj = {
            "game": args.game,
            "variant": variant,
            "deck": [card_str(int(c)) for c in deck],
            **seed_kw,
            "result": r.result,
            "moves": list(r.moves),
            "nodes": int(r.nodes),
            "seconds": float(r.seconds),
            "stop": r.stop,
            "proof": r.proof,
            "found_length": int(r.found),
            "shorten_seconds": float(r.shorten_seconds),
        }
        print(json.dumps(obj), file=out)
        return 0
    # Header lines start with '#' so that the whole output is a valid solution file
    # (NOTATION.md ignores them) and can be given to `patience check` as it is.
    print_origin(args, game, variant, out)
    print(f"# deck: {deck_str(deck)}", file=out)
    if seed_kw.get("redeal_seed") is not None:
        print(f"{REDEAL_SEED_LINE} {seed_kw['redeal_seed']}", file=out)
    print(f"# result: {r.result}", file=out)
    if r.stop:
        print(f"# stop: {r.stop}", file=out)
    if r.proof:
        print(f"# proof: {r.proof}", file=out)
    print(f"# nodes: {int(r.nodes)}", file=out)
    print(f"# seconds: {float(r.seconds):.6f}", file=out)
    if r.result == "won":
        print(f"# moves: {len(r.moves)} (the search's line: {r.found}, shortened: --shorten {args.shorten})", file=out)
    for m in r.moves:
        print(m, file=out)
    return 0


def read_moves(args) -> tuple[list[str], str]:
    """(the moves, the text) of --solution FILE, or of standard input for -."""
    from .checker import parse_solution, read_solution

    if args.solution == STDIN:
        text = read_stdin("the solution")
        return parse_solution(text, "solution from standard input"), text
    moves = read_solution(args.solution)
    return moves, Path(args.solution).read_text(encoding="utf-8")


def cmd_check(args, out) -> int:
    from .checker import replay

    game, variant = load_game(args)
    deck = load_deck(args, game)
    moves, text = read_moves(args)
    r = replay(args.game, variant, deck, moves, **_setup(args, variant, text, need=False))
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
    from .cards import card_str, deck_str

    game, variant = load_game(args)
    deck = load_deck(args, game)
    seed_kw = _setup(args, variant, need=False)
    if args.json:
        obj = {"game": args.game, "variant": variant, "deck": [card_str(int(c)) for c in deck], **seed_kw}
        print(json.dumps(obj), file=out)
        return 0
    # The layout is printed as '#' comments: the whole output is then a deck file
    # (with its redeal seed, where the game has one).
    print_origin(args, game, variant, out)
    if seed_kw.get("redeal_seed") is not None:
        print(f"{REDEAL_SEED_LINE} {seed_kw['redeal_seed']}", file=out)
    for line in game.layout_text(deck, variant).splitlines():
        print(f"# {line}".rstrip(), file=out)
    print(deck_str(deck), file=out)
    return 0


def show_name(args, variant: dict, spec: dict) -> str:
    """The default page name: GAME[-VARIANT]-SOURCE.html (bakers-dozen-7.html,
    bakers-dozen-face_down=true-7.html, bakers-dozen-pysol31999.html, parisienne-my.html)."""
    if args.deck == STDIN:
        source = "deck"
    elif args.deck is not None:
        source = Path(args.deck).stem or "deck"
    elif args.pysol is not None:
        source = f"pysol{args.pysol}"
    else:
        source = str(args.seed)
    words = variant_str(variant, spec)
    parts = [args.game] + ([] if words == "standard" else words.split()) + [source]
    return "-".join(parts).replace("/", "_") + ".html"


def cmd_show(args, out) -> int:
    from .show import build_show, render_html, render_text

    game, variant = load_game(args)
    deck = load_deck(args, game)
    title = f"{args.game} {variant_str(variant, game.VARIANTS)}, {deck_origin(args)}"
    if args.solution is not None:
        moves, text = read_moves(args)
        setup = _setup(args, variant, text, need=False)
        verdict = ""  # build_show says how the replay ends
        title += f", solution {'from standard input' if args.solution == STDIN else args.solution}"
    else:
        r, setup = solve_args(args, variant, deck)
        moves = list(r.moves) if r.result == "won" else []
        if r.result == "won":
            verdict = ""
        elif r.result == "lost":
            verdict = f"lost (proof: {r.proof or 'search'}): the layout only, no solution to show"
        else:
            verdict = f"unknown (the search stopped: {r.stop or 'limit'}): the layout only; more --max-nodes/--seconds may decide it"
    show = build_show(args.game, variant, deck, moves, title=title, verdict=verdict,
                      redeal_seed=setup.get("redeal_seed"))
    if args.text:
        body = render_text(show)
        if args.out is None:
            print(body, end="", file=out)
            return 0
        path = Path(args.out)
    else:
        body = render_html(show)
        path = Path(args.out) if args.out is not None else Path(show_name(args, variant, game.VARIANTS))
    if path.is_dir():
        raise PatienceError(f"--out {path} is a folder: give a file name")
    path.write_text(body, encoding="utf-8")
    print(f"wrote {path} ({show.verdict})", file=out)
    return 0


def repository_results() -> Path:
    """The repository's own results/ (for --publish): only in a source checkout."""
    root = Path(__file__).resolve().parents[1]
    if not ((root / "pyproject.toml").is_file() and (root / "results").is_dir()):
        raise PatienceError(f"--publish writes into the source checkout's results/, and {root} is not one: give --out DIR")
    return root / "results"


def out_dir(args) -> str:
    return str(repository_results()) if args.publish else (args.out or DEFAULT_OUT)


def cluster_backend(args):
    """The Dask backend --scheduler/--cluster-workers ask for (None: the process pool);
    --jobs beside either is an error, and so is either without Dask installed."""
    if args.scheduler is None and args.cluster_workers is None:
        return None
    if args.jobs is not None:
        given = "--scheduler" if args.scheduler is not None else "--cluster-workers"
        raise PatienceError(f"--jobs is the number of local worker processes; with {given} the Dask workers "
                            "run the chunks: give one or the other")
    from .batch.cluster import from_args

    return from_args(args.scheduler, args.cluster_workers)


def cmd_winrate(args, out, argv) -> int:
    _, variant = load_game(args)
    if args.start + args.deals - 1 > MAX_SEED:
        raise PatienceError(f"seeds run from 0 to 2**64-1: --start {args.start} with --deals {args.deals} goes past it")
    backend = cluster_backend(args)
    folder = out_dir(args)
    # run_winrate checks the folder, the memory of --jobs solvers (or of the local
    # cluster's), and compiles once (saying so) before any worker starts
    from .batch import run_winrate

    command = " ".join([PROG] + [shlex.quote(a) for a in argv])
    run_winrate(
        args.game, variant, args.start, args.deals, usable_cpus() if args.jobs is None else args.jobs,
        args.algorithm, args.max_nodes, args.seconds, folder, progress=not args.no_progress,
        command=command, tt_mb=args.tt_mb, chunk_size=args.chunk_size, out=out,
        retry_unknown=args.retry_unknown, backend=backend,
    )
    return 0


def cmd_report(args, out) -> int:
    get_game(args.game)  # a clear error for a misspelt game rather than "no runs"
    folder = out_dir(args)
    if os.path.exists(folder) and not os.path.isdir(folder):
        raise PatienceError(f"--out {folder} is a file, not a folder")
    none = f"no runs of {args.game} under {os.path.join(folder, 'runs', args.game)}"
    if not os.path.isdir(os.path.join(folder, "runs", args.game)):
        raise PatienceError(none)
    solved, played = write_reports(args.game, folder, out, show=True)
    if not (solved or played):
        raise PatienceError(none)
    if played:
        command = " ".join([PROG, "report", args.game] + (["--publish"] if args.publish else
                                                          (["--out", args.out] if args.out else [])))
        write_hidden_page(folder, command, out)
    return 0


def write_reports(game: str, folder: str, out, show: bool) -> tuple[bool, bool]:
    """Rebuild a game's reports under ``folder`` (win rates, strategies), printing their
    paths (``show``: and the tables); whether there were solver runs, strategy runs."""
    from .batch import write_play_report, write_report

    md = write_report(game, folder)  # the solver's win rates
    if md is not None:
        if show:
            print(md.read_text(), end="", file=out)
        print(f"report: {md}", file=out)
    played = write_play_report(game, folder)  # the strategies, if any were run
    if played is not None:
        if md is not None and show:
            print(file=out)
        if show:
            print(played.read_text(), end="", file=out)
        print(f"report: {played}", file=out)
    return md is not None, played is not None


def write_hidden_page(folder: str, command: str, out) -> None:
    """The page of every hidden-information game, rebuilt once after the games' reports
    (it reads every game's strategy runs, so once per command is enough)."""
    from .batch.hidden_report import write_hidden_report

    every = write_hidden_report(folder, command)
    if every is not None:
        print(f"report: {every}", file=out)


def cmd_merge(args, out, argv) -> int:
    folder = out_dir(args)
    if os.path.exists(folder) and not os.path.isdir(folder):
        raise PatienceError(f"--out {folder} is a file, not a folder")
    from .batch.merge_folders import merge_results

    command = " ".join([PROG] + [shlex.quote(a) for a in argv])
    done, games = merge_results(args.sources, folder, command)
    if not done:
        raise PatienceError(f"nothing to merge: no rows under {', '.join(os.path.join(s, 'runs') for s in args.sources)}")
    for m in done:
        if m.brought:
            print(f"{m.folder}: {m.rows:,} rows read, {m.new_seeds:,} new seeds, {m.better:,} seeds with a better row; "
                  f"{m.seeds:,} seeds", file=out)
    same = sum(not m.brought for m in done)
    if same:
        print(f"{same} folder{'s' if same > 1 else ''} already held every row read", file=out)
    played = False
    for game in games:
        played |= write_reports(game, folder, out, show=False)[1]
    if played:
        write_hidden_page(folder, command, out)
    return 0


# the options of `play` that only a batch (--deals) takes
BATCH_ONLY = {"start": "--start", "jobs": "--jobs", "chunk_size": "--chunk-size", "out": "--out",
              "publish": "--publish", "no_progress": "--no-progress", "scheduler": "--scheduler",
              "cluster_workers": "--cluster-workers"}


def cmd_play(args, out, argv) -> int:
    from .play import players

    game, variant = load_game(args)
    if args.game not in players.PLAYABLE:
        raise PatienceError(f"no player for {args.game} yet; playable: {', '.join(players.PLAYABLE)}")
    options = players.parse_options(args.strategy, args.option)  # an unknown strategy too
    if args.deals is None:
        given = [flag for key, flag in BATCH_ONLY.items() if getattr(args, key) not in (None, False)]
        if given:
            raise PatienceError(f"{', '.join(given)} {'is' if len(given) == 1 else 'are'} for a batch (--deals N), "
                                "not for one deal (--seed or --deck)")
        return play_one(args, out, game, variant, options)
    if args.json:
        raise PatienceError("--json is for one deal (--seed or --deck), not for a batch (--deals N)")
    if args.redeal_seed is not None:
        raise PatienceError("--redeal-seed is for one deal (--seed or --deck); in a batch each deal's redeal seed is its seed")
    start = 1 if args.start is None else args.start
    if start + args.deals - 1 > MAX_SEED:
        raise PatienceError(f"seeds run from 0 to 2**64-1: --start {start} with --deals {args.deals} goes past it")
    backend = cluster_backend(args)
    folder = out_dir(args)
    from .batch import run_play

    command = " ".join([PROG] + [shlex.quote(a) for a in argv])
    run_play(args.game, variant, args.strategy, options, start, args.deals,
             usable_cpus() if args.jobs is None else args.jobs, folder, rng_seed=args.rng_seed,
             progress=not args.no_progress, command=command, chunk_size=args.chunk_size, out=out,
             backend=backend)
    return 0


def observation_lines(obs) -> list[str]:
    """What the player saw, compactly: the foundations (the top card of each suit, -
    for none) and each column bottom to top, ?? for a card never seen."""
    from .cards import RANKS, SUITS, card_str

    if hasattr(obs, "lines"):  # a game whose observation writes itself
        return obs.lines()
    try:
        columns, foundation = obs.columns, obs.foundation
    except AttributeError:  # another game's observation: as it is
        return [repr(obs)]
    home = " ".join(f"{RANKS[f - 1]}{SUITS[s]}" if f else f"-{SUITS[s]}" for s, f in enumerate(foundation))
    lines = [f"foundations {home}"]
    for i, col in enumerate(columns):
        cards = " ".join("??" if c < 0 else card_str(c) for c in col) or "(empty)"
        lines.append(f"  c{i + 1:<3}{cards}")
    return lines


def play_one(args, out, game, variant, options) -> int:
    import solver

    from .batch.play import PlayerBug, announcer
    from .cards import card_str, deck_str
    from .checker import replay
    from .play import players

    deck = [int(c) for c in load_deck(args, game)]
    rng_seed = args.rng_seed if args.rng_seed is not None else (args.seed if args.seed is not None else 0)
    setup = _setup(args, variant)
    players.check_playable(args.game, args.strategy, options)
    players.prepare(args.game, args.strategy, announcer(sys.stderr))
    o = players.play_deal(args.game, deck, variant, args.strategy, options, rng_seed, trace=not args.json, **setup)
    if o.won:
        r = replay(args.game, variant, deck, list(o.moves), **setup)
        if not (r.legal and r.won):
            raise PlayerBug(f"{args.strategy} reported a win whose moves do not replay ({r.error}): a bug in the player")
    if args.json:
        obj = {
            "game": args.game, "variant": variant, "seed": args.seed, "deck": [card_str(c) for c in deck], **setup,
            "strategy": args.strategy, "options": options, "rng_seed": rng_seed, "won": bool(o.won),
            "moves": list(o.moves), "decisions": int(o.decisions), "stopped": bool(o.stopped),
            "seconds": float(o.seconds), "code_version": solver.SOURCE_HASH, "package_version": solver.__version__,
        }
        print(json.dumps(obj), file=out)
        return 0
    # '#' lines are comments in a solution file: the whole output is one, for `patience check`
    if o.won:
        result = "won"
    elif o.stopped:
        result = f"lost (stopped after max_moves={options['max_moves']} moves)"
    else:
        result = "lost (no legal move left)"
    print_origin(args, game, variant, out)
    print(f"# deck: {deck_str(deck)}", file=out)
    if setup.get("redeal_seed") is not None:
        print(f"{REDEAL_SEED_LINE} {setup['redeal_seed']}", file=out)
    print(f"# strategy: {args.strategy} ({players.options_text(options)}), rng seed {rng_seed}", file=out)
    print(f"# result: {result}", file=out)
    print(f"# moves: {len(o.moves)}", file=out)
    print(f"# decisions: {o.decisions}", file=out)
    print(f"# seconds: {float(o.seconds):.6f}", file=out)
    print(f"# code version: {solver.SOURCE_HASH} (package {solver.__version__})", file=out)
    seen = list(o.observations)
    for i, move in enumerate(o.moves):
        if i < len(seen):
            lines = observation_lines(seen[i])
            print("#", file=out)
            print(f"# seen before move {i + 1}: {lines[0]}", file=out)
            for line in lines[1:]:
                print(f"# {line}", file=out)
        print(move, file=out)
    print(f"# result: {result}", file=out)
    return 0


def variant_words(spec: dict) -> str:
    words = []
    for key, (kind, default) in ((k, (v[0], v[-1])) for k, v in spec.items()):
        if kind == "bool":
            values = "true|false"
        elif isinstance(kind, tuple) and kind and kind[0] == "int":
            values = f"{kind[1]}..{kind[2]}"
        else:
            values = "|".join(kind)
        shown = str(default).lower() if isinstance(default, bool) else default
        words.append(f"{key}={values} (default {shown})")
    return ", ".join(words) or "none"


def pysol_sources(entry) -> str:
    """What `games` says of --pysol for one game (solver/pysol.py's table)."""
    if entry is None:
        return " (PySolFC has no such game: no --pysol)"
    if entry.deal is None:
        return f" (--pysol refused: PySolFC's game {entry.number} has other rules)"
    fixed = {k: v for k, (v, _) in entry.required.items()} | entry.defaults
    variant = " ".join(f"{k}={v}" for k, v in fixed.items())
    return f", --pysol N (PySolFC's game {entry.number}, {entry.title}" + (f"; played as {variant})" if variant else ")")


def cmd_games(args, out) -> int:
    from .deals import SEEDED_REDEALS
    from .games import REGISTRY
    from .pysol import PYSOL_GAMES

    for name, module in REGISTRY.items():
        if module is None:
            print(f"{name}: not implemented yet", file=out)
            continue
        game = get_game(name)
        print(f"{name} ({game.PACKS} pack{'s' if game.PACKS > 1 else ''})", file=out)
        print(f"  variants: {variant_words(game.VARIANTS)}", file=out)
        print(f"  decks: --seed N, --deck FILE{pysol_sources(PYSOL_GAMES.get(name))}", file=out)
        if name in SEEDED_REDEALS:
            print("  redeal shuffles: the deal's --seed, or --redeal-seed N (or a '# redeal-seed: N' line) "
                  "with a deck file", file=out)
    return 0


# ------------------------------------------------------------------ entry point


def error(message: str, status: int = 2) -> int:
    print(f"{PROG}: error: {message}", file=sys.stderr)
    return status


class Terminated(KeyboardInterrupt):
    """SIGTERM (kill, timeout, a batch system's stop), raised in the parent so that it
    stops as on Ctrl-C: the pool or cluster is shut down on the way out, and its
    workers do not outlive it, each printing a BrokenPipeError traceback when it next
    hands in a chunk.  Finished chunks are already on disk."""


def _on_sigterm(signum, frame):
    raise Terminated()


def main(argv: list[str] | None = None) -> int:
    """The `patience` command; ``argv`` None: the process's own command line, which
    also makes SIGTERM stop it cleanly (exit status 143)."""
    if argv is None and threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _on_sigterm)
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
        if args.command == "show":
            return cmd_show(args, out)
        if args.command == "winrate":
            return cmd_winrate(args, out, argv)
        if args.command == "play":
            return cmd_play(args, out, argv)
        if args.command == "games":
            return cmd_games(args, out)
        if args.command == "merge":
            return cmd_merge(args, out, argv)
        return cmd_report(args, out)
    except (UsageError, PatienceError) as e:
        return error(str(e))
    except SystemExit as e:
        # Only --help and --version get here (our Parser never exits on errors).
        return e.code if isinstance(e.code, int) else 0
    except KeyboardInterrupt as e:
        how, status = ("terminated", 143) if isinstance(e, Terminated) else ("interrupted", 130)
        print(f"{PROG}: {how} (finished work is saved; the same command resumes a winrate or play run)", file=sys.stderr)
        return status
    except BrokenPipeError:
        # Output piped into `head` and closed early: not an error worth a traceback.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except OSError as e:
        # a file or folder the checks above did not foresee (a disk filling up...)
        where = f"{e.filename}: " if e.filename else ""
        return error(f"{where}{e.strerror or e}")
    except MemoryError:
        return error("out of memory: try a smaller --max-nodes or --tt-mb")


if __name__ == "__main__":
    sys.exit(main())
