#!/usr/bin/env node
// Counts the legal actions of positions with the reference implementation 5d-chess-js 1.2.1,
// independently of this project's C++ search, so that `5d-index --check --count-actions` can be
// compared with it (compare.js). See README.md in this folder.
//
// For every game file given, the reference imports the game; for the position after every
// action k (k = 0 is the start) a depth-first search goes over the reference's own legal moves
// of every board the player to move may play (boardFuncs.moves with activeOnly = false and
// presentOnly = false: every tip of the mover's colour, mandatory or not), applies each with the
// reference's boardFuncs.move on a copy of the whole multiverse, and recurses. A node is an
// action when the reference would let it be submitted: no present timeline is left for the mover
// (boardFuncs.present is empty) and mateFuncs.checks says no royal piece of the mover can be
// captured. The search never prunes on checks or move order: it visits every state reachable by
// the reference's moves once (a state is the whole multiverse, keyed by a SHA-1 of its JSON, so
// timelines, their numbering and every board are part of it) and the count is the number of
// distinct submittable states. Positions whose search visits more than --node-limit states are
// reported as skipped.
//
// The reference's checkmate and stalemate flags are not used (its checkmate answer is wrong after
// its 60 s time-out); import runs with its detection off and the replay is checked instead by the
// per-action hashes (compare.js matches them with the project's `--hashes` output).
//
// Usage: node count.js --ref DIR [--node-limit N] [--actions A-B] [--give-up-after S] FILE...
//   --ref DIR           folder where `npm install 5d-chess-js@1.2.1` was run (or FIVED_REF_DIR)
//   --node-limit N      states visited per position before it is skipped (default 200000)
//   --actions A-B       only the positions after actions A..B (inclusive) of each game
//   --give-up-after S   after S positions of a game in a row were skipped, skip the rest of the
//                       game without searching; default never
// A position is also skipped without searching when its boards' moves surely combine into more
// states than the node limit (statesLowerBound). Positions skipped without a search show NODES 0.
// Every FILE holds one game (GAME is always 1, as `5d-index` numbers the games of a file).
// Output, one line per position, tab-separated:
//   FILE GAME ACTION COUNT|skipped HASH NODES TIMELINES TIPS MANDATORY CHECK PROMO MS VARIANT
// where HASH is the reference's full-state MD5 of the position, NODES the states visited,
// TIMELINES the timelines that exist, TIPS the boards the mover may play, MANDATORY those on the
// present, CHECK 1 when the mover is in check, PROMO 1 when some legal move promotes, MS the
// search's milliseconds, VARIANT the reference's name of the game's board. Games the
// reference cannot import print FILE GAME error MESSAGE.
'use strict';

const crypto = require('crypto');
const fs = require('fs');
const path = require('path');

function parseArgs(argv) {
  const options = {ref: process.env.FIVED_REF_DIR || '', nodeLimit: 200000, actions: null,
                   giveUpAfter: 0, files: []};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--ref') options.ref = argv[++i];
    else if (arg === '--node-limit') options.nodeLimit = Number(argv[++i]);
    else if (arg === '--give-up-after') options.giveUpAfter = Number(argv[++i]);
    else if (arg === '--actions') {
      const [from, to] = argv[++i].split('-').map(Number);
      options.actions = [from, to];
    } else if (arg === '--help' || arg === '-h') {
      const text = fs.readFileSync(__filename, 'utf8');
      process.stdout.write(text.slice(text.indexOf('// Usage'), text.indexOf("'use strict'")));
      process.exit(0);
    } else options.files.push(arg);
  }
  if (!options.ref) {
    console.error('count.js: give --ref DIR (or FIVED_REF_DIR), the folder holding ' +
                  'node_modules/5d-chess-js (npm install 5d-chess-js@1.2.1)');
    process.exit(2);
  }
  return options;
}

const options = parseArgs(process.argv.slice(2));
const Chess = require(path.join(path.resolve(options.ref), 'node_modules', '5d-chess-js'));
const probe = new Chess();
const boardFuncs = probe.raw.boardFuncs;
const mateFuncs = probe.raw.mateFuncs;

// A state is the position plus the boards the moves added: the reference's boardFuncs.move only
// appends boards (a new board on the source timeline, on the target timeline or on a new
// timeline; castling's rook and en passant write into the source's new board), so the key is
// every timeline's length and the boards beyond the position's, with their timeline and turn.
function stateKey(fullBoard, rootLengths) {
  const added = [];
  for (let l = 0; l < fullBoard.length; l++) {
    const timeline = fullBoard[l];
    if (!timeline) continue;
    const from = l < rootLengths.length ? rootLengths[l] : 0;
    added.push(l, timeline.length);
    for (let t = from; t < timeline.length; t++) added.push(t, timeline[t]);
  }
  return crypto.createHash('sha1').update(JSON.stringify(added)).digest('base64');
}

function referenceHash(fullBoard) {
  probe.rawBoard = fullBoard;
  return probe.hash;
}

class NodeLimit extends Error {}

// The distinct submittable states reachable from `root` by the mover's moves.
function countActions(root, actionNum, promotionPieces, nodeLimit) {
  const seen = new Set();
  const actions = new Set();
  const rootLengths = root.map((timeline) => (timeline ? timeline.length : 0));
  const visit = (fullBoard) => {
    const key = stateKey(fullBoard, rootLengths);
    if (seen.has(key)) return;
    seen.add(key);
    if (seen.size > nodeLimit) throw new NodeLimit();
    if (boardFuncs.present(fullBoard, actionNum).length === 0 &&
        !mateFuncs.checks(fullBoard, actionNum, true)) {
      actions.add(key);
    }
    const moves = boardFuncs.moves(fullBoard, actionNum, false, false, false, promotionPieces);
    for (const move of moves) {
      const next = boardFuncs.copy(fullBoard);
      boardFuncs.move(next, move);
      visit(next);
    }
  };
  visit(boardFuncs.copy(root));
  return {count: actions.size, nodes: seen.size};
}

// A lower bound of the states the search would visit, to skip hopeless positions without
// searching (it decides nothing else). Physical moves (target on the source board) and branching
// jumps (target a board that is not its timeline's tip) of different boards combine freely: each
// choice of at most one such move per board is a state of its own, and neither kind takes away
// another board's moves of these kinds. So the product of (1 + such moves) over the boards is
// reached.
function statesLowerBound(fullBoard, actionNum, promotionPieces) {
  const perBoard = new Map();
  for (const [from, to] of boardFuncs.moves(fullBoard, actionNum, false, false, false,
                                             promotionPieces)) {
    const physical = from[0] === to[0] && from[1] === to[1];
    const branching = fullBoard[to[0]] && fullBoard[to[0]].length - 1 !== to[1];
    if (!physical && !branching) continue;
    perBoard.set(from[0], (perBoard.get(from[0]) || 0) + 1);
  }
  let product = 1;
  for (const moves of perBoard.values()) product *= 1 + moves;
  return product;
}

function describe(fullBoard, actionNum, promotionPieces) {
  let timelines = 0;
  let tips = 0;
  for (const timeline of fullBoard) {
    if (!timeline) continue;
    timelines++;
    if ((timeline.length - 1) % 2 === actionNum % 2) tips++;
  }
  const mandatory = boardFuncs.present(fullBoard, actionNum).length;
  const check = mateFuncs.checks(fullBoard, actionNum, true) ? 1 : 0;
  const moves = boardFuncs.moves(fullBoard, actionNum, false, false, false, promotionPieces);
  const promo = moves.some((move) => move[1] && move[1][4] !== undefined) ? 1 : 0;
  return [timelines, tips, mandatory, check, promo];
}

function countFile(file) {
  const text = fs.readFileSync(file, 'utf8');
  const game = 1;  // every input file holds one game
  const chess = new Chess();
  chess.skipDetection = true;  // no checkmate search while importing (see the header)
  try {
    chess.import(text, undefined, true);
  } catch (err) {
    process.stdout.write([file, game, 'error', String(err.message).replace(/\s+/g, ' ')]
      .join('\t') + '\n');
    return;
  }
  const promotionPieces = chess.rawPromotionPieces;
  const history = chess.rawBoardHistory;
  let [from, to] = options.actions || [0, history.length - 1];
  to = Math.min(to, history.length - 1);
  let skippedInARow = 0;
  for (let k = from; k <= to; k++) {
    const board = history[k];
    const actionNum = chess.rawStartingAction + k;
    const start = Date.now();
    let count = 'skipped';
    let nodes = 0;
    if ((options.giveUpAfter === 0 || skippedInARow < options.giveUpAfter) &&
        statesLowerBound(board, actionNum, promotionPieces) <= options.nodeLimit) {
      try {
        ({count, nodes} = countActions(board, actionNum, promotionPieces, options.nodeLimit));
        skippedInARow = 0;
      } catch (err) {
        if (!(err instanceof NodeLimit)) throw err;
        nodes = options.nodeLimit;
        skippedInARow++;
      }
    }
    const ms = Date.now() - start;
    const fields = [file, game, k, count, referenceHash(board), nodes,
                    ...describe(board, actionNum, promotionPieces), ms, chess.metadata.board];
    process.stdout.write(fields.join('\t') + '\n');
  }
}

for (const file of options.files) countFile(file);
