"""The notebooks run: each code cell of each notebook, in order, in one namespace, from
the notebooks folder (as Jupyter would), on the published results.  (Executing them with
a Jupyter kernel and saving the outputs is issue 20.)"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_cells_run(path, monkeypatch):
    import matplotlib

    matplotlib.use("Agg")
    monkeypatch.chdir(path.parent)
    # Jupyter's built-in display(), which the notebooks call on their tables
    namespace: dict = {"__name__": "__main__", "display": lambda *objects, **kw: [repr(o) for o in objects]}
    for cell in json.loads(path.read_text())["cells"]:
        if cell["cell_type"] == "code":
            exec(compile("".join(cell["source"]), f"{path.name}", "exec"), namespace)
