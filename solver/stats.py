"""Win-rate arithmetic: Wilson intervals, summaries with unknowns, paired counts.

A deal the solver did not decide is "unknown" and is never silently counted as a
loss (RULES.md, "What win rate means here"): while unknowns remain, a summary gives a
lower bound (unknowns lost) and an upper bound (unknowns won) instead of one rate.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Iterable

RESULTS = ("won", "lost", "unknown")


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval for k successes in n trials (95% for z=1.96).

    Chosen over the normal interval because win rates sit near 0 or 1, where the
    normal interval leaves [0, 1] and undercovers.  n = 0 says nothing: (0, 1).
    """
    if n <= 0:
        return (0.0, 1.0)
    if not 0 <= k <= n:
        raise ValueError(f"wilson: need 0 <= k <= n, got k={k}, n={n}")
    p = k / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    lo, hi = centre - half, centre + half
    # At k = 0 (k = n) the exact end is 0 (1); fix it so rounding cannot leave the
    # observed rate outside its own interval.
    lo = 0.0 if k == 0 else min(max(0.0, lo), p)
    hi = 1.0 if k == n else max(min(1.0, hi), p)
    return (lo, hi)


def summarize(results: Iterable[str], z: float = 1.96) -> dict:
    """Counts, rate and intervals for a list (or pandas Series) of result strings.

    Keys: won, lost, unknown, n;
    rate, rate_lo, rate_hi: won/n and its Wilson interval, only when no deal is
    unknown (else None: with unknowns there is no rate, only bounds);
    lower_bound, lower_bound_lo, lower_bound_hi: unknowns counted lost (won/n) and
    its Wilson interval;
    upper_bound, upper_bound_lo, upper_bound_hi: unknowns counted won
    ((won + unknown)/n) and its Wilson interval.
    The true rate lies between lower_bound_lo and upper_bound_hi (95% each side).
    """
    if hasattr(results, "value_counts"):  # a pandas Series: counted without a Python loop
        counts = {str(k): int(v) for k, v in results.value_counts().items() if v}
    else:
        counts = Counter(str(r) for r in results)
    strange = set(counts) - set(RESULTS)
    if strange:
        raise ValueError(f"summarize: unexpected result values {sorted(strange)}")
    return summarize_counts(*(counts.get(r, 0) for r in RESULTS), z=z)


def summarize_counts(won: int, lost: int, unknown: int, z: float = 1.96) -> dict:
    """summarize() from the three counts."""
    n = won + lost + unknown
    lo, hi = wilson(won, n, z)
    upper_won = won + unknown
    up_lo, up_hi = wilson(upper_won, n, z)
    decided = unknown == 0 and n > 0
    return {
        "won": won,
        "lost": lost,
        "unknown": unknown,
        "n": n,
        "rate": won / n if decided else None,
        "rate_lo": lo if decided else None,
        "rate_hi": hi if decided else None,
        "lower_bound": won / n if n else 0.0,
        "lower_bound_lo": lo,
        "lower_bound_hi": hi,
        "upper_bound": upper_won / n if n else 1.0,
        "upper_bound_lo": up_lo,
        "upper_bound_hi": up_hi,
    }


def mcnemar_p(b: int, c: int) -> float:
    """Exact two-sided McNemar p-value for discordant counts b and c.

    Under "no difference" each discordant deal is a fair coin: p = P(|X - m/2| as
    extreme) for X ~ Binomial(b + c, 1/2).  Summed in log space so that large counts
    neither overflow nor underflow.
    """
    m = b + c
    if m == 0:
        return 1.0
    k = min(b, c)
    logs = [math.lgamma(m + 1) - math.lgamma(i + 1) - math.lgamma(m - i + 1) - m * math.log(2) for i in range(k + 1)]
    top = max(logs)
    tail = math.exp(top) * sum(math.exp(x - top) for x in logs)
    return min(1.0, 2 * tail)


def paired_counts(a: dict, b: dict) -> dict:
    """Compare two variants deal by deal on their common seeds.

    ``a`` and ``b`` map seed -> result.  Only seeds decided (won/lost) in both count
    toward the discordant pairs; seeds unknown in either are counted apart, since an
    unknown could go either way.
    """
    common = sorted(set(a) & set(b))
    decided = [s for s in common if a[s] != "unknown" and b[s] != "unknown"]
    a_only = sum(1 for s in decided if a[s] == "won" and b[s] == "lost")
    b_only = sum(1 for s in decided if b[s] == "won" and a[s] == "lost")
    both = sum(1 for s in decided if a[s] == "won" and b[s] == "won")
    return {
        "common": len(common),
        "decided": len(decided),
        "unknown": len(common) - len(decided),
        "both_won": both,
        "neither_won": len(decided) - both - a_only - b_only,
        "a_only": a_only,
        "b_only": b_only,
        "p": mcnemar_p(a_only, b_only),
    }
