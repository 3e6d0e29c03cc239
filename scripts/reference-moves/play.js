#!/usr/bin/env node
// Games played by the reference itself, to compare engines on positions our own generator would
// not reach: every move chosen at random among 5d-chess-js's legal moves of the present boards
// (a jump with probability JUMP, default 0.2), an action submitted when the reference allows it
// (at random, or after 8 moves), tried again up to 6 times when it gets stuck. Prints one game as
// the reference exports it; its seed also picks the variant (the 7 the reference knows).
// The reference's check detection can take minutes and gigabytes on many timelines: run each game
// in its own process under a time limit (run.sh's README shows how).
//
// Usage: node play.js --ref DIR SEED ACTIONS
'use strict';

const path = require('path');

const args = process.argv.slice(2);
const refAt = args.indexOf('--ref');
const refDir = refAt >= 0 ? args.splice(refAt, 2)[1] : process.env.FIVED_REF_DIR;
if (!refDir || args.length !== 2) {
  console.error('usage: node play.js --ref DIR SEED ACTIONS');
  process.exit(2);
}
const Chess = require(path.join(path.resolve(refDir), 'node_modules', '5d-chess-js'));
const seed = Number(args[0]);
const maxActions = Number(args[1]);
const jump = Number(process.env.JUMP || 0.2);

// A linear congruential generator: reproducible, and enough to pick moves.
let state = (seed * 2654435761) % 2147483648;
const random = () => {
  state = (state * 1103515245 + 12345) % 2147483648;
  return state / 2147483648;
};
const variants = ['standard', 'defended_pawn', 'half_reflected', 'princess', 'turn_zero',
  'two_timelines', 'reversed_royalty'];

const chess = new Chess();
chess.reset(variants[seed % variants.length]);
for (let k = 0; k < 5; ++k) random();
for (let actions = 0; actions < maxActions; ++actions) {
  let submitted = false;
  for (let attempt = 0; attempt < 6 && !submitted; ++attempt) {
    let moved = 0;
    for (let step = 0; step < 40; ++step) {
      if (chess.submittable() && (random() < 0.5 || moved > 8)) {
        chess.submit();
        submitted = true;
        break;
      }
      let moves = chess.moves('object', true, true, false);
      if (moves.length === 0) break;
      const jumps = moves.filter(
        (m) => m.start.timeline !== m.end.timeline || m.start.turn !== m.end.turn);
      if (jumps.length && random() < jump) moves = jumps;
      try {
        chess.move(moves[Math.floor(random() * moves.length)]);
        ++moved;
      } catch (e) {
        break;
      }
    }
    while (!submitted && chess.undoable() && chess.moveBuffer.length > 0) chess.undo();
  }
  if (!submitted) break;
}
process.stdout.write(chess.export('5dpgn').trim() + '\n');
