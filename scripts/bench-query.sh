#!/usr/bin/env bash
# Query benchmark of 5d-query: times each kind of search (exact position, board, player, opening
# tree, duplicate report, statistics) on the database of the ingest benchmark (100,000 generated
# games; made by scripts/bench-index.sh when missing), in process with bench_query; each kind of
# pattern search with bench_pattern (docs/patterns.md; the database's size by table too); then a
# few whole 5d-query commands (process start and database open included): the median wall time of
# five runs after a warm-up.
# Usage: scripts/bench-query.sh [ROUNDS] [DB]   (default 20 build/bench/index.sqlite; another DB,
# such as the 1,000,000-game one of scripts/bench-index.sh 1000000, must exist already)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-20}
for tool in build/tests/bench_query build/tests/bench_pattern build/query/5d-query; do
  [ -x "$tool" ] || { echo "build first: make build" >&2; exit 2; }
done
db=${2:-build/bench/index.sqlite}
if [ -z "${2:-}" ] && ! build/query/5d-query --db "$db" --count >/dev/null 2>&1; then
  scripts/bench-index.sh
fi
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(uname -sr)"
build/tests/bench_query "$db" "$rounds"
build/tests/bench_pattern "$db" "$rounds"
if command -v sqlite3 >/dev/null; then
  echo "database: $(stat -c %s "$db") bytes; by table (MB):"
  sqlite3 "$db" "SELECT printf('  %-24s %8.1f', name, sum(pgsize) / 1e6) FROM dbstat GROUP BY name
                 ORDER BY sum(pgsize) DESC LIMIT 8" 2>/dev/null || true
fi
q="build/query/5d-query --db $db"
any='????????'
for command in "$q --player 'Random Ada' --count" "$q --moves '1. (0T1)e3 / (0T1)f6' --count" \
    "$q --pattern '$any/$any/$any/$any/???Q????/$any/$any/???????k' --count" \
    "$q --pattern '8/8/8/8/8/8/8/8' --count" "$q tree" "$q duplicates" "$q stats"; do
  sh -c "$command" >/dev/null
  times=()
  for _ in 1 2 3 4 5; do
    start=$(date +%s%N)
    sh -c "$command" >/dev/null
    times+=($(( ($(date +%s%N) - start) / 1000000 )))
  done
  median=$(printf '%s\n' "${times[@]}" | sort -n | sed -n 3p)
  echo "$command: median ${median} ms of 5 runs (${times[*]})"
done
