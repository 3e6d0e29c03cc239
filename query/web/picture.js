// The picture of the multiverse in the explorer's pages, drawn from the JSON the server makes
// from the same scene as its SVG (query/picture_scene.h): the same boards, branch lines, arrows
// and checks at the same places, in the SVG's pixels times the zoom.
//
// Each board is an element with data-l, data-t and data-c (timeline, turn and colour as 5DFEN
// writes them); its squares are drawn on a canvas only when the board comes near the view, so
// that a picture of hundreds of boards shows at once and stepping redraws only the boards that
// changed. Timeline and turn labels stay at the edges of the frame as it scrolls.
//
// The view: a picture opens on the present at a readable size (a square of 20 pixels, 15 on a
// narrow screen), unless the whole picture fits larger. The frame scrolls (scroll bars, wheel,
// dragging with the mouse or a finger, Shift + the arrow keys once it has focus); Ctrl + wheel and a
// pinch zoom about the pointer, the buttons and the keys + and - about the centre; "Fit all"
// fits the whole picture both ways, "Present" goes back to the present, "a-h" toggles file
// and rank labels. A new position of the same game keeps the zoom and moves the view with the
// play: the timelines stay where they were and the present stays where it was on screen.
'use strict';

fived.multiverse = (host) => {
  const {el, svg, fill} = fived;
  const kStripWidth = 44;   // the timeline labels
  const kStripHeight = 24;  // the turn labels
  const kMinZoom = 0.04;
  const kMaxZoom = 3;
  const ratio = window.devicePixelRatio || 1;

  let model = null;
  let zoom = 1;
  let coordinates = false;
  let boards = [];              // {element, canvas, key, squares, drawnAt}
  const kept = new Map();       // "l:t:c" -> board of the previous model, for reuse
  const near = new Set();       // boards the observer says are near the view

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
  const turnStrip = el('div', {class: 'turn-strip'}, el('div', {class: 'strip-corner'}));
  const timelineStrip = el('div', {class: 'timeline-strip'});
  const band = el('div', {class: 'present-band'});
  const under = svg('svg', {class: 'picture-lines under', 'aria-hidden': 'true'});
  const over = svg('svg', {class: 'picture-lines over', 'aria-hidden': 'true'});
  const layer = el('div', {class: 'board-layer'});
  const canvasArea =
      el('div', {class: 'picture-canvas'}, turnStrip, timelineStrip, band, under, layer, over);
  const frame = el('div', {class: 'picture-frame', tabindex: '0', role: 'img'}, canvasArea);
  fill(host, controls, frame);

  const observer = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      const board = entry.target.board;
      if (entry.isIntersecting) {
        near.add(board);
      } else {
        near.delete(board);
      }
    }
    drawNear();
  }, {root: frame, rootMargin: '300px'});

  // Scene pixels to the canvas area's pixels, and back.
  const toX = (x) => kStripWidth + (x - model.left) * zoom;
  const toY = (y) => kStripHeight + (y - model.top) * zoom;
  const fromX = (x) => (x - kStripWidth) / zoom + model.left;
  const fromY = (y) => (y - kStripHeight) / zoom + model.top;

  // The squares of a board of the JSON: ranks from the highest.
  const ranksOf = (squares) => squares.split('/');

  const kSymbols = {
    K: '♔', Q: '♕', R: '♖', B: '♗', N: '♘', P: '♙',
    k: '♚', q: '♛', r: '♜', b: '♝', n: '♞', p: '♟'
  };
  function drawBoard(board) {
    const ranks = ranksOf(board.squares);
    const files = ranks[0].length;
    const side = model.square * zoom;
    const width = Math.max(1, Math.round(files * side * ratio));
    const height = Math.max(1, Math.round(ranks.length * side * ratio));
    if (!board.canvas) {
      board.canvas = el('canvas', {});
      board.element.appendChild(board.canvas);
    }
    const canvas = board.canvas;
    canvas.width = width;
    canvas.height = height;
    const context = canvas.getContext('2d');
    const square = side * ratio;
    for (let row = 0; row < ranks.length; ++row) {
      const rank = ranks.length - 1 - row;
      for (let file = 0; file < files; ++file) {
        context.fillStyle = (file + rank) % 2 === 0 ? '#b58863' : '#f0d9b5';
        context.fillRect(file * square, row * square, square + 0.5, square + 0.5);
      }
    }
    context.textAlign = 'center';
    context.textBaseline = 'middle';
    const symbolFont = `${square * 0.85}px "DejaVu Sans", "Segoe UI Symbol", "Noto Sans Symbols 2", serif`;
    const letterFont = `bold ${square * 0.5}px sans-serif`;
    for (let row = 0; row < ranks.length; ++row) {
      const line = ranks[row];
      for (let file = 0; file < line.length; ++file) {
        const piece = line[file];
        if (piece === '.') continue;
        const x = (file + 0.5) * square;
        const y = (row + 0.55) * square;
        const white = piece === piece.toUpperCase();
        if (kSymbols[piece]) {
          context.font = symbolFont;
          context.fillStyle = '#000';
          context.fillText(kSymbols[piece] + '\uFE0E', x, y);
          continue;
        }
        context.beginPath();
        context.arc(x, (row + 0.5) * square, square * 0.4, 0, 2 * Math.PI);
        context.fillStyle = white ? '#fff' : '#222';
        context.fill();
        context.strokeStyle = '#222';
        context.stroke();
        context.font = letterFont;
        context.fillStyle = white ? '#222' : '#fff';
        context.fillText(piece.toUpperCase(), x, (row + 0.5) * square);
      }
    }
    if (coordinates && square >= 10) {
      context.font = `${Math.max(8, square * 0.28)}px sans-serif`;
      context.textBaseline = 'alphabetic';
      for (let file = 0; file < files; ++file) {
        context.fillStyle = file % 2 === 0 ? '#f0d9b5' : '#b58863';
        context.textAlign = 'right';
        context.fillText(String.fromCharCode(97 + file), (file + 0.96) * square, height - 0.06 * square);
      }
      context.textBaseline = 'top';
      context.textAlign = 'left';
      for (let row = 0; row < ranks.length; ++row) {
        const rank = ranks.length - row;
        context.fillStyle = (rank - 1) % 2 === 0 ? '#f0d9b5' : '#b58863';
        context.fillText(String(rank), 0.06 * square, (row + 0.06) * square);
      }
    }
    board.drawnAt = zoom;
  }

  // Draws now the boards in the frame's view that are not drawn at this zoom, so that a new
  // picture shows complete in its first frame; the observer keeps up with scrolling after.
  function drawInView() {
    const left = fromX(frame.scrollLeft) - model.board_width;
    const right = fromX(frame.scrollLeft + frame.clientWidth);
    const top = fromY(frame.scrollTop) - model.board_height;
    const bottom = fromY(frame.scrollTop + frame.clientHeight);
    for (const board of boards) {
      if (board.x < left || board.x > right || board.y < top || board.y > bottom) continue;
      near.add(board);
      if (board.drawnAt !== zoom) drawBoard(board);
    }
  }

  let pendingDraw = false;
  function drawNear() {
    if (pendingDraw) return;
    pendingDraw = true;
    requestAnimationFrame(() => {
      pendingDraw = false;
      for (const board of near) {
        if (board.drawnAt !== zoom) drawBoard(board);
      }
    });
  }

  // Places every element for the current zoom.
  function place() {
    // A picture larger than its frame gets room past its right and bottom edges, half a frame
    // each, so that its last column (the present, often) and row can be centred too.
    const maximum = Number(frame.dataset.maxHeight);
    const contentWidth = toX(model.width) + 2;
    const contentHeight = toY(model.height);
    const width =
        contentWidth + (contentWidth > frame.clientWidth ? Math.round(frame.clientWidth / 2) : 0);
    const height = contentHeight + (contentHeight > maximum ? Math.round(maximum / 2) : 0);
    canvasArea.style.width = width + 'px';
    canvasArea.style.height = height + 'px';
    turnStrip.style.width = width + 'px';
    timelineStrip.style.height = height - kStripHeight + 'px';
    frame.style.height = Math.min(maximum, height + 2) + 'px';
    for (const board of boards) {
      // A step leaves most boards where they were: those are not touched.
      const where = [toX(board.x), toY(board.y), board.files * model.square * zoom,
                     board.rankCount * model.square * zoom].join(' ');
      if (board.where === where) continue;
      board.where = where;
      const style = board.element.style;
      style.left = toX(board.x) + 'px';
      style.top = toY(board.y) + 'px';
      style.width = board.files * model.square * zoom + 'px';
      style.height = board.rankCount * model.square * zoom + 'px';
    }
    const half = model.board_width / 2;
    for (const node of turnStrip.querySelectorAll('.turn-label')) {
      node.style.left = toX(Number(node.dataset.x) + half) + 'px';
    }
    for (const node of timelineStrip.querySelectorAll('.timeline-label')) {
      node.style.top = toY(Number(node.dataset.y) + model.board_height / 2) - kStripHeight + 'px';
    }
    band.hidden = model.present < 0;
    if (model.present >= 0) {
      const x = model.columns[model.present].x - model.gap / 2;
      band.style.left = toX(x) + 'px';
      band.style.width = (model.board_width + model.gap) * zoom + 'px';
      band.style.height = height + 'px';
    }
    for (const lines of [under, over]) {
      lines.setAttribute(
          'viewBox', `${model.left} ${model.top} ${model.width - model.left} ${model.height - model.top}`);
      lines.style.left = kStripWidth + 'px';
      lines.style.top = kStripHeight + 'px';
      lines.setAttribute('width', (model.width - model.left) * zoom);
      lines.setAttribute('height', (model.height - model.top) * zoom);
    }
    fill(label, `${Math.round(zoom * 100)}%`);
    drawNear();
  }

  // The scene's lines: branches under the boards, the moves and checks over them.
  function drawLines() {
    const stroke = Math.max(2, model.square / 6);
    const marker = (id, colour) => svg(
        'marker', {
          id, viewBox: '0 0 10 10', refX: 8, refY: 5, markerWidth: 4, markerHeight: 4,
          orient: 'auto'
        },
        svg('path', {d: 'M0,0L10,5L0,10z', fill: colour}));
    fill(
        under,
        model.branches.map((d) => svg('path', {
          class: 'branch', d, fill: 'none', stroke: '#8a94a6',
          'stroke-width': Math.max(3, model.square / 3), 'stroke-linecap': 'round'
        })));
    fill(
        over, svg('defs', {}, marker('mv-arrowhead', '#1f6fd1'), marker('mv-checkhead', '#e0162b')),
        model.moves.map((d) => svg('path', {
          class: 'arrow', d, fill: 'none', stroke: '#1f6fd1', 'stroke-opacity': 0.85,
          'stroke-width': stroke, 'stroke-linecap': 'round', 'marker-end': 'url(#mv-arrowhead)'
        })),
        model.checks.map((d) => svg('path', {
          class: 'check', d, fill: 'none', stroke: '#e0162b', 'stroke-opacity': 0.85,
          'stroke-width': stroke, 'stroke-linecap': 'round', 'marker-end': 'url(#mv-checkhead)'
        })));
  }

  function build() {
    const marked = new Set(model.marks.map(([row, column]) => `${row}:${column}`));
    const previous = new Map(kept);
    kept.clear();
    boards = model.boards.map(([row, column, squares]) => {
      const line = model.rows[row];
      const turn = model.columns[column];
      const key = `${line.l}:${turn.t}:${turn.c}`;
      let board = previous.get(key);
      if (!board || board.squares !== squares) {
        const element = el('div', {
          class: 'mv-board', 'data-l': line.l, 'data-t': turn.t, 'data-c': turn.c,
          title: `${line.l} T${turn.t} ${turn.c}`
        });
        const ranks = ranksOf(squares);
        board = {element, canvas: null, key, squares, drawnAt: 0, files: ranks[0].length,
                 rankCount: ranks.length};
        element.board = board;
      }
      board.x = turn.x;
      board.y = line.y;
      board.element.classList.toggle('inactive', !line.active);
      board.element.classList.toggle('marked', marked.has(`${row}:${column}`));
      board.element.classList.toggle('white-board', turn.c === 'w');
      kept.set(key, board);
      return board;
    });
    // Only the boards that changed leave and enter the page: a step changes a few.
    for (const [key, board] of previous) {
      if (kept.get(key) === board) continue;
      observer.unobserve(board.element);
      near.delete(board);
      board.element.remove();
    }
    for (const board of boards) {
      if (board.element.parentNode) continue;
      layer.appendChild(board.element);
      observer.observe(board.element);
    }
    fill(
        turnStrip, el('div', {class: 'strip-corner'}),
        model.columns.map((column, i) => el(
            'span', {
              class: 'turn-label' + (i === model.present ? ' present' : ''),
              'data-x': column.x
            },
            `T${column.t} ${column.c}`)));
    fill(
        timelineStrip,
        model.rows.map((row) => el(
            'span', {
              class: 'timeline-label' + (row.active ? '' : ' inactive'), 'data-y': row.y,
              title: row.active ? `timeline ${row.l}` : `timeline ${row.l}, inactive`
            },
            row.l)));
    drawLines();
  }

  // Where the play is: the present's column across, and down the board of the present nearest
  // to the last move's end (the middle one of the present's boards when no move is drawn).
  function playPoint() {
    const column = model.present >= 0 ? model.columns[model.present] : model.columns.at(-1);
    const x = column ? column.x + model.board_width / 2 : model.left;
    const rows = model.boards.filter(([, c]) => model.columns[c] === column)
                     .map(([r]) => model.rows[r].y + model.board_height / 2);
    let y = rows.length ? rows[Math.floor(rows.length / 2)] : model.top;
    const last = model.moves.at(-1);
    if (last) {
      // The present's board nearest to where the last move ended.
      const end = Number(last.trim().split(/[\sA-Z]+/).filter(Boolean).at(-1));
      y = rows.reduce((best, row) => (Math.abs(row - end) < Math.abs(best - end) ? row : best), end);
    }
    return {x, y};
  }

  // The zoom at which a square is readable, or larger when the whole picture fits.
  function openingZoom() {
    const readable = (frame.clientWidth >= 700 ? 20 : 15) / model.square;
    return Math.min(Math.max(readable, fitZoom()), Math.max(readable, 1));
  }
  function fitZoom() {
    const width = Math.max(1, frame.clientWidth - kStripWidth - 4);
    const height = Math.max(1, Number(frame.dataset.maxHeight) - kStripHeight - 4);
    return Math.min(width / (model.width - model.left), height / (model.height - model.top));
  }
  function clampZoom(value) {
    return Math.min(kMaxZoom, Math.max(kMinZoom, value));
  }

  function centreOn(point) {
    frame.scrollLeft = toX(point.x) - (frame.clientWidth + kStripWidth) / 2;
    frame.scrollTop = toY(point.y) - (frame.clientHeight + kStripHeight) / 2;
  }
  function centreOnPresent() {
    centreOn(playPoint());
  }
  function fitAll() {
    zoom = clampZoom(fitZoom());
    place();
    frame.scrollLeft = 0;
    frame.scrollTop = 0;
  }
  // Zooms to `value` keeping the scene point under (fx, fy) of the frame in place (the centre
  // when not given).
  function zoomAbout(value, fx, fy) {
    if (!model) return;
    if (fx === undefined) {
      fx = (frame.clientWidth + kStripWidth) / 2;
      fy = (frame.clientHeight + kStripHeight) / 2;
    }
    const x = fromX(frame.scrollLeft + fx);
    const y = fromY(frame.scrollTop + fy);
    zoom = clampZoom(value);
    place();
    frame.scrollLeft = toX(x) - fx;
    frame.scrollTop = toY(y) - fy;
  }

  function frameHeight() {
    const narrow = window.innerWidth <= 760;
    frame.dataset.maxHeight = String(Math.round(window.innerHeight * (narrow ? 0.6 : 0.72)));
  }

  // Dragging with the mouse or one finger scrolls; two fingers zoom about their middle.
  const pointers = new Map();
  let pinch = null;
  frame.addEventListener('pointerdown', (event) => {
    if (event.pointerType === 'mouse' && event.button !== 0) return;
    pointers.set(event.pointerId, {x: event.clientX, y: event.clientY});
    frame.setPointerCapture(event.pointerId);
    frame.classList.add('dragging');
  });
  frame.addEventListener('pointermove', (event) => {
    const last = pointers.get(event.pointerId);
    if (!last) return;
    const now = {x: event.clientX, y: event.clientY};
    if (pointers.size === 1) {
      frame.scrollLeft -= now.x - last.x;
      frame.scrollTop -= now.y - last.y;
    }
    pointers.set(event.pointerId, now);
    if (pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      const distance = Math.hypot(a.x - b.x, a.y - b.y);
      const box = frame.getBoundingClientRect();
      const middle = {x: (a.x + b.x) / 2 - box.left, y: (a.y + b.y) / 2 - box.top};
      if (pinch) zoomAbout(zoom * distance / pinch, middle.x, middle.y);
      pinch = distance;
    }
  });
  const release = (event) => {
    pointers.delete(event.pointerId);
    pinch = null;
    if (pointers.size === 0) frame.classList.remove('dragging');
  };
  frame.addEventListener('pointerup', release);
  frame.addEventListener('pointercancel', release);
  frame.addEventListener('wheel', (event) => {
    if (!event.ctrlKey) return;  // a plain wheel scrolls; Ctrl + wheel and pinches zoom
    event.preventDefault();
    const box = frame.getBoundingClientRect();
    zoomAbout(zoom * Math.exp(-event.deltaY / 300), event.clientX - box.left, event.clientY - box.top);
  }, {passive: false});
  frame.addEventListener('keydown', (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const step = () => ({x: frame.clientWidth / 4, y: frame.clientHeight / 4});
    const actions = {
      '+': () => zoomAbout(zoom * 1.25), '=': () => zoomAbout(zoom * 1.25),
      '-': () => zoomAbout(zoom / 1.25), '0': fitAll, 'p': centreOnPresent
    };
    // Shift + arrows move the view everywhere; the plain arrows scroll the frame as any
    // scrolling box does, except where the page gives them a meaning (a game steps with them).
    if (event.shiftKey) {
      Object.assign(actions, {
        ArrowLeft: () => frame.scrollBy(-step().x, 0), ArrowRight: () => frame.scrollBy(step().x, 0),
        ArrowUp: () => frame.scrollBy(0, -step().y), ArrowDown: () => frame.scrollBy(0, step().y)
      });
    }
    if (!(event.key in actions)) return;
    event.preventDefault();
    actions[event.key]();
  });
  window.addEventListener('resize', () => {
    if (!model) return;
    frameHeight();
    place();
  });

  return {
    frame,
    // Shows a picture (the JSON of /api/game/ID's position.picture or /api/position's picture),
    // described by `alt`. `same`: a position of the same game or line, whose view follows the
    // play from the one shown; otherwise the view opens on the present.
    show(picture, alt, same) {
      const before = model && same ? {
        zoom,
        play: playPoint(),
        screen: {x: toX(playPoint().x) - frame.scrollLeft, y: toY(playPoint().y) - frame.scrollTop},
        rows: new Map(model.rows.map((r) => [r.l, r.y])),
        anchor: model.rows.find((r) => fromY(frame.scrollTop + frame.clientHeight / 2) <= r.y + model.board_height) ||
            model.rows.at(-1),
      } : null;
      model = picture;
      frame.setAttribute('aria-label', alt);
      frameHeight();
      build();
      if (!before) {
        zoom = clampZoom(openingZoom());
        place();
        centreOnPresent();
        drawInView();
        return;
      }
      place();
      // The same timeline stays at the same height, and the present's column where it was.
      const anchor = model.rows.find((r) => r.l === before.anchor.l);
      if (anchor) frame.scrollTop += (anchor.y - before.anchor.y) * zoom;
      const play = playPoint();
      frame.scrollLeft = toX(play.x) - before.screen.x;
      // The play stays in view: scroll as little as brings it in.
      const px = toX(play.x) - frame.scrollLeft;
      const py = toY(play.y) - frame.scrollTop;
      const margin = 40;
      if (px < kStripWidth + margin || px > frame.clientWidth - margin) {
        frame.scrollLeft = toX(play.x) - (frame.clientWidth + kStripWidth) / 2;
      }
      if (py < kStripHeight + margin || py > frame.clientHeight - margin) {
        frame.scrollTop = toY(play.y) - (frame.clientHeight + kStripHeight) / 2;
      }
      drawInView();
    },
  };
};
