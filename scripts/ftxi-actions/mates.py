#!/usr/bin/env python3
"""The tactics search's answers against ftxi's 5dtools (scripts/diff-mates.sh).

Usage: mates.py --ftxi 5DTOOLS --mates FILE      (games mate_games wrote: each ends with a mate)
       mates.py --ftxi 5DTOOLS --none FILE [--cap N]
                                   (games mate_games --none wrote: each ends where we proved that
                                   the side to move has no mate in one)

--mates: `5dtools checkmate` on each game. "Not checkmate: ACTION" names an escape and would prove
the claim wrong; "Checkmate" agrees (ftxi's default search can miss actions, so that is the
weaker evidence).

--none: ftxi lists every action of the position with its naive search (`5dtools all naive`;
positions where its default search counts N actions or more are counted, not tried: the naive
listing can take minutes on those), then each action is played after the
position and `5dtools checkmate` asked about it; where the default search says "Checkmate", the
naive one (`checkmate naive`) is asked again. A checkmate that both say is a mate in one we denied.

Prints the summary and every game where ftxi disagrees. Nothing here is part of the tests.
"""
import argparse
import collections
import re
import subprocess

from compare import for_ftxi, print_summary


def games_of(path):
    text = open(path, encoding="utf-8").read()
    return [g.strip() for g in re.split(r"\n(?=\[Event )", text) if g.strip()]




def run_lines(ftxi, args, text):
    """ftxi's lines of output and of errors ([] and ["no answer in 120 s"] when it takes longer)."""
    try:
        done = subprocess.run([ftxi, *args], input=text, capture_output=True, text=True,
                              timeout=120)
    except subprocess.TimeoutExpired:
        return [], ["no answer in 120 s"]
    return done.stdout.strip().splitlines(), done.stderr.strip().splitlines()


def run(ftxi, args, text):
    """ftxi's last line of output, or its first line of errors prefixed with "error: "."""
    lines, errors = run_lines(ftxi, args, text)
    if lines and not errors:
        return lines[-1]
    return "error: " + re.sub(r"mv:.*", "", errors[0] if errors else "no output")[:60]


def actions_played(game):
    """How many actions the game's movetext holds (white moves first in every game here)."""
    count = 0
    for line in game.splitlines():
        if line.startswith("[") or not line.strip():
            continue
        line = re.sub(r"^\d+b?\.\s*", "", line)
        count += len([half for half in line.split(" / ") if half.strip()])
    return count


def with_action(game, action):
    """The game with `action` played next, laid out as its movetext is."""
    played = actions_played(game)
    if played % 2 == 0:
        return f"{game}\n{played // 2 + 1}. {action}"
    return f"{game} / {action}"


def check_mates(ftxi, path, kinds, report):
    for game in games_of(path):
        answer = run(ftxi, ["checkmate"], for_ftxi(game + "\n"))
        if answer == "Checkmate":
            kinds["checkmate (agrees)"] += 1
        elif answer.startswith("Not checkmate") or answer == "Stalemate":
            kind = "stalemate" if answer == "Stalemate" else "not checkmate"
            kinds[kind] += 1
            report.append(f"{kind}: ftxi says {answer}\n{game}\n")
        else:
            kinds[f"ftxi gives no answer: {answer}"] += 1


def check_none(ftxi, path, cap, kinds, report):
    for game in games_of(path):
        # ftxi's naive listing can take minutes on a position of many actions, whatever its cap:
        # its default search counts them first.
        counted = run(ftxi, ["count", str(cap)], for_ftxi(game + "\n"))
        if not counted.startswith("Summary:"):
            kinds["ftxi cannot read the position"] += 1
            continue
        if int(re.sub(r"\D", "", counted) or 0) >= cap:
            kinds[f"{cap} actions or more (not tried)"] += 1
            continue
        listed = []
        for line in run_lines(ftxi, ["all", "naive", str(2 * cap)], for_ftxi(game + "\n"))[0]:
            if line.startswith("Summary:"):
                break
            if line.strip():
                listed.append(line.strip())
        else:
            kinds["ftxi cannot read the position"] += 1
            continue
        if len(listed) >= 2 * cap:
            kinds[f"{cap} actions or more (not tried)"] += 1
            continue
        mates = []
        for action in listed:
            text = for_ftxi(with_action(game, action) + "\n")
            answer = run(ftxi, ["checkmate"], text)
            if answer == "Checkmate":
                answer = run(ftxi, ["checkmate", "naive"], text)
            if answer == "Checkmate":
                mates.append(action)
        kinds["positions tried"] += 1
        kinds["actions tried"] += len(listed)
        if mates:
            kinds["a mate in one we denied"] += 1
            report.append(f"ftxi mates with {mates[0]} ({len(mates)} in all):\n{game}\n")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ftxi", required=True)
    claims = parser.add_mutually_exclusive_group(required=True)
    claims.add_argument("--mates")
    claims.add_argument("--none")
    parser.add_argument("--cap", type=int, default=100)
    opts = parser.parse_args()
    kinds = collections.Counter()
    report = []
    if opts.mates:
        check_mates(opts.ftxi, opts.mates, kinds, report)
        title = f"{len(games_of(opts.mates))} mates in one"
    else:
        check_none(opts.ftxi, opts.none, opts.cap, kinds, report)
        title = f"{len(games_of(opts.none))} positions proved to have no mate in one"
    print_summary(title, kinds, report)


if __name__ == "__main__":
    main()
