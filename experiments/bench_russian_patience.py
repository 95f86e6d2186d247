"""The same as `python experiments/bench.py russian-patience ...` (seeds 1..1000, auto,
each deal's redeal seed its seed): `python experiments/bench_russian_patience.py redeals=0`."""

import sys

from bench import main

if __name__ == "__main__":
    main(["russian-patience", *sys.argv[1:]])
