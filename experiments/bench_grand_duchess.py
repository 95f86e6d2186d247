"""Kept for old commands: the same as `python experiments/bench.py grand-duchess,parisienne ...`."""

import sys

from bench import main

if __name__ == "__main__":
    main(["grand-duchess,parisienne", *sys.argv[1:]])
