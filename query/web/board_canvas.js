// Boards drawn on canvases, for the picture of the multiverse (picture.js): a board of the
// pictures' JSON ("rnbqkbnr/pppppppp/...": ranks from the highest, one character a square, '.'
// empty, uppercase white) with its squares, its pieces (the classical ones as Unicode chess
// symbols, the 5D-only ones as their letter in a disc) and, when asked, file and rank labels, as
// query/picture.h draws them in SVG.
//
// fived.boardPainter(ratio) (ratio: device pixels a CSS pixel) returns {draw, release}:
//   draw(board, side, coordinates) draws board.squares at `side` CSS pixels a square on
//     board.canvas, first giving the board a canvas (board.canvas, with board.context) inside
//     board.element: one that release gave back, or a new one. Labels when `coordinates`.
//   release(board) takes the board's canvas out of its element and keeps it, with its context,
//     for a board drawn next; board.canvas is null after.
//   warm(side) draws the pieces at `side` CSS pixels a square ahead of the first board, so
//     that the browser loads the pieces' font before a picture waits for it (3 ms in a new
//     headless Chromium); a board drawn at another size draws them again.
// The boards of a game are mostly copies of one another, so what they share is drawn once for
// each size of square and copied: each piece, and each rank with its squares; a board is one copy
// a rank, most of them drawn already.
//
// A board is drawn on one offscreen canvas, whose bitmap is handed over to the board's canvas
// (a "bitmaprenderer" context, which only shows bitmaps): a canvas of its own with a 2d context
// costs the browser about half a millisecond more a board when it is made and first drawn
// (measured in headless Chromium, 50 boards of 160 pixels: 27 ms against 6.5), which the first
// view of a game of many timelines pays for each of the tens of boards in view.
'use strict';

fived.boardPainter = (ratio) => {
  const {el} = fived;
  const kSymbols = {
    K: '♔', Q: '♕', R: '♖', B: '♗', N: '♘', P: '♙',
    k: '♚', q: '♛', r: '♜', b: '♝', n: '♞', p: '♟'
  };
  // The sprites: each piece ("p:" + its letter) and each rank as the JSON writes it, with its
  // squares ("r:" + whether its first square is dark + its text); one rank a copy, where a copy
  // a piece took several times longer (about a millisecond a board). A new size starts again.
  const sprites = new Map();
  let spriteSquare = 0;
  let rankSprites = 0;
  const kMaxRankSprites = 2000;  // about 25 MB at a square of 20 pixels
  // Each is kept as an ImageBitmap: copying from a canvas would make the browser take a snapshot
  // of it at every copy. All are drawn on one canvas, which hands its bitmap over and starts
  // blank: a new canvas's context costs about a millisecond. `draw` may not make sprites.
  let scratch = null;  // {canvas, context}
  function sprite(key, width, height, draw) {
    let image = sprites.get(key);
    if (!image) {
      const w = Math.max(1, Math.ceil(width));
      const h = Math.max(1, Math.ceil(height));
      if (!scratch) {
        const canvas = new OffscreenCanvas(w, h);
        scratch = {canvas, context: canvas.getContext('2d')};
      } else if (scratch.canvas.width !== w || scratch.canvas.height !== h) {
        scratch.canvas.width = w;
        scratch.canvas.height = h;
      }
      draw(scratch.context);
      image = scratch.canvas.transferToImageBitmap();
      sprites.set(key, image);
    }
    return image;
  }
  // A rank: `line` its squares (a piece letter or '.' each), `dark` whether its file a is dark.
  function rankImage(line, dark, square) {
    const key = `r:${dark ? 1 : 0}:${line}`;
    if (!sprites.has(key) && ++rankSprites > kMaxRankSprites) clearSprites(square);
    // Its pieces first: a rank is drawn on the canvas they are drawn on.
    for (const piece of line) {
      if (piece !== '.') pieceImage(piece, square);
    }
    return sprite(key, line.length * square, square, (context) => {
      for (let file = 0; file < line.length; ++file) {
        context.fillStyle = (file % 2 === 0) === dark ? '#b58863' : '#f0d9b5';
        context.fillRect(file * square, 0, square + 0.5, Math.ceil(square));
      }
      for (let file = 0; file < line.length; ++file) {
        if (line[file] !== '.') context.drawImage(pieceImage(line[file], square), file * square, 0);
      }
    });
  }
  function clearSprites(square) {
    for (const image of sprites.values()) image.close();
    sprites.clear();
    spriteSquare = square;
    rankSprites = 0;
  }
  function pieceImage(piece, square) {
    return sprite('p:' + piece, square, square, (context) => {
      const x = square / 2;
      context.textAlign = 'center';
      context.textBaseline = 'middle';
      if (kSymbols[piece]) {
        context.font =
            `${square * 0.85}px "DejaVu Sans", "Segoe UI Symbol", "Noto Sans Symbols 2", serif`;
        context.fillStyle = '#000';
        context.fillText(kSymbols[piece] + '\uFE0E', x, square * 0.55);
        return;
      }
      const white = piece === piece.toUpperCase();
      context.beginPath();
      context.arc(x, x, square * 0.4, 0, 2 * Math.PI);
      context.fillStyle = white ? '#fff' : '#222';
      context.fill();
      context.strokeStyle = '#222';
      context.stroke();
      context.font = `bold ${square * 0.5}px sans-serif`;
      context.fillStyle = white ? '#222' : '#fff';
      context.fillText(piece.toUpperCase(), x, x);
    });
  }

  // Canvases of boards that left the page, for boards drawn next ({canvas, context}).
  const canvases = [];
  const kMaxCanvases = 64;

  function release(board) {
    if (!board.canvas) return;
    board.canvas.remove();
    if (canvases.length < kMaxCanvases) {
      canvases.push({canvas: board.canvas, context: board.context});
    }
    board.canvas = null;
    board.context = null;
  }

  // The offscreen canvas boards are drawn on ({canvas, context}), apart from the sprites'.
  let surface = null;

  function draw(board, side, coordinates) {
    const ranks = board.squares.split('/');
    const files = ranks[0].length;
    const width = Math.max(1, Math.round(files * side * ratio));
    const height = Math.max(1, Math.round(ranks.length * side * ratio));
    if (!board.canvas) {
      const reused = canvases.pop();
      board.canvas = reused ? reused.canvas : el('canvas', {});
      board.context = reused ? reused.context : board.canvas.getContext('bitmaprenderer');
      board.element.appendChild(board.canvas);
    }
    if (!surface) {
      const canvas = new OffscreenCanvas(width, height);
      surface = {canvas, context: canvas.getContext('2d')};
    } else if (surface.canvas.width !== width || surface.canvas.height !== height) {
      surface.canvas.width = width;
      surface.canvas.height = height;
    }
    if (board.canvas.width !== width || board.canvas.height !== height) {
      board.canvas.width = width;
      board.canvas.height = height;
    }
    const context = surface.context;
    const square = side * ratio;
    if (square !== spriteSquare) clearSprites(square);
    for (let row = 0; row < ranks.length; ++row) {
      // File a of the lowest rank is dark.
      const dark = (ranks.length - 1 - row) % 2 === 0;
      context.drawImage(rankImage(ranks[row], dark, square), 0, row * square);
    }
    if (coordinates && square >= 10) {
      context.font = `${Math.max(8, square * 0.28)}px sans-serif`;
      context.textBaseline = 'alphabetic';
      for (let file = 0; file < files; ++file) {
        context.fillStyle = file % 2 === 0 ? '#f0d9b5' : '#b58863';
        context.textAlign = 'right';
        context.fillText(
            String.fromCharCode(97 + file), (file + 0.96) * square, height - 0.06 * square);
      }
      context.textBaseline = 'top';
      context.textAlign = 'left';
      for (let row = 0; row < ranks.length; ++row) {
        const rank = ranks.length - row;
        context.fillStyle = (rank - 1) % 2 === 0 ? '#f0d9b5' : '#b58863';
        context.fillText(String(rank), 0.06 * square, (row + 0.06) * square);
      }
    }
    // The surface starts blank again.
    board.context.transferFromImageBitmap(surface.canvas.transferToImageBitmap());
  }

  function warm(side) {
    const square = side * ratio;
    clearSprites(square);
    for (const piece of Object.keys(kSymbols)) pieceImage(piece, square);
  }

  return {draw, release, warm};
};
