"""The notebooks: executed with a real Jupyter kernel (nbclient) from the notebooks
folder, on the published results (the slow tier, so CI runs them), and saved with
their outputs (`python experiments/run_notebooks.py` executes and saves them)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
# one notebook per question, each with its plot
QUESTIONS = ("what_a_redeal_buys", "bakers_dozen_face_down", "hidden_information")


def _runner():
    spec = importlib.util.spec_from_file_location("run_notebooks", ROOT / "experiments" / "run_notebooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _images(nb) -> int:
    return sum("image/png" in o.get("data", {}) for c in nb.cells if c.cell_type == "code" for o in c.outputs)


def _errors(nb) -> list[str]:
    return [f"{o.ename}: {o.evalue}" for c in nb.cells if c.cell_type == "code"
            for o in c.outputs if o.output_type == "error"]


def test_every_question_has_its_notebook():
    assert {p.stem for p in NOTEBOOKS} >= set(QUESTIONS)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_is_saved_with_its_outputs(path):
    nbformat = pytest.importorskip("nbformat")
    nb = nbformat.read(path, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert code and all(c.execution_count is not None for c in code), "run experiments/run_notebooks.py"
    assert not _errors(nb)
    if path.stem in QUESTIONS:
        assert _images(nb) >= 1, "its plot is missing from the saved outputs"


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_executes_in_a_kernel(path):
    # a failing cell raises nbclient's CellExecutionError, naming the cell and the error
    nb = _runner().execute(path)
    assert not _errors(nb)
    if path.stem in QUESTIONS:
        assert _images(nb) >= 1
