"""Zobrist keys and key mixing shared by the game modules."""

from __future__ import annotations

import numpy as np
from numba import njit


def zobrist_keys(seed: int, n: int) -> np.ndarray:
    """``n`` deterministic 64-bit keys from SplitMix64 (the same in every process and
    cache, unlike numpy's generators across versions)."""
    out = np.empty(n, dtype=np.int64)
    state = seed
    mask = (1 << 64) - 1
    for i in range(n):
        state = (state + 0x9E3779B97F4A7C15) & mask
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        z ^= z >> 31
        out[i] = z - (1 << 64) if z >= 1 << 63 else z
    return out


@njit(cache=True)
def mix64(x):
    """SplitMix64's finaliser.  A key that sums a mix of each pile's own hash is blind
    to the order of the piles but, unlike a plain sum, still tells the piles apart."""
    z = np.uint64(x)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint64(31))
    return np.int64(z)
