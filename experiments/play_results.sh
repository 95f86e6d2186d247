#!/bin/sh
# The published strategy ladders of Baker's Dozen (issue 16), face down and face up, on
# the thoughtful runs' seeds.  Resumable: rerun the same script and every command picks
# up where it stopped (finished seeds are on disk); the deal counts grow in steps so that
# each step's rows are folded and can be committed while the next runs.
#   sh experiments/play_results.sh [JOBS]
set -e
JOBS=${1:-2}
P="patience play bakers-dozen"
run() { $P "$@" --publish --jobs "$JOBS" --no-progress; }
for v in face_down=true face_down=false; do
  run $v --strategy random --deals 10000
  run $v --strategy greedy --deals 10000
done
run face_down=true kings_to_bottom=false --strategy greedy --deals 10000
# the expensive strategies, a step of each in turn
for step in 1 2 3 4 5 6 7 8 9 10; do
  for v in face_down=true face_down=false; do
    run $v --strategy rollout --deals $((step * 1000))
    [ $step -le 8 ] && run $v --strategy pimc --deals $((step * 250))
    [ $step -le 8 ] && run $v --strategy ismcts --deals $((step * 250))
  done
done
run face_down=true kings_to_bottom=false --strategy rollout --deals 2000
# larger tree searches face down (4 and 16 times the default), on the first 200 and 95 decks:
# does more search help?
run face_down=true --strategy ismcts --option iterations=200 --deals 200
run face_down=true --strategy ismcts --option iterations=800 --deals 95
