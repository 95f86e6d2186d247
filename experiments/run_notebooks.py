"""Execute the notebooks under notebooks/ with a Jupyter kernel and save them with
their outputs (tables and plots), from the published results under results/.

    python experiments/run_notebooks.py                 # every notebook, saved in place
    python experiments/run_notebooks.py --check         # execute only, save nothing

A cell that raises stops with its notebook's name and the error (exit status 1).
tests/test_notebooks.py executes them the same way (the slow tier) and checks that
the saved copies carry their outputs.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"


def execute(path: Path, timeout: int = 900):
    """The notebook at ``path`` executed in a fresh python3 kernel, from its folder."""
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=timeout, kernel_name="python3",
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    return nb


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("names", nargs="*", help="notebook file names (default: all)")
    ap.add_argument("--check", action="store_true", help="execute only; do not save the outputs")
    args = ap.parse_args(argv)
    import nbformat
    from nbclient.exceptions import CellExecutionError

    paths = [NOTEBOOKS / n for n in args.names] if args.names else sorted(NOTEBOOKS.glob("*.ipynb"))
    for path in paths:
        if not path.is_file():
            print(f"run_notebooks: no notebook {path}", file=sys.stderr)
            return 2
        t0 = time.perf_counter()
        try:
            nb = execute(path)
        except CellExecutionError as e:
            print(f"{path.name}: a cell failed:\n{e}", file=sys.stderr)
            return 1
        if not args.check:
            nbformat.write(nb, path)
        print(f"{path.name}: ran in {time.perf_counter() - t0:.1f} s{'' if args.check else ', saved'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
