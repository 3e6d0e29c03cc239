#!/usr/bin/env bash
# The mate-in-one search (issue 30) on a collection, one thread: runs build's bench_mates
# (tests/bench/mates_bench.cc) on the public corpus (every .5dpgn and .txt file of
# ../shared/corpus/public, names with spaces included) or on the files given, and prints its
# figures (positions, mates, none, unknown, how the shortcuts ended, CPU) and the machine.
# Usage: scripts/bench-mates.sh [BUILD] [-- BENCH_MATES_OPTIONS... [FILE...]]
#   (BUILD default build; with no FILE, the public corpus; e.g.
#    scripts/bench-mates.sh build-cc -- --budget 5000; after a change to the shortcuts,
#    scripts/bench-mates.sh build-cc -- --brute-force 20000 holds them to trying every action,
#    and on random games of every variant: build/tests/gen_games --games 300 --seed 4242
#    --min-actions 6 --max-actions 24 --jump-bias 0.5 --max-timelines 6 --out G.5dpgn, then
#    -- --brute-force 3000 G.5dpgn)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
[ $# -gt 0 ] && shift
[ "${1:-}" = "--" ] && shift
bench="$build/tests/bench_mates"
[ -x "$bench" ] || { echo "build first: cmake --build $build --target bench_mates" >&2; exit 2; }
args=("$@")
have_file=0
for arg in "${args[@]}"; do [ -f "$arg" ] && have_file=1; done
if [ "$have_file" = 0 ]; then
  corpus=../shared/corpus/public
  [ -d "$corpus" ] || { echo "no $corpus: give the files" >&2; exit 2; }
  mapfile -d '' files < <(find "$corpus" \( -name '*.5dpgn' -o -name '*.txt' \) -print0 | sort -z)
  args+=("${files[@]}")
  echo "input: the public corpus, ${#files[@]} files"
fi
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(uname -sr)"
echo "build: $build ($(git rev-parse --short HEAD))"
"$bench" "${args[@]}"
