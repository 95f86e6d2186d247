"""Kept for old commands: the same as `python experiments/bench.py duchess ...`."""

import sys

from bench import main

if __name__ == "__main__":
    main(["duchess", *sys.argv[1:]])
