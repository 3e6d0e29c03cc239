// Where things go in the picture of the multiverse (picture.js): the scene's pixels (the JSON of
// /api/game/ID and /api/position, query/picture_scene.h) in the picture's at a zoom, the boards
// a view shows, where the play is, the zoom a picture opens at, and the scroll position that
// follows the play from one position of a game to the next. Arithmetic on the pictures' JSON and
// the sizes given only: nothing here reads or changes the page.
//
// A view is {left, top, width, height}: a scroll position of the frame and its inner size. A box
// is the frame's inner size with how far it scrolls: {width, height, maxLeft, maxTop}.
'use strict';

fived.pictureGeometry = (() => {
  const kStripWidth = 44;   // the timeline labels, left of the boards
  const kStripHeight = 24;  // the turn labels, over them
  const clamp = (value, most) => Math.max(0, Math.min(most, value));

  // Scene pixels of picture `m` to the picture area's pixels at `zoom`, and back.
  const toX = (x, m, zoom) => kStripWidth + (x - m.left) * zoom;
  const toY = (y, m, zoom) => kStripHeight + (y - m.top) * zoom;
  const fromX = (x, m, zoom) => (x - kStripWidth) / zoom + m.left;
  const fromY = (y, m, zoom) => (y - kStripHeight) / zoom + m.top;

  // The indices in m.boards of the boards of picture `m` at `zoom` that show, at least in part,
  // in `view`, or come within `margin` CSS pixels of it.
  function boardsInView(m, zoom, view, margin) {
    const left = fromX(view.left - margin, m, zoom) - m.board_width;
    const right = fromX(view.left + view.width + margin, m, zoom);
    const top = fromY(view.top - margin, m, zoom) - m.board_height;
    const bottom = fromY(view.top + view.height + margin, m, zoom);
    const found = [];
    for (const [i, [row, column]] of m.boards.entries()) {
      const x = m.columns[column].x;
      const y = m.rows[row].y;
      if (x >= left && x <= right && y >= top && y <= bottom) found.push(i);
    }
    return found;
  }
  // `boards` in the order to draw them: from the middle of the list (that of the view) out.
  function middleFirst(boards) {
    const middle = (boards.length - 1) / 2;
    return boards.map((board, i) => [Math.abs(i - middle), board])
        .sort((a, b) => a[0] - b[0])
        .map(([, board]) => board);
  }

  // Where the play is in picture `m`, in scene pixels: the present's column across, and down
  // the board of the present nearest to the last move's end (the middle one of the present's
  // boards when no move is drawn).
  function playPoint(m) {
    const column = m.present >= 0 ? m.columns[m.present] : m.columns.at(-1);
    const x = column ? column.x + m.board_width / 2 : m.left;
    const rows = m.boards.filter(([, c]) => m.columns[c] === column)
                     .map(([r]) => m.rows[r].y + m.board_height / 2);
    let y = rows.length ? rows[Math.floor(rows.length / 2)] : m.top;
    const last = m.moves.at(-1);
    if (last) {
      // The present's board nearest to where the last move ended.
      const end = Number(last.trim().split(/[\sA-Z]+/).filter(Boolean).at(-1));
      const nearer = (best, row) => (Math.abs(row - end) < Math.abs(best - end) ? row : best);
      y = rows.reduce(nearer, end);
    }
    return {x, y};
  }

  // The size of the picture area for picture `m` at `zoom` in a frame `frameWidth` wide whose
  // height is at most `maxHeight`. A picture larger than its frame gets room past its right and
  // bottom edges, half a frame each, so that its last column (the present, often) and row can
  // be centred too.
  function areaSize(m, zoom, frameWidth, maxHeight) {
    const contentWidth = toX(m.width, m, zoom) + 2;
    const contentHeight = toY(m.height, m, zoom);
    return {
      width: contentWidth + (contentWidth > frameWidth ? Math.round(frameWidth / 2) : 0),
      height: contentHeight + (contentHeight > maxHeight ? Math.round(maxHeight / 2) : 0)
    };
  }

  // The zoom that fits the whole of picture `m` in a frame `frameWidth` wide (inner width) and
  // at most `maxHeight` high.
  function fitZoom(m, frameWidth, maxHeight) {
    const width = Math.max(1, frameWidth - kStripWidth - 4);
    const height = Math.max(1, maxHeight - kStripHeight - 4);
    return Math.min(width / (m.width - m.left), height / (m.height - m.top));
  }
  // The zoom at which a square is readable (20 pixels, 15 in a frame under 700 wide), or
  // larger when the whole picture fits (up to 1).
  function openingZoom(m, frameWidth, maxHeight) {
    const readable = (frameWidth >= 700 ? 20 : 15) / m.square;
    return Math.min(Math.max(readable, fitZoom(m, frameWidth, maxHeight)), Math.max(readable, 1));
  }

  // The view that centres scene point `point` of picture `m` at `zoom` in `box`.
  function centredView(point, m, zoom, box) {
    return {
      left: clamp(toX(point.x, m, zoom) - (box.width + kStripWidth) / 2, box.maxLeft),
      top: clamp(toY(point.y, m, zoom) - (box.height + kStripHeight) / 2, box.maxTop),
      width: box.width, height: box.height
    };
  }

  // The view that shows picture `next` at `zoom` following the play from the view `now` of the
  // picture before, in `box` (that of `next` placed): the same timeline stays at the same height
  // and the present's column where it was, and the play stays in view, scrolled to as little as
  // brings it in. `now`: {left, top, play: where the play was in the frame, anchor: the
  // timeline {l, y} in the middle of the frame, or null}.
  function followingView(next, now, box, zoom) {
    let top = clamp(now.top, box.maxTop);
    const anchor = now.anchor && next.rows.find((r) => r.l === now.anchor.l);
    if (anchor) top = clamp(top + (anchor.y - now.anchor.y) * zoom, box.maxTop);
    const play = playPoint(next);
    let left = clamp(toX(play.x, next, zoom) - now.play.x, box.maxLeft);
    const px = toX(play.x, next, zoom) - left;
    const py = toY(play.y, next, zoom) - top;
    const margin = 40;
    if (px < kStripWidth + margin || px > box.width - margin) {
      left = clamp(toX(play.x, next, zoom) - (box.width + kStripWidth) / 2, box.maxLeft);
    }
    if (py < kStripHeight + margin || py > box.height - margin) {
      top = clamp(toY(play.y, next, zoom) - (box.height + kStripHeight) / 2, box.maxTop);
    }
    return {left, top, width: box.width, height: box.height};
  }

  return {
    kStripWidth, kStripHeight, toX, toY, fromX, fromY, boardsInView, middleFirst, playPoint,
    areaSize, fitZoom, openingZoom, centredView, followingView
  };
})();
