#!/usr/bin/env python3
"""Computes the golden key values of tests/core/fen_test.cc independently of the C++ code.

It builds the byte layouts that core/keys.h documents from 5DFEN text with its own small parser
and hashes them with the xxhsum tool (Debian package xxhash), so a change in the C++ key code
cannot silently change the expected values too."""
import struct
import subprocess

CODES = {'P': 1, 'W': 2, 'K': 3, 'C': 4, 'Q': 5, 'Y': 6, 'S': 7, 'N': 8, 'R': 9, 'B': 10,
         'U': 11, 'D': 12}


def board_bytes(pieces, width, height):
    grid = []
    for text in pieces.split('/'):
        row, i = [], 0
        while i < len(text):
            if text[i].isdigit():
                j = i
                while j < len(text) and text[j].isdigit():
                    j += 1
                row += [0] * int(text[i:j])
                i = j
                continue
            letter = text[i]
            code = CODES[letter.upper()] | (0x10 if letter.islower() else 0)
            i += 1
            if i < len(text) and text[i] == '*':
                if letter.upper() in 'PWKR':
                    code |= 0x20
                i += 1
            row.append(code)
        grid.append(row)
    out = bytes([width, height])
    for row in reversed(grid):  # rank 1 first
        out += bytes(row)
    return out


def xxh3(data):
    result = subprocess.run(['xxhsum', '-H3', '-'], input=data, capture_output=True, check=True)
    return int(result.stdout.split()[-1], 16)


def placed(content, timeline, half_turn):
    return xxh3(struct.pack('<Qii', content, timeline, half_turn))


STANDARD = 'r*nbqk*bnr*/p*p*p*p*p*p*p*p*/8/8/8/8/P*P*P*P*P*P*P*P*/R*NBQK*BNR*'
content = xxh3(board_bytes(STANDARD, 8, 8))
print(f'standard board key      0x{content:016x}')
print(f'standard state key      0x{placed(content, 0, 2):016x}')
# Two Timelines: -0 is internal timeline -1, +0 is 0; both at T1 white (half-turn 2).
print(f'two timelines state key 0x{(placed(content, -1, 2) + placed(content, 0, 2)) % 2**64:016x}')
