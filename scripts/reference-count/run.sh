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
# and every ORACLE_STEP-th game of shared/oracle/public/games. The environment variables SHARED
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
{
  awk -F'\t' -v dir="$shared/corpus/public/" 'NR > 1 && $5 == "ok" { print dir $1 }' \
    "$shared/corpus/public/MANIFEST.tsv"
  ls "$shared"/oracle/public/games/pub-*.5dpgn | awk -v step="$oracle_step" '(NR - 1) % step == 0'
} > "$out/files.txt"
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
node "$here/compare.js" "${args[@]}" --oracle-jsonl "$shared/oracle/public/oracle.jsonl" \
  > "$out/compare.txt" || true
cat "$out/compare.txt"
