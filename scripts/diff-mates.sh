#!/usr/bin/env bash
# The mates in one that 5d-index --tactics finds, against ftxi's 5dtools (issue 30): GAMES random
# games (tests/bench/gen_games; Standard, Standard - Turn Zero and Very Small - Open with queens
# only, or with CUSTOM=1 random custom 8x8 starts), each mate written as a game that ends with its
# solution (tests/bench/mate_games), and `5dtools checkmate` asked whether that game ends in
# checkmate. "Not checkmate: ACTION" names an escape, so it would prove our claim wrong;
# "Checkmate" agrees (ftxi's default search can miss actions, docs/differential.md, so that is the
# weaker evidence).
# Prints the summary and every game ftxi does not call checkmate. Not part of the tests.
#
# Usage: scripts/diff-mates.sh [GAMES] [SEED] [BUILD_DIR]
#   FTXI=/tmp/ftxi/build/5dtools (built with cmake -DTOOLS=ON). Defaults: 300 games, seed 7,
#   build/. OUT=DIR keeps the generated files.
set -euo pipefail

games=${1:-300}
seed=${2:-7}
build=${3:-build}
ftxi=${FTXI:-/tmp/ftxi/build/5dtools}
source "$(cd "$(dirname "$0")" && pwd)/ftxi-actions/random-games.sh"
need diff-mates "$build/tests/mate_games" "$build/tests/gen_games" "$ftxi"
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
random_games "$build" "$games" "$seed" 20 "$out/games.5dpgn"
"$build/tests/mate_games" "$out/games.5dpgn" > "$out/mates.5dpgn"
python3 - "$ftxi" "$out/mates.5dpgn" <<'PY'
import collections, re, subprocess, sys

ftxi, path = sys.argv[1], sys.argv[2]
text = open(path, encoding="utf-8").read()
games = [g.strip() for g in re.split(r"\n(?=\[Event )", text) if g.strip()]
kinds = collections.Counter()
report = []
for game in games:
    # ftxi wants "(1T2)" for "(+1T2)" in odd games (every game here is odd).
    fed = re.sub(r"\(\+(\d+)T", r"(\1T", game) + "\n"
    try:
        done = subprocess.run([ftxi, "checkmate"], input=fed, capture_output=True, text=True,
                              timeout=120)
        lines = done.stdout.strip().splitlines()
        answer = lines[-1] if lines else ""
        error = done.stderr.strip().splitlines()
    except subprocess.TimeoutExpired:
        answer, error = "", ["no answer in 120 s"]
    if answer == "Checkmate":
        kinds["checkmate (agrees)"] += 1
    elif answer.startswith("Not checkmate") or answer == "Stalemate":
        kind = "not checkmate" if answer != "Stalemate" else "stalemate"
        kinds[kind] += 1
        report.append(f"{kind}: ftxi says {answer}\n{game}\n")
    else:
        # A promotion to another piece than a queen, or a timeline double step: ftxi reads
        # neither (docs/differential.md).
        reason = re.sub(r"mv:.*", "", error[0] if error else "no answer")[:60]
        kinds[f"ftxi gives no answer: {reason}"] += 1
print(f"{len(games)} mates in one")
for kind, count in sorted(kinds.items()):
    print(f"  {kind}: {count}")
print()
print("\n".join(report))
PY
