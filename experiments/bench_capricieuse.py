"""Kept for old commands: the same as `python experiments/bench.py capricieuse ...`."""

import sys

from bench import main

if __name__ == "__main__":
    main(["capricieuse", *sys.argv[1:]])
