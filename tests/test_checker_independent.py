"""The checker stands apart from the kernels: importing solver.checker and replaying a
win loads neither numba nor any solver.games or solver.search module (so a bug in a
kernel cannot also be in the checker that judges its solutions)."""

import json
import subprocess
import sys
from pathlib import Path

SCRIPT = r"""
import json, sys
from solver.cards import card
from solver.checker import replay

# Baker's Dozen's sorted deck: column j holds the four cards of rank j, suits C D H S
# bottom to top; popping every column in turn is a win (tests/test_replay.py).
cols = [[card(r, s) for s in range(4)] for r in range(1, 14)]
deck = [cols[i % 13][i // 13] for i in range(52)]
moves = [f"c{r} F {'A23456789TJQK'[r - 1]}{s}" for r in range(1, 14) for s in "SHDC"]
result = replay("bakers-dozen", {}, deck, moves)
loaded = sorted(m for m in sys.modules if m == "numba" or m.startswith(("numba.", "solver.games", "solver.search")))
print(json.dumps({"won": result.won, "loaded": loaded}))
"""


def test_checker_imports_no_kernel_and_no_numba():
    root = Path(__file__).resolve().parent.parent
    out = subprocess.run([sys.executable, "-c", SCRIPT], cwd=root, capture_output=True, text=True, check=True)
    report = json.loads(out.stdout.strip().splitlines()[-1])
    assert report["won"]
    assert report["loaded"] == []

