"""Where a run's rows and a game's report go, and the games' names for people."""

from __future__ import annotations

from pathlib import Path

# Trial runs go here unless --out says otherwise; the published results are
# ``--out results`` (the repository's results/ folder).
DEFAULT_OUT = "patience-results"

# game slug -> its name in titles and tables
GAME_TITLES = {
    "bakers-dozen": "Baker's Dozen",
    "grand-duchess": "Grand Duchess",
    "parisienne": "Parisienne",
    "duchess": "Duchess",
    "capricieuse": "Capricieuse",
    "russian-patience": "Russian Patience",
}


def game_title(game_name: str) -> str:
    return GAME_TITLES.get(game_name, game_name)


def variant_folder(out_dir, game_name: str, vstr: str) -> Path:
    return Path(out_dir) / "runs" / game_name / vstr.replace(" ", "_")


def report_folder(out_dir, game_name: str) -> Path:
    return Path(out_dir) / game_name
