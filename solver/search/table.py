"""Transposition table of bounded memory: two 64-bit keys per state.

Open addressing in buckets of ``WAYS`` slots.  When a bucket is full, the slot a
third hash bit picks is overwritten: forgetting a state only makes the search see
it again (more work, never a wrong answer), so the table's size bounds memory,
not correctness.  A state counts as seen only if both 64-bit keys match (a false
match is about one chance in 2^128 per pair of states).

Each slot also holds the number of the search that wrote it: a new search takes
a new number instead of clearing the table, so restarts cost nothing.
"""

import numpy as np
from numba import njit

WAYS = 4


def new_table(megabytes: float) -> np.ndarray:
    """A table of the largest power-of-two number of buckets fitting in ``megabytes``."""
    slots = max(WAYS * 1024, int(megabytes * 1024 * 1024) // 24)
    buckets = 1 << (slots // WAYS).bit_length() - 1
    return np.zeros((buckets * WAYS, 3), dtype=np.int64)


@njit(cache=True)
def table_probe(table, k1, k2, gen):
    """True if the state is in the table for search number ``gen`` (nothing written):
    table_insert's scan without its writes (kept apart so that insert scans once)."""
    nb = table.shape[0] // WAYS
    b = (k1 & (nb - 1)) * WAYS
    for i in range(WAYS):
        if table[b + i, 2] != gen:
            return False
        if table[b + i, 0] == k1 and table[b + i, 1] == k2:
            return True
    return False


@njit(cache=True)
def table_insert(table, k1, k2, gen):
    """Insert the state for search number ``gen`` (>= 1); return True if it was already there."""
    nb = table.shape[0] // WAYS
    b = (k1 & (nb - 1)) * WAYS
    for i in range(WAYS):
        if table[b + i, 2] != gen:
            table[b + i, 0] = k1
            table[b + i, 1] = k2
            table[b + i, 2] = gen
            return False
        if table[b + i, 0] == k1 and table[b + i, 1] == k2:
            return True
    victim = b + ((k2 >> 7) & (WAYS - 1))
    table[victim, 0] = k1
    table[victim, 1] = k2
    return False
