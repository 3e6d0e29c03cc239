#!/usr/bin/env bash
# The mates in one that 5d-index --tactics finds, against ftxi's 5dtools (issue 30): GAMES random
# games (tests/bench/gen_games; Standard, Standard - Turn Zero and Very Small - Open with queens
# only, or with CUSTOM=1 random custom 8x8 starts), each mate written as a game that ends with its
# solution (tests/bench/mate_games), and `5dtools checkmate` asked whether that game ends in
# checkmate. "Not checkmate: ACTION" names an escape, so it would prove our claim wrong;
# "Checkmate" agrees (ftxi's default search can miss actions, docs/differential.md, so that is the
# weaker evidence). With NONE=1, the positions proved to have no mate in one instead: ftxi lists
# every action of each (below CAP, default 100) and is asked whether any of them mates
# (scripts/ftxi-actions/mates.py). Prints the summary and every game where ftxi disagrees. Not
# part of the tests.
#
# Usage: scripts/diff-mates.sh [GAMES] [SEED] [BUILD_DIR]
#   FTXI=/tmp/ftxi/build/5dtools (built with cmake -DTOOLS=ON). Defaults: 300 games, seed 7,
#   build/. OUT=DIR keeps the generated files.
set -euo pipefail

games=${1:-300}
seed=${2:-7}
build=${3:-build}
ftxi=${FTXI:-/tmp/ftxi/build/5dtools}
here=$(cd "$(dirname "$0")" && pwd)
source "$here/ftxi-actions/random-games.sh"
need diff-mates "$build/tests/mate_games" "$build/tests/gen_games" "$ftxi"
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
random_games "$build" "$games" "$seed" 20 "$out/games.5dpgn"
if [[ -n ${NONE:-} ]]; then
  "$build/tests/mate_games" --none "$out/games.5dpgn" > "$out/none.5dpgn"
  python3 "$here/ftxi-actions/mates.py" --ftxi "$ftxi" --none "$out/none.5dpgn" --cap "${CAP:-100}"
else
  "$build/tests/mate_games" "$out/games.5dpgn" > "$out/mates.5dpgn"
  python3 "$here/ftxi-actions/mates.py" --ftxi "$ftxi" --mates "$out/mates.5dpgn"
fi
