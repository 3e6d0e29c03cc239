#!/usr/bin/env python3
"""Legal actions against ftxi's 5dtools (issue 30): for every position of every game of a
collection, the actions `5dtools all` lists and the actions `5d-index --check --list-actions`
lists are compared by the states they lead to, as our engine replays them. Comparing states rather
than texts takes care of notation (ftxi writes `(1T1)Kc3c2`, `a2a4`; we write `(+1T1)Kc2`,
`a4=Q`) and of the order of moves, and shows what each side counts apart.

Usage: compare.py --ftxi 5DTOOLS --index 5D-INDEX --games FILE [--cap N] [--every K]
                  [--limit-positions P] [--out DIR] [--policy NAME]

FILE holds games in canonical 5dpgn as gen_games writes them (one action per " / " half of a
numbered line, white first), of variants ftxi reads by name (Standard, Standard - Turn Zero,
Very Small - Open; all odd, so "(+1T2)" goes to ftxi as "(1T2)", which it wants). Every game gets a [Promotions "Q"] header: ftxi promotes to a queen only, as
the official game does, where we otherwise offer every piece of the game (RULES.md).

For each position (the game cut after action k, every K-th k): ftxi's list (capped at N), ours
(capped at N), then each listed action appended to the position and replayed by 5d-index
--check --hashes. A position agrees when both lists reach the same set of states. Printed: the
summary, the kinds of difference, and each position that disagrees (its game text, the actions
only one side reaches). --policy names ftxi's search (`5dtools all POLICY N`: balanced, its
default, naive, stable, iterative, mixed). Nothing here is part of the build or of the tests.
"""
import argparse
import collections
import os
import re
import subprocess
import sys
import tempfile


def read_games(path):
    """Yields (headers text, [action texts]) per game."""
    text = open(path, encoding="utf-8").read()
    for chunk in re.split(r"\n(?=\[Event )", text):
        lines = chunk.strip().splitlines()
        headers = [l for l in lines if l.startswith("[")]
        moves = [l for l in lines if not l.startswith("[") and l.strip()]
        actions = []
        for line in moves:
            line = re.sub(r"\s*(\*|1-0|0-1|1/2-1/2)\s*$", "", line)
            line = re.sub(r"^\d+b?\.\s*", "", line)
            if not line:
                continue
            for half in line.split(" / "):
                if half.strip():
                    actions.append(half.strip())
        if headers:
            yield "\n".join(headers), actions


def game_text(headers, actions):
    """A game of `actions` (white first), with queen-only promotion."""
    out = [h for h in headers.splitlines() if not h.startswith("[Promotions")]
    out.append('[Promotions "Q"]')
    out.append("")
    line = ""
    for i, action in enumerate(actions):
        if i % 2 == 0:
            if line:
                out.append(line)
            line = f"{i // 2 + 1}. {action}"
        else:
            line += f" / {action}"
    if line:
        out.append(line)
    return "\n".join(out) + "\n\n"


def for_ftxi(text):
    """A game of ours as ftxi reads it: "(+1T2)" is a timeline of an even game to ftxi, which wants
    "(1T2)" in odd ones (every game here is odd)."""
    return re.sub(r"\(\+(\d+)T", r"(\1T", text)


def print_summary(title, kinds, report):
    """The summary line, the count of each kind, then the report's paragraphs."""
    print(title)
    for kind, count in sorted(kinds.items()):
        print(f"  {kind}: {count}")
    print()
    print("\n".join(report))


def run_ftxi(ftxi, text, cap, policy):
    """ftxi's actions of the game's final position, or None when it cannot read it."""
    try:
        done = subprocess.run([ftxi, "all", *([policy] if policy else []), str(cap)],
                              input=for_ftxi(text), capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        return None
    actions = []
    for line in done.stdout.splitlines():
        if line.startswith("Summary:"):
            return actions
        if line.strip():
            actions.append(line.strip())
    return None


def index_lines(index, args, text, tmp, name):
    path = os.path.join(tmp, name)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    done = subprocess.run([index, "--check", *args, path], capture_output=True, text=True)
    return [line.split("\t") for line in done.stdout.splitlines()]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ftxi", required=True)
    parser.add_argument("--index", required=True)
    parser.add_argument("--games", required=True)
    parser.add_argument("--cap", type=int, default=2000)
    parser.add_argument("--every", type=int, default=1)
    parser.add_argument("--limit-positions", type=int, default=0)
    parser.add_argument("--out", default="")
    # ftxi's search: balanced (its default), naive, stable, iterative or mixed.
    parser.add_argument("--policy", default="")
    opts = parser.parse_args()
    tmp = opts.out or tempfile.mkdtemp(prefix="ftxi-actions-")
    os.makedirs(tmp, exist_ok=True)

    positions = []  # (headers, prefix actions)
    for headers, actions in read_games(opts.games):
        for k in range(0, len(actions) + 1, opts.every):
            positions.append((headers, actions[:k]))
    if opts.limit_positions:
        positions = positions[: opts.limit_positions]

    # Ours: every position as a game of its own, listed at its end.
    ours = collections.defaultdict(list)
    ours_capped = set()
    text = "".join(game_text(h, a) for h, a in positions)
    for fields in index_lines(opts.index, ["--list-actions", "--cap", str(opts.cap)], text, tmp,
                              "positions.5dpgn"):
        if len(fields) >= 5 and fields[3] == "action":
            ours[int(fields[1]) - 1].append(fields[4])
        elif len(fields) >= 5 and fields[3] == "count" and fields[4].startswith(">="):
            ours_capped.add(int(fields[1]) - 1)

    # ftxi's.
    theirs = {}
    for i, (headers, prefix) in enumerate(positions):
        theirs[i] = run_ftxi(opts.ftxi, game_text(headers, prefix), opts.cap, opts.policy)

    # Every listed action replayed after its position: the state each reaches.
    probes = []  # (position, side, action)
    for i in range(len(positions)):
        for action in ours[i]:
            probes.append((i, "ours", action))
        for action in theirs[i] or []:
            probes.append((i, "ftxi", action))
    text = "".join(game_text(positions[i][0], positions[i][1] + [a]) for i, _, a in probes)
    final = {}
    errors = {}
    for fields in index_lines(opts.index, ["--hashes"], text, tmp, "probes.5dpgn"):
        game = int(fields[1]) - 1
        if fields[2] == "error":
            errors[game] = fields[3]
        else:
            final[game] = fields[3]  # the last state's line wins

    by_position = collections.defaultdict(list)
    for p, (i, _, _) in enumerate(probes):
        by_position[i].append(p)
    kinds = collections.Counter()
    report = []
    for i, (headers, prefix) in enumerate(positions):
        if theirs[i] is None:
            kinds["ftxi cannot read the position"] += 1
            continue
        if i in ours_capped or len(theirs[i]) >= opts.cap:
            kinds["capped"] += 1
            continue
        mine = {}
        other = collections.defaultdict(list)
        illegal = []
        for p in by_position[i]:
            _, side, action = probes[p]
            if p in errors or p not in final:
                illegal.append((side, action, errors.get(p, "no state")))
                continue
            if side == "ours":
                mine[final[p]] = action
            else:
                other[final[p]].append(action)
        only_ours = [mine[s] for s in mine if s not in other]
        only_theirs = [other[s][0] for s in other if s not in mine]
        repeated = sum(len(v) - 1 for v in other.values())
        if not only_ours and not only_theirs and not illegal:
            kinds["agree" + (" (ftxi lists some state twice)" if repeated else "")] += 1
            if repeated:
                report.append(f"position {i}: ftxi lists {len(theirs[i])} actions reaching "
                              f"{len(other)} states; we list {len(mine)}:\n"
                              + game_text(headers, prefix)
                              + "".join(f"  same state: {' | '.join(v)}\n"
                                        for v in other.values() if len(v) > 1))
            continue
        kinds["disagree"] += 1
        report.append(f"position {i}: ours {len(mine)} states, ftxi {len(other)}:\n"
                      + game_text(headers, prefix)
                      + "".join(f"  only ours: {a}\n" for a in only_ours)
                      + "".join(f"  only ftxi: {a}\n" for a in only_theirs)
                      + "".join(f"  {side}'s, rejected by our replay: {a}: {e}\n"
                                for side, a, e in illegal))
    print_summary(f"{len(positions)} positions, {len(probes)} actions replayed", kinds, report)


if __name__ == "__main__":
    sys.exit(main())
