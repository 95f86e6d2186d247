"""Redeal monotonicity over paired runs (solver.batch.monotone): decisions it may add,
the bug it must refuse, and variants that differ in more than ``redeals`` kept apart."""

from __future__ import annotations

import pandas as pd
import pytest

from solver.batch import monotone
from solver.batch.report import Variant, pct
from solver.errors import PatienceError


def _variant(results, **options):
    rows = pd.DataFrame({"seed": range(1, len(results) + 1), "result": results})
    return Variant(rows, {"options": options}, None)


def test_decisions_go_up_for_wins_and_down_for_losses():
    variants = {
        "redeals=0": _variant(["won", "unknown", "lost", "unknown"], redeals=0, other=False),
        "redeals=1": _variant(["unknown", "lost", "unknown", "unknown"], redeals=1, other=False),
        "standard": _variant(["unknown", "unknown", "won", "lost"], redeals=2, other=False),
    }
    pairs, decided = monotone.implied(variants)
    assert list(decided["redeals=0"]) == ["won", "lost", "lost", "lost"]
    assert list(decided["redeals=1"]) == ["won", "lost", "unknown", "lost"]
    assert list(decided["standard"]) == ["won", "unknown", "won", "lost"]
    p01 = next(p for p in pairs if p["fewer"] == "redeals=0" and p["more"] == "redeals=1")
    assert p01 == {"fewer": "redeals=0", "more": "redeals=1", "common": 4,
                   "won_fewer_unknown_more": 1, "lost_more_unknown_fewer": 1}
    text = "\n".join(monotone.markdown(variants, pct))
    assert "## Redeal monotonicity" in text and "| redeals=1 | 1 | 2 | 1 |" in text


def test_a_win_with_fewer_redeals_lost_with_more_is_a_bug():
    variants = {"redeals=0": _variant(["won", "lost"], redeals=0),
                "standard": _variant(["lost", "lost"], redeals=2)}
    with pytest.raises(PatienceError, match="seed 1 is won with redeals=0 and lost with standard"):
        monotone.implied(variants)


def test_variants_that_differ_otherwise_are_not_chained():
    variants = {"redeals=0": _variant(["won"], redeals=0, transfer=False),
                "transfer": _variant(["lost"], redeals=2, transfer=True),
                "no-redeals-key": _variant(["lost"], kings=True)}
    assert monotone.chains(variants) == []
    assert monotone.markdown(variants, pct) == []


def test_grand_duchess_and_parisienne_are_not_chained():
    # their last round has no reserve, so k and k + 1 redeals differ in more than the
    # redeals: a win with fewer that is lost with more is no bug there, and no decision
    variants = {"redeals=0": _variant(["won"], redeals=0), "standard": _variant(["lost"], redeals=3)}
    for game in ("grand-duchess", "parisienne"):
        assert monotone.markdown(variants, pct, game) == []
    with pytest.raises(PatienceError):
        monotone.markdown(variants, pct, "capricieuse")
