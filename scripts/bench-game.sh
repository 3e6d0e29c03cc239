#!/usr/bin/env bash
# How long 5d-query serve takes to answer a game's page for the games with the most timelines:
# /api/game/ID at every action, asked once (the server replays and draws) and again (the cache
# answers), with the bytes sent gzip-compressed; then, when Chromium and Selenium are installed,
# how long the game page takes to show a step and its first picture, and the page's CPU time for
# them (scripts/bench-game-browser.py).
#
# Usage: scripts/bench-game.sh DB [GAMES] [BUILD]   (GAMES: how many of the largest, default 3;
#        BUILD: the build directory, default build). Needs curl. Prints figures; asserts nothing.
set -euo pipefail
db=${1:?usage: scripts/bench-game.sh DB [GAMES] [BUILD]}
games=${2:-3}
build=${3:-build}
here=$(cd "${0%/*}" && pwd)
query=$build/query/5d-query
[ -x "$query" ] || { echo "no $query: build first" >&2; exit 2; }
command -v curl >/dev/null || { echo "bench-game.sh needs curl" >&2; exit 2; }

log=$(mktemp)
"$query" --db "$db" serve --port 0 >"$log" 2>&1 &
server=$!
trap 'kill -INT $server 2>/dev/null; wait $server 2>/dev/null; rm -f "$log"' EXIT
for _ in $(seq 50); do
  grep -q 'serving' "$log" && break
  sleep 0.1
done
url=$(grep -o 'http://127.0.0.1:[0-9]*' "$log" | head -1)
[ -n "$url" ] || { echo "the server did not start: $(cat "$log")" >&2; exit 1; }

ids=$(curl -s "$url/api/find?sort=-timelines&limit=$games" |
  python3 -c 'import json,sys; print(" ".join("%d:%d:%d" % (g["id"], g["actions"], g["timelines"]) for g in json.load(sys.stdin)))')
echo "database: $db; server: $url; $(nproc) cores; $(uname -m)"
printf '%-6s %-8s %-10s %-22s %-22s %-14s %-14s\n' game actions timelines \
  "first ask ms (med/max)" "cached ms (med/max)" "gzip KB (max)" "plain KB (max)"
for entry in $ids; do
  IFS=: read -r id actions timelines <<<"$entry"
  first=() again=() gz=() plain=()
  for action in $(seq 0 "$actions"); do
    path="$url/api/game/$id?action=$action"
    read -r t1 s1 < <(curl -s -o /dev/null -H 'Accept-Encoding: gzip' -w '%{time_total} %{size_download}\n' "$path")
    read -r t2 _ < <(curl -s -o /dev/null -H 'Accept-Encoding: gzip' -w '%{time_total} %{size_download}\n' "$path")
    read -r _ s3 < <(curl -s -o /dev/null -w '%{time_total} %{size_download}\n' "$path")
    first+=("$t1") again+=("$t2") gz+=("$s1") plain+=("$s3")
  done
  python3 - "$id" "$actions" "$timelines" "${first[*]}" "${again[*]}" "${gz[*]}" "${plain[*]}" <<'EOF'
import statistics, sys
id, actions, timelines, first, again, gz, plain = sys.argv[1:]
ms = lambda text: [1000 * float(x) for x in text.split()]
kb = lambda text: [int(x) / 1024 for x in text.split()]
first, again, gz, plain = ms(first), ms(again), kb(gz), kb(plain)
print(f'{id:<6} {actions:<8} {timelines:<10} '
      f'{statistics.median(first):>7.1f} / {max(first):<12.1f} '
      f'{statistics.median(again):>7.1f} / {max(again):<12.1f} '
      f'{max(gz):<14.0f} {max(plain):<14.0f}')
EOF
done

python=""
for candidate in /usr/bin/python3 python3; do
  if "$candidate" -c 'import selenium' 2>/dev/null; then python=$candidate; break; fi
done
if [ -n "$python" ] && command -v chromium >/dev/null && command -v chromedriver >/dev/null; then
  "$python" "$here/bench-game-browser.py" "$url" $ids
else
  echo "browser figures skipped: they need chromium, chromium-driver and python3-selenium"
fi
