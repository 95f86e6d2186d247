"""Win rates over many seeded deals: a resumable parallel run, its rows on disk, and
the report.

    store   the per-deal rows: deals.parquet, superseded.parquet, part files while a
            run is going, command.json, the folder lock (see its docstring)
    run     ``run_winrate``: solve the seeds not on disk yet, in worker processes
    report  winrates.csv / .md from the rows; samples at their own limits
    plot    winrates.png
    play         ``run_play``: a strategy over the seeds (``patience play --deals``), its rows
    play_report  strategies.csv / .md / .png: the strategy ladder beside the thoughtful bounds
    hidden_report  hidden-information.md / .csv / .png: every hidden-information game's best player
"""

from .paths import DEFAULT_OUT, GAME_TITLES, game_title, report_folder, variant_folder
from .report import (Variant, code_versions, load_variants, lost_text, paired_table, pct, proof_text, rate_text,
                     report_table, retry_sample, summarize_rows, write_report)
from .run import (MAX_CHUNK, chunk_seeds, print_summary, run_winrate, solve_chunk, solve_limits,
                  solver_defaults)
from .play import (PLAY_COLUMNS, PlayerBug, deal_rng_seed, play_chunk, play_folder, play_folders, read_play_rows,
                   read_play_store, run_play, strategy_folder_name)
from .play_report import build_play_report, paired_difference_ci, paired_play, write_play_report
from .store import (COLUMNS, DEALS, PART_PREFIX, SCHEMA, SUPERSEDED, TMP_PREFIX, folder_lock, fold, merge,
                    part_files, read_all_rows, read_command, read_rows, read_store, record_from_command,
                    remove_stray_temps, write_command, write_part)

__all__ = [
    "COLUMNS", "DEALS", "DEFAULT_OUT", "GAME_TITLES", "MAX_CHUNK", "PART_PREFIX", "PLAY_COLUMNS", "PlayerBug",
    "SCHEMA", "SUPERSEDED", "build_play_report", "deal_rng_seed", "paired_difference_ci", "paired_play",
    "play_chunk", "play_folder", "play_folders", "read_play_rows", "read_play_store", "run_play",
    "strategy_folder_name", "write_play_report",
    "TMP_PREFIX", "Variant", "chunk_seeds", "code_versions", "fold", "folder_lock", "game_title",
    "load_variants", "lost_text", "merge", "paired_table", "part_files", "pct", "print_summary", "proof_text",
    "rate_text", "read_all_rows", "read_command", "read_rows", "read_store", "record_from_command",
    "remove_stray_temps", "report_folder", "report_table", "retry_sample", "run_winrate", "solve_chunk",
    "solve_limits", "solver_defaults", "summarize_rows", "variant_folder", "write_command", "write_part",
    "write_report",
]
