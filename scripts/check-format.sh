#!/usr/bin/env bash
# Checks that every C++ file of the checkout follows .clang-format (run by ctest as `format`, so
# `make test` and CI check it). Prints the files that do not, with the command that fixes them.
# Exit status 77 (skipped) when clang-format is not installed.
set -u
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
if ! command -v clang-format >/dev/null 2>&1; then
  echo "format: clang-format is not installed (Debian package clang-format): skipped"
  exit 77
fi
bad=()
while IFS= read -r file; do
  clang-format --dry-run -Werror "$file" >/dev/null 2>&1 || bad+=("$file")
done < <(git ls-files '*.cc' '*.h' 2>/dev/null || find core schema indexer query tests -name '*.cc' -o -name '*.h')
if [ ${#bad[@]} -gt 0 ]; then
  echo "format: ${#bad[@]} files differ from .clang-format:"
  printf '  %s\n' "${bad[@]}"
  echo "fix them with: clang-format -i ${bad[*]}"
  exit 1
fi
echo "format: every C++ file follows .clang-format ($(clang-format --version))"
