#!/usr/bin/env bash
# Runs the libFuzzer harnesses of make fuzz (tests/fuzz/) for RUNS executions each (or SECONDS,
# when given, whichever comes first), seeded from corpus/ and, when present, ../shared (the
# public corpus and the oracle games). Each harness keeps what it learns in
# BUILD/fuzz-corpus/NAME, so later runs go on from there; crashes are written to
# BUILD/fuzz-findings/ (crash-*, leak-*, oom-*, timeout-*), where a finding is to be turned into a
# regression test. Prints the executions done per harness; each run's log is
# BUILD/fuzz-NAME-DATE.log.
# Usage: scripts/fuzz.sh [BUILD] [RUNS] [SECONDS] [HARNESS...]
#   (default build-fuzz 1000000, no time limit, all of pgn fen archive pattern)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-fuzz}
runs=${2:-1000000}
seconds=${3:-0}
shift $(( $# < 3 ? $# : 3 ))
harnesses=("$@")
[ ${#harnesses[@]} -gt 0 ] || harnesses=(pgn fen archive pattern)
# Short allocation stacks in ASan's reports: twice the executions per second, and a finding
# still names where the bad access is.
export ASAN_OPTIONS=${ASAN_OPTIONS:-malloc_context_size=5}
shared=../shared
seeds="$build/fuzz-seeds"
findings="$build/fuzz-findings"
mkdir -p "$seeds/pgn" "$seeds/fen" "$seeds/archive" "$seeds/pattern" "$findings"
for harness in pgn fen archive pattern; do mkdir -p "$build/fuzz-corpus/$harness"; done
# Pattern seeds: a query line, then a board stream (one of a real game, from a database of the
# corpus indexed here, when sqlite3 and 5d-index are at hand).
i=0
for line in '????????/????????/????????/???????Q/????????/????????/????????/????????' \
            '[Qq]7/8/8/8/8/8/8/7[^.K]:=+1:=-2:=' 'present: Q>=2, A>a' 'board: [RQ]=0' \
            'timelines>=4, active>=3, turn<10, to-move=b, check=w' 'N branch capture actions=3-9' \
            'k*4/5/5/5/4K*:-0:3:w'; do
  printf '%s\n' "$line" >"$seeds/pattern/$i"
  i=$((i + 1))
done

# Seeds: game files (cut to 64 KiB), board strings, and small archives of game files.
files=(corpus/*.5dpgn corpus/rejected/*.5dpgn)
if [ -d "$shared/corpus" ]; then
  while IFS= read -r -d '' f; do files+=("$f"); done < <(find "$shared/corpus" -type f -size -256k -print0)
fi
i=0
for f in "${files[@]}"; do
  head -c 65536 "$f" >"$seeds/pgn/$i"
  grep -o '\[[^]"]*:[^]"]*\]' "$f" | head -n 20 | while IFS= read -r board; do
    printf '%s' "$board" >"$seeds/fen/$(printf '%s' "$board" | md5sum | cut -c1-16)"
  done || true
  i=$((i + 1))
done
if [ -f "$shared/oracle/public/all.5dpgn" ]; then
  split -C 32768 -d -a 4 "$shared/oracle/public/all.5dpgn" "$seeds/pgn/oracle-"
fi
python3 - "$seeds/archive" corpus/*.5dpgn <<'PYTHON'
import gzip, io, lzma, bz2, sys, tarfile, zipfile
out, files = sys.argv[1], sys.argv[2:]
data = [(f.split("/")[-1], open(f, "rb").read()[:4096]) for f in files]
with zipfile.ZipFile(out + "/seed.zip", "w", zipfile.ZIP_DEFLATED) as z:
    for name, d in data: z.writestr("dir/" + name, d)
for mode, name in (("w", "seed.tar"), ("w:gz", "seed.tgz"), ("w:xz", "seed.txz"), ("w:bz2", "seed.tbz")):
    with tarfile.open(out + "/" + name, mode) as t:
        for n, d in data:
            info = tarfile.TarInfo(n); info.size = len(d); t.addfile(info, io.BytesIO(d))
# Packed again inside: a zip holding a tar.gz and a compressed member.
with zipfile.ZipFile(out + "/seed-nested.zip", "w", zipfile.ZIP_STORED) as z:
    z.writestr("inner.tgz", open(out + "/seed.tgz", "rb").read())
    z.writestr("games.5dpgn.gz", gzip.compress(data[0][1]))
open(out + "/seed.gz", "wb").write(gzip.compress(data[0][1]))
open(out + "/seed.xz", "wb").write(lzma.compress(data[0][1]))
open(out + "/seed.bz2", "wb").write(bz2.compress(data[0][1]))
PYTHON

build=$(cd "$build" && pwd)
# The longest input each harness is given: a few games (longer inputs make the replay harness
# ten times slower for little more coverage), a board string, a small archive.
declare -A max_len=([pgn]=8192 [fen]=1024 [archive]=65536 [pattern]=4096)
for harness in "${harnesses[@]}"; do
  log="$build/fuzz-$harness-$(date +%Y%m%d-%H%M%S).log"
  (cd "$build/fuzz-findings" && "$build/tests/fuzz_$harness" -runs="$runs" \
     -max_total_time="$seconds" -rss_limit_mb=2048 -max_len="${max_len[$harness]}" -timeout=30 \
     -print_final_stats=1 "$build/fuzz-corpus/$harness" "$build/fuzz-seeds/$harness" \
     >"$log" 2>&1) ||
    echo "fuzz_$harness: stopped with a finding (see $log)"
  executions=$(grep -m1 'stat::number_of_executed_units' "$log" | awk '{print $2}')
  echo "fuzz_$harness: ${executions:-?} executions in $(grep -m1 'Done' "$log" | awk '{print $5}') s;" \
    "$(ls "$build/fuzz-findings" | grep -c . || true) findings so far in $build/fuzz-findings"
done
