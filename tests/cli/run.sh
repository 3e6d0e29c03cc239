#!/usr/bin/env bash
# CLI golden tests: runs 5d-index on the sample collections and compares standard output,
# standard error and the exit status with the files in tests/cli/expected/.
# Usage: tests/cli/run.sh BUILD_DIR   (run by ctest; `--update` rewrites the expected files)
set -u
build=$1
update=${2:-}
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "$build" && pwd)
index="$build/indexer/5d-index"
cd "$root"
# Databases live in a scratch directory; the outputs name them by their file name only.
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
failed=0
passed=0

check() {  # name, then the command's arguments
  local name=$1
  shift
  local out err status
  out=$(mktemp) err=$(mktemp)
  "$index" "$@" >"$out" 2>"$err" </dev/null
  status=$?
  # Times vary from run to run; scratch paths too.
  sed -i -E 's/"seconds":[0-9.]+/"seconds":T/; s/"games_per_second":[0-9]+/"games_per_second":R/; s/; [0-9.]+ s, [0-9]+ games\/s/; T s, R games\/s/' "$out" "$err"
  sed -i "s|$scratch/||g" "$out" "$err"
  printf '%s\n' "$status" >>"$out.status"
  if [ "$update" = "--update" ]; then
    cp "$out" "tests/cli/expected/$name.stdout"
    cp "$err" "tests/cli/expected/$name.stderr"
    echo "$status" >"tests/cli/expected/$name.status"
  elif cmp -s "$out" "tests/cli/expected/$name.stdout" &&
       cmp -s "$err" "tests/cli/expected/$name.stderr" &&
       [ "$status" = "$(cat "tests/cli/expected/$name.status")" ]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL: $name (exit $status)"
    diff -u "tests/cli/expected/$name.stdout" "$out" | head -20
    diff -u "tests/cli/expected/$name.stderr" "$err" | head -20
  fi
  rm -f "$out" "$err" "$out.status"
}

check check-corpus --check corpus/adri326-5dchess-notation.5dpgn
check check-rejected --check corpus/rejected/teln0-vs-shad-simple-no-queens.5dpgn
check hashes --check --hashes corpus/adri326-5dchess-notation.5dpgn
check fen --check --fen corpus/adri326-5dchess-notation.5dpgn
check hashes-rejected --check --hashes corpus/rejected/teln0-vs-shad-simple-no-queens.5dpgn
check missing-file --check corpus/no-such-file.5dpgn
check no-input --check
check index-corpus --db "$scratch/corpus.sqlite" --quiet --json corpus/adri326-5dchess-notation.5dpgn corpus/rejected/teln0-vs-shad-simple-no-queens.5dpgn
check reindex-corpus --db "$scratch/corpus.sqlite" --quiet --json corpus/
check index-missing --db "$scratch/missing.sqlite" --quiet corpus/no-such-file.5dpgn
check index-not-a-database --db corpus/SOURCES.md --quiet corpus/adri326-5dchess-notation.5dpgn
check hashes-without-check --hashes corpus/adri326-5dchess-notation.5dpgn
check bad-jobs --jobs -1 corpus/adri326-5dchess-notation.5dpgn
check bad-option --check --no-such-option x
check both-outputs --check --hashes --fen x

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
