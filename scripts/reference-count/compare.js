#!/usr/bin/env node
// Compares the reference's action counts (count.js output) with `5d-index --check
// --count-actions` per position, after checking with `5d-index --check --hashes` that both sides
// stand on the same position (the reference's full-state MD5 of the position must equal ours).
//
// Usage: node compare.js --reference REF.tsv [--reference ...] --counts OURS.tsv
//                        --hashes HASHES.tsv [--oracle-jsonl FILE] [--list-agreements]
// --oracle-jsonl names the variants of oracle games (shared/oracle/public/oracle.jsonl: its
// `variant` per `file`) in the breakdown, where the reference only says "custom".
// Prints a summary (positions compared, agreeing, skipped by the reference, capped by us, whose
// hashes differ, missing on one side), a breakdown of the compared positions by kind, and every
// disagreement as FILE GAME ACTION OURS REFERENCE with the reference's description of the
// position. Exit status 1 when some position disagrees.
'use strict';

const fs = require('fs');

const options = {reference: [], counts: [], hashes: [], oracleJsonl: '', listAgreements: false};
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--reference') options.reference.push(argv[++i]);
  else if (argv[i] === '--counts') options.counts.push(argv[++i]);
  else if (argv[i] === '--hashes') options.hashes.push(argv[++i]);
  else if (argv[i] === '--oracle-jsonl') options.oracleJsonl = argv[++i];
  else if (argv[i] === '--list-agreements') options.listAgreements = true;
  else {
    console.error(`compare.js: unknown argument ${argv[i]}`);
    process.exit(2);
  }
}
if (!options.reference.length || !options.counts.length || !options.hashes.length) {
  console.error('usage: compare.js --reference REF.tsv --counts OURS.tsv --hashes HASHES.tsv');
  process.exit(2);
}

function readRows(files) {
  const rows = [];
  for (const file of files) {
    for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
      if (line) rows.push(line.split('\t'));
    }
  }
  return rows;
}

// Oracle games' variant names by file name (games/pub-000000.5dpgn -> pub-000000.5dpgn).
const oracleVariants = new Map();
if (options.oracleJsonl) {
  for (const line of fs.readFileSync(options.oracleJsonl, 'utf8').split('\n')) {
    if (!line) continue;
    const game = JSON.parse(line);
    oracleVariants.set(game.file.split('/').pop(), game.variant);
  }
}
const variantName = (file, referenceName) => {
  const oracleName = oracleVariants.get(file.split('/').pop());
  return oracleName ? `oracle "${oracleName}"` : referenceName;
};

const key = (file, game, action) => `${file}\t${game}\t${action}`;

const ours = new Map();
for (const [file, game, action, count] of readRows(options.counts)) {
  if (action !== 'error') ours.set(key(file, game, action), count);
}
const ourHashes = new Map();
const ourErrors = new Map();
for (const [file, game, action, value] of readRows(options.hashes)) {
  if (action === 'error') ourErrors.set(`${file}\t${game}`, value);
  else ourHashes.set(key(file, game, action), value);
}

const variantsCompared = new Set();
const summary = {positions: 0, compared: 0, agree: 0, disagree: 0, skipped: 0, capped: 0,
                 hashDiffers: 0, missing: 0, referenceErrors: 0};
const disagreements = [];
const problems = [];
const kinds = new Map();  // kind -> [compared, agree]
const tally = (kind, agrees) => {
  const entry = kinds.get(kind) || [0, 0];
  entry[0]++;
  if (agrees) entry[1]++;
  kinds.set(kind, entry);
};

for (const row of readRows(options.reference)) {
  const [file, game, action] = row;
  if (action === 'error') {
    summary.referenceErrors++;
    problems.push(`reference cannot import ${file} game ${game}: ${row[3]}`);
    continue;
  }
  summary.positions++;
  const [, , , refCount, refHash, nodes, timelines, tips, mandatory, check, promo, , variant] = row;
  const id = key(file, game, action);
  if (refCount === 'skipped') {
    summary.skipped++;
    continue;
  }
  if (!ours.has(id) || !ourHashes.has(id)) {
    summary.missing++;
    const error = ourErrors.get(`${file}\t${game}`);
    problems.push(`no count of ours for ${id.replace(/\t/g, ' ')}` +
                  (error ? ` (rejected: ${error})` : ''));
    continue;
  }
  if (ourHashes.get(id) !== refHash) {
    summary.hashDiffers++;
    problems.push(`hash differs at ${id.replace(/\t/g, ' ')}: ours ${ourHashes.get(id)}, ` +
                  `reference ${refHash}`);
    continue;
  }
  const ourCount = ours.get(id);
  if (ourCount.startsWith('>=') && Number(ourCount.slice(2)) <= Number(refCount)) {
    summary.capped++;
    continue;
  }
  summary.compared++;
  const agrees = ourCount === refCount;
  if (agrees) summary.agree++;
  else {
    summary.disagree++;
    disagreements.push([file, game, action, ourCount, refCount,
                        `variant=${variant} timelines=${timelines} playable_boards=${tips} ` +
                        `mandatory=${mandatory} in_check=${check} promotion_moves=${promo} ` +
                        `reference_states=${nodes}`]);
  }
  if (options.listAgreements && agrees) {
    console.log(['agree', file, game, action, refCount].join('\t'));
  }
  const n = Number(refCount);
  variantsCompared.add(variantName(file, variant));
  tally(`variant ${variantName(file, variant)}`, agrees);
  tally(Number(timelines) > 1 ? 'several timelines' : 'one timeline', agrees);
  tally(Number(tips) > 1 ? 'several playable boards' : 'one playable board', agrees);
  if (Number(timelines) > 1 || Number(tips) > 1) {
    tally('several timelines or playable boards', agrees);
  }
  if (Number(mandatory) > 1) tally('several mandatory boards', agrees);
  if (check === '1') tally('mover in check', agrees);
  if (promo === '1') tally('a promotion is legal', agrees);
  tally(n === 0 ? 'count 0' : n < 100 ? 'count 1-99' : n < 1000 ? 'count 100-999' :
        'count >= 1000', agrees);
}

console.log(`positions: ${summary.positions}, compared: ${summary.compared}, ` +
            `agree: ${summary.agree}, disagree: ${summary.disagree}, ` +
            `skipped by the reference (node limit): ${summary.skipped}, ` +
            `capped by 5d-index: ${summary.capped}, hashes differ: ${summary.hashDiffers}, ` +
            `missing in 5d-index output: ${summary.missing}, ` +
            `games the reference cannot import: ${summary.referenceErrors}`);
console.log(`compared positions by kind (compared / agree), ${variantsCompared.size} variants:`);
for (const kind of [...kinds.keys()].sort()) {
  const [compared, agree] = kinds.get(kind);
  console.log(`  ${kind}: ${compared} / ${agree}`);
}
for (const problem of problems) console.log(`note: ${problem}`);
for (const d of disagreements) {
  console.log(`DISAGREE\t${d[0]}\tgame ${d[1]}\taction ${d[2]}\tours ${d[3]}\treference ${d[4]}` +
              `\t${d[5]}`);
}
process.exit(summary.disagree > 0 ? 1 : 0);
