"""Where a run's rows and a game's report go, and the games' names for people."""

from __future__ import annotations

from pathlib import Path

from .. import DEFAULT_OUT  # noqa: F401 (the run's and the report's default, re-exported)

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
