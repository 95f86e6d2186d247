#!/bin/sh
# The published Russian Patience win rates (issue 17): redeals=2 (standard), 1 and 0 on
# the same seeds, grown in steps so that each step's table can be committed while the
# next runs.  Resumable: rerun the same script and every command picks up where it
# stopped (finished seeds are on disk).  redeals=0 is the expensive one (its lost deals
# are proved by exhausting the search): about 0.3 s a deal on one core against
# 0.01 to 0.02 s with a redeal.
#   sh experiments/rp_results.sh [JOBS]
set -e
JOBS=${1:-2}
W="patience winrate russian-patience"
run() { $W "$@" --publish --jobs "$JOBS" --no-progress; }
run redeals=2 --deals 20000
run redeals=1 --deals 20000
run redeals=0 --deals 2000
for n in 50000 100000; do
  run redeals=2 --deals $n
  run redeals=1 --deals $n
done
for n in 10000 25000 $(seq 30000 5000 100000); do
  run redeals=0 --deals $n
done
# The unknowns again with 2.5 times the nodes and the beam searches of `auto` (from
# code b9dcf00 on: they win redeals=1's four unknown deals in under half a second
# each), seed range by seed range so that each step's table can be committed.
run redeals=1 --deals 100000 --retry-unknown --max-nodes 5000000 --seconds 120 --chunk-size 1
for n in 25000 50000 75000 100000; do
  run redeals=0 --deals $n --retry-unknown --max-nodes 5000000 --seconds 120 --chunk-size 1
done
