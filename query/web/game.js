// A game: its headers, its moves and the multiverse after the selected action with that
// action's moves drawn as arrows. The buttons and the arrow keys step through it (Home and End
// jump to the start and the end); the action is kept in the address (?action=N), so that a
// moment of a game can be bookmarked. Every answer of /api/game/ID is kept, so that stepping
// back asks nothing again.
//
// An action the game does not have goes to the nearest it has: one past the end to the end, one
// below zero to the start; an address whose action is no number opens on the end, as one
// without an action does.
//
// Boards named in the address (?mark=+1:5:b, repeatable: the board editor's results name the
// boards their patterns matched) are outlined in the picture at every action that has them.
// Under the picture, a board of the position can be chosen (it is marked then) and searched for
// in the board editor.
'use strict';

(() => {
  const {el, fill, api, busy, showError, whenIdle} = fived;
  const id = decodeURIComponent(location.pathname.split('/').pop());
  const answers = new Map();  // key(action) -> /api/game/ID?action=N&mark=...
  let game = null;            // the last answer shown
  let viewer = null;
  let wanted = 0;  // the action asked for last; older answers are not shown, and steps count from it
  let direction = -1;  // the way of the last step: 1 forward, -1 back (games open at their end)
  let shown = false;  // whether a picture of the game is on screen (the view then follows the play)
  let marks = new URLSearchParams(location.search).getAll('mark');

  // The answer for an action with the boards marked now; null asks for the end.
  function key(action) {
    return JSON.stringify([action, marks]);
  }
  function load(action) {
    if (!answers.has(key(action))) {
      const params = {action: action === null ? '' : action, mark: marks};
      answers.set(key(action), api(`/api/game/${encodeURIComponent(id)}`, params));
    }
    return answers.get(key(action));
  }

  // The player's name, or "?" for a game without one.
  const name = (text) => (text ? text : '?');

  function showGame(answer) {
    document.title = `${name(answer.white)} – ${name(answer.black)} · 5dpgn-db`;
    fill(
        document.getElementById('title'),
        el('span', {class: 'player white-player'}, name(answer.white)), ' – ',
        el('span', {class: 'player black-player'}, name(answer.black)),
        answer.result ? el('span', {class: 'result'}, ` ${answer.result}`) : null);
    const parts = [
      answer.event, answer.date, answer.variant,
      `${answer.actions} action${answer.actions === 1 ? '' : 's'}`,
      `${answer.timelines} timeline${answer.timelines === 1 ? '' : 's'}`
    ];
    if (answer.duplicate_of !== null) parts.push(`a copy of game ${answer.duplicate_of}`);
    fill(document.getElementById('subtitle'), parts.filter(Boolean).join(' · '));
    const rows = Object.entries(answer.headers)
                     .map(
                         ([header, value]) =>
                             el('tr', {}, el('th', {scope: 'row'}, header), el('td', {}, value)));
    fill(document.querySelector('#headers tbody'), rows);
    // The file's name only: where it lies on the server is no business of the page's readers.
    const file = String(answer.source || '').split(/[\\/]/).pop();
    fill(
        document.getElementById('source'),
        `Game ${answer.game_index} of ${answer.member ? `${file}:${answer.member}` : file}, byte ${
            answer.byte_offset}. Id ${answer.id}.`);
    let ending = answer.verdict ? answer.verdict : 'not decided';
    if (answer.in_check) ending += `, ${answer.in_check} in check`;
    if (answer.witness) ending += `; a legal action: ${answer.witness}`;
    if (answer.result_conflict) ending += '; contradicts the result';
    fill(document.getElementById('ending'), ending);
    const download = document.getElementById('download');
    download.href = `/api/game/${encodeURIComponent(answer.id)}.5dpgn`;
    download.setAttribute('download', `game-${answer.id}.5dpgn`);
  }

  // Who played the first action: actions alternate, and position.to_move names who plays the
  // action after the one shown.
  function firstMover(answer) {
    const next = answer.position.to_move;
    const other = next === 'white' ? 'black' : 'white';
    return answer.position.action % 2 === 0 ? next : other;
  }

  // The move list, built once per game; a step only moves its highlight.
  let listed = null;  // the answer whose moves the list shows
  function showMoves(answer) {
    const current = answer.position.action;
    if (listed && listed.id === answer.id && listed.actions === answer.actions) {
      for (const item of document.querySelectorAll('#moves li.current')) {
        item.classList.remove('current');
        item.querySelector('a').removeAttribute('aria-current');
      }
      const item = document.querySelector(`#moves li[data-action="${current}"]`);
      if (item) {
        item.classList.add('current');
        item.querySelector('a').setAttribute('aria-current', 'step');
        showInListSoon(item);
      }
      return;
    }
    listed = answer;
    const first = firstMover(answer);
    // Mates in one (a database made with 5d-index --tactics): the action played from a position
    // with a mate, n = its action + 1, found it or missed it.
    const mates = new Map();
    for (const mate of answer.mates || []) {
      if (mate.played) mates.set(mate.action + 1, mate);
    }
    const mark = (n) => {
      const mate = mates.get(n);
      if (!mate) return null;
      const found = mate.played === 'found';
      const title = found ? 'a mate in one, found' :
                            `a mate in one missed: ${mate.solution}` +
              (mate.solutions > 1 ? ` (one of ${mate.solutions})` : '');
      return el('span', {class: found ? 'mate found' : 'mate missed', title}, found ? '#' : '#?');
    };
    const items = answer.moves.map((moves, i) => {
      const n = i + 1;
      return el(
          'li', {'data-action': n, class: n === current ? 'current' : null},
          el('span', {class: 'number'}, fived.actionNumber(i, first)),
          el('a', {
            href: fived.gameHref(answer.id, n),
            'aria-current': n === current ? 'step' : null,
            onclick: (event) => {
              event.preventDefault();
              goTo(n);
            }
          },
             moves.join(' ')),
          mark(n));
    });
    fill(document.getElementById('moves'), items);
    const note = document.getElementById('mates-note');
    note.textContent = answer.mates_note || '';
    note.hidden = !answer.mates_note;
    const selected = document.querySelector('#moves li.current');
    if (selected) showInListSoon(selected);
  }

  // showInList at the next frame, when the browser lays the page out anyway: measuring the
  // list's lines now, after the picture changed, would make it lay the page out twice for one
  // step (10 ms and more on a game of many timelines).
  let listFrame = 0;
  function showInListSoon(item) {
    cancelAnimationFrame(listFrame);
    listFrame = requestAnimationFrame(() => {
      if (item.isConnected) showInList(item);
    });
  }

  // Scrolls the move list (or `list`), and only it, so that `item` shows: scrollIntoView would
  // scroll the page too, away from the picture on a phone, where the list is under it.
  function showInList(item, list = document.getElementById('moves')) {
    const box = list.getBoundingClientRect();
    const line = item.getBoundingClientRect();
    if (line.top < box.top) {
      list.scrollTop -= box.top - line.top;
    } else if (line.bottom > box.bottom) {
      list.scrollTop += line.bottom - box.bottom;
    }
  }

  // The moves as Verbose Matrix Notation (/api/game/ID.vmn, asked for when first shown): a line
  // a turn, the turn of the action on screen highlighted.
  let view = 'list';
  let vmnText = null;  // a promise of the text
  function loadVmn() {
    if (!vmnText) {
      vmnText = fetch(`/api/game/${encodeURIComponent(id)}.vmn`).then(async (response) => {
        if (response.ok) return response.text();
        const body = await response.json().catch(() => null);
        throw new Error(body && body.error ? body.error : 'The matrix of this game did not load.');
      });
      vmnText.catch(() => {
        vmnText = null;
      });
    }
    return vmnText;
  }
  function showVmn(text) {
    const lines = text.split('\n').filter(Boolean).map((line) => {
      const label = line.slice(0, line.indexOf('[')).trim();
      return [
        el('span', {class: 'vmn-row', 'data-turn': label.startsWith('T') ? label.slice(1) : null},
           line),
        '\n'
      ];
    });
    fill(document.getElementById('vmn'), lines);
    markTurn();
  }
  // Highlights the row of the turn the action on screen was played in: that of the board its
  // first move left.
  function markTurn() {
    const host = document.getElementById('vmn');
    for (const row of host.querySelectorAll('.vmn-row.current')) row.classList.remove('current');
    const first = game && game.position.action > 0 ? game.position.last_moves[0] : '';
    const turn = /^\([+-]?\d+T(\d+)\)/.exec(first || '');
    const row = turn && host.querySelector(`.vmn-row[data-turn="${turn[1]}"]`);
    if (!row) return;
    row.classList.add('current');
    showInList(row, host);
  }
  function setView(name) {
    view = name;
    document.getElementById('view-list').setAttribute('aria-pressed', String(name === 'list'));
    document.getElementById('view-vmn').setAttribute('aria-pressed', String(name === 'vmn'));
    document.getElementById('moves').hidden = name !== 'list';
    document.getElementById('vmn').hidden = name !== 'vmn';
    if (name === 'vmn') busy(loadVmn().then(showVmn).catch((error) => showError(error.message)));
  }

  function showPosition(answer) {
    const position = answer.position;
    // The picture first, while the page's layout is that of the frame painted last: it reads
    // where its view is before changing it, and that read costs nothing then.
    const present = new Set(fived.boardsOfFen(position.fen).map((b) => b.board));
    const outlined = marks.filter((board) => present.has(board));
    viewer.show(
        position.picture,
        `The multiverse after action ${position.action}` +
            (outlined.length ? `, with ${outlined.map(fived.boardName).join(', ')} outlined` : ''),
        shown);
    shown = true;
    fill(document.getElementById('at'), `action ${position.action} of ${answer.actions}`);
    document.getElementById('at').dataset.action = position.action;
    const number =
        position.action > 0 ? fived.actionNumber(position.action - 1, firstMover(answer)) : '';
    fill(
        document.getElementById('last-moves'),
        position.action === 0 ?
            'The start; ' + position.to_move + ' to move.' :
            `${number} ${position.last_moves.join(' ')} · ${position.to_move} to move`);
    showMarks(answer, present);
    document.getElementById('first').disabled = position.action === 0;
    document.getElementById('previous').disabled = position.action === 0;
    document.getElementById('next').disabled = position.action === answer.actions;
    document.getElementById('last').disabled = position.action === answer.actions;
    fived.copyFen(document.getElementById('copy-fen'), position.fen);
    showExplore(answer);
  }

  // "Open this position in the explorer": the line played so far in the game's variant, or, for
  // a custom game, from its start (the 5DFEN of action 0, asked for once), which the explorer
  // offers as it offers variants.
  function showExplore(answer) {
    const explore = document.getElementById('explore');
    const action = answer.position.action;
    const line = fived.movetext(answer.moves.slice(0, action).map((moves) => moves.join(' ')));
    if (answer.variant !== 'custom') {
      explore.hidden = false;
      explore.href = '/' + fived.query({
        variant: answer.variant === 'Standard' ? '' : answer.variant,
        moves: line
      });
      return;
    }
    explore.hidden = true;
    load(0).then((start) => {
      if (!game || game.position.action !== action) return;
      explore.href = '/' + fived.query({state: start.position.fen, moves: line});
      explore.hidden = false;
    }).catch(() => answers.delete(key(0)));
  }

  // Which boards are outlined (of `present`, the position's boards as "L:T:c"), and the choice
  // of a board to search for.
  function showMarks(answer, present) {
    const position = answer.position;
    const there = marks.filter((board) => present.has(board));
    const missing = marks.filter((board) => !present.has(board));
    const names = (boards) => boards.map(fived.boardName).join(', ');
    fill(
        document.getElementById('marks'),
        there.length === 0 ? null : `Outlined in red: ${names(there)}.`,
        missing.length === 0 ?
            null :
            ` Not yet on the boards after action ${position.action}: ${names(missing)}.`);
    document.getElementById('marks').hidden = marks.length === 0;
    boardChoiceSoon(answer, there[0]);
  }

  // The board choice under the picture (a <select> of every board of the position, 375 on the
  // 120-timeline game) is brought up to date once the page is idle after the step (within 250
  // ms), once for quick presses: the options a step adds and removes cost a step of that game
  // about 3 ms of script and a style pass over them in the frame that shows it. The page is
  // ready (body[data-state]) only once the choice holds the position shown; resolves then.
  let choiceFor = null;  // {answer, selected}: the position the choice is to hold
  let choiceShown = null;
  function boardChoiceSoon(answer, selected) {
    choiceFor = {answer, selected};
    if (!choiceShown) {
      choiceShown = new Promise((resolve) => {
        whenIdle(() => {
          choiceShown = null;
          showBoardChoice(choiceFor.answer, choiceFor.selected);
          resolve();
        }, {timeout: 250});
      });
    }
    return choiceShown;
  }
  function showBoardChoice(answer, selected) {
    const position = answer.position;
    fived.boardSearch(document.getElementById('board-search'), position.fen, {
      variant: answer.variant === 'custom' ? '' : answer.variant,
      selected,
      describe: (board) =>
          `game ${answer.id} after action ${position.action}, board ${fived.boardName(board)}`,
      onChoose: (board) => {
        marks = [board];
        goTo(position.action);
      }
    });
  }

  function show(answer) {
    const start = performance.now();
    const first = !game || game.id !== answer.id;
    game = answer;
    showPosition(answer);
    // The headers are the game's, the same at every action; written after the picture, which
    // reads the page's layout before it changes.
    if (first) showGame(answer);
    showMoves(answer);
    if (view === 'vmn') markTurn();
    // The neighbours next, so that the next step shows without waiting for the server, and
    // the boards each would show drawn ahead while the page is idle, the way of the last step
    // first.
    const action = answer.position.action;
    for (const next of [action + direction, action - direction]) {
      if (next < 0 || next > answer.actions) continue;
      const asked = load(next);
      asked.then(
          (neighbour) => {
            if (game === answer) viewer.prepare(neighbour.position.picture);
          },
          () => {
            if (answers.get(key(next)) === asked) answers.delete(key(next));
          });
    }
    // When the page had the answer and how long it took to show it, kept for benchmarks
    // (scripts/bench-game-browser.py): the last step's only.
    performance.clearMeasures('game: show');
    performance.measure('game: show', {start});
  }

  // Writes `href` as the page's address once the page is idle after the step (within 250 ms),
  // once for quick presses; resolves then. history.replaceState waits on the browser (from 0.1
  // to 16 ms a call, measured in headless Chromium), which neither a step nor the frames after
  // it should wait for.
  let address = '';
  let addressWritten = null;
  function writeAddressSoon(href) {
    address = href;
    if (!addressWritten) {
      addressWritten = new Promise((resolve) => {
        whenIdle(() => {
          addressWritten = null;
          history.replaceState(null, '', address);
          resolve();
        }, {timeout: 250});
      });
    }
    return addressWritten;
  }

  // Shows the position after `action` (clamped to the game), keeping it in the address. The
  // page is ready (body[data-state]) once the address holds it too, and the board choice.
  function goTo(action) {
    if (game) action = Math.max(0, Math.min(game.actions, action));
    if (action !== wanted) direction = Math.sign(action - wanted);
    wanted = action;
    const written = writeAddressSoon(fived.gameHref(id, action, marks));
    showError('');
    loading(true);
    busy(load(action)
             .then((answer) => {
               if (wanted === action) show(answer);
             })
             .finally(() => {
               if (wanted === action) loading(false);
             })
             .catch((error) => {
               answers.delete(key(action));
               if (wanted === action) showError(error.message);
             })
             .then(() => Promise.all([written, choiceShown])));
  }

  // Says that the position asked for is on its way (a step not answered yet: the neighbours
  // are usually asked already, and then nothing shows).
  let loadingTimer = null;
  function loading(on) {
    clearTimeout(loadingTimer);
    const host = document.getElementById('picture');
    const note = document.getElementById('loading');
    if (!on) {
      host.removeAttribute('aria-busy');
      note.hidden = true;
      return;
    }
    // Only a wait long enough to see: a step answered at once (its neighbours are asked ahead)
    // neither flashes the note nor restyles the picture, which costs a frame on big games.
    loadingTimer = setTimeout(() => {
      host.setAttribute('aria-busy', 'true');
      note.hidden = false;
    }, 150);
  }

  // The action an address's ?action= asks for: a number, 0 for one below zero, null (the end)
  // for none or for text that is no number.
  function askedAction(text) {
    const asked = (text || '').trim();
    if (/^\d+$/.test(asked)) return Number(asked);
    if (/^-\d+$/.test(asked)) return 0;
    return null;
  }

  document.addEventListener('DOMContentLoaded', () => {
    viewer = fived.multiverse(document.getElementById('picture'));
    // Steps count from the action asked for last, not from the one on screen, so that quick
    // presses are never lost while an answer is on its way.
    const at = () => (game ? wanted : 0);
    document.getElementById('first').addEventListener('click', () => goTo(0));
    document.getElementById('previous').addEventListener('click', () => goTo(at() - 1));
    document.getElementById('next').addEventListener('click', () => goTo(at() + 1));
    document.getElementById('last').addEventListener('click', () => goTo(game ? game.actions : 0));
    document.getElementById('view-list').addEventListener('click', () => setView('list'));
    document.getElementById('view-vmn').addEventListener('click', () => setView('vmn'));
    document.addEventListener('keydown', (event) => {
      // Shift + arrows move the picture's view (picture.js).
      if (!game || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
      if (event.target.closest && event.target.closest('input, textarea, select')) return;
      const moves = {ArrowLeft: at() - 1, ArrowRight: at() + 1, Home: 0, End: game.actions};
      if (!(event.key in moves)) return;
      event.preventDefault();
      goTo(moves[event.key]);
    });
    const asked = new URLSearchParams(location.search).get('action');
    const first = askedAction(asked);
    wanted = first;
    // The server refuses an action past the game's end: the end is the nearest one.
    const opened = load(first).catch((error) => {
      if (first === null || error.status !== 400) throw error;
      answers.delete(key(first));
      return load(null);
    });
    loading(true);
    busy(opened
             .finally(() => loading(false))
             .then((answer) => {
               const action = answer.position.action;
               answers.set(key(action), Promise.resolve(answer));
               wanted = action;
               if (asked !== null && asked !== String(action)) {
                 history.replaceState(null, '', fived.gameHref(id, action, marks));
               }
               show(answer);
             })
             .then(() => choiceShown)
             .catch((error) => showError(error.message)));
  });
})();
