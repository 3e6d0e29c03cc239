#!/usr/bin/env bash
# Install test: `cmake --install` into a temporary prefix, then the installed tools are run from
# there: --version, indexing a sample collection, a search, the server (5d-query serve runs the
# installed 5d-query-serve), the bash completions, and the man pages when the build made them
# (it does when go-md2man is installed).
# Usage: tests/install/run.sh BUILD_DIR VERSION   (run by ctest)
set -u
build=$(cd "$1" && pwd)
version=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
failed=0
passed=0

expect() {  # name, expected, actual
  if [ "$2" = "$3" ]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    printf 'FAIL: %s\n  expected: %s\n  got:      %s\n' "$1" "$2" "$3"
  fi
}

if ! cmake --install "$build" --prefix "$prefix/usr" >"$prefix/install.log" 2>&1; then
  cat "$prefix/install.log"
  echo "FAIL: cmake --install"
  exit 1
fi
bin=$prefix/usr/bin

# --version: the project's version, then the schema and key versions (numbers).
for tool in 5d-index 5d-query; do
  out=$("$bin/$tool" --version)
  expect "$tool --version" "ok" \
    "$([[ $out =~ ^$tool\ $version\ \(schema\ version\ [0-9]+,\ key\ version\ [0-9]+\)$ ]] && echo ok || echo "$out")"
done
expect "both tools report the same versions" "${out#5d-query }" "$("$bin/5d-index" --version | sed 's/^5d-index //')"

# The installed tools index a collection and search it.
db=$prefix/games.sqlite
"$bin/5d-index" --db "$db" --quiet "$root/corpus/club-games.5dpgn" >"$prefix/index.log" 2>&1
status=$?
expect "5d-index exit status" 0 "$status"
[ "$status" -eq 0 ] || cat "$prefix/index.log"
expect "5d-query --count" 8 "$("$bin/5d-query" --db "$db" --count)"
expect "5d-query --moves" 4 "$("$bin/5d-query" --db "$db" --moves '1. e3 / e6 2. Nf3 / Nf6' --count)"

# serve: the installed 5d-query runs the installed 5d-query-serve beside it, which serves until
# Ctrl-C (SIGINT) and then exits 0.
expect "5d-query-serve installed" yes "$([ -x "$bin/5d-query-serve" ] && echo yes || echo no)"
"$bin/5d-query" --db "$db" serve --port 0 >"$prefix/serve.log" 2>&1 &
serve_pid=$!
for _ in $(seq 100); do
  grep -q "serving" "$prefix/serve.log" && break
  sleep 0.1
done
expect "5d-query serve" "5d-query: serving $db at http://127.0.0.1:" \
  "$(grep -o "^5d-query: serving .* at http://127.0.0.1:" "$prefix/serve.log")"
kill -INT "$serve_pid"
wait "$serve_pid"
expect "5d-query serve stops on Ctrl-C" 0 $?

# Bash completions: the commands of 5d-query, options read from the installed tool's --help.
completions=$prefix/usr/share/bash-completion/completions
complete_words() {  # tool, words of the command line (the last is completed)
  local tool=$1
  shift
  bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1));
           "_${COMP_WORDS[0]//-/_}"; printf "%s\n" "${COMPREPLY[@]}"' \
    _ "$completions/$tool" "$@" | sort | tr '\n' ' '
}
PATH=$bin:$PATH
expect "5d-query commands" "duplicates find puzzles serve show stats tree " "$(complete_words 5d-query 5d-query '')"
expect "5d-query --for" "--format " "$(complete_words 5d-query 5d-query --for)"
expect "5d-query --ending" "checkmate " "$(complete_words 5d-query 5d-query --ending che)"
expect "5d-index --all" "--all-state-md5 " "$(complete_words 5d-index 5d-index --all)"
expect "5d-index --db FILE" "$root/corpus/club-games.5dpgn " \
  "$(complete_words 5d-index 5d-index --db "$root/corpus/club")"

# Man pages, when the build made them; man reads them when it is there.
if [ -f "$build/man/5d-index.1" ]; then
  for tool in 5d-index 5d-query; do
    page=$prefix/usr/share/man/man1/$tool.1
    expect "$tool.1 installed" yes "$([ -s "$page" ] && echo yes || echo no)"
    if command -v man >/dev/null 2>&1; then
      expect "man $tool: NAME" "$tool - " \
        "$(MANWIDTH=80 man -l "$page" 2>/dev/null | grep -o "^ *$tool - " | sed 's/^ *//')"
    fi
  done
else
  echo "install: the build made no man pages (go-md2man is missing), so none are checked"
fi

echo "install: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
