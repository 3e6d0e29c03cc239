#!/usr/bin/env bash
# Counting legal actions to a cap, ours and ftxi's side by side (issue 30): the final position of
# each of GAMES random games (tests/bench/gen_games, jump-heavy, many timelines, variants ftxi reads
# by name), counted by `5d-index --check --count-actions --at-action K --cap CAP` and by ftxi's
# `5dtools count CAP`, each timed as a whole process (start, replay, count) in CPU seconds (user +
# system, steadier than the clock on a shared machine). Prints one line per
# position (variant, timelines, both counts, both times) and a summary: the total and median times,
# and on how many positions ours took longer. Not part of the tests.
#
# Usage: scripts/bench-actions.sh [GAMES] [SEED] [CAP] [BUILD_DIR]
#   FTXI=/tmp/ftxi/build/5dtools (ftxi built from its public repository with cmake -DTOOLS=ON;
#   see scripts/ftxi-actions/README.md). Defaults: 60 games, seed 1, cap 10000, build/.
#
# Games that under-promote are left out and the others get [Promotions "Q"] (ftxi promotes to a
# queen only, and replays nothing else); odd timelines are written
# without their '+' for ftxi. Counts may still differ where the engines count differently
# (docs/differential.md: two orders of branches reaching one state count once here); a position
# ftxi cannot read shows '-' and is left out of the comparison.
set -euo pipefail

games=${1:-60}
seed=${2:-1}
cap=${3:-10000}
build=${4:-build}
ftxi=${FTXI:-/tmp/ftxi/build/5dtools}
index="$build/indexer/5d-index"
gen="$build/tests/gen_games"
for tool in "$index" "$gen" "$ftxi"; do
  if [[ ! -x $tool ]]; then
    echo "bench-actions: $tool is missing (build it first; FTXI names ftxi's 5dtools)" >&2
    exit 2
  fi
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$gen" --games "$games" --seed "$seed" --min-actions 20 --max-actions 60 --jump-bias 0.6 \
  --max-timelines 30 --variants "Standard,Standard - Turn Zero,Very Small - Open" \
  --out "$work/games.5dpgn" >/dev/null

python3 - "$work" "$index" "$ftxi" "$cap" <<'EOF'
import os, re, resource, statistics, subprocess, sys

work, index, ftxi, cap = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
text = open(os.path.join(work, "games.5dpgn"), encoding="utf-8").read()
games = [g.strip() for g in re.split(r"\n(?=\[Event )", text) if g.strip()]


def cpu():
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def timed(args, stdin=None):
    """The command's standard output and the CPU seconds it used (user + system): on a machine
    shared with other work, CPU time is steadier than time on the clock."""
    start = cpu()
    done = subprocess.run(args, input=stdin, capture_output=True, text=True, timeout=600)
    return done.stdout, cpu() - start


rows = []
print(f"{'game':>4} {'variant':<22} {'lines':>5} {'ours':>8} {'s':>7} {'ftxi':>8} {'s':>7}")
for i, game in enumerate(games):
    lines = [l for l in game.splitlines() if not l.startswith("[Promotions")]
    headers = [l for l in lines if l.startswith("[")]
    moves = [l for l in lines if l.strip() and not l.startswith("[")]
    if re.search(r"=[^Q]", "\n".join(moves)):
        continue  # an under-promotion, which ftxi cannot replay
    body = "\n".join(headers + ['[Promotions "Q"]', ""] + moves) + "\n"
    variant = re.search(r'\[Board "([^"]*)"\]', game).group(1)
    path = os.path.join(work, f"g{i}.5dpgn")
    with open(path, "w", encoding="utf-8") as f:
        f.write(body)
    hashes, _ = timed([index, "--check", "--hashes", path])
    actions = hashes.strip().splitlines()[-1].split("\t")[2]
    out, ours_s = timed([index, "--check", "--count-actions", "--at-action", actions,
                         "--cap", cap, path])
    fields = out.strip().split("\t")
    ours = fields[3] if len(fields) == 4 else "error"
    fen, _ = timed([index, "--check", "--fen", path])
    timelines = len(set(re.findall(r":([-+]?\d+):\d+:[wb]\]", fen)))
    out, ftxi_s = timed([ftxi, "count", cap], re.sub(r"\(\+(\d+)T", r"(\1T", body))
    found = re.search(r"totally (\d+)", out)
    theirs = found.group(1) if found else "-"
    rows.append((ours_s, ftxi_s if found else None))
    print(f"{i:>4} {variant:<22} {timelines:>5} {ours:>8} {ours_s:>7.3f} {theirs:>8} "
          f"{ftxi_s if found else float('nan'):>7.3f}")

both = [(o, t) for o, t in rows if t is not None]
ours_all = [o for o, _ in rows]
print(f"positions: {len(rows)}, read by ftxi: {len(both)}")
print(f"ours: total {sum(ours_all):.2f} s, median {statistics.median(ours_all):.3f} s, "
      f"max {max(ours_all):.3f} s")
if both:
    theirs_all = [t for _, t in both]
    print(f"ftxi: total {sum(theirs_all):.2f} s, median {statistics.median(theirs_all):.3f} s, "
          f"max {max(theirs_all):.3f} s")
    print(f"on the positions ftxi reads: ours total {sum(o for o, _ in both):.2f} s; "
          f"ours slower on {sum(1 for o, t in both if o > t)} of {len(both)}")
EOF
