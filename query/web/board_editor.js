// The board editor of the board search page (patterns.js): boards on which people draw board
// patterns (docs/patterns.md) by clicking or typing, a palette of what a click puts, and each
// board's pattern text, kept in step with the board both ways.
//
// A board is a grid of tokens, one per square, as the pattern language writes them: a piece
// letter ("Q", "p", "K*" unmoved), "?" any square, "." empty, "!" any piece, "A"/"a" any
// white/black piece, "[QR]" one of, "[^Pp.]" none of. The text is made from the tokens (runs of
// empty squares as numbers, the pins as ":L:T:c"); typed text is read back into tokens here,
// but only once the server has read it (GET /api/pattern): the server is the authority on what
// a pattern means, and its message says what is wrong with one that does not read.
//
// Keyboard: Tab reaches a board (one stop per board), the arrow keys move between its squares,
// Enter or Space puts the palette's choice, Delete or Backspace clears a square to "?", and a
// token's own character (Q, p, ., ?, !, A, a) chooses it and puts it; "*" marks a pawn, brawn,
// king or rook unmoved. The mouse: a click puts, a shift-click adds to the square's "one of"
// set, a right-click clears.
'use strict';

const fivedBoards = (() => {
  const {el, fill, api, busy} = fived;

  const kFiles = 'abcdefghijklmnop';
  const kPieceNames = {
    K: 'king',
    Q: 'queen',
    R: 'rook',
    B: 'bishop',
    N: 'knight',
    P: 'pawn',
    S: 'princess',
    W: 'brawn',
    C: 'common king',
    Y: 'royal queen',
    U: 'unicorn',
    D: 'dragon',
  };
  // The classical pieces' Unicode symbols; the 5D-only pieces are letters in discs, as in the
  // server's pictures (query/picture.h).
  const kSymbols = {
    K: '\u2654',
    Q: '\u2655',
    R: '\u2656',
    B: '\u2657',
    N: '\u2658',
    P: '\u2659',
    k: '\u265A',
    q: '\u265B',
    r: '\u265C',
    b: '\u265D',
    n: '\u265E',
    p: '\u265F',
  };
  const kTracksUnmoved = 'PWKR';  // only these carry the unmoved mark
  const kClassNames = {
    '?': 'any square',
    '.': 'empty',
    '!': 'any piece',
    'A': 'any white piece',
    'a': 'any black piece',
  };

  const isPiece = (token) => /^[KQRBNPSWCYUD]\*?$/i.test(token);
  // The items of a "[..]" or "[^..]" token, or null for another token.
  function setOf(token) {
    if (!token.startsWith('[')) return null;
    const negated = token[1] === '^';
    const inner = token.slice(negated ? 2 : 1, -1);
    return {negated, items: inner.match(/[A-Za-z]\*?|[.!]/g) || []};
  }
  function makeSet(items, negated) {
    if (!negated && items.length === 1) return items[0];
    return `[${negated ? '^' : ''}${items.join('')}]`;
  }

  // A token in words: "unmoved white king", "one of: white queen, white rook".
  function describe(token) {
    if (token in kClassNames) return kClassNames[token];
    if (isPiece(token)) {
      const letter = token[0];
      const white = letter === letter.toUpperCase();
      return `${token.endsWith('*') ? 'unmoved ' : ''}${white ? 'white' : 'black'} ${
          kPieceNames[letter.toUpperCase()]}`;
    }
    const set = setOf(token);
    if (set) return `${set.negated ? 'none of' : 'one of'}: ${set.items.map(describe).join(', ')}`;
    return token;
  }

  // How a token looks on a square and in the palette.
  function glyph(token) {
    const set = setOf(token);
    if (set) {
      return el(
          'span', {class: 'glyph set' + (set.negated ? ' negated' : '')},
          set.negated ? el('span', {class: 'not'}, '¬') : null, set.items.map(glyph));
    }
    if (isPiece(token)) {
      const letter = token[0];
      const white = letter === letter.toUpperCase();
      const mark = token.endsWith('*') ? el('span', {class: 'unmoved'}, '*') : null;
      if (letter in kSymbols) {
        return el('span', {class: 'glyph piece'}, kSymbols[letter] + '\uFE0E', mark);
      }
      return el('span', {class: `glyph disc ${white ? 'white' : 'black'}`}, letter, mark);
    }
    const kinds =
        {'?': 'any', '.': 'empty', '!': 'class', 'A': 'disc white class', 'a': 'disc black class'};
    return el('span', {class: 'glyph ' + (kinds[token] || 'any')}, token === '.' ? '·' : token);
  }

  // The pattern text of a board: ranks from the top, runs of empty squares as numbers, the pins
  // when any is set.
  function patternText(board) {
    const ranks = [];
    for (let r = 0; r < board.ranks; r++) {
      let text = '';
      let empties = 0;
      for (let f = 0; f < board.files; f++) {
        const token = board.squares[r * board.files + f];
        if (token === '.') {
          empties += 1;
          continue;
        }
        if (empties > 0) text += empties;
        empties = 0;
        text += token;
      }
      if (empties > 0) text += empties;
      ranks.push(text);
    }
    const {timeline, turn, colour} = board.pins;
    const pinned = timeline || turn || colour;
    return ranks.join('/') + (pinned ? `:${timeline || '*'}:${turn || '*'}:${colour || '*'}` : '');
  }

  // A board from a pattern the server has read (or a 5DFEN board's pieces): {files, ranks,
  // squares, pins}; null when it does not split into squares here (the server has the last
  // word on that).
  function readPattern(text) {
    let body = String(text).trim();
    // The enclosing brackets of a 5DFEN board, as core/pattern.cc tells them from a set: the
    // '[' that opens the text closes at its end, and holds a '/' or ':' of its own or a set.
    if (body.startsWith('[') && body.endsWith(']')) {
      let depth = 0, own = false, holdsSet = false, close = -1;
      for (let i = 0; i < body.length && close < 0; i++) {
        const c = body[i];
        if (c === '[') {
          depth += 1;
          if (depth >= 2) holdsSet = true;
        } else if (c === ']') {
          depth -= 1;
          if (depth === 0) close = i;
        } else if ((c === '/' || c === ':') && depth === 1) {
          own = true;
        }
      }
      if (close === body.length - 1 && (own || holdsSet)) body = body.slice(1, -1);
    }
    const colon = body.indexOf(':');
    const pieces = colon < 0 ? body : body.slice(0, colon);
    const pins = colon < 0 ? ['*', '*', '*'] : body.slice(colon + 1).split(':');
    if (pins.length !== 3) return null;
    const rows = [];
    for (const rank of pieces.split('/')) {
      const row = [];
      const tokens = rank.match(/\d+|\[[^\]]*\]|[A-Za-z]\*?|[?!]|./g) || [];
      for (const token of tokens) {
        if (/^\d+$/.test(token)) {
          for (let k = 0; k < Number(token); k++) row.push('.');
        } else if (isPiece(token) || token in kClassNames || setOf(token)) {
          row.push(token);
        } else {
          return null;
        }
      }
      rows.push(row);
    }
    const files = rows[0].length;
    if (files === 0 || rows.some((row) => row.length !== files)) return null;
    const pin = (value) => (value === '*' ? '' : value);
    return {
      files,
      ranks: rows.length,
      squares: rows.flat(),
      pins: {timeline: pin(pins[0]), turn: pin(pins[1]), colour: pin(pins[2])},
    };
  }

  function blankBoard(files, ranks, token) {
    return {
      files,
      ranks,
      squares: new Array(files * ranks).fill(token || '?'),
      pins: {timeline: '', turn: '', colour: ''},
    };
  }

  // The editor in `hosts.palette` and `hosts.boards`. options.onChange() is called after every
  // change of a board (drawn, typed, resized).
  function editor(hosts, options) {
    const chosen = {token: 'P', unmoved: false, mode: 'put'};
    // Each {files, ranks, squares, pins, text (as typed or drawn), error (the server's, while the
    // text does not read), focus (the square Tab reaches), timer, checking and pending (the check
    // waiting to be asked, the last asked, and its promise)}.
    let boards = [];
    let sources = {};  // name -> {pieces, label}: boards the buttons copy (the variant's start...)

    // The token a click puts: the palette's choice, unmoved when asked and it can be.
    function chosenToken() {
      const t = chosen.token;
      return chosen.unmoved && kTracksUnmoved.includes(t.toUpperCase()) ? t + '*' : t;
    }

    // ---- The palette ----
    const paletteButtons = [];
    function tokenButton(token) {
      const button =
          el('button', {
            type: 'button',
            class: 'token',
            'data-token': token,
            title: describe(token) + ` (${token})`,
            'aria-label': describe(token),
            'aria-pressed': 'false',
            onclick: () => choose(token),
          },
             glyph(token));
      paletteButtons.push(button);
      return button;
    }
    function choose(token) {
      chosen.token = token;
      for (const button of paletteButtons) {
        button.setAttribute('aria-pressed', String(button.dataset.token === token));
      }
    }
    const row = (label, tokens) =>
        el('div', {class: 'palette-row'}, el('span', {class: 'row-label'}, label),
           tokens.map(tokenButton));
    const unmoved = el('input', {
      type: 'checkbox',
      name: 'unmoved',
      onchange: () => {
        chosen.unmoved = unmoved.checked;
      }
    });
    const mode = (value, label, title) =>
        el('label', {class: 'check', title}, el('input', {
             type: 'radio',
             name: 'mode',
             value,
             checked: value === 'put',
             onchange: () => {
               chosen.mode = value;
             }
           }),
           label);
    const pieces = Object.keys(kPieceNames);
    fill(
        hosts.palette,
        el('div', {class: 'palette-rows', role: 'group', 'aria-label': 'What a click puts'},
           row('White', pieces), row('Black', pieces.map((p) => p.toLowerCase())),
           row('Other', ['.', '?', '!', 'A', 'a'])),
        el('div', {class: 'palette-options'},
           el('label',
              {class: 'check', title: 'Pawns, brawns, kings and rooks that have not moved'},
              unmoved, 'unmoved (P, W, K, R)'),
           el('span', {class: 'modes', role: 'radiogroup', 'aria-label': 'A click'},
              mode('put', 'puts it', 'A click puts the chosen piece or wildcard on the square'),
              mode(
                  'one-of', 'adds it to a "one of" set',
                  'The square matches any of the pieces in its set (shift-click does this too)'),
              mode(
                  'none-of', 'adds it to a "none of" set',
                  'The square matches anything but the pieces in its set'))),
        el('p', {class: 'note hint'},
           'Click a square to put the chosen piece or wildcard there; shift-click adds it to the ' +
               'square\'s "one of" set; right-click or Delete clears the square back to ?. ' +
               'With the keyboard: Tab to a board, arrows to move, Enter to put, or type a piece ' +
               'letter (upper case white, lower case black).'));
    choose(chosen.token);

    // ---- Changing squares ----
    function put(board, index, token, how) {
      const old = board.squares[index];
      if (how === 'put' || token === '?') {
        board.squares[index] = token;
        return;
      }
      const set = setOf(old);
      if (how === 'one-of') {
        if (old === '?' || (set && set.negated)) {
          board.squares[index] = token;
        } else {
          const items = set ? set.items : [old];
          if (!items.includes(token)) items.push(token);
          board.squares[index] = makeSet(items, false);
        }
      } else {
        const items = set && set.negated ? set.items : [];
        if (!items.includes(token)) items.push(token);
        board.squares[index] = makeSet(items, true);
      }
    }
    // Marks or unmarks the piece on a square as unmoved ('*' key).
    function toggleUnmoved(board, index) {
      const token = board.squares[index];
      if (!isPiece(token) || !kTracksUnmoved.includes(token[0].toUpperCase())) return;
      board.squares[index] = token.endsWith('*') ? token[0] : token + '*';
    }

    // ---- Drawing a board ----
    function squareName(board, index) {
      const file = index % board.files;
      const rank = board.ranks - Math.floor(index / board.files);
      return kFiles[file] + rank;
    }
    function squareButton(board, index) {
      const file = index % board.files;
      const rank = board.ranks - 1 - Math.floor(index / board.files);  // from the bottom
      const name = squareName(board, index);
      const token = board.squares[index];
      return el(
          'button', {
            type: 'button',
            class: `square ${(file + rank) % 2 === 0 ? 'dark' : 'light'}`,
            'data-square': name,
            'data-index': index,
            'data-token': token,
            tabindex: index === board.focus ? '0' : '-1',
            title: `${name}: ${describe(token)}`,
            'aria-label': `${name}: ${describe(token)}`,
          },
          glyph(token));
    }

    // The board's section: its grid, text, error, pins and buttons. Rebuilt whole on every
    // change: a board is at most 256 small buttons.
    function render(index, focus) {
      const board = boards[index];
      const section = hosts.boards.querySelector(`.board-editor[data-board="${index}"]`);
      const grid = el('div', {
        class: 'board-grid',
        role: 'group',
        'aria-label': `Board ${index + 1}, ${board.files} by ${board.ranks} squares`,
      });
      grid.style.setProperty('--files', board.files);
      for (let r = 0; r < board.ranks; r++) {
        grid.appendChild(
            el('span', {class: 'rank-label', 'aria-hidden': 'true'}, String(board.ranks - r)));
        for (let f = 0; f < board.files; f++)
          grid.appendChild(squareButton(board, r * board.files + f));
      }
      grid.appendChild(el('span', {'aria-hidden': 'true'}));
      for (let f = 0; f < board.files; f++) {
        grid.appendChild(el('span', {class: 'file-label', 'aria-hidden': 'true'}, kFiles[f]));
      }
      grid.addEventListener('click', (event) => {
        const square = event.target.closest('button.square');
        if (!square) return;
        const how = event.shiftKey ? 'one-of' : chosen.mode;
        change(index, Number(square.dataset.index), (b, i) => put(b, i, chosenToken(), how));
      });
      grid.addEventListener('contextmenu', (event) => {
        const square = event.target.closest('button.square');
        if (!square) return;
        event.preventDefault();
        change(index, Number(square.dataset.index), (b, i) => put(b, i, '?', 'put'));
      });
      grid.addEventListener('keydown', (event) => keyOnSquare(index, event));

      const text = el('input', {
        class: 'pattern-text',
        name: `pattern-${index}`,
        spellcheck: 'false',
        autocomplete: 'off',
        autocapitalize: 'off',
        'aria-label': `Board ${index + 1} as a pattern`,
        value: board.text,
      });
      text.addEventListener('input', () => {
        board.text = text.value;
        check(index);
      });
      const error = el('p', {class: 'pattern-error', role: 'alert', hidden: !board.error});
      if (board.error) fill(error, errorView(board));

      const pin = (name, label, attributes) =>
          el('label', {}, label,
             el('input',
                Object.assign(
                    {
                      name: `${name}-${index}`,
                      'data-pin': name,
                      value: board.pins[name],
                      placeholder: 'any',
                      autocomplete: 'off',
                      oninput: (event) => pinChanged(index, name, event.target.value),
                    },
                    attributes)));
      const colour =
          el('select', {
            name: `colour-${index}`,
            'data-pin': 'colour',
            onchange: (event) => pinChanged(index, 'colour', event.target.value)
          },
             [['', 'any'], ['w', 'white'], ['b', 'black']].map(
                 ([value, label]) =>
                     el('option', {value, selected: board.pins.colour === value}, label)));

      const button = (label, title, action, name) =>
          el('button', {type: 'button', title, 'data-action': name, onclick: action}, label);
      const fillWith = (token) => () => change(index, null, (b) => b.squares.fill(token));
      const copy = (source) => () => {
        const read = readPattern(source.pieces);
        if (!read) return;
        change(
            index, null,
            (b) => Object.assign(b, {files: read.files, ranks: read.ranks, squares: read.squares}));
      };
      const buttons = [
        button('Clear', 'Every square ? (anything)', fillWith('?'), 'clear'),
        button('Empty board', 'Every square empty', fillWith('.'), 'empty'),
        sources.start ?
            button('Variant\'s start', sources.start.label, copy(sources.start), 'start') :
            null,
        sources.from ?
            button('From the position shown', sources.from.label, copy(sources.from), 'from') :
            null,
        boards.length > 1 ?
            button('Remove', 'Remove this board from the search', () => remove(index), 'remove') :
            null,
      ];

      fill(
          section,
          el('h2', {}, `Board ${index + 1}`,
             el('span', {class: 'note'}, ` · ${board.files}×${board.ranks}`)),
          grid, el('label', {class: 'pattern-label'}, 'Pattern', text), error,
          el('div', {class: 'pins'}, pin('timeline', 'Timeline', {size: 4}),
             pin('turn', 'Turn', {size: 4, inputmode: 'numeric'}),
             el('label', {}, 'To play', colour)),
          el('div', {class: 'board-buttons'}, buttons));
      if (focus !== undefined) {
        const target = grid.querySelector(`button.square[data-index="${focus}"]`);
        if (target) target.focus();
      }
    }

    // The text of a pattern error with the character it is about marked.
    function errorView(board) {
      const {reason, column, text} = board.error;
      const at = Math.max(0, Math.min(text.length, column - 1));
      return [
        `${reason} (column ${column}): `,
        el('code', {}, text.slice(0, at), el('mark', {}, text.slice(at, at + 1) || ' '),
           text.slice(at + 1)),
      ];
    }

    function renderAll() {
      fill(
          hosts.boards,
          boards.map(
              (board, i) =>
                  el('section',
                     {class: 'board-editor', 'data-board': i, 'aria-label': `Board ${i + 1}`})));
      boards.forEach((board, i) => render(i));
    }

    // Applies `how(board, square)` to a board (square null: the whole board), then shows it and
    // its new text.
    function change(index, square, how) {
      const board = boards[index];
      if (square !== null) board.focus = square;
      how(board, square);
      board.text = patternText(board);
      board.error = null;
      render(index, square === null ? undefined : square);
      check(index);
      options.onChange();
    }
    function pinChanged(index, name, value) {
      const board = boards[index];
      board.pins[name] = value.trim();
      board.text = patternText(board);
      board.error = null;
      const text = hosts.boards.querySelector(`.board-editor[data-board="${index}"] .pattern-text`);
      text.value = board.text;
      check(index);
      options.onChange();
    }

    function keyOnSquare(index, event) {
      const square = event.target.closest('button.square');
      if (!square || event.ctrlKey || event.metaKey || event.altKey) return;
      const board = boards[index];
      const at = Number(square.dataset.index);
      const file = at % board.files;
      const row = Math.floor(at / board.files);
      const moves = {
        ArrowLeft: file > 0 ? at - 1 : at,
        ArrowRight: file < board.files - 1 ? at + 1 : at,
        ArrowUp: row > 0 ? at - board.files : at,
        ArrowDown: row < board.ranks - 1 ? at + board.files : at,
        Home: row * board.files,
        End: row * board.files + board.files - 1,
      };
      if (event.key in moves) {
        event.preventDefault();
        square.tabIndex = -1;
        board.focus = moves[event.key];
        const next = square.parentNode.querySelector(`button.square[data-index="${board.focus}"]`);
        next.tabIndex = 0;
        next.focus();
      } else if (event.key === 'Delete' || event.key === 'Backspace') {
        event.preventDefault();
        change(index, at, (b, i) => put(b, i, '?', 'put'));
      } else if (event.key === '*') {
        event.preventDefault();
        change(index, at, toggleUnmoved);
      } else if (event.key.length === 1 && (event.key in kClassNames || isPiece(event.key))) {
        event.preventDefault();
        choose(event.key);
        change(index, at, (b, i) => put(b, i, event.key, chosen.mode));
      }
    }

    // ---- Typed text: read by the server, then here ----
    let checks = 0;
    // Asks the server to read a board's text a moment after its last change.
    function check(index) {
      const board = boards[index];
      clearTimeout(board.timer);
      board.timer = setTimeout(() => read(board), 250);
    }
    // Asks now, then shows the board the text reads as (typed text) or where it goes wrong.
    function read(board) {
      board.timer = null;
      const text = board.text;
      const mine = ++checks;
      board.checking = mine;
      // An answer about a text the board no longer has would undo what was drawn since.
      const stale = () => board.checking !== mine || board.text !== text || !boards.includes(board);
      board.pending = busy(api('/api/pattern', {pattern: text})
                               .then(() => {
                                 if (stale()) return;
                                 const typed = readPattern(text);
                                 const same = typed && typed.files === board.files &&
                                     typed.ranks === board.ranks &&
                                     typed.squares.join() === board.squares.join() &&
                                     JSON.stringify(typed.pins) === JSON.stringify(board.pins);
                                 // Drawn here: the board shows it already.
                                 if (same && !board.error) return;
                                 if (typed) Object.assign(board, typed);
                                 board.error = null;
                                 renderKeepingText(boards.indexOf(board));
                                 options.onChange();
                               })
                               .catch((failure) => {
                                 if (stale()) return;
                                 const answer = failure.answer || {};
                                 board.error = {
                                   reason: answer.reason || failure.message,
                                   column: answer.column || 1,
                                   text,
                                 };
                                 renderKeepingText(boards.indexOf(board));
                               }));
      return board.pending;
    }
    // Shows a board again without disturbing someone typing its text.
    function renderKeepingText(index) {
      const active = document.activeElement;
      const typing =
          active && active.classList && active.closest(`.board-editor[data-board="${index}"]`) ?
          active :
          null;
      const name = typing ? typing.getAttribute('name') : null;
      const selection = typing && typing.selectionStart !== undefined ?
          [typing.selectionStart, typing.selectionEnd] :
          null;
      const focusSquare =
          typing && typing.classList.contains('square') ? Number(typing.dataset.index) : undefined;
      render(index, focusSquare);
      if (name) {
        const again =
            hosts.boards.querySelector(`.board-editor[data-board="${index}"] [name="${name}"]`);
        if (again) {
          again.focus();
          if (selection && again.setSelectionRange) again.setSelectionRange(...selection);
        }
      }
    }

    function remove(index) {
      boards.splice(index, 1);
      renderAll();
      options.onChange();
    }

    function adopt(board) {
      return Object.assign(board, {text: patternText(board), error: null, focus: 0});
    }

    return {
      // The boards' pattern texts, in order.
      patterns: () => boards.map((board) => board.text),
      // The boards whose text the server refused, as [index, error] (settled() first, for the
      // latest texts).
      errors: () => boards.map((board, i) => [i, board.error]).filter(([, error]) => error),
      size: () => (boards.length ? {files: boards[0].files, ranks: boards[0].ranks} : null),
      // Replaces the boards by these patterns (texts the server has read, or 5DFEN pieces), or
      // by one board of "?" of the given size when there are none.
      load(patterns, files, ranks) {
        boards = patterns.map((text) => {
          const read = readPattern(text);
          if (!read) {
            const board = adopt(blankBoard(files, ranks));
            board.text = text;
            return board;
          }
          const board = adopt(read);
          board.text = text;
          return board;
        });
        if (boards.length === 0) boards.push(adopt(blankBoard(files, ranks)));
        renderAll();
      },
      // Resolves once the server has read every board's latest text (asking at once for those
      // still waiting), so that errors() is complete.
      settled() {
        return Promise.all(boards.map((board) => {
          if (!board.timer) return board.pending;
          clearTimeout(board.timer);
          return read(board);
        }));
      },
      add(files, ranks) {
        boards.push(adopt(blankBoard(files, ranks)));
        renderAll();
        const last = hosts.boards.querySelector(
            `.board-editor[data-board="${boards.length - 1}"] button.square`);
        if (last) last.focus();
        options.onChange();
      },
      // Gives every board this size: squares keep their place from a1, new ones are "?".
      resize(files, ranks) {
        for (const board of boards) {
          if (board.files === files && board.ranks === ranks) continue;
          const squares = [];
          for (let r = 0; r < ranks; r++) {
            const fromBottom = ranks - 1 - r;
            for (let f = 0; f < files; f++) {
              const oldRow = board.ranks - 1 - fromBottom;
              const inside = f < board.files && oldRow >= 0;
              squares.push(inside ? board.squares[oldRow * board.files + f] : '?');
            }
          }
          Object.assign(board, {files, ranks, squares, focus: 0});
          board.text = patternText(board);
          board.error = null;
        }
        renderAll();
        options.onChange();
      },
      // Boards the buttons copy: name ("start", "from") -> {pieces, label}, or null to drop one.
      setSource(name, source) {
        if (source) {
          sources[name] = source;
        } else {
          delete sources[name];
        }
        boards.forEach((board, i) => render(i));
      },
      // Shows the server's error about the board at `index`.
      showError(index, column, reason) {
        const board = boards[index];
        if (!board) return;
        board.error = {reason, column, text: board.text};
        render(index);
      },
    };
  }

  return {editor, readPattern, patternText, describe};
})();
