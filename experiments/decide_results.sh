#!/bin/sh
# Issue 19: the published rows' unknown deals again, with the random-order restarts of
# Baker's Dozen and a larger budget, on seeds 1..10,000 first (the measure),
# then on every seed where the cost allows.  Each line is the published command with
# --retry-unknown: only unknown rows are solved again, and a row is replaced only by a
# decided one or one made with larger limits (the old row goes to superseded.parquet).
# Resumable: rerun the script and each command picks up where it stopped.
#   sh experiments/decide_results.sh [JOBS]
set -e
JOBS=${1:-1}
W="patience winrate"
retry() { $W "$@" --retry-unknown --chunk-size 1 --publish --jobs "$JOBS" --no-progress; }
retry bakers-dozen --deals 100000 --max-nodes 1000000 --seconds 60
retry grand-duchess --deals 10000 --max-nodes 1000000 --seconds 60
retry grand-duchess foundation_transfer=true --deals 10000 --max-nodes 1000000 --seconds 60
retry parisienne redeals=0 --deals 10000 --max-nodes 2000000 --seconds 60
retry bakers-dozen kings_to_bottom=false --deals 10000 --max-nodes 1000000 --seconds 60
retry grand-duchess redeals=0 --deals 10000 --max-nodes 2000000 --seconds 60
