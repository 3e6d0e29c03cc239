#!/usr/bin/env bash
# Holds the move generator and the check test to 5d-chess-js state by state (see README.md).
# Usage: scripts/reference-moves/run.sh REF_DIR OUT_DIR [GAMES] [SEED] [MAX_TIMELINES] [FILE...]
# Without FILEs, GAMES random games of every default variant are generated (gen_games, jump bias
# 0.6, up to MAX_TIMELINES timelines); with FILEs, those games are compared instead.
set -euo pipefail
cd "$(dirname "$0")/../.."
ref=${1:?REF_DIR}
out=${2:?OUT_DIR}
games=${3:-400}
seed=${4:-991}
timelines=${5:-14}
shift $(($# < 5 ? $# : 5))
for tool in build/tests/gen_games build/tests/move_keys; do
  [ -x "$tool" ] || { echo "build first: make build" >&2; exit 2; }
done
mkdir -p "$out"
if [ $# -eq 0 ]; then
  build/tests/gen_games --games "$games" --seed "$seed" --min-actions 10 --max-actions 40 \
    --jump-bias 0.6 --max-timelines "$timelines" --out "$out/games.5dpgn"
  set -- "$out/games.5dpgn"
fi
: >"$out/custom.5dpgn"
for file in "$@"; do build/tests/move_keys --custom "$file" >>"$out/custom.5dpgn"; done
build/tests/move_keys "$out/custom.5dpgn" >"$out/ours.txt"
node --max-old-space-size=8000 scripts/reference-moves/keys.js --ref "$ref" "$out/custom.5dpgn" \
  >"$out/reference.txt"
# States both sides reached, and those where the moves or the check differ.
awk 'NR == FNR { if ($3 != "error") ref[$1 " " $2] = $3 " " $4 " " $5; next }
     ($1 " " $2) in ref { ++n; if (ref[$1 " " $2] != $3 " " $4 " " $5) { ++d; print $1 ":" $2 } }
     END { printf "%d states compared, %d differ\n", n, d > "/dev/stderr" }' \
  "$out/reference.txt" "$out/ours.txt" >"$out/differ.txt" 2>"$out/summary.txt"
echo "$(grep -c ' error ' "$out/reference.txt" || true) games the reference could not play to the end" \
  >>"$out/summary.txt"
: >"$out/differences.txt"
while read -r state; do
  node scripts/reference-moves/keys.js --ref "$ref" "$out/custom.5dpgn" "$state" >"$out/r.keys"
  build/tests/move_keys "$out/custom.5dpgn" "$state" >"$out/o.keys"
  {
    echo "== $state"
    comm -23 "$out/r.keys" "$out/o.keys" | sed 's/^/reference only: /'
    comm -13 "$out/r.keys" "$out/o.keys" | sed 's/^/ours only:      /'
  } >>"$out/differences.txt"
done <"$out/differ.txt"
rm -f "$out/r.keys" "$out/o.keys"
cat "$out/summary.txt"
