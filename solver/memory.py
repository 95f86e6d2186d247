"""Memory asked for against memory available, before anything is allocated.

The solver's two big arrays are the transposition table (``--tt-mb``) and the A*
node store (``max_nodes`` nodes for ``astar``; the best-first attempts of ``auto``
grow one with their budgets, each growth checked by solver.search.portfolio).  numpy allocates them lazily, so asking for
far more than the machine has ends either in a MemoryError traceback at once or, much
later, in the kernel's OOM killer.  ``check`` turns that into one PatienceError line
saying what was asked and what fits, before anything is allocated.

No numpy here: the CLI checks before it imports the engines.
"""

from __future__ import annotations

import os

from .errors import PatienceError

TABLE_WAYS = 4  # solver.search.table.WAYS (a bucket's slots)
TABLE_SLOT_BYTES = 24  # three int64 per slot
GIB = 1 << 30


def available_bytes() -> int:
    """Memory this process may still use: /proc/meminfo's MemAvailable, lowered by a
    cgroup limit if one is set (containers), else os.sysconf's free pages."""
    avail = None
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    avail = int(line.split()[1]) * 1024
                    break
    except (OSError, ValueError, IndexError):
        pass
    if avail is None:
        try:
            avail = os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
        except (ValueError, OSError, AttributeError):
            return 1 << 62  # nothing to go by: do not refuse
    for limit_file, usage_file in (("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current"),
                                   ("/sys/fs/cgroup/memory/memory.limit_in_bytes",
                                    "/sys/fs/cgroup/memory/memory.usage_in_bytes")):
        try:
            with open(limit_file) as f:
                limit = f.read().strip()
            with open(usage_file) as f:
                usage = int(f.read().strip())
        except (OSError, ValueError):
            continue
        if limit.isdigit() and int(limit) < 1 << 60:
            avail = min(avail, max(0, int(limit) - usage))
        break
    return avail


def size_text(n: float) -> str:
    """Bytes for people: 976.6 GiB, 14.6 TiB, 512.0 MiB."""
    for unit, scale in (("TiB", 1 << 40), ("GiB", 1 << 30), ("MiB", 1 << 20)):
        if n >= scale or unit == "MiB":
            return f"{n / scale:.1f} {unit}"
    return f"{n} B"  # pragma: no cover


def number_text(x: float) -> str:
    """1000000 for 1e6, 0.5 for 0.5: a number as the user would have typed it."""
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def table_buckets(tt_mb: float) -> int:
    """The number of buckets solver.search.table.new_table gives for ``tt_mb`` (the same
    rule: the largest power of two fitting in ``tt_mb`` megabytes, at least 1024)."""
    slots = max(TABLE_WAYS * 1024, int(tt_mb * 1024 * 1024) // TABLE_SLOT_BYTES)
    return 1 << (slots // TABLE_WAYS).bit_length() - 1


def table_bytes(tt_mb: float) -> int:
    return table_buckets(tt_mb) * TABLE_WAYS * TABLE_SLOT_BYTES


def largest_tt_mb(budget: int) -> int:
    """The largest whole --tt-mb whose table fits in ``budget`` bytes (0 if none does)."""
    if table_bytes(1) > budget:
        return 0
    mb = 1
    while table_bytes(mb * 2) <= budget:
        mb *= 2
    # every value below the next doubling gives the same table as ``mb``: name the
    # power of two itself, the size actually allocated
    return mb


def linear_bytes(size_of, limit: int) -> int:
    """The largest n >= 0 with size_of(n) <= limit (size_of grows with n)."""
    if size_of(1) > limit:
        return 0
    lo, hi = 1, 2
    while size_of(hi) <= limit:
        lo, hi = hi, hi * 2
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if size_of(mid) <= limit:
            lo = mid
        else:
            hi = mid
    return lo


def round_down(n: int) -> int:
    """n rounded down to two significant digits, so a suggested limit reads well."""
    if n < 100:
        return n
    scale = 10 ** (len(str(n)) - 2)
    return n // scale * scale


def check(tt_mb: float | None, table_held: int, store_bytes, store_nodes: int, store_held: int,
          other: int = 0, what: str = "", copies: int = 1) -> None:
    """Raise PatienceError unless a table of ``tt_mb`` (None: none) plus a node store
    of ``store_nodes`` nodes (``store_bytes(n)`` bytes; 0 nodes: none) plus ``other``
    bytes fit in the memory available.  ``table_held``/``store_held`` are the bytes of
    the arrays held now that the new ones would replace (freed first).  ``copies``
    processes (winrate's workers) each need as much."""
    avail = (available_bytes() + table_held + store_held) // max(1, copies)
    t = table_bytes(tt_mb) if tt_mb is not None else 0
    s = store_bytes(store_nodes) if store_nodes > 0 else 0
    if t + s + other <= avail:
        return
    have = size_text(avail) + (f" for each of {copies} worker processes" if copies > 1 else "")
    if t > s:
        fit = largest_tt_mb(avail - s - other)
        tail = f"at most --tt-mb {fit} fits" if fit else "no table fits"
        if s:
            tail += f" beside the {size_text(s)} node store"
        raise PatienceError(f"--tt-mb {number_text(tt_mb)} needs {size_text(t)} but {have} is available; {tail}")
    fit = round_down(linear_bytes(store_bytes, avail - t - other))
    tail = f"at most --max-nodes {fit} fits" if fit else "no node store fits"
    if t:
        tail += f" beside the {size_text(t)} table (--tt-mb {number_text(tt_mb)})"
    raise PatienceError(f"--max-nodes {store_nodes} {what}needs {size_text(s)} for the node store "
                        f"but {have} is available; {tail}")
