"""A stock game player's view as text, for ``patience play``'s trace: what the player
saw before each move, ``??`` for a card it has not seen."""

from __future__ import annotations

from ..cards import RANKS, SUITS, card_str


def _cards(cards, hidden) -> str:
    return " ".join("??" if hidden(c) else card_str(int(c)) for c in cards) or "(empty)"


def _grand_duchess(ost, player) -> list[str]:
    from ..games import grand_duchess as g

    nr = int(ost[g.NR])
    hid = bool(player.hidden(ost))
    up = " ".join(f"{RANKS[ost[g.UP0 + s] - 1]}{SUITS[s]}" if ost[g.UP0 + s] else f"-{SUITS[s]}" for s in range(4))
    dn = " ".join(f"{RANKS[nr - ost[g.DN0 + s]]}{SUITS[s]}" if ost[g.DN0 + s] else f"-{SUITS[s]}" for s in range(4))
    stock = int(ost[g.SN] - ost[g.SP])
    out = [f"round {int(ost[g.ROUND]) + 1}, {int(ost[g.MAXRED] - ost[g.ROUND])} redeal(s) left, stock {stock} cards"
           + (" (order unseen)" if hid else ""), f"up {up}   down {dn}"]
    for p in range(g.NPILES):
        out.append(f"  t{p + 1}  " + _cards([ost[g.P0 + p * g.CAP + i] for i in range(ost[g.H0 + p])], lambda c: c < 0))
    res = [ost[g.R0 + i] for i in range(ost[g.NRES])]
    out.append(f"  R   {len(res)} cards face down" if hid else "  R   " + _cards([c for c in res if c >= 0], lambda c: False))
    return out


def _duchess(ost, player) -> list[str]:
    from ..games import duchess as d

    nr = int(ost[d.NR])
    base = int(ost[d.BASE])
    found = " ".join((f"{RANKS[(base + ost[d.F0 + s] - 1) % nr]}{SUITS[s]}" if ost[d.F0 + s] else f"-{SUITS[s]}")
                     for s in range(4)) if base >= 0 else "(base rank not chosen)"
    stock = int(ost[d.TN] - ost[d.TK])
    out = [f"round {int(ost[d.ROUND]) + 1}, {int(ost[d.MAXRED] - ost[d.ROUND])} redeal(s) left, stock {stock} cards"
           + (" (order unseen)" if player.hidden(ost) else ""), f"foundations {found}"]
    for f in range(d.NFANS):
        out.append(f"  r{f + 1}  " + _cards([ost[d.FAN0 + f * d.FAN_CARDS + i] for i in range(ost[d.FH0 + f])],
                                            lambda c: False))
    for col in range(d.NCOLS):
        out.append(f"  t{col + 1}  " + _cards([ost[d.COL0 + col * d.CAP + i] for i in range(ost[d.H0 + col])],
                                            lambda c: False))
    out.append("  W   " + _cards([ost[d.WST0 + i] for i in range(ost[d.WN])], lambda c: False))
    return out


def view_lines(game_name: str, ost, player) -> list[str]:
    """The view ``ost`` (the player module's ``observe``) as lines."""
    if game_name == "duchess":
        return _duchess(ost, player)
    return _grand_duchess(ost, player)
