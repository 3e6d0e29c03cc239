#!/usr/bin/env bash
# Fault injection, the full sweep: the tests Faults.* of tests/indexer/fault_test.cc with POINTS
# faults per sweep (default 240: 60 each of opens, reads, writes and syncs, spread over every call
# of a clean run) over an ingest of corpus/ and over a merge of two shards of it. Prints each
# sweep's figures; exit status 0 when every point held. ctest runs 16 points per sweep.
#
#   scripts/fault-sweep.sh BUILD_DIR [POINTS]
set -u
build=$1
points=${2:-240}
FIVED_FAULT_POINTS=$points "$build/tests/indexer_tests" --gtest_filter='Faults.*' \
  > "${TMPDIR:-/tmp}/fault-sweep.$$" 2>&1
status=$?
grep -e '^\[ figures \]' -e 'Failure' -e '^\[  FAILED' -e '^\[  PASSED' "${TMPDIR:-/tmp}/fault-sweep.$$"
rm -f "${TMPDIR:-/tmp}/fault-sweep.$$"
exit $status
