"""Redeal monotonicity over the paired runs of one game (issue 19).

A redeal is the player's to take or leave, and the rules are otherwise the same, so a
deal won with k redeals is won with any k' > k by the same moves, and a deal lost with
k' redeals is lost with every k < k'.  On the stored rows of the variants that differ
only in ``redeals`` (the same seeds, hence the same decks) this is

* a check: a seed won with k and lost with k' > k is a solver bug, and the report
  stops with an error naming it;
* a decision: an unknown seed at k' that is won at some k < k' is won (the k row's
  solution is a solution at k'), and an unknown seed at k that is lost at some k' > k
  is lost (the k' row's proof covers it).  The report gives each variant's bounds
  with these decisions beside the bounds of its own rows; the rows stay as they were
  measured.

Only for a game whose module sets ``REDEALS_MONOTONE``: in Grand Duchess and
Parisienne the round after the last redeal has no reserve, so the variants differ in
more than the number of redeals and neither implication holds (their module says why).
"""

from __future__ import annotations

import pandas as pd

from ..errors import PatienceError
from ..stats import summarize


def chains(variants: dict) -> list[list[tuple[int, str]]]:
    """Groups of variant names that differ only in ``redeals``, each sorted by it."""
    groups: dict[tuple, list] = {}
    for name, v in variants.items():
        options = dict(v.meta.get("options") or {})
        if "redeals" not in options:
            continue
        k = int(options.pop("redeals"))
        groups.setdefault(tuple(sorted(options.items())), []).append((k, name))
    return [sorted(g) for g in groups.values() if len(g) > 1]


def implied(variants: dict) -> tuple[list[dict], dict[str, dict]]:
    """(pairs, decided): per pair k < k' of a chain, the common seeds and what the
    pair shows; per variant, its results with the monotone decisions added (a Series
    by seed).  Raises PatienceError on a seed won with fewer redeals and lost with more."""
    pairs, decided = [], {}
    for chain in chains(variants):
        res = {name: variants[name].rows.set_index("seed")["result"].astype(object) for _, name in chain}
        out = {name: r.copy() for name, r in res.items()}
        for i, (k, a) in enumerate(chain):
            for k2, b in chain[i + 1:]:
                ra, rb = res[a].align(res[b], join="inner")
                bad = ra.index[(ra == "won") & (rb == "lost")]
                if len(bad):
                    raise PatienceError(f"solver bug: seed {int(bad[0])} is won with {a} and lost with {b} "
                                        f"({len(bad)} such seeds): a win with fewer redeals is a win with more")
                won_up = ra.index[(ra == "won") & (rb == "unknown")]
                lost_down = ra.index[(ra == "unknown") & (rb == "lost")]
                out[b].loc[won_up] = "won"
                out[a].loc[lost_down] = "lost"
                pairs.append({"fewer": a, "more": b, "common": len(ra), "won_fewer_unknown_more": len(won_up),
                              "lost_more_unknown_fewer": len(lost_down)})
        for name in out:
            decided[name] = out[name]
    return pairs, decided


def applies(game_name: str) -> bool:
    from ..games import get_game

    return bool(get_game(game_name).REDEALS_MONOTONE)


def markdown(variants: dict, pct, game_name: str | None = None) -> list[str]:
    """The report's section (empty when the game has no two variants of one chain, or
    when ``game_name`` is given and its redeals are not monotone)."""
    if game_name is not None and not applies(game_name):
        return []
    pairs, decided = implied(variants)
    if not pairs:
        return []
    lines = [
        "",
        "## Redeal monotonicity",
        "",
        "A deal won with fewer redeals is won with more (the same moves), and one lost with "
        "more is lost with fewer; on every pair of variants that differ only in `redeals` "
        "no seed is won with fewer and lost with more (the report stops if one is).  An "
        "unknown seed that the other variant decides this way is decided:",
        "",
        "| fewer redeals | more redeals | common seeds | won with fewer, unknown with more | lost with more, unknown with fewer |",
        "| --- | --- | ---: | ---: | ---: |",
    ]
    for p in pairs:
        lines.append(f"| {p['fewer']} | {p['more']} | {p['common']} | {p['won_fewer_unknown_more']} "
                     f"| {p['lost_more_unknown_fewer']} |")
    lines += ["", "| variant | won | lost | unknown | lower..upper with these decisions (95% outer ends) |",
              "| --- | ---: | ---: | ---: | --- |"]
    for name, results in decided.items():
        s = summarize(pd.Series(results.to_numpy()))
        lines.append(f"| {name} | {s['won']} | {s['lost']} | {s['unknown']} "
                     f"| {pct(s['lower_bound'])}..{pct(s['upper_bound'])} "
                     f"({pct(s['lower_bound_lo'])}..{pct(s['upper_bound_hi'])}) |")
    return lines
