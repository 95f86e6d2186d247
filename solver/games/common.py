"""Small pieces the game modules share."""

from __future__ import annotations


def set_ordering(st, w0: int, profiles: list[tuple], k: int, noise: int) -> None:
    """Move-ordering weights of restart attempt k at st[w0:]: profile k's weights, then
    a noise mask and a salt.  The fixed profiles come first; every later attempt reuses
    them with a little state-hashed noise (salted by k), so each orders differently."""
    weights = profiles[k % len(profiles)]
    n = len(weights)
    st[w0:w0 + n] = weights
    st[w0 + n] = 0 if k < len(profiles) else noise
    st[w0 + n + 1] = k * 0x9E3779B97F4A7C15 % (1 << 62)
