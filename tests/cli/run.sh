#!/usr/bin/env bash
# CLI golden tests: runs 5d-index and 5d-query on the sample collections and compares standard
# output, standard error and the exit status with the files in tests/cli/expected/.
#
# Each case below (`check NAME ARGS...` runs 5d-index, `query NAME ARGS...` 5d-query) is a ctest
# test of its own, cli.NAME, run alone in a directory of its own. The databases and files that
# cases read are made once beforehand by --setup (the ctest test cli_setup, fixture `cli`) in
# BUILD_DIR/tests/cli-fixture, which cases only read: `$fixture/FILE`. A case that writes into a
# database starts from a copy of one the setup made: `from=SNAPSHOT to=FILE check ...` copies
# $fixture/SNAPSHOT to $work/FILE first. So no case depends on another, nor on their order.
# Usage: tests/cli/run.sh BUILD_DIR --setup      make the fixture
#        tests/cli/run.sh BUILD_DIR CASE          run case CASE (after --setup)
#        tests/cli/run.sh BUILD_DIR [--update]    the setup and every case; --update rewrites
#                                                 the expected files
#        tests/cli/run.sh --list                  the names of the cases
set -u
if [ "${1:-}" = "--list" ]; then
  sed -nE 's/^([a-z]+=[^ ]+ )*(check|query) ([a-z0-9-]+)( .*)?$/\3/p' "$0"
  exit 0
fi
build=$1
mode=${2:-}
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "$build" && pwd)
index="$build/indexer/5d-index"
query="$build/query/5d-query"
fixture="$build/tests/cli-fixture"
cd "$root"

if [ "$mode" = "--setup" ]; then
  rm -rf "$fixture"
  mkdir -p "$fixture"
  status=0
  # Runs 5d-index or 5d-query quietly; anything but exit 0 or 1 fails the setup.
  prepare() {
    "$@" >/dev/null 2>&1 </dev/null
    local code=$?
    if [ "$code" -gt 1 ]; then
      echo "setup failed (exit $code): $*"
      status=1
    fi
  }
  snapshot() { sqlite3 "$fixture/$1" ".backup '$fixture/$2'" || status=1; }
  prepare "$index" --db "$fixture/corpus.sqlite" --quiet corpus/adri326-5dchess-notation.5dpgn corpus/rejected/teln0-vs-shad-simple-no-queens.5dpgn
  snapshot corpus.sqlite corpus-1.sqlite
  prepare "$index" --db "$fixture/corpus.sqlite" --quiet corpus/club-games.5dpgn
  snapshot corpus.sqlite corpus-2.sqlite
  prepare "$index" --db "$fixture/corpus.sqlite" --quiet corpus/
  # Packed inputs, read by content: a zip (named .dat on purpose) whose members are a game
  # file, the rejected game in a folder, and a file that is not games; then a gzip stream.
  python3 - "$fixture" <<'PYTHON' || status=1
import gzip, sys, zipfile
fixture = sys.argv[1]
with zipfile.ZipFile(fixture + "/export.dat", "w", zipfile.ZIP_DEFLATED) as z:
    z.write("corpus/club-games.5dpgn", "channel/club-games.5dpgn")
    z.write("corpus/rejected/teln0-vs-shad-simple-no-queens.5dpgn", "channel/old/teln0.5dpgn")
    z.writestr("channel/photo.png", b"\x89PNG")
with open("corpus/adri326-5dchess-notation.5dpgn", "rb") as f, gzip.open(fixture + "/adri.gz", "wb") as g:
    g.write(f.read())
PYTHON
  prepare "$index" --db "$fixture/packed-1.sqlite" --quiet "$fixture/export.dat" "$fixture/adri.gz"
  prepare "$index" --db "$fixture/all-md5.sqlite" --quiet --all-state-md5 corpus/club-games.5dpgn
  prepare "$query" --db "$fixture/corpus.sqlite" duplicates --format json --export-unique "$fixture/unique.5dpgn"
  prepare "$index" --db "$fixture/unique.sqlite" --quiet "$fixture/unique.5dpgn"
  prepare "$index" --db "$fixture/names.sqlite" --quiet tests/cli/names.5dpgn
  prepare "$index" --db "$fixture/endings.sqlite" --quiet tests/cli/endings.5dpgn
  prepare "$index" --db "$fixture/tactics.sqlite" --quiet --tactics tests/cli/tactics.5dpgn
  prepare "$index" --db "$fixture/copies.sqlite" --quiet tests/cli/copies.5dpgn
  exit "$status"
fi

if [ -z "$mode" ] || [ "$mode" = "--update" ]; then
  # Every case, each run as ctest runs it.
  "$0" "$build" --setup || exit 1
  passed=0 failed=0
  for name in $("$0" --list); do
    if "$0" "$build" "$name" $mode; then
      passed=$((passed + 1))
    else
      failed=$((failed + 1))
    fi
  done
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
  exit
fi

selected=$mode
update=${3:-}
if [ ! -d "$fixture" ]; then
  echo "no fixture: run tests/cli/run.sh $build --setup first (ctest runs cli_setup)"
  exit 1
fi
# The case's own directory; the outputs name its files and the fixture's by their names only.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0
found=0

# Whether the case run is one of those named.
selected() {
  local name
  for name in "$@"; do [ "$name" = "$selected" ] && return 0; done
  return 1
}

run_check() {  # name, program, then the command's arguments
  local name=$1 program=$2
  shift 2
  selected "$name" || return 0
  found=1
  if [ -n "${from:-}" ]; then cp "$fixture/$from" "$work/$to"; fi
  local out err status
  out=$(mktemp) err=$(mktemp)
  "$program" "$@" >"$out" 2>"$err" </dev/null
  status=$?
  # Times vary from run to run; scratch paths too.
  sed -i -E 's/"seconds":[0-9.]+/"seconds":T/; s/"games_per_second":[0-9]+/"games_per_second":R/; s/; [0-9.]+ s, [0-9]+ games\/s/; T s, R games\/s/' "$out" "$err"
  sed -i "s|$work/||g; s|$fixture/||g; s|$root/||g" "$out" "$err"
  if [ "$update" = "--update" ]; then
    cp "$out" "tests/cli/expected/$name.stdout"
    cp "$err" "tests/cli/expected/$name.stderr"
    echo "$status" >"tests/cli/expected/$name.status"
  elif ! cmp -s "$out" "tests/cli/expected/$name.stdout" ||
       ! cmp -s "$err" "tests/cli/expected/$name.stderr" ||
       [ "$status" != "$(cat "tests/cli/expected/$name.status")" ]; then
    failed=1
    echo "FAIL: $name (exit $status)"
    diff -u "tests/cli/expected/$name.stdout" "$out" | head -20
    diff -u "tests/cli/expected/$name.stderr" "$err" | head -20
  fi
  rm -f "$out" "$err"
}
check() { run_check "$1" "$index" "${@:2}"; }
query() { run_check "$1" "$query" "${@:2}"; }
# A check beyond the outputs, of case `name`: fails it with `message` unless `test` holds.
expect() {  # name, message, then the test
  local name=$1 message=$2
  shift 2
  selected "$name" || return 0
  if ! "$@"; then
    failed=1
    echo "FAIL: $name: $message"
  fi
}
absent() { [ ! -e "$1" ]; }

check check-corpus --check corpus/adri326-5dchess-notation.5dpgn
check check-rejected --check corpus/rejected/teln0-vs-shad-simple-no-queens.5dpgn
check hashes --check --hashes corpus/adri326-5dchess-notation.5dpgn
check fen --check --fen corpus/adri326-5dchess-notation.5dpgn
check hashes-rejected --check --hashes corpus/rejected/teln0-vs-shad-simple-no-queens.5dpgn
check missing-file --check corpus/no-such-file.5dpgn
check no-input --check
check index-corpus --db "$work/corpus.sqlite" --quiet --json corpus/adri326-5dchess-notation.5dpgn corpus/rejected/teln0-vs-shad-simple-no-queens.5dpgn
from=corpus-1.sqlite to=corpus.sqlite check index-club --db "$work/corpus.sqlite" --quiet --json corpus/club-games.5dpgn
from=corpus-2.sqlite to=corpus.sqlite check reindex-corpus --db "$work/corpus.sqlite" --quiet --json corpus/
# Packed inputs (the setup packs them), read by content.
check index-packed --db "$work/packed.sqlite" --quiet "$fixture/export.dat" "$fixture/adri.gz"
check check-packed --check "$fixture/export.dat"
from=packed-1.sqlite to=packed.sqlite check reindex-packed --db "$work/packed.sqlite" --quiet "$fixture/export.dat" "$fixture/adri.gz"
check index-missing --db "$work/missing.sqlite" --quiet corpus/no-such-file.5dpgn
expect index-missing "5d-index created a database with no input to read" absent "$work/missing.sqlite"
check index-not-a-database --db corpus/SOURCES.md --quiet corpus/adri326-5dchess-notation.5dpgn
check index-db-directory --db corpus --quiet corpus/adri326-5dchess-notation.5dpgn
check hashes-without-check --hashes corpus/adri326-5dchess-notation.5dpgn
check bad-jobs --jobs -1 corpus/adri326-5dchess-notation.5dpgn
check bad-option --check --no-such-option x
check both-outputs --check --hashes --fen x
# The version, with the schema and key versions of the databases it writes (a change of
# any of them updates these files on purpose).
check version --version
# Legal actions: small budgets keep these fast (a few positions come out unknown or >=N).
check verdict --check --verdict --verdict-budget 20000 corpus/adri326-5dchess-notation.5dpgn
check verdict-tiny-budget --check --verdict --verdict-budget 5 corpus/adri326-5dchess-notation.5dpgn
check verdict-rejected --check --verdict corpus/rejected/teln0-vs-shad-simple-no-queens.5dpgn
check count-actions --check --count-actions --cap 100 --verdict-budget 5000 corpus/adri326-5dchess-notation.5dpgn
# Listing the actions, checked by hand. Very Small - Open's start (white: Ka1 Rb1 Bc1 Nd1 Pa2;
# black: Na4 Bb4 Rc4 Kd4 Pd3): a3 (a4 is taken), Rb2 Rb3 Rxb4, Bb2 Ba3 Bd2, Nb2 Nc3; Kb2 is
# attacked by the knight: 9. After 1. Bb2 / Nxb2: Kxb2, Rc1, Rxb2, Nc3, Nxb2, Nd1>>x(0T1)d3, a3,
# and the double step onto the last rank promoting to each of the game's pieces (R, B, N): 10.
check list-actions-start --check --list-actions --at-action 0 tests/cli/very-small-open.5dpgn
check list-actions --check --list-actions tests/cli/very-small-open.5dpgn
check list-actions-past-end --check --list-actions --at-action 3 tests/cli/very-small-open.5dpgn
check at-action-alone --check --at-action 1 tests/cli/very-small-open.5dpgn
# --count-actions --at-action 2 counts those 10 alone.
check count-actions-at --check --count-actions --at-action 2 tests/cli/very-small-open.5dpgn
check count-actions-past-end --check --count-actions --at-action 3 tests/cli/very-small-open.5dpgn
check verdict-and-count --check --verdict --count-actions x
check verdict-budget-zero --check --verdict --verdict-budget 0 x
check verdict-without-check --verdict x

# 5d-query on the corpus database.
db=(--db "$fixture/corpus.sqlite")
query find-all "${db[@]}"
query find-player "${db[@]}" --player 'shad*' --sort -actions
query find-white-json "${db[@]}" --white CPU --format json
query find-csv "${db[@]}" --variant standard --date-from 2020.08.24 --format csv
query find-header "${db[@]}" --header 'event=*online*' --min-timelines 4
query find-count "${db[@]}" --player 'ana duarte' --count
query find-limit "${db[@]}" --sort date --limit 3 --offset 2
query find-moves "${db[@]}" --moves '1. e3 / e6 2. Nf3 / Nf6'
query find-moves-json "${db[@]}" --moves '1. e3 / f6 2. Qh5+ / g6' --format json
query find-state "${db[@]}" --state '[r*nbqk*bnr*/p*p*p*p*p*p*p*p*/8/8/8/8/P*P*P*P*P*P*P*P*/R*NBQK*BNR*:0:1:w]' --count
md5=""
selected find-state-md5 && md5=$(sqlite3 -readonly "$fixture/corpus.sqlite" 'SELECT final_md5 FROM games WHERE id = 4')
query find-state-md5 "${db[@]}" --state-md5 "$md5"
# A state inside a game (club game 3 after 5 actions): the final MD5s do not have it, --deep and
# a database of every state's MD5 do.
inside=""
if selected find-md5-inside find-md5-inside-deep find-md5-inside-all; then
  inside=$("$index" --check --hashes corpus/club-games.5dpgn | awk -F'\t' '$2 == 3 && $3 == 5 { print $4 }')
fi
query find-md5-inside "${db[@]}" --state-md5 "$inside"
query find-md5-inside-deep "${db[@]}" --state-md5 "$inside" --deep
query find-md5-inside-all --db "$fixture/all-md5.sqlite" --state-md5 "$inside"
query find-board "${db[@]}" --board '[r*nbqk*bnr*/p*p*p*p*1p*p*p*/4p3/8/8/4P3/P*P*P*P*1P*P*P*/R*NBQK*BNR*]'
# Patterns (docs/patterns.md): a white queen on h5 anywhere; then a black pawn on g6 on the same
# timeline a turn later; queens on h5 on neighbouring timelines at once; material and the state;
# a pattern that does not read, and a relative pin with nothing before it.
any='????????'
query find-pattern "${db[@]}" --pattern "$any/$any/$any/???????Q/$any/$any/$any/$any"
query find-pattern-related "${db[@]}" --pattern "$any/$any/$any/???????Q/$any/$any/$any/$any" --pattern "$any/$any/??????p?/$any/$any/$any/$any/$any:=:=+1:="
query find-pattern-neighbours "${db[@]}" --pattern "$any/$any/$any/???????Q/$any/$any/$any/$any" --pattern "$any/$any/$any/???????Q/$any/$any/$any/$any:=+1:=:=" --format json
query find-material-when "${db[@]}" --material 'present: Q=0, q=0' --when 'timelines>=3' --format csv
query find-pattern-error "${db[@]}" --pattern '8/8/8/8/8/8/8/7X'
query find-pattern-relative-first "${db[@]}" --pattern "$any/$any/$any/$any/$any/$any/$any/$any:=:*:*"
# Moves: white queens that branched with a capture (game 6's 5. (0T5)Qh5>>x(0T3)f7, action 9);
# a white bishop's branch with a queen on h5.
query find-move "${db[@]}" --move 'Q branch capture'
query find-move-pattern "${db[@]}" --move 'B branch' --pattern "$any/$any/$any/???????Q/$any/$any/$any/$any"
# Checks: a white queen's move that left black in check (a replay decides); black in check on
# two boards or more.
query find-move-check "${db[@]}" --move 'Q check'
query find-when-checks "${db[@]}" --when 'to-move=b, checks>=2'
query find-pgn "${db[@]}" --black 'Bruno Lima' --format 5dpgn
query find-canonical "${db[@]}" --white 'Carla Reis' --unique --format 5dpgn --canonical
query tree "${db[@]}" tree
query tree-depth "${db[@]}" tree --moves '1. e3' --depth 3
query tree-json "${db[@]}" tree --player 'ana duarte' --depth 2 --format json
query duplicates "${db[@]}" duplicates
query duplicates-json "${db[@]}" duplicates --format json
query export-unique "${db[@]}" duplicates --format json --export-unique "$work/unique.5dpgn"
# The exported collection holds each game once: indexed again, it has no duplicates.
check index-unique --db "$work/unique.sqlite" --quiet --json "$fixture/unique.5dpgn"
query unique-duplicates --db "$fixture/unique.sqlite" duplicates
query show "${db[@]}" show 14 --action 9
query show-json "${db[@]}" show 14 --action 9 --format json
# The game's text, as find --format 5dpgn writes it (the explorer's download).
query show-5dpgn "${db[@]}" show 14 --format 5dpgn
query show-5dpgn-action "${db[@]}" show 14 --format 5dpgn --action 3
query show-csv "${db[@]}" show 14 --format csv
# Verbose Matrix Notation (docs/5d-query.md): a game of one timeline; one where both players
# branch (white's +1, black's -1 and -2); Timeline Invasion's even start (+0 left of -0) with
# jumps onto other timelines' last boards ('<'); and a position asked of the whole game.
query show-vmn "${db[@]}" show 16 --format vmn
query show-vmn-branches "${db[@]}" show 4 --format vmn
query show-vmn-even "${db[@]}" show 10 --format vmn
query show-vmn-action "${db[@]}" show 10 --format vmn --action 3
# Boards pointed out (a pattern search's boards): +1 T4 w is drawn, 0 T7 w is not there yet.
query show-mark "${db[@]}" show 14 --action 8 --columns 3 --mark +1:4:w --mark 0:7:w
query bad-mark "${db[@]}" show 14 --mark +1:4
# serve's usage errors come before it listens anywhere.
query serve-bad-port "${db[@]}" serve --port 70000
query serve-bad-cache "${db[@]}" serve --cache-mb -1
query serve-bad-option "${db[@]}" serve --player ann
query serve-missing-db --db "$work/no-such.sqlite" serve --port 0
expect serve-missing-db "5d-query created a database" absent "$work/no-such.sqlite"
query stats "${db[@]}" stats
query stats-json "${db[@]}" stats --format json
query bad-moves "${db[@]}" --moves '1. e3 / f6 2. Qh9'
query illegal-moves "${db[@]}" --moves '1. e3 / f6 2. Qe4'
query bad-variant "${db[@]}" --variant chess960
query bad-state "${db[@]}" --state '[8/8/8:0:1:w'
query bad-md5 "${db[@]}" --state-md5 1234
query bad-date "${db[@]}" --date-from March
query bad-sort "${db[@]}" --sort name
query bad-command "${db[@]}" frobnicate
query show-missing "${db[@]}" show 999
query query-missing-db --db "$work/no-such.sqlite"
expect query-missing-db "5d-query created a database" absent "$work/no-such.sqlite"
query query-not-a-database --db corpus/SOURCES.md
query query-db-directory --db corpus
# Names in several scripts and spellings, partial and unreadable dates, odd results.
check index-names --db "$work/names.sqlite" --quiet --json tests/cli/names.5dpgn
names=(--db "$fixture/names.sqlite")
query names-all "${names[@]}"
query names-player-upper "${names[@]}" --player 'INÊS CARVALHO'
query names-player-accents "${names[@]}" --player 'PAVEL DVOŘÁK'
query names-player-greek "${names[@]}" --player 'ανδρέας*'
query names-march "${names[@]}" --date-from 2021.03 --date-to 2021.03
query names-from-2000 "${names[@]}" --date-from 2000 --count
query names-to-2100 "${names[@]}" --date-to 2100 --count
query names-iso-date "${names[@]}" --date-from 2021-03-01 --count
query names-sort-date "${names[@]}" --sort -date
query names-stats "${names[@]}" stats
query names-tree "${names[@]}" tree
# How games end: a 4x4 board where white mates (games 1 and 5; 5 claims black won), stalemates
# (2, called unfinished) or plays on (3, 4).
check index-endings --db "$work/endings.sqlite" --quiet --json tests/cli/endings.5dpgn
endings=(--db "$fixture/endings.sqlite")
query endings-checkmate "${endings[@]}" --ending checkmate
query endings-conflicts "${endings[@]}" --result-conflict --format csv
query endings-playable-count "${endings[@]}" --ending playable --player ann --count
query endings-json "${endings[@]}" --ending stalemate --format json
query endings-stats "${endings[@]}" stats
query endings-stats-json "${endings[@]}" stats --ending checkmate --format json

# Mates in one (tests/cli/tactics.5dpgn: the mates are worked out by hand there).
check index-tactics --db "$work/tactics.sqlite" --quiet --tactics tests/cli/tactics.5dpgn
tactics=(--db "$fixture/tactics.sqlite")
query tactics-missed-json "${tactics[@]}" --missed-mate --format json
query tactics-mate-in-one "${tactics[@]}" --mate-in-one
query tactics-without "${endings[@]}" --mate-in-one --count
query puzzles-only-move "${tactics[@]}" puzzles --only-move
query puzzles-json "${tactics[@]}" puzzles --format json --variant custom
query puzzles-bad-format "${tactics[@]}" puzzles --format csv
query endings-tree "${endings[@]}" tree --state '[k3/4/2K1/1Q2:0:1:w]'
query endings-show-mate "${endings[@]}" show 5
query endings-show-playable "${endings[@]}" show 3
query bad-ending "${endings[@]}" --ending mate
query ending-in-duplicates "${endings[@]}" duplicates --ending checkmate
# Issue 26: five games with the same moves between other players, on other dates, with results
# 1-0, 0-1, *, * and * are five games (tree: 1 white win, 1 black win); then copies of three of
# them (the same text; the same players in other spellings, the date with dashes; the same
# players without date or result), which statistics leave out and lists count.
check index-copies --db "$work/copies.sqlite" --quiet --json tests/cli/copies.5dpgn
copies=(--db "$fixture/copies.sqlite")
query copies-tree "${copies[@]}" tree --depth 2
query copies-stats "${copies[@]}" stats
query copies-find "${copies[@]}" --moves '1. e3 / e6 2. Nf3 / Nf6'
query copies-find-unique "${copies[@]}" --moves '1. e3 / e6 2. Nf3 / Nf6' --unique
query copies-duplicates "${copies[@]}" duplicates
# Values and options that would do nothing are refused.
query bad-limit "${db[@]}" --limit -5
query bad-month "${db[@]}" --date-from 2021.13
query bad-day "${db[@]}" --date-from 2021.02.30
query bad-top "${db[@]}" stats --top -1
query deep-alone "${db[@]}" --deep
query tree-count "${db[@]}" tree --count
query canonical-table "${db[@]}" --canonical
query count-limit "${db[@]}" --count --limit 3
query moves-unnumbered "${db[@]}" --moves 'e3 e6 Nf3 Nf6'
query board-without-marks "${db[@]}" --board '[rnbqkbnr/pppppppp/8/8/8/4P3/PPPP1PPP/RNBQKBNR]'
query query-version --version

if [ "$found" -eq 0 ]; then
  echo "no case $selected (tests/cli/run.sh --list names them)"
  exit 1
fi
exit "$failed"
