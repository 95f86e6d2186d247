"""``patience show``: a deal and a solution, board by board, as text or as one HTML page.

The boards come from the independent checker (solver.checker), not from the solver:
the rule class of the game deals the layout, ``apply`` makes each move, and ``view()``
after each gives the board.  A small function per game names the piles of a view
(``BOARDS``); one renderer draws any game from those named piles, as text
(``render_text``) or as a self-contained HTML page (``render_html``: the template
``show_page.html`` beside this module, with the boards as a JSON blob; no network at
view time).

    show = build_show("bakers-dozen", variant, deck, moves, title="...", verdict="won")
    print(render_text(show))            # one block a move
    Path("bd.html").write_text(render_html(show))

A board is a list of sections; a section is ``{"title", "piles": [pile, ...]}``; a pile
is ``{"name", "kind", "cards": ["7D", ...], "down": n}`` listed bottom to top, its first
``down`` cards face down.  Kinds: ``column`` (a cascade, drawn downwards), ``fan`` and
``row`` (drawn sideways), ``stock`` (a face-down pile: its count), ``waste``, and
``found`` (a foundation, its cards in the order they went home).  Face-down cards are
listed with their faces: the page can show them (the "show hidden cards" switch) and
the text puts them in brackets.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib import resources

from .cards import SUITS, card, card_str
from .checker import GAMES, IllegalMove
from .errors import PatienceError

TEMPLATE = "show_page.html"
DATA_MARK = "/*@SHOW_DATA@*/null"


# --------------------------------------------------------------------- the piles


def _pile(name: str, kind: str, cards, down: int = 0) -> dict:
    return {"name": name, "kind": kind, "cards": [card_str(int(c)) for c in cards], "down": int(down)}


def _up(s: int, top: int) -> list[int]:
    return [card(r, s) for r in range(1, top + 1)]


def _down(s: int, top: int, ranks: int) -> list[int]:
    return [] if top == 0 else [card(r, s) for r in range(ranks, top - 1, -1)]


def _up_down(v: dict, ranks: int) -> dict:
    piles = [_pile(f"U{SUITS[s]}", "found", _up(s, v["up"][s])) for s in range(4)]
    piles += [_pile(f"D{SUITS[s]}", "found", _down(s, v["down"][s], ranks)) for s in range(4)]
    return {"title": "Foundations (U up from the ace, D down from the king)", "piles": piles}


def _rounds(v: dict) -> str:
    left = v["redeals_left"]
    return f"round {v['round']}, {left} redeal{'' if left == 1 else 's'} left"


def bakers_dozen_board(g, v: dict, seen: dict) -> tuple[list[dict], str]:
    found = [_pile(f"F{SUITS[s]}", "found", _up(s, v["foundation"][s])) for s in range(4)]
    face_down = g.variant.get("face_down", False)
    if face_down:
        # Cards are only added on top (face up) and taken from the top, so the cards
        # never seen are always the bottom ones of a column: a count per column.
        hidden = seen.setdefault("hidden", [len(c) - 1 for c in v["columns"]])
        for i, col in enumerate(v["columns"]):
            hidden[i] = max(0, min(hidden[i], len(col) - 1))
    columns = [_pile(f"c{i + 1}", "column", col, seen["hidden"][i] if face_down else 0)
               for i, col in enumerate(v["columns"])]
    return [{"title": "Foundations", "piles": found}, {"title": "Columns", "piles": columns}], ""


def grand_duchess_board(g, v: dict, seen: dict) -> tuple[list[dict], str]:
    stock = v["stock"]
    reserve_down = len(v["reserve"]) if stock else 0  # face down until the stock is out
    # stock[0] is the next card dealt: listed bottom to top it is the last
    middle = [_pile("stock", "stock", stock[::-1], len(stock)), _pile("R", "row", v["reserve"], reserve_down)]
    tableau = [_pile(f"t{i + 1}", "column", p) for i, p in enumerate(v["tableau"])]
    info = _rounds(v) + f", stock {len(stock)}"
    if not g.has_reserve:
        info += ", last round: no reserve"
    elif stock:
        info += ", reserve face down till the stock is out"
    return [_up_down(v, g.ranks), {"title": "Stock and reserve", "piles": middle},
            {"title": "Tableau", "piles": tableau}], info


def duchess_board(g, v: dict, seen: dict) -> tuple[list[dict], str]:
    base = v["base"]
    found = []
    for s in range(4):
        cards = [] if base is None else [card((base - 1 + k) % g.ranks + 1, s) for k in range(v["found"][s])]
        found.append(_pile(f"F{SUITS[s]}", "found", cards))
    fans = [_pile(f"r{i + 1}", "fan", f) for i, f in enumerate(v["fans"])]
    # stock[0] is the next card dealt: listed bottom to top it is the last
    stock = [_pile("S", "stock", v["stock"][::-1], len(v["stock"])), _pile("W", "waste", v["waste"])]
    columns = [_pile(f"t{i + 1}", "column", c) for i, c in enumerate(v["columns"])]
    left = v["redeals_left"]
    info = (f"base rank {'not yet chosen' if base is None else card_str(card(base, 0))[0]}, "
            f"stock {len(v['stock'])}, {left} redeal{'' if left == 1 else 's'} left")
    return [{"title": "Foundations", "piles": found}, {"title": "Reserve fans", "piles": fans},
            {"title": "Stock and waste", "piles": stock}, {"title": "Tableau", "piles": columns}], info


def capricieuse_board(g, v: dict, seen: dict) -> tuple[list[dict], str]:
    piles = [_pile(f"p{i + 1}", "column", p) for i, p in enumerate(v["piles"])]
    return [_up_down(v, g.ranks), {"title": "Piles", "piles": piles}], _rounds(v)


def russian_patience_board(g, v: dict, seen: dict) -> tuple[list[dict], str]:
    stock = v["stock"]
    columns = [_pile(f"c{i + 1}", "column", c) for i, c in enumerate(v["columns"])]
    return [_up_down(v, g.ranks), {"title": "Stock", "piles": [_pile("stock", "stock", stock[::-1], len(stock))]},
            {"title": "Columns", "piles": columns}], _rounds(v) + f", stock {len(stock)}"


# game name -> (checker rule object, its view(), a dict it may keep between boards)
#   -> (sections, one line of state: round, redeals, stock...)
BOARDS = {
    "bakers-dozen": bakers_dozen_board,
    "grand-duchess": grand_duchess_board,
    "parisienne": grand_duchess_board,
    "duchess": duchess_board,
    "capricieuse": capricieuse_board,
    "russian-patience": russian_patience_board,
}


# --------------------------------------------------------------------- the frames


@dataclass
class Show:
    game: str
    title: str  # e.g. "bakers-dozen standard, seed 1"
    verdict: str  # one line: how the deal ends, or what was not shown
    total: int  # cards in the game
    moves: list[str]
    boards: list[list[dict]] = field(default_factory=list)  # len(moves) + 1: before any move, after each
    infos: list[str] = field(default_factory=list)
    home: list[int] = field(default_factory=list)  # cards on the foundations, per board

    @property
    def won(self) -> bool:
        return bool(self.home) and self.home[-1] == self.total


def build_show(game: str, variant: dict, deck, moves: list[str], *, title: str = "", verdict: str = "",
               redeal_seed: int | None = None) -> Show:
    """Replay ``moves`` through the checker, keeping the board before and after each.

    An illegal move is a PatienceError (one line, the move's number and the reason):
    a page of a solution that cannot be played would show nothing true after it."""
    if game not in GAMES or game not in BOARDS:
        raise PatienceError(f"no viewer for game {game!r} (known: {', '.join(BOARDS)})")
    if game == "russian-patience":
        g = GAMES[game](deck, variant, redeal_seed=redeal_seed)
    else:
        g = GAMES[game](deck, variant)
    # every card of the deck; those not left are home (Parisienne starts with 8 there)
    show = Show(game, title or game, verdict, len(deck), list(moves))
    seen: dict = {}

    def keep():
        # view() hands out the rule object's own lists: the board copies them (_pile)
        sections, info = BOARDS[game](g, g.view(), seen)
        show.boards.append(sections)
        show.infos.append(info)
        show.home.append(show.total - g.cards_left())

    keep()
    for number, text in enumerate(moves, start=1):
        try:
            g.apply(text)
        except IllegalMove as e:
            raise PatienceError(f"solution move {number} {text!r} is illegal: {e}") from None
        keep()
    if not show.verdict:
        show.verdict = _verdict(show)
    return show


def _verdict(show: Show) -> str:
    n = len(show.moves)
    if show.won:
        return f"won in {n} move{'' if n == 1 else 's'}: all {show.total} cards home"
    left = show.total - show.home[-1]
    return f"{n} legal move{'' if n == 1 else 's'}, not won: {left} card{'' if left == 1 else 's'} not home"


# --------------------------------------------------------------------- text


def _text_pile(p: dict) -> str:
    cards, down = p["cards"], p["down"]
    if p["kind"] == "stock":
        return f"{len(cards)} card{'' if len(cards) == 1 else 's'}, face down" if cards else "empty"
    if not cards:
        return "--"
    if down:
        return " ".join(["[" + " ".join(cards[:down]) + "]"] + cards[down:])
    return " ".join(cards)


def board_lines(sections: list[dict]) -> list[str]:
    """A board as text: a foundation section on one line (each pile's top card, -- for
    none), every other pile on a line of its own, bottom card first; face-down cards in
    brackets, a stock as its count."""
    lines = []
    for sec in sections:
        piles = sec["piles"]
        if all(p["kind"] == "found" for p in piles):
            groups: dict[str, list[str]] = {}
            for p in piles:
                groups.setdefault(p["name"][0], []).append(p["cards"][-1] if p["cards"] else "--")
            lines.append("  ".join(f"{k}: {' '.join(tops)}" for k, tops in groups.items()))
            continue
        for p in piles:
            lines.append(f"{p['name']:<6}{_text_pile(p)}")
    return lines


def render_text(show: Show) -> str:
    """One block a board: a heading (the move and its text), the cards home, the
    state line, the board; the verdict at the end."""
    out = [f"# {show.title}", f"# {show.verdict}"]
    n = len(show.moves)
    for i, sections in enumerate(show.boards):
        head = "start" if i == 0 else f"move {i}/{n}: {show.moves[i - 1]}"
        out.append("")
        out.append(f"== {head} ==")
        home = f"home {show.home[i]}/{show.total}"
        out.append(f"{home}, {show.infos[i]}" if show.infos[i] else home)
        out.extend(board_lines(sections))
    out.append("")
    out.append(f"# {show.verdict}")
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------- HTML


def page_data(show: Show) -> dict:
    """The JSON the page reads: the boards, the moves, what the page prints."""
    return {
        "game": show.game, "title": show.title, "verdict": show.verdict, "total": show.total, "won": show.won,
        "moves": show.moves, "boards": show.boards, "infos": show.infos, "home": show.home,
    }


def render_html(show: Show) -> str:
    """One self-contained page: the template with the data inlined."""
    template = resources.files("solver").joinpath(TEMPLATE).read_text(encoding="utf-8")
    if DATA_MARK not in template:
        raise RuntimeError(f"{TEMPLATE} has lost its data mark {DATA_MARK!r}")
    data = json.dumps(page_data(show), separators=(",", ":"), ensure_ascii=True)
    # inside <script>, "</" could end the element early; "<\/" is the same string in JS
    data = data.replace("</", "<\\/")
    title = show.title.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return template.replace("@SHOW_TITLE@", title).replace(DATA_MARK, data)
