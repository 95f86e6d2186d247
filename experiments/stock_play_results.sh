#!/bin/sh
# The published strategy ladders of Grand Duchess, Parisienne and Duchess (issue 18), on
# the thoughtful runs' seeds.  Resumable: rerun the same script and every command picks
# up where it stopped (finished seeds are on disk); the expensive strategies grow in
# steps so that each step's rows are folded and can be committed while the next runs.
#   sh experiments/stock_play_results.sh [JOBS]
set -e
JOBS=${1:-2}
run() { patience play "$@" --publish --jobs "$JOBS" --no-progress; }
for g in grand-duchess parisienne duchess; do
  for s in random eager greedy; do
    run $g --strategy $s --deals 10000
  done
done
for step in 1 2 3 4 5; do
  for g in grand-duchess parisienne duchess; do
    run $g --strategy rollout --deals $((step * 2000))
    run $g --strategy pimc --deals $((step * 400))
    run $g --strategy ismcts --deals $((step * 400))
  done
done
# casual while anything is hidden, perfect after: what the hidden part costs
for g in grand-duchess parisienne duchess; do
  run $g --strategy scout --deals 2000
done
# what two redeals instead of three cost the best player
run grand-duchess redeals=2 --strategy ismcts --deals 2000
