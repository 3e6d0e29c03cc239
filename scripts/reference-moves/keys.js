#!/usr/bin/env node
// The reference's side of build/tests/move_keys: for every game of a file of custom games in
// canonical movetext (`move_keys --custom`), plays its moves one by one with 5d-chess-js, its
// checkmate and stalemate detection off, and prints a line per state "GAME STATE MOVES CHECK
// DIGEST" (as move_keys does: the moves of the side to move on every board it may move from, the
// MD5 of their sorted keys), or with GAME:STATE the keys themselves. A game the reference cannot
// play on prints "GAME STATE error MESSAGE" and stops there.
//
// Usage: node keys.js --ref DIR FILE [GAME:STATE]   (DIR holds node_modules/5d-chess-js)
'use strict';

const fs = require('fs');
const path = require('path');

const args = process.argv.slice(2);
const refAt = args.indexOf('--ref');
const refDir = refAt >= 0 ? args.splice(refAt, 2)[1] : process.env.FIVED_REF_DIR;
if (!refDir || args.length < 1) {
  console.error('usage: node keys.js --ref DIR FILE [GAME:STATE]');
  process.exit(2);
}
const Chess = require(path.join(path.resolve(refDir), 'node_modules', '5d-chess-js'));
const md5 = require(path.join(path.resolve(refDir), 'node_modules', 'blueimp-md5'));
const [onlyGame, onlyState] = args[1] ? args[1].split(':').map(Number) : [0, -1];

const games = fs.readFileSync(args[0], 'utf8').split(/\n(?=\[Mode)/).filter((t) => t.trim());
games.forEach((text, i) => {
  const game = i + 1;
  if (onlyGame && game !== onlyGame) return;
  const lines = text.split('\n');
  const headers = lines.filter((l) => l.startsWith('[')).join('\n');
  // The reference numbers timelines -1, +1, +2, ... where the game writes -0, +0, +1, ...
  const even = /:[+-]0:/.test(headers);
  const label = (t) =>
    even ? (t < 0 ? `-${-t - 1}` : `+${t - 1}`) : t < 0 ? `-${-t}` : `+${t}`;
  const actions = [];
  for (const line of lines) {
    if (!/^\d+\./.test(line)) continue;
    for (const half of line.replace(/^\d+\.\s*/, '').split(' / ')) {
      if (half.trim()) actions.push(half.trim().split(/\s+/));
    }
  }
  let state = 0;
  try {
    const chess = new Chess();
    chess.import(headers + '\n\n', undefined, true);
    chess.skipDetection = true;
    for (state = 0; state <= actions.length; ++state) {
      if (onlyState < 0 || state === onlyState) {
        const keys = chess
          .moves('object', false, false, false)
          .map(
            (m) =>
              `${label(m.start.timeline)}T${m.start.turn}${m.start.player[0]} ${m.start.coordinate}` +
              ` -> ${label(m.end.timeline)}T${m.end.turn} ${m.end.coordinate} ` +
              `${m.promotion == null ? '' : String(m.promotion).toUpperCase()}`,
          )
          .sort();
        if (onlyState >= 0) {
          keys.forEach((k) => console.log(k));
          return;
        }
        console.log(`${game} ${state} ${keys.length} ${chess.inCheck ? 1 : 0} ${md5(keys.join('\n'))}`);
      }
      if (state === actions.length) break;
      for (const move of actions[state]) chess.move(move);
      chess.submit();
    }
  } catch (e) {
    if (onlyState < 0) console.log(`${game} ${state} error ${String(e).split('\n')[0].slice(0, 200)}`);
  }
});
