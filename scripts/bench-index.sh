#!/usr/bin/env bash
# Ingest benchmark of 5d-index. Generates (once, cached in build/bench/) a collection of random
# legal games played by our own engine (several variants, real time travel), indexes it into a
# fresh database and prints games/s, replayed actions/s, MB/s, peak memory, database bytes per
# game and the database size against the input's; and the moves behind the actions (an action is
# one move per board its player plays, so collections of many timelines have more per action):
# moves per action, moves/s and boards made per second.
# Usage: scripts/bench-index.sh [GAMES] [SEED] [JOBS] [KIND] [-- 5D-INDEX OPTIONS...]
#   (default 100000 1 all-cores random). KIND random: 10 to 60 actions, jump bias 0.3, up to 8
#   timelines. KIND long: long, many-timeline games (40 to 120 actions, jump bias 0.7, up to 30
#   timelines). The database is build/bench/index.sqlite for the default collection (the one
#   scripts/bench-query.sh and bench-serve.sh use), else build/bench/index-KIND-GAMES-SEED.sqlite
#   (with -options before .sqlite when 5D-INDEX OPTIONS are given).
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-100000}
seed=${2:-1}
jobs=${3:-0}
kind=${4:-random}
shift $(( $# < 4 ? $# : 4 ))
[ "${1:-}" = "--" ] && shift
extra=("$@")
for tool in build/tests/gen_games build/indexer/5d-index; do
  [ -x "$tool" ] || { echo "build first: make build" >&2; exit 2; }
done
case "$kind" in
  random) shape=() ;;
  long) shape=(--min-actions 40 --max-actions 120 --jump-bias 0.7 --max-timelines 30) ;;
  *) echo "KIND is random or long" >&2; exit 2 ;;
esac
dir=build/bench
mkdir -p "$dir"
if [ "$kind" = random ]; then
  input="$dir/random-$games-$seed.5dpgn"
else
  input="$dir/$kind-$games-$seed.5dpgn"
fi
if [ ! -f "$input" ]; then
  build/tests/gen_games --games "$games" --seed "$seed" --jobs "$(nproc)" "${shape[@]}" \
    --out "$input.tmp"
  mv "$input.tmp" "$input"
fi
if [ "$kind" = random ] && [ "$games" = 100000 ] && [ "$seed" = 1 ] && [ ${#extra[@]} -eq 0 ]; then
  db="$dir/index.sqlite"
else
  db="$dir/index-$kind-$games-$seed.sqlite"
  # With 5d-index options, a database of its own.
  [ ${#extra[@]} -eq 0 ] || db="$dir/index-$kind-$games-$seed-options.sqlite"
fi
rm -f "$db" "$db-wal" "$db-shm"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(uname -sr), load average $(cut -d' ' -f1-3 /proc/loadavg)"
start=$(date +%s.%N)
if [ -x /usr/bin/time ]; then
  /usr/bin/time -f '%M %U %S' -o "$dir/index.time" build/indexer/5d-index --db "$db" --quiet \
    --json --jobs "$jobs" "${extra[@]}" "$input" >"$dir/index.json"
else
  build/indexer/5d-index --db "$db" --quiet --json --jobs "$jobs" "${extra[@]}" "$input" \
    >"$dir/index.json"
  echo "0 0 0" >"$dir/index.time"
fi
end=$(date +%s.%N)
# Fold the write-ahead log into the database file before measuring it.
sqlite3 "$db" "PRAGMA wal_checkpoint(TRUNCATE);" >/dev/null
input_bytes=$(stat -L -c %s "$input")
db_bytes=$(stat -c %s "$db")
actions=$(sqlite3 "$db" "SELECT sum(actions) FROM games")
# Moves and time travels in the generated movetext, counted once per collection: every move
# names its board in parentheses, a time travel names two and is written with > or >>. Each
# move makes a board, a time travel two.
if [ ! -f "$input.moves" ]; then
  parens=$(grep -v '^\[' "$input" | tr -cd '(' | wc -c)
  travels=$(grep -v '^\[' "$input" | grep -oE '>>?' | wc -l)
  echo "$((parens - travels)) $travels" >"$input.moves.tmp"
  mv "$input.moves.tmp" "$input.moves"
fi
read -r moves travels <"$input.moves"
read -r peak_kb user_s sys_s <"$dir/index.time"
cat "$dir/index.json"
awk -v g="$games" -v s="$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')" -v i="$input_bytes" \
    -v d="$db_bytes" -v a="$actions" -v m="$peak_kb" -v u="$user_s" -v y="$sys_s" \
    -v n="$moves" -v t="$travels" 'BEGIN {
  printf "input: %d games, %d actions, %.1f MB\n", g, a, i / 1e6
  printf "moves: %d (%.2f per action), %d of them time travel; %d boards made\n", n, n / a, t,
    n + t
  printf "ingest: %.2f s, %.0f games/s, %.0f actions/s, %.1f MB/s\n", s, g / s, a / s, i / 1e6 / s
  printf "moves: %.0f moves/s, %.0f boards made/s\n", n / s, (n + t) / s
  printf "cpu: %.1f s user, %.1f s system; peak memory %.0f MB\n", u, y, m / 1024
  printf "database: %.1f MB, %.0f bytes per game, %.2f x the input\n", d / 1e6, d / g, d / i
}'
sqlite3 "$db" "SELECT name, printf('%.1f MB', sum(pgsize) / 1e6) FROM dbstat GROUP BY name ORDER BY sum(pgsize) DESC;" 2>/dev/null | head -12 || true
