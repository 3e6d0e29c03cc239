// The picture of the multiverse in the explorer's pages, drawn from the JSON the server makes
// from the same scene as its SVG (query/picture_scene.h): the same boards, branch lines, arrows
// and checks at the same places, in the SVG's pixels times the zoom.
//
// Each board is an element with data-l, data-t and data-c (timeline, turn and colour as 5DFEN
// writes them); its squares are drawn on a canvas (board_canvas.js) only when the board comes
// near the view, so that a picture of hundreds of boards shows at once and stepping redraws only
// the boards that changed. Timeline and turn labels stay at the edges of the frame as it scrolls.
// A step of a game draws the boards it shows ahead, while the page is idle (prepare), and moves
// the view at its frame, so that the browser lays the page out once.
//
// The view: a picture opens on the present at a readable size (a square of 20 pixels, 15 on a
// narrow screen), unless the whole picture fits larger. The frame scrolls (scroll bars, wheel,
// dragging with the mouse or a finger, Shift + the arrow keys once it has focus); Ctrl + wheel
// and a pinch zoom about the pointer, the buttons and the keys + and - about the centre; "Fit
// all" fits the whole picture both ways, "Present" goes back to the present, "a-h" toggles file
// and rank labels. A new position of the same game keeps the zoom and moves the view with the
// play: the timelines stay where they were and the present stays where it was on screen.
//
// This file keeps the picture's elements, its view and what is drawn when; the rest is in files
// of their own, which pages load before it: where things go (picture_geometry.js), the branch
// lines and arrows (picture_lines.js), a board's squares and pieces (board_canvas.js), and the
// mouse, fingers and keys (picture_input.js).
'use strict';

fived.multiverse = (host) => {
  const {el, svg, fill, whenIdle} = fived;
  const geometry = fived.pictureGeometry;  // picture_geometry.js
  const {kStripWidth, kStripHeight} = geometry;
  const kMinZoom = 0.04;
  const kMaxZoom = 3;
  const ratio = window.devicePixelRatio || 1;
  // Boards this close to the view (CSS pixels) are drawn when the browser is idle, ahead of
  // scrolling.
  const kNearMargin = 300;

  let model = null;
  let zoom = 1;
  let coordinates = false;
  let boards = [];              // {element, canvas, key, squares, drawnAt}
  const kept = new Map();       // "l:t:c" -> board of the previous model, for reuse
  const spare = new Map();      // "l:t:c" -> board drawn ahead for a picture a step away
  let near = [];                // boards within kNearMargin of the view, the middle first
  const turnLabels = new Map();      // "t:c" -> its label in the turn strip
  const timelineLabels = new Map();  // "l" -> its label in the timeline strip

  const button = (text, title, action) =>
      el('button', {type: 'button', title, 'aria-label': title, onclick: action}, text);
  const label = el('span', {class: 'zoom-label'});
  const coordinatesButton = button('a–h', 'File and rank labels', () => {
    coordinates = !coordinates;
    coordinatesButton.setAttribute('aria-pressed', String(coordinates));
    for (const board of boards) board.drawnAt = 0;
    drawNear();
  });
  coordinatesButton.setAttribute('aria-pressed', 'false');
  const controls = el(
      'div', {class: 'zoom'}, button('−', 'Zoom out (-)', () => zoomAbout(zoom / 1.25)),
      button('+', 'Zoom in (+)', () => zoomAbout(zoom * 1.25)),
      button('Fit all', 'Fit the whole picture (0)', fitAll),
      button('Present', 'Back to the present (p)', () => centreOnPresent()), coordinatesButton,
      label);
  // The corner holds a label of each strip's font, unseen, so that the browser loads those
  // fonts when it first lays the page out, before a picture comes (8 ms for the timelines'
  // monospace in a new headless Chromium).
  const fontSamples = el(
      'div', {class: 'strip-corner', 'aria-hidden': 'true'},
      el('span', {class: 'timeline-font'}, '+0'), el('span', {class: 'present-turn-font'}, 'T1'));
  const turnStrip = el('div', {class: 'turn-strip'}, fontSamples);
  // The timeline labels and the boards sit in layers placed as a whole (a transform), at the
  // height of the picture's anchor row (anchorY): see place().
  const timelineLabelLayer = el('div', {class: 'timeline-label-layer'});
  const timelineStrip = el('div', {class: 'timeline-strip'}, timelineLabelLayer);
  const band = el('div', {class: 'present-band'});
  const under = svg('svg', {class: 'picture-lines under', 'aria-hidden': 'true'});
  const over = svg('svg', {class: 'picture-lines over', 'aria-hidden': 'true'});
  const layer = el('div', {class: 'board-layer'});
  // The lines are in the board layer, under and over its boards, measured from its anchor.
  layer.append(under, over);
  const canvasArea = el('div', {class: 'picture-canvas'}, turnStrip, timelineStrip, band, layer);
  const frame = el('div', {class: 'picture-frame', tabindex: '0', role: 'img'}, canvasArea);
  fill(host, controls, frame);
  const lineDrawing = fived.pictureLines(under, over);  // picture_lines.js

  // Where things go (picture_geometry.js), at the zoom now and, unless said, in the picture shown.
  const toX = (x, m = model) => geometry.toX(x, m, zoom);
  const toY = (y, m = model) => geometry.toY(y, m, zoom);
  const fromX = (x, m = model) => geometry.fromX(x, m, zoom);
  const fromY = (y, m = model) => geometry.fromY(y, m, zoom);
  const boardsInView = (m, view, margin) => geometry.boardsInView(m, zoom, view, margin);
  const {middleFirst} = geometry;
  const playPoint = (m = model) => geometry.playPoint(m);
  const areaSize = (m, frameWidth) =>
      geometry.areaSize(m, zoom, frameWidth, Number(frame.dataset.maxHeight));
  const fitZoom = (frameWidth = frame.clientWidth) =>
      geometry.fitZoom(model, frameWidth, Number(frame.dataset.maxHeight));
  const openingZoom = (frameWidth) =>
      geometry.openingZoom(model, frameWidth, Number(frame.dataset.maxHeight));
  const centredView = (point, box) => geometry.centredView(point, model, zoom, box);
  const followingView = (next, now, box) => geometry.followingView(next, now, box, zoom);

  // The squares of a board of the JSON: ranks from the highest.
  const ranksOf = (squares) => squares.split('/');

  // Boards are drawn on canvases by board_canvas.js.
  const painter = fived.boardPainter(ratio);
  // The pieces at the size a picture opens at (openingZoom's readable square), once the page
  // has asked for its picture and waits for it.
  setTimeout(() => painter.warm(frame.clientWidth >= 700 ? 20 : 15), 0);
  function releaseCanvas(board) {
    painter.release(board);
    board.drawnAt = 0;
  }
  function drawBoard(board) {
    painter.draw(board, model.square * zoom, coordinates);
    board.drawnAt = zoom;
  }

  // Draws now the boards in the frame's view that are not drawn at this zoom, so that a new
  // picture shows complete in its first frame, and finds those near it, drawn when the browser
  // is idle. Where the boards are is arithmetic on the picture's rows and columns: an
  // IntersectionObserver would cost the browser a pass over every board at each frame (from 1
  // to 13 ms a frame on the 120-timeline game) and at each board a step adds or removes.
  function drawInView() {
    const view = frameView();
    for (const i of boardsInView(model, view, 0)) {
      const board = boards[i];
      if (board.drawnAt !== zoom) drawBoard(board);
    }
    near = middleFirst(boardsInView(model, view, kNearMargin).map((i) => boards[i]));
  }

  // The boards in view are drawn in the next frame; those only near it (drawn ahead of
  // scrolling) when the browser is idle, a few at a time, so that a step or a scroll paints what
  // shows without waiting for them.
  let pendingDraw = false;
  let pendingIdle = false;
  function drawNear() {
    if (pendingDraw) return;
    pendingDraw = true;
    requestAnimationFrame(() => {
      pendingDraw = false;
      if (!model) return;
      applyView();
      drawInView();
      drawAhead();
    });
  }
  function drawAhead() {
    if (pendingIdle) return;
    pendingIdle = true;
    whenIdle((deadline) => {
      pendingIdle = false;
      let left = false;
      // Short turns, so that a key pressed meanwhile waits for little: the browser gives up to
      // 50 ms when it has nothing else to do.
      const stop = performance.now() + 6;
      for (const board of near) {
        if (board.drawnAt === zoom) continue;
        if (deadline.timeRemaining() < 2 || performance.now() > stop) {
          left = true;
          break;
        }
        drawBoard(board);
      }
      if (left) drawAhead();
    });
  }
  // Sets a style property only when its value changes: a step leaves most of the picture where
  // it was, and every write that changes nothing would still cost the browser a style pass.
  function setStyle(node, property, value) {
    if (node.style[property] !== value) node.style[property] = value;
  }

  // Places every element for the current zoom. `frameWidth`: the frame's inner width, when the
  // caller read it before changing the page (reading it after would make the browser lay the
  // page out at once, and again for the frame).
  function place(frameWidth = frame.clientWidth) {
    const maximum = Number(frame.dataset.maxHeight);
    const {width, height} = areaSize(model, frameWidth);
    setStyle(canvasArea, 'width', width + 'px');
    setStyle(canvasArea, 'height', height + 'px');
    setStyle(turnStrip, 'width', width + 'px');
    setStyle(timelineStrip, 'height', height - kStripHeight + 'px');
    setStyle(frame, 'height', Math.min(maximum, height + 2) + 'px');
    // The boards and the timeline labels are placed from the anchor row, and their layers at
    // the anchor's height: a step that adds or removes timelines over the anchor moves every
    // row of the scene, and would otherwise move every board (311 of the 120-timeline game's
    // first step back, each restyled, laid out and painted again), where now it moves two
    // layers. Only what changes is written, each write being parsed and restyled by the
    // browser (the values are kept on the board, where reading them is free).
    const anchor = anchorY(model);
    const layerTop = toY(anchor);
    setStyle(layer, 'transform', `translateY(${layerTop}px)`);
    setStyle(timelineLabelLayer, 'transform', `translateY(${layerTop - kStripHeight}px)`);
    for (const board of boards) {
      const placed = {
        left: toX(board.x) + 'px', top: (board.y - anchor) * zoom + 'px',
        width: board.files * model.square * zoom + 'px',
        height: board.rankCount * model.square * zoom + 'px'
      };
      for (const property in placed) {
        if (board[property] === placed[property]) continue;
        board[property] = placed[property];
        board.element.style[property] = placed[property];
      }
    }
    const half = model.board_width / 2;
    for (const node of turnLabels.values()) {
      setStyle(node, 'left', toX(node.x + half) + 'px');
    }
    for (const node of timelineLabels.values()) {
      setStyle(node, 'top', (node.y + model.board_height / 2 - anchor) * zoom + 'px');
    }
    band.hidden = model.present < 0;
    if (model.present >= 0) {
      const x = model.columns[model.present].x - model.gap / 2;
      setStyle(band, 'left', toX(x) + 'px');
      setStyle(band, 'width', (model.board_width + model.gap) * zoom + 'px');
      setStyle(band, 'height', height + 'px');
    }
    // The lines' SVGs start at the anchor row, where the layer is, and draw beyond their box
    // (overflow: visible): a box of one pixel (1 / zoom of the scene) keeps them where they are
    // from one step to the next, as long as the zoom and the picture's left edge stay, and
    // adds nothing to how far the frame scrolls.
    const box = `${model.left} 0 ${1 / zoom} ${1 / zoom}`;
    for (const lines of [under, over]) {
      if (lines.getAttribute('viewBox') === box) continue;
      lines.setAttribute('viewBox', box);
      lines.style.left = kStripWidth + 'px';
      lines.style.top = '0px';
      lines.setAttribute('width', 1);
      lines.setAttribute('height', 1);
    }
    const percent = `${Math.round(zoom * 100)}%`;
    if (label.textContent !== percent) label.textContent = percent;
    drawNear();
  }

  // The scene height of the row the board and label layers are placed from: that of timeline 0
  // (or -0), which every position of a game has at the same place relative to its neighbours,
  // else the first row's.
  function anchorY(m) {
    const origin = m.rows.find((row) => Number(row.l) === 0) || m.rows[0];
    return origin ? origin.y : m.top;
  }

  // The labels of the turn and timeline strips (and the branch lines), kept from one picture to
  // the next by what they label ("t:c" of a column, "l" of a row, a line's path): a step adds or
  // removes a few.
  function updateLabels(labels, strip, items, keyOf, make, update) {
    const wanted = new Set();
    for (const [i, item] of items.entries()) {
      const key = keyOf(item);
      wanted.add(key);
      let node = labels.get(key);
      if (!node) {
        node = make(item);
        labels.set(key, node);
        strip.appendChild(node);
      }
      update(node, item, i);
    }
    for (const [key, node] of labels) {
      if (wanted.has(key)) continue;
      node.remove();
      labels.delete(key);
    }
  }

  // A board of the picture, not yet in the page nor drawn.
  function makeBoard(line, turn, key, squares) {
    // Made directly, not with el(): a picture opens with hundreds of boards.
    const element = document.createElement('div');
    element.className = 'mv-board';
    element.setAttribute('data-l', line.l);
    element.setAttribute('data-t', turn.t);
    element.setAttribute('data-c', turn.c);
    element.title = `${line.l} T${turn.t} ${turn.c}`;
    const ranks = ranksOf(squares);
    const board =
        {element, canvas: null, context: null, key, squares, drawnAt: 0, files: ranks[0].length,
         rankCount: ranks.length};
    element.board = board;
    return board;
  }

  // The board of timeline `line` and column `turn` holding `squares`: that of `boardsByKey` or
  // the spare one when either has it, else a new one.
  function boardOf(boardsByKey, line, turn, squares) {
    const key = `${line.l}:${turn.t}:${turn.c}`;
    for (const board of [boardsByKey.get(key), spare.get(key)]) {
      if (board && board.squares === squares) return board;
    }
    return makeBoard(line, turn, key, squares);
  }

  function build() {
    const marked = new Set(model.marks.map(([row, column]) => `${row}:${column}`));
    const previous = new Map(kept);
    kept.clear();
    boards = model.boards.map(([row, column, squares]) => {
      const line = model.rows[row];
      const turn = model.columns[column];
      const board = boardOf(previous, line, turn, squares);
      board.x = turn.x;
      board.y = line.y;
      // Only a board whose classes change is touched: each change costs the browser a style
      // pass over the board, and a step changes the classes of few of hundreds.
      const classes = 'mv-board' + (line.active ? '' : ' inactive') +
          (marked.has(`${row}:${column}`) ? ' marked' : '') +
          (turn.c === 'w' ? ' white-board' : '');
      if (board.element.className !== classes) board.element.className = classes;
      kept.set(board.key, board);
      return board;
    });
    // Boards drawn ahead for a picture not shown give their canvases back.
    for (const board of spare.values()) {
      if (kept.get(board.key) !== board) releaseCanvas(board);
    }
    spare.clear();
    // Only the boards that changed leave and enter the page: a step changes a few.
    for (const [key, board] of previous) {
      if (kept.get(key) === board) continue;
      board.element.remove();
      releaseCanvas(board);
    }
    for (const board of boards) {
      if (board.element.parentNode) continue;
      layer.insertBefore(board.element, over);
    }
    updateLabels(
        turnLabels, turnStrip, model.columns, (column) => `${column.t}:${column.c}`,
        (column) => el('span', {class: 'turn-label'}, `T${column.t} ${column.c}`),
        (node, column, i) => {
          node.x = column.x;
          node.classList.toggle('present', i === model.present);
        });
    updateLabels(
        timelineLabels, timelineLabelLayer, model.rows, (row) => String(row.l),
        (row) => el('span', {class: 'timeline-label'}, row.l), (node, row) => {
          node.y = row.y;
          node.classList.toggle('inactive', !row.active);
          const title = row.active ? `timeline ${row.l}` : `timeline ${row.l}, inactive`;
          if (node.title !== title) node.title = title;
        });
    lineDrawing.draw(model, anchorY(model));
  }

  function clampZoom(value) {
    return Math.min(kMaxZoom, Math.max(kMinZoom, value));
  }

  function centreOn(point) {
    applyView();
    frame.scrollLeft = toX(point.x) - (frame.clientWidth + kStripWidth) / 2;
    frame.scrollTop = toY(point.y) - (frame.clientHeight + kStripHeight) / 2;
  }
  function centreOnPresent() {
    centreOn(playPoint());
  }
  function fitAll() {
    applyView();
    zoom = clampZoom(fitZoom());
    place();
    frame.scrollLeft = 0;
    frame.scrollTop = 0;
  }
  // Zooms to `value` keeping the scene point under (fx, fy) of the frame in place (the centre
  // when not given).
  //
  // The browser rounds a scroll position to its pixels; a pinch zooms in many small steps, each
  // from where the last left the view, and would drift by that rounding (9 pixels over a pinch
  // that doubles the zoom, measured on a phone's screen). So each step starts from the position
  // the last one asked for while the frame is where that one put it.
  let zoomedTo = null;  // {left, top: asked for; frameLeft, frameTop: what the frame took}
  function zoomAbout(value, fx, fy) {
    if (!model) return;
    applyView();
    if (fx === undefined) {
      fx = (frame.clientWidth + kStripWidth) / 2;
      fy = (frame.clientHeight + kStripHeight) / 2;
    }
    // Where the frame is, or where it was asked to be when it took that but for rounding (not
    // when it was scrolled since, nor when it stopped at an edge).
    const exact = (asked, took, now) =>
        zoomedTo && took === now && Math.abs(asked - took) < 1 ? asked : now;
    const x = fromX(exact(zoomedTo?.left, zoomedTo?.frameLeft, frame.scrollLeft) + fx);
    const y = fromY(exact(zoomedTo?.top, zoomedTo?.frameTop, frame.scrollTop) + fy);
    zoom = clampZoom(value);
    place();
    const left = toX(x) - fx;
    const top = toY(y) - fy;
    frame.scrollLeft = left;
    frame.scrollTop = top;
    zoomedTo = {left, top, frameLeft: frame.scrollLeft, frameTop: frame.scrollTop};
  }

  function frameHeight() {
    const narrow = window.innerWidth <= 760;
    const maximum = String(Math.round(window.innerHeight * (narrow ? 0.6 : 0.72)));
    if (frame.dataset.maxHeight !== maximum) frame.dataset.maxHeight = maximum;
  }

  // Mouse, fingers and keys (picture_input.js).
  fived.pictureInput(frame, {
    zoom: () => zoom,
    zoomAbout,
    fitAll,
    centreOnPresent,
    applyView,
    drawNear,
    resized: () => {
      if (!model) return;
      frameHeight();
      place();
    }
  });

  // Where the view is on the picture shown, for the view of the next picture of the same game
  // to follow the play from it: the scroll position, where the play is on screen, and the
  // timeline in the middle of the frame (or the last).
  function viewNow() {
    const at = frameView();
    const play = playPoint();
    const middle = fromY(at.top + at.height / 2);
    const anchor = model.rows.find((r) => middle <= r.y + model.board_height) || model.rows.at(-1);
    return {
      left: at.left, top: at.top, play: {x: toX(play.x) - at.left, y: toY(play.y) - at.top},
      anchor: anchor ? {l: anchor.l, y: anchor.y} : null
    };
  }

  // A step's scroll position is set at the next frame, when the browser lays the page out
  // anyway: set at once, it would make the browser lay the page out there and then again for
  // the frame (10 to 30 ms a step on the 120-timeline game). Meanwhile the picture is drawn
  // for the view it will have: pendingView, {left, top, width, height}.
  let pendingView = null;
  // The frame's scroll position and inner size, as the next frame will have them.
  function frameView() {
    return pendingView || {
      left: frame.scrollLeft, top: frame.scrollTop, width: frame.clientWidth,
      height: frame.clientHeight
    };
  }
  function applyView() {
    if (!pendingView) return;
    const view = pendingView;
    pendingView = null;
    frame.scrollLeft = view.left;
    frame.scrollTop = view.top;
  }
  // The frame's inner size and how far it scrolls once picture `next` is placed in it, foreseen
  // without laying the page out from `at` (frameView) and the picture placed now: the frame
  // takes the height of its picture up to its maximum. `placed`: the frame's outer height now
  // (read from the layout of the last frame when it has no height of its own yet).
  function boxFor(next, at, placed = parseFloat(frame.style.height) || frame.offsetHeight) {
    const maximum = Number(frame.dataset.maxHeight);
    const size = areaSize(next, at.width);
    const height = at.height + Math.min(maximum, size.height + 2) - placed;
    return {
      width: at.width, height, maxLeft: Math.max(0, size.width - at.width),
      maxTop: Math.max(0, size.height - height)
    };
  }

  // Drawing ahead: the pictures a step away (prepare), and the boards of theirs that the step
  // will show in view, drawn when the browser is idle, a few at a time, so that the step paints
  // without drawing them. A step back shows boards the picture has (a position only grows), a
  // step forward new ones too: those are made and drawn apart (spare) and enter the page with
  // the picture that has them. Work for a picture that is no longer a step away is dropped.
  let ahead = [];  // {next, from: the model it is a step from, boards: still to draw}
  let pendingAhead = false;
  function prepareAhead() {
    if (pendingAhead) return;
    pendingAhead = true;
    whenIdle((deadline) => {
      pendingAhead = false;
      // Short turns, so that a key pressed meanwhile waits for little.
      const stop = performance.now() + Math.min(6, deadline.timeRemaining());
      ahead = ahead.filter((job) => job.from === model);
      while (ahead.length && performance.now() < stop) {
        const job = ahead[0];
        if (!job.boards) job.boards = boardsAhead(job.next);
        const board = job.boards.pop();
        if (!board) {
          ahead.shift();
        } else if (board.drawnAt !== zoom) {
          drawBoard(board);
        }
      }
      if (ahead.length) prepareAhead();
    });
  }
  // The boards (of the page or spare) that a step to `next` will draw in view, with a board
  // of margin: the view is foreseen from the frame's size now.
  function boardsAhead(next) {
    const view = followingView(next, viewNow(), boxFor(next, frameView()));
    const found = [];
    for (const i of boardsInView(next, view, next.board_width * zoom)) {
      const [row, column, squares] = next.boards[i];
      const line = next.rows[row];
      const turn = next.columns[column];
      const board = boardOf(kept, line, turn, squares);
      if (kept.get(board.key) !== board) spare.set(board.key, board);
      found.push(board);
    }
    // Drawn from the last: the middle of the view first.
    return middleFirst(found).reverse();
  }

  return {
    frame,
    // Shows a picture (the JSON of /api/game/ID's position.picture or /api/position's picture),
    // described by `alt`. `same`: a position of the same game or line, whose view follows the
    // play from the one shown; otherwise the view opens on the present.
    //
    // What the view shows and its size are read before the page changes, so that setting the
    // new view makes the browser lay the page out once: a step's view is set at the next frame
    // (pendingView), when the browser lays the page out anyway; a new picture's at once, so
    // that the page shows it where it opens as soon as show() returns.
    show(picture, alt, same) {
      const before = model && same ? viewNow() : null;
      const at = frameView();
      const placed = parseFloat(frame.style.height) || frame.offsetHeight;
      model = picture;
      ahead = [];
      frame.setAttribute('aria-label', alt);
      frameHeight();
      build();
      if (!before) {
        zoom = clampZoom(openingZoom(at.width));
        pendingView = centredView(playPoint(), boxFor(model, at, placed));
      } else {
        pendingView = followingView(model, before, boxFor(model, at, placed));
      }
      place(at.width);
      drawInView();
      if (!before) applyView();
    },
    // Draws ahead, when the browser is idle, what showing `picture` (a position of the same
    // game a step away from the one shown, as show's `same`) would draw in view; the most
    // likely step first. Changes nothing on screen; forgotten at the next show().
    prepare(picture) {
      if (!model || picture === model) return;
      ahead.push({next: picture, from: model, boards: null});
      // After the frame that shows the picture: the browser idles before it too, and boards
      // drawn then would delay it.
      requestAnimationFrame(() => setTimeout(prepareAhead, 0));
    },
  };
};
