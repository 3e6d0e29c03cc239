#!/usr/bin/env bash
# Runs the libFuzzer harnesses of make fuzz (tests/fuzz/) for RUNS executions each (or SECONDS,
# when given, whichever comes first), seeded by scripts/fuzz-seeds.sh from the game files of
# corpus/ and tests/ and, when present, ../shared (the public corpus and the oracle games); the
# short runs of make test (ctest fuzz_short.NAME) use the same seeds without ../shared. Each
# harness keeps what it learns in BUILD/fuzz-corpus/NAME, so later runs go on from there; crashes
# are written to BUILD/fuzz-findings/ (crash-*, leak-*, oom-*, timeout-*), where a finding is to
# be turned into a regression test. Prints the executions done per harness; each run's log is
# BUILD/fuzz-NAME-DATE.log.
# Usage: scripts/fuzz.sh [BUILD] [RUNS] [SECONDS] [HARNESS...]
#   (default build-fuzz 1000000, no time limit, all of pgn fen archive pattern)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-fuzz}
runs=${2:-1000000}
seconds=${3:-0}
shift $(( $# < 3 ? $# : 3 ))
harnesses=("$@")
[ ${#harnesses[@]} -gt 0 ] || harnesses=(pgn fen archive pattern)
# Short allocation stacks in ASan's reports: twice the executions per second, and a finding
# still names where the bad access is.
export ASAN_OPTIONS=${ASAN_OPTIONS:-malloc_context_size=5}
findings="$build/fuzz-findings"
mkdir -p "$findings"
for harness in pgn fen archive pattern; do mkdir -p "$build/fuzz-corpus/$harness"; done
# Seeds: corpus/ and ../shared (scripts/fuzz-seeds.sh).
scripts/fuzz-seeds.sh "$build/fuzz-seeds" --shared ../shared

build=$(cd "$build" && pwd)
# The longest input each harness is given: a few games (longer inputs make the replay harness
# ten times slower for little more coverage), a board string, a small archive.
declare -A max_len=([pgn]=8192 [fen]=1024 [archive]=65536 [pattern]=4096)
for harness in "${harnesses[@]}"; do
  log="$build/fuzz-$harness-$(date +%Y%m%d-%H%M%S).log"
  (cd "$build/fuzz-findings" && "$build/tests/fuzz_$harness" -runs="$runs" \
     -max_total_time="$seconds" -rss_limit_mb=2048 -max_len="${max_len[$harness]}" -timeout=30 \
     -print_final_stats=1 "$build/fuzz-corpus/$harness" "$build/fuzz-seeds/$harness" \
     >"$log" 2>&1) ||
    echo "fuzz_$harness: stopped with a finding (see $log)"
  executions=$(grep -m1 'stat::number_of_executed_units' "$log" | awk '{print $2}')
  echo "fuzz_$harness: ${executions:-?} executions in $(grep -m1 'Done' "$log" | awk '{print $5}') s;" \
    "$(ls "$build/fuzz-findings" | grep -c . || true) findings so far in $build/fuzz-findings"
done
