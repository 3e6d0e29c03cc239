#!/usr/bin/env bash
# What deciding every game's ending costs the ingest (issue 10's goal: at most 25%). Indexes the
# benchmark collection of scripts/bench-index.sh (generated once, cached in build/bench/) into
# fresh databases, alternately with --skip-endings and with the default verdict budget, RUNS
# times each, and prints the median wall and CPU (user + system) seconds of each and what the
# decision adds. CPU time is the steadier figure on a machine shared with other jobs.
# Usage: scripts/bench-endings.sh [GAMES] [RUNS] [JOBS]   (default 100000 3 all-cores)
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-100000}
runs=${2:-3}
jobs=${3:-0}
for tool in build/tests/gen_games build/indexer/5d-index; do
  [ -x "$tool" ] || { echo "build first: make build" >&2; exit 2; }
done
dir=build/bench
mkdir -p "$dir"
input="$dir/random-$games-1.5dpgn"
if [ ! -f "$input" ]; then
  build/tests/gen_games --games "$games" --seed 1 --jobs "$(nproc)" --out "$input.tmp"
  mv "$input.tmp" "$input"
fi
db="$dir/endings.sqlite"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(uname -sr)"
echo "input: $games games, $(awk -v b="$(stat -c %s "$input")" 'BEGIN { printf "%.1f MB", b / 1e6 }')"
times=$(mktemp)
trap 'rm -f "$times"' EXIT
for ((run = 1; run <= runs; ++run)); do
  for mode in skip decide; do
    rm -f "$db" "$db-wal" "$db-shm"
    flag=()
    [ "$mode" = skip ] && flag=(--skip-endings)
    /usr/bin/time -f "$mode %e %U %S" -a -o "$times" \
      build/indexer/5d-index --db "$db" --quiet --json --jobs "$jobs" "${flag[@]}" "$input" \
      >"$dir/endings-$mode.json"
  done
done
unknown=$(sed -n 's/.*"unknown":\([0-9]*\).*/\1/p' "$dir/endings-decide.json")
awk -v unknown="$unknown" '
  { wall[$1] = wall[$1] " " $2; cpu[$1] = cpu[$1] " " ($3 + $4) }
  function median(list,   n, v, i, j, t) {
    n = split(list, v, " ")
    for (i = 1; i <= n; ++i) for (j = i + 1; j <= n; ++j) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
    return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
  }
  END {
    ws = median(wall["skip"]); wd = median(wall["decide"])
    cs = median(cpu["skip"]); cd = median(cpu["decide"])
    printf "--skip-endings:  wall %6.2f s, cpu %6.2f s\n", ws, cs
    printf "deciding:        wall %6.2f s, cpu %6.2f s, %s endings unknown\n", wd, cd, unknown
    printf "the decision adds %.1f%% wall, %.1f%% cpu\n", 100 * (wd - ws) / ws, 100 * (cd - cs) / cs
  }' "$times"
