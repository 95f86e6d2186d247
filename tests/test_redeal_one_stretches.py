"""experiments/redeal_one_stretches.py, which writes results/README.md's table of the
`redeals=1` sample: hand-built rows whose sample, stretches and bound are known."""

import subprocess
import sys
from pathlib import Path

import pandas as pd

from solver.batch import store

ROOT = Path(__file__).resolve().parents[1]


def _row(seed, result, seconds, code, max_seconds):
    return {"seed": seed, "game": "grand-duchess", "variant": "redeals=1", "algorithm": "dfs", "result": result,
            "proof": "search" if result == "lost" else "", "stop": "time" if result == "unknown" else "",
            "nodes": 10, "seconds": seconds, "solution_length": -1, "max_nodes": 100_000_000,
            "max_seconds": max_seconds, "tt_mb": 1024.0, "code_version": code, "code_basis": "recorded",
            "package_version": "0"}


def test_the_sample_stops_at_the_first_seed_without_a_long_row_and_counts_every_stretch(tmp_path, monkeypatch):
    rows = [_row(1, "lost", 5.0, "a", 60), _row(2, "unknown", 60.0, "a", 60), _row(2, "lost", 30.0, "b", 61),
            _row(3, "unknown", 60.0, "a", 60), _row(4, "unknown", 10.0, "a", 10), _row(5, "lost", 7.0, "a", 60)]
    deals, sup, _ = store.merge([store.normalise(pd.DataFrame(rows))])
    folder = tmp_path / "runs" / "grand-duchess" / "redeals=1"
    folder.mkdir(parents=True)
    store.write_folded(folder, deals, sup, [])
    monkeypatch.syspath_prepend(str(ROOT / "experiments"))
    from redeal_one_stretches import markdown, stretches

    table, total = stretches(tmp_path, "grand-duchess", 60.0)
    assert total == {"seeds": 3, "won": 0, "lost": 2, "unknown": 1}  # seed 4 has only a 10 s row
    got = {(r.code_version, r.max_seconds): (r.first, r.last, r.rows, r.lost) for r in table.itertuples()}
    assert got == {("a", 60.0): (1, 3, 3, 1), ("b", 61.0): (2, 2, 1, 1)}  # seed 2's superseded row counts too
    assert "one redeal wins 0.0% to 33.3%" in markdown("grand-duchess", table, total)
    bad = subprocess.run([sys.executable, str(ROOT / "experiments" / "redeal_one_stretches.py"), "duchess",
                          "--out", str(tmp_path)], capture_output=True, text=True)
    assert bad.returncode == 2 and "no redeals=1 sample for duchess" in bad.stderr
