#!/usr/bin/env bash
# Replay benchmark: games and actions per second on one core, full validation.
# Usage: scripts/bench-replay.sh [FILE] [ROUNDS]; prints the machine and the figures.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x build/tests/bench_replay ] || { echo "build first: make build" >&2; exit 2; }
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(uname -sr)"
exec build/tests/bench_replay "$@"
