#!/usr/bin/env bash
# Runs the whole comparison: picks the games, counts their positions' legal actions with the
# reference (count.js) and with 5d-index, and compares them (compare.js). See README.md.
#
# Usage: scripts/reference-count/run.sh REF_DIR OUT_DIR [NODE_LIMIT] [ORACLE_STEP] [JOBS]
#   REF_DIR      folder where `npm install 5d-chess-js@1.2.1` was run
#   OUT_DIR      where the lists, the counts and the comparison (compare.txt) go
#   NODE_LIMIT   states the reference's search may visit per position (default 20000)
#   ORACLE_STEP  every how many-th oracle game is taken (default 4: games 0, 4, 8, ...)
#   JOBS         parallel shards (default 2)
# Games: every file of shared/corpus/public that its MANIFEST.tsv says the reference replays,
# and every ORACLE_STEP-th game of shared/oracle/public/games; or, with GAMES=FILE, the games of
# that collection (each written to OUT_DIR/games/ on its own, without its result token, which the
# reference does not read), for example gen_games' random games of new seeds or custom starts. The environment variables SHARED
# (default: ../shared next to the checkout) and INDEX (default: build/indexer/5d-index) say where
# the shared materials and the built tool are.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
ref_dir=${1:?usage: run.sh REF_DIR OUT_DIR [NODE_LIMIT] [ORACLE_STEP] [JOBS]}
out=${2:?usage: run.sh REF_DIR OUT_DIR [NODE_LIMIT] [ORACLE_STEP] [JOBS]}
node_limit=${3:-20000}
oracle_step=${4:-4}
jobs=${5:-2}
shared=${SHARED:-$root/../shared}
index=${INDEX:-$root/build/indexer/5d-index}
mkdir -p "$out"

# One path a line (no corpus path holds a newline or a tab).
if [[ -n ${GAMES:-} ]]; then
  # A collection of our own (gen_games' random games, say), one game a file as count.js wants,
  # without the result token, which the reference's reader refuses after the last move.
  mkdir -p "$out/games"
  rm -f "$out"/games/*.5dpgn
  python3 - "$GAMES" "$out/games" <<'PY'
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
games = [g.strip() for g in re.split(r"\n(?=\[Event )", text) if g.strip()]
for i, game in enumerate(games):
    game = re.sub(r"\s*(\*|1-0|0-1|1/2-1/2)$", "", game)
    with open(f"{sys.argv[2]}/{i:05d}.5dpgn", "w", encoding="utf-8") as f:
        f.write(game + "\n")
PY
  ls "$out"/games/*.5dpgn > "$out/files.txt"
else
  {
    awk -F'\t' -v dir="$shared/corpus/public/" 'NR > 1 && $5 == "ok" { print dir $1 }' \
      "$shared/corpus/public/MANIFEST.tsv"
    ls "$shared"/oracle/public/games/pub-*.5dpgn | awk -v step="$oracle_step" '(NR - 1) % step == 0'
  } > "$out/files.txt"
fi
echo "run.sh: $(wc -l < "$out/files.txt") games, node limit $node_limit, $jobs shards" >&2

# The reference counts at most NODE_LIMIT actions per position, so a cap one above it gives
# 5d-index's exact count wherever the reference has one (or shows that ours is larger).
cap=$((node_limit + 1))
for ((shard = 0; shard < jobs; shard++)); do
  (
    mapfile -t files < <(awk -v n="$jobs" -v s="$shard" '(NR - 1) % n == s' "$out/files.txt")
    node "$here/count.js" --ref "$ref_dir" --node-limit "$node_limit" "${files[@]}" \
      > "$out/reference.$shard.tsv"
    # --verdict-budget bounds the moves 5d-index tries per position; where it runs out the count
    # is printed as a lower bound and compare.js reports the position as capped.
    "$index" --check --count-actions --cap "$cap" --verdict-budget 200000 "${files[@]}" \
      > "$out/counts.$shard.tsv" 2> "$out/counts.$shard.err" || true
    "$index" --check --hashes "${files[@]}" > "$out/hashes.$shard.tsv" \
      2> "$out/hashes.$shard.err" || true
  ) &
done
wait

args=()
for ((shard = 0; shard < jobs; shard++)); do
  args+=(--reference "$out/reference.$shard.tsv" --counts "$out/counts.$shard.tsv"
         --hashes "$out/hashes.$shard.tsv")
done
if [[ -f $shared/oracle/public/oracle.jsonl ]]; then
  args+=(--oracle-jsonl "$shared/oracle/public/oracle.jsonl")
fi
node "$here/compare.js" "${args[@]}" > "$out/compare.txt" || true
cat "$out/compare.txt"
