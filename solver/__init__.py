"""patience: solvers and win-rate research for patience (solitaire) games."""

import hashlib
import os
from pathlib import Path

__version__ = "0.1.0"

# Where winrate/report write unless told (--out, --publish): outside the repository's
# results/, so that a trial run never rewrites the published reports.
DEFAULT_OUT = "patience-results"


def source_hash() -> str:
    """16 hex digits of a SHA-1 over this package's ``*.py`` files, in sorted path
    order: the code version recorded with every result row, and the name of the
    numba cache folder."""
    digest = hashlib.sha1()
    for path in sorted(Path(__file__).parent.rglob("*.py")):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


SOURCE_HASH = source_hash()


def _numba_cache_dir() -> str:
    """A numba cache folder named by a hash of this package's sources.

    Numba checks only the file of a cached function for changes, not the files of
    the functions it calls (a game's kernels, the engines): a cache keyed by every
    source file can never hand out code compiled from older sources.
    """
    base = os.environ.get("PATIENCE_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "patience"
    )
    return os.path.join(base, "numba-" + SOURCE_HASH)


os.environ.setdefault("NUMBA_CACHE_DIR", _numba_cache_dir())
