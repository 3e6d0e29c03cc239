#!/usr/bin/env bash
# The legal actions of thousands of random positions against ftxi's 5dtools (issue 30): every
# position of GAMES random games (tests/bench/gen_games) in the variants ftxi reads by name (queens
# only), listed by `5d-index --check --list-actions` and by `5dtools all`, compared by the states
# the actions reach (scripts/ftxi-actions/compare.py, whose README says how to read its report).
# Prints the summary and every position that differs; docs/differential.md explains each kind of
# difference. Not part of the tests.
#
# Usage: scripts/diff-actions.sh [GAMES] [SEED] [CAP] [BUILD_DIR]
#   FTXI=/tmp/ftxi/build/5dtools (built with cmake -DTOOLS=ON). Defaults: 200 games, seed 7, a
#   cap of 1000 actions per position (positions over it on either side are counted, not compared),
#   build/. OUT=DIR keeps the generated files. POLICY names ftxi's search (balanced, its default;
#   naive, stable, iterative, mixed). CUSTOM=1 starts every game from a random custom 8x8 board
#   (5DFEN; gen_games --custom) instead of the three variants.
set -euo pipefail

games=${1:-200}
seed=${2:-7}
cap=${3:-1000}
build=${4:-build}
ftxi=${FTXI:-/tmp/ftxi/build/5dtools}
here=$(cd "$(dirname "$0")" && pwd)
source "$here/ftxi-actions/random-games.sh"
need diff-actions "$build/indexer/5d-index" "$build/tests/gen_games" "$ftxi"
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
random_games "$build" "$games" "$seed" 14 "$out/games.5dpgn"
python3 "$here/ftxi-actions/compare.py" --ftxi "$ftxi" --index "$build/indexer/5d-index" \
  --games "$out/games.5dpgn" --cap "$cap" --out "$out" --policy "${POLICY:-}"
