"""Wilson intervals, summaries with unknowns, and paired counts."""

import math

import pandas as pd
import pytest

from solver.stats import mcnemar_p, paired_counts, summarize, wilson


def wilson_by_hand(k, n, z=1.96):
    # The textbook formula, written out separately from solver.stats.
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = (z / (1 + z * z / n)) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return centre - half, centre + half


@pytest.mark.parametrize("k,n", [(81, 100), (1, 10), (50, 100), (199, 200), (3, 7), (9999, 10000)])
def test_wilson_matches_formula(k, n):
    lo, hi = wilson(k, n)
    want_lo, want_hi = wilson_by_hand(k, n)
    assert lo == pytest.approx(want_lo, abs=1e-12)
    assert hi == pytest.approx(want_hi, abs=1e-12)


def test_wilson_known_values():
    # 81 of 100: the published 95% Wilson interval is 0.7222 .. 0.8749.
    lo, hi = wilson(81, 100)
    assert lo == pytest.approx(0.7222, abs=1e-4)
    assert hi == pytest.approx(0.8749, abs=1e-4)
    # 0 of 10: lower end exactly 0, upper end z^2 / (n + z^2).
    lo, hi = wilson(0, 10)
    assert lo == 0.0
    assert hi == pytest.approx(1.96**2 / (10 + 1.96**2), abs=1e-12)
    lo, hi = wilson(10, 10)
    assert hi == 1.0
    assert lo == pytest.approx(10 / (10 + 1.96**2), abs=1e-12)


def test_wilson_edges():
    assert wilson(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson(5, 3)
    # A wider z gives a wider interval.
    a, b = wilson(30, 60)
    c, d = wilson(30, 60, z=2.576)
    assert c < a < b < d


def test_summarize_all_decided():
    s = summarize(["won"] * 81 + ["lost"] * 19)
    assert (s["won"], s["lost"], s["unknown"], s["n"]) == (81, 19, 0, 100)
    assert s["rate"] == pytest.approx(0.81)
    assert (s["rate_lo"], s["rate_hi"]) == pytest.approx(wilson_by_hand(81, 100))
    assert s["lower_bound"] == s["upper_bound"] == pytest.approx(0.81)
    # with nothing unknown the bounds are the rate, each with the rate's interval
    assert (s["lower_bound_lo"], s["lower_bound_hi"]) == (s["rate_lo"], s["rate_hi"])
    assert (s["upper_bound_lo"], s["upper_bound_hi"]) == (s["rate_lo"], s["rate_hi"])


def test_summarize_with_unknowns_gives_bounds():
    """While deals are unknown there is no rate (and no interval of one): each bound
    comes with its own Wilson interval, and the columns say which end is which."""
    s = summarize(pd.Series(["won"] * 8 + ["lost"] + ["unknown"]))
    assert (s["won"], s["lost"], s["unknown"], s["n"]) == (8, 1, 1, 10)
    assert s["rate"] is None and s["rate_lo"] is None and s["rate_hi"] is None
    assert s["lower_bound"] == pytest.approx(0.8)
    assert s["upper_bound"] == pytest.approx(0.9)
    assert (s["lower_bound_lo"], s["lower_bound_hi"]) == pytest.approx(wilson_by_hand(8, 10))
    assert (s["upper_bound_lo"], s["upper_bound_hi"]) == pytest.approx(wilson_by_hand(9, 10))


def test_summarize_empty_and_bad_values():
    s = summarize([])
    assert s["n"] == 0 and s["rate"] is None and s["rate_lo"] is None
    assert (s["lower_bound_lo"], s["lower_bound_hi"]) == (0.0, 1.0)
    with pytest.raises(ValueError):
        summarize(["won", "draw"])


def test_mcnemar_exact():
    # 2 * P(X <= 2) for X ~ Bin(12, 1/2) = 2 * (1 + 12 + 66) / 4096.
    assert mcnemar_p(10, 2) == pytest.approx(158 / 4096)
    assert mcnemar_p(2, 10) == pytest.approx(158 / 4096)
    assert mcnemar_p(0, 0) == 1.0
    assert mcnemar_p(5, 5) == 1.0
    assert 0 < mcnemar_p(10000, 9000) < 1e-9  # large counts neither overflow nor vanish to 0 wrongly


def test_paired_counts():
    a = {1: "won", 2: "won", 3: "lost", 4: "won", 5: "unknown", 6: "lost", 7: "won"}
    b = {1: "won", 2: "lost", 3: "won", 4: "lost", 5: "won", 6: "lost", 8: "won"}
    c = paired_counts(a, b)
    assert c["common"] == 6  # seeds 1..6
    assert c["unknown"] == 1  # seed 5
    assert c["decided"] == 5
    assert (c["a_only"], c["b_only"], c["both_won"], c["neither_won"]) == (2, 1, 1, 1)


def test_percentages_keep_the_digits_that_matter():
    """17 lost deals in 100,000 must not read as a 100.0% win rate."""
    from solver.batch import pct

    assert pct(0.99983) == "99.98%"
    assert pct(0.00004) == "0.004%"
    assert pct(0.5) == "50.0%"
    assert pct(1.0) == "100.0%" and pct(0.0) == "0.0%"
    assert pct(None) == "-" and pct(float("nan")) == "-"
