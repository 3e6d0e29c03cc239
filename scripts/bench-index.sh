#!/usr/bin/env bash
# Ingest benchmark of 5d-index. Generates (once, cached in build/bench/) a collection of random
# legal games played by our own engine (several variants, real time travel, 10 to 60 actions),
# indexes it into a fresh database and prints games/s, MB/s, database bytes per game and the
# database size against the input's.
# Usage: scripts/bench-index.sh [GAMES] [SEED] [JOBS]   (default 100000 1 all-cores)
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-100000}
seed=${2:-1}
jobs=${3:-0}
for tool in build/tests/gen_games build/indexer/5d-index; do
  [ -x "$tool" ] || { echo "build first: make build" >&2; exit 2; }
done
dir=build/bench
mkdir -p "$dir"
input="$dir/random-$games-$seed.5dpgn"
if [ ! -f "$input" ]; then
  build/tests/gen_games --games "$games" --seed "$seed" --jobs "$(nproc)" --out "$input.tmp"
  mv "$input.tmp" "$input"
fi
db="$dir/index.sqlite"
rm -f "$db" "$db-wal" "$db-shm"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(uname -sr)"
start=$(date +%s.%N)
build/indexer/5d-index --db "$db" --quiet --json --jobs "$jobs" "$input" >"$dir/index.json"
end=$(date +%s.%N)
# Fold the write-ahead log into the database file before measuring it.
sqlite3 "$db" "PRAGMA wal_checkpoint(TRUNCATE);" >/dev/null
input_bytes=$(stat -L -c %s "$input")
db_bytes=$(stat -c %s "$db")
cat "$dir/index.json"
awk -v g="$games" -v s="$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')" -v i="$input_bytes" -v d="$db_bytes" 'BEGIN {
  printf "input: %d games, %.1f MB\n", g, i / 1e6
  printf "ingest: %.2f s, %.0f games/s, %.1f MB/s\n", s, g / s, i / 1e6 / s
  printf "database: %.1f MB, %.0f bytes per game, %.2f x the input\n", d / 1e6, d / g, d / i
}'
sqlite3 "$db" "SELECT name, printf('%.1f MB', sum(pgsize) / 1e6) FROM dbstat GROUP BY name ORDER BY sum(pgsize) DESC;" 2>/dev/null | head -12 || true
