#!/usr/bin/env bash
# API latency of 5d-query serve on the database of the ingest benchmark (100,000 generated games;
# made by scripts/bench-index.sh when missing), with several clients at once: wrk sends the
# requests the explorer's pages make, each kind for SECONDS over CONNECTIONS connections, and
# this prints the 50th, 95th and 99th percentile of their latency.
#
# Each kind of request runs twice: on a server without the answer cache (--cache-mb 0: every
# answer is computed, as for a position nobody asked for yet) and on one with it, after one pass
# over the same requests (as for the positions every visitor opens). Game pages run uncached only:
# people open many different games.
#   tree start   /api/tree at the start of each official variant in the database (7,000 games each)
#   tree 1       /api/tree after each first action of each variant (400 of them, drawn at random)
#   tree 2       /api/tree after each first action and reply of Standard (400 of them)
#   find start   the explorer's games at a variant's start: a page of 20 by date, and the count
#   find 1       the same after the first actions of tree 1 (a position search; 400 requests)
#   find player  the search page: a player's games (either colour, or white and black), a page of
#                50 by date, and the count
#   game         /api/game/ID at the end or after one of the first 10 actions, for 2,000 random
#                games (the game page: replay, picture, headers)
# Usage: scripts/bench-serve.sh [CONNECTIONS] [SECONDS]   (default 4 10)
set -euo pipefail
cd "$(dirname "$0")/.."
connections=${1:-4}
seconds=${2:-10}
threads=$((connections < 2 ? connections : 2))
for tool in build/query/5d-query build/indexer/5d-index; do
  [ -x "$tool" ] || { echo "build first: make build" >&2; exit 2; }
done
command -v wrk >/dev/null || { echo "bench-serve: needs wrk (apt-get install wrk)" >&2; exit 2; }
db=build/bench/index.sqlite
if ! build/query/5d-query --db "$db" --count >/dev/null 2>&1; then
  scripts/bench-index.sh
fi
scratch=$(mktemp -d)
server_pid=""
stop_server() {
  if [ -n "$server_pid" ]; then
    kill -INT "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
    server_pid=""
  fi
}
trap 'stop_server; rm -rf "$scratch"' EXIT

# Starts 5d-query serve with the given options on a free port; sets $base.
start_server() {
  : >"$scratch/serve.out"  # not the last server's address (the redirection below empties it late)
  build/query/5d-query --db "$db" serve --port 0 "$@" >"$scratch/serve.out" 2>&1 &
  server_pid=$!
  for _ in $(seq 100); do
    base=$(sed -n 's|.* at \(http://[^ ]*\)/ .*|\1|p' "$scratch/serve.out")
    [ -n "$base" ] && return 0
    sleep 0.1
  done
  echo "bench-serve: the server did not start: $(cat "$scratch/serve.out")" >&2
  exit 1
}

# The lists of request paths, one file per kind, from what the database holds.
start_server --cache-mb 0
python3 - "$base" "$scratch" <<'EOF'
import json, random, sys, urllib.parse, urllib.request

base, out = sys.argv[1], sys.argv[2]

def get(path, **params):
    url = base + path + '?' + urllib.parse.urlencode(params, quote_via=urllib.parse.quote)
    with urllib.request.urlopen(url, timeout=120) as response:
        return json.load(response)

def path(endpoint, **params):
    return endpoint + '?' + urllib.parse.urlencode(
        {name.replace('_', '-'): value for name, value in params.items()},
        quote_via=urllib.parse.quote)

stats = get('/api/stats', top=8)
variants = [v['variant'] for v in stats['variants'] if v['variant'] != 'custom']
players = [p['name'] for p in stats['players']]
lists = {name: [] for name in ('tree-start', 'tree-1', 'tree-2', 'find-start', 'find-1',
                               'find-player', 'game')}
for variant in variants:
    lists['tree-start'].append(path('/api/tree', variant=variant))
    lists['find-start'].append(path('/api/find', variant=variant, limit=20, offset=0, sort='-date'))
    lists['find-start'].append(path('/api/find', variant=variant, count='true'))
    for action in get('/api/tree', variant=variant)['actions']:
        moves = '1. ' + action['action']
        lists['tree-1'].append(path('/api/tree', variant=variant, moves=moves))
        lists['find-1'].append(path('/api/find', variant=variant, moves=moves, limit=20, offset=0,
                                    sort='-date'))
        lists['find-1'].append(path('/api/find', variant=variant, moves=moves, count='true'))
        if variant == 'Standard':
            for reply in get('/api/tree', variant=variant, moves=moves)['actions']:
                lists['tree-2'].append(path('/api/tree', variant=variant,
                                            moves=moves + ' / ' + reply['action']))
for player in players:
    lists['find-player'].append(path('/api/find', player=player, limit=50, offset=0, sort='-date'))
    lists['find-player'].append(path('/api/find', player=player, count='true'))
    for black in players:
        if black != player:
            lists['find-player'].append(path('/api/find', white=player, black=black, limit=50,
                                             offset=0, sort='-date'))
games = stats['games']
generator = random.Random(1)
for _ in range(2000):
    game = generator.randint(1, games)
    action = generator.choice([None, generator.randint(1, 10)])
    lists['game'].append(f'/api/game/{game}' + ('' if action is None else f'?action={action}'))
for name, paths in lists.items():
    generator.shuffle(paths)
    del paths[400 if name != 'game' else 2000:]  # a sample of the longer lists
    with open(f'{out}/{name}.txt', 'w') as file:
        file.write('\n'.join(paths) + '\n')
EOF

# Cycles through the paths of a list (each thread from its own place) and prints the latency.
cat >"$scratch/paths.lua" <<'EOF'
local paths = {}
local next_path = 1
local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("thread_number", threads)
end
function init(args)
  for line in io.lines(args[1]) do paths[#paths + 1] = line end
  next_path = ((thread_number or 1) * 7919) % #paths + 1
end
function request()
  local path = paths[next_path]
  next_path = next_path % #paths + 1
  return wrk.format("GET", path)
end
function done(summary, latency, requests)
  local errors = summary.errors.connect + summary.errors.read + summary.errors.write +
                 summary.errors.status + summary.errors.timeout
  io.write(string.format("%6d requests %6.0f/s  p50 %6.1f ms  p95 %6.1f ms  p99 %6.1f ms  " ..
                         "max %6.1f ms  errors %d\n",
                         summary.requests, summary.requests / (summary.duration / 1e6),
                         latency:percentile(50) / 1000, latency:percentile(95) / 1000,
                         latency:percentile(99) / 1000, latency.max / 1000, errors))
end
EOF

run() {  # kind, cache label
  printf '%-12s %-5s %5d paths ' "$1" "$2" "$(wc -l <"$scratch/$1.txt")"
  wrk --threads "$threads" --connections "$connections" --duration "${seconds}s" --timeout 10s \
    --script "$scratch/paths.lua" "$base" -- "$scratch/$1.txt" | tail -n 1
}

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(uname -sr); load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "database: $db, $(build/query/5d-query --db "$db" --count) games; wrk: $connections connections, $threads threads, ${seconds} s a run"
kinds=(tree-start tree-1 tree-2 find-start find-1 find-player)
for kind in "${kinds[@]}" game; do run "$kind" off; done
stop_server
start_server
for kind in "${kinds[@]}"; do
  # One pass over the paths first, so that every answer is in the cache.
  while read -r path; do curl -s -o /dev/null "$base$path"; done <"$scratch/$kind.txt"
  run "$kind" on
done
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
