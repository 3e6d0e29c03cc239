#!/usr/bin/env bash
# CLI golden tests: runs 5d-index on the sample collections and compares standard output,
# standard error and the exit status with the files in tests/cli/expected/.
# Usage: tests/cli/run.sh BUILD_DIR   (run by ctest; `--update` rewrites the expected files)
set -u
build=$1
update=${2:-}
root=$(cd "$(dirname "$0")/../.." && pwd)
index="$build/indexer/5d-index"
cd "$root"
failed=0
passed=0

check() {  # name, then the command's arguments
  local name=$1
  shift
  local out err status
  out=$(mktemp) err=$(mktemp)
  "$index" "$@" >"$out" 2>"$err" </dev/null
  status=$?
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
check no-mode corpus/adri326-5dchess-notation.5dpgn
check bad-option --check --no-such-option x
check both-outputs --check --hashes --fen x

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
