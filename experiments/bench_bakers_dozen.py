"""Kept for old commands: the same as `python experiments/bench.py bakers-dozen ...`."""

import sys

from bench import main

if __name__ == "__main__":
    main(["bakers-dozen", *sys.argv[1:]])
