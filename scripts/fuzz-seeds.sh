#!/usr/bin/env bash
# Writes the seed inputs of the fuzzing harnesses (tests/fuzz/) into OUT/pgn, OUT/fen,
# OUT/archive and OUT/pattern: the game files of corpus/ and tests/ (cut to 64 KiB), the board
# strings found in them, small zip, tar, tar.gz, tar.xz, tar.bz2, gz, xz and bz2 files of the
# games of corpus/ (one zip packed again inside), and a few patterns of each kind. With --shared
# DIR, also the files of DIR/corpus (up to 256 KiB) and the oracle games of
# DIR/oracle/public/all.5dpgn in 32 KiB pieces. The same files give the same bytes at every run
# (archives carry no dates), so the short runs of ctest (fuzz_short.NAME) are the same everywhere.
# Used by scripts/fuzz.sh (make fuzz) and by ctest's fixture fuzz_short_seeds.
# Usage: scripts/fuzz-seeds.sh OUT [--shared DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 1 ]; then
  echo "usage: scripts/fuzz-seeds.sh OUT [--shared DIR]" >&2
  exit 2
fi
seeds=$1
shared=
if [ "${2:-}" = --shared ]; then shared=${3:?--shared needs a folder}; fi
# Made anew each time: a file gone from the repository is no longer a seed.
rm -rf "$seeds/pgn" "$seeds/fen" "$seeds/archive" "$seeds/pattern"
mkdir -p "$seeds/pgn" "$seeds/fen" "$seeds/archive" "$seeds/pattern"

# Pattern seeds: one query line each (a board pattern, material, state conditions, a move pattern).
i=0
for line in '????????/????????/????????/???????Q/????????/????????/????????/????????' \
            '[Qq]7/8/8/8/8/8/8/7[^.K]:=+1:=-2:=' 'present: Q>=2, A>a' 'board: [RQ]=0' \
            'timelines>=4, active>=3, turn<10, to-move=b, check=w' 'N branch capture actions=3-9' \
            'k*4/5/5/5/4K*:-0:3:w'; do
  printf '%s\n' "$line" >"$seeds/pattern/$i"
  i=$((i + 1))
done

# Game files of the repository (corpus/, tests/; cut to 64 KiB) and the board strings in them.
files=(corpus/*.5dpgn corpus/rejected/*.5dpgn tests/*/*.5dpgn)
if [ -n "$shared" ] && [ -d "$shared/corpus" ]; then
  while IFS= read -r -d '' f; do files+=("$f"); done < <(find "$shared/corpus" -type f -size -256k -print0 | sort -z)
fi
i=0
for f in "${files[@]}"; do
  head -c 65536 "$f" >"$seeds/pgn/$i"
  grep -o '\[[^]"]*:[^]"]*\]' "$f" | head -n 20 | while IFS= read -r board; do
    printf '%s' "$board" >"$seeds/fen/$(printf '%s' "$board" | md5sum | cut -c1-16)"
  done || true
  i=$((i + 1))
done
if [ -n "$shared" ] && [ -f "$shared/oracle/public/all.5dpgn" ]; then
  split -C 32768 -d -a 4 "$shared/oracle/public/all.5dpgn" "$seeds/pgn/oracle-"
fi

# Archives of the sample games, with fixed dates so that their bytes do not change.
python3 - "$seeds/archive" corpus/*.5dpgn <<'PYTHON'
import bz2, gzip, io, lzma, sys, tarfile, zipfile
out, files = sys.argv[1], sys.argv[2:]
data = [(f.split("/")[-1], open(f, "rb").read()[:4096]) for f in files]
def member(name):
    return zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))
with zipfile.ZipFile(out + "/seed.zip", "w", zipfile.ZIP_DEFLATED) as z:
    for name, d in data: z.writestr(member("dir/" + name), d, zipfile.ZIP_DEFLATED)
def tar_bytes():
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.USTAR_FORMAT) as t:
        for n, d in data:
            info = tarfile.TarInfo(n); info.size = len(d); t.addfile(info, io.BytesIO(d))
    return buffer.getvalue()
tar = tar_bytes()
open(out + "/seed.tar", "wb").write(tar)
open(out + "/seed.tgz", "wb").write(gzip.compress(tar, mtime=0))
open(out + "/seed.txz", "wb").write(lzma.compress(tar))
open(out + "/seed.tbz", "wb").write(bz2.compress(tar))
# Packed again inside: a zip holding a tar.gz and a compressed member.
with zipfile.ZipFile(out + "/seed-nested.zip", "w", zipfile.ZIP_STORED) as z:
    z.writestr(member("inner.tgz"), gzip.compress(tar, mtime=0))
    z.writestr(member("games.5dpgn.gz"), gzip.compress(data[0][1], mtime=0))
open(out + "/seed.gz", "wb").write(gzip.compress(data[0][1], mtime=0))
open(out + "/seed.xz", "wb").write(lzma.compress(data[0][1]))
open(out + "/seed.bz2", "wb").write(bz2.compress(data[0][1]))
PYTHON
