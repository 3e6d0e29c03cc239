// The opening explorer: the position after a line of actions in a variant, the actions played
// from it with their games and results, and the games that reached it. The line and the filters
// live in the page's address (the API's own parameter names: variant, moves, player, result,
// date-from, date-to; and page, and copies=1 when "hide copies" is unticked), so that a position can be
// bookmarked and shared and the back button walks back along the line.
//
// Custom games (a 5DFEN start that is no official variant) are explored from their start: the
// variant list offers each start of the database (GET /api/starts, grouped by start, with its
// size and the name a game's headers give), and the address holds it as state=5DFEN (the line
// is played from it; the counts are those of the custom games, variant=custom).
//
// Copies of earlier games (the same moves, and the same players, date and result where both
// games have them) are left out of the position's counts, as of every statistic; the list of
// games leaves them out too, so that it holds as many games as the position counts, unless
// "hide copies" is unticked, and it says how many copies there are.
//
// Under the picture, a board of the position can be chosen (the picture outlines it) and
// searched for in the board editor.
//
// Keyboard: the left arrow takes the last action back, the right arrow plays the most played
// action, up and down move between the actions of the list (Enter plays the one focused); after
// a step from the list the focus stays on the list. While a position loads the picture says so
// (aria-busy, "Loading the position…").
//
// A request the server refuses (a date that is none, a line that does not replay) clears the
// statistics and the games, which were those of the address before, marks the filter at fault
// and says what is wrong in the page's words.
'use strict';

(() => {
  const {el, fill, api, busy, showError, count, percent, dates, resultBar} = fived;
  const kFilters = ['player', 'result', 'date-from', 'date-to'];
  const kPageRows = 20;
  // What the page calls the parameters it has no field for, in messages.
  const kNames = {moves: 'The line played'};
  let viewer = null;
  let shownVariant = null;  // the variant of the picture on screen
  let generation = 0;  // answers to an older address than the page shows are dropped
  let focusList = false;  // whether the list of actions gets the focus once shown
  let refocus = null;     // a selector of what gets the focus once the games are shown again

  // The state of the page, from its address.
  function readState() {
    const params = new URLSearchParams(location.search);
    const start = (params.get('state') || '').trim();
    const state = {
      start,
      variant: start ? 'custom' : params.get('variant') || 'Standard',
      line: fived.splitMovetext(params.get('moves') || ''),
      page: Math.max(0, parseInt(params.get('page') || '0', 10) || 0),
      copies: params.get('copies') === '1',
    };
    for (const name of kFilters) state[name] = params.get(name) || '';
    return state;
  }
  // The API's parameters for a state (without paging).
  function apiParams(state) {
    const params = {variant: state.variant, moves: fived.movetext(state.line)};
    if (state.start) params.state = state.start;
    for (const name of kFilters) params[name] = state[name];
    return params;
  }
  function href(state) {
    const params = apiParams(state);
    if (params.variant === 'Standard' || state.start) delete params.variant;
    params.page = state.page > 0 ? state.page : '';
    params.copies = state.copies ? '1' : '';
    return '/' + fived.query(params);
  }
  // Goes to `state`: a new entry in the history, then the page shows it.
  function go(state) {
    fived.navigate(href(state));
    show();
  }

  // A link to another state that the page follows itself (and that opens in a new tab too).
  function link(state, attributes, ...children) {
    return el(
        'a',
        Object.assign(
            {
              href: href(state),
              onclick: (event) => {
                if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey) return;
                event.preventDefault();
                // A step from the list or the line keeps the focus there (the list is made anew).
                focusList = Boolean(event.currentTarget.closest('#actions, #line'));
                go(state);
              }
            },
            attributes),
        ...children);
  }

  function showLine(state) {
    const crumbs = [link(Object.assign({}, state, {line: [], page: 0}), {class: 'crumb'}, 'Start')];
    state.line.forEach((action, i) => {
      const prefix = Object.assign({}, state, {line: state.line.slice(0, i + 1), page: 0});
      crumbs.push(el('span', {class: 'separator', 'aria-hidden': 'true'}, '›'));
      crumbs.push(link(
          prefix, {class: 'crumb', 'aria-current': i === state.line.length - 1 ? 'step' : null},
          `${fived.actionNumber(i, 'white')} ${action}`));
    });
    fill(document.getElementById('line'), crumbs);
  }

  function showTree(state, tree) {
    const summary = document.getElementById('position');
    const toMove = state.line.length % 2 === 0 ? 'White' : 'Black';
    fill(
        document.getElementById('position-title'),
        state.line.length === 0 ?
            `${state.start ? startName(state.start) : state.variant}: the start` :
            `After ${state.line.length} action${state.line.length === 1 ? '' : 's'}`,
        el('span', {class: 'note'}, ` · ${toMove} to move`));
    fill(
        summary,
        el('span', {class: 'games-count'},
           `${count(tree.games)} game${tree.games === 1 ? '' : 's'}`),
        resultBar(tree),
        el('span', {class: 'score', title: 'White\'s score over the games with a result'},
           `score ${percent(tree.score)}`),
        el('span', {class: 'note'},
           `${count(tree.results)} with a result` +
               (tree.derived ? ` (${count(tree.derived)} from the ending)` : '')),
        el('span', {class: 'note'}, dates(tree.first_date, tree.last_date)));
    const rows = tree.actions.map((node) => {
      const next = Object.assign({}, state, {line: state.line.concat([node.action]), page: 0});
      return el(
          'tr', {'data-action': node.action},
          el('td', {class: 'action'}, link(next, {}, node.action)),
          el('td', {class: 'num games'}, count(node.games)),
          el('td', {class: 'num'}, percent(node.share)), el('td', {class: 'bar'}, resultBar(node)),
          el('td', {class: 'num'}, percent(node.score)),
          el('td', {class: 'dates'}, dates(node.first_date, node.last_date)));
    });
    fill(document.querySelector('#actions tbody'), rows);
    document.getElementById('no-actions').hidden = tree.actions.length > 0 || tree.games === 0;
    if (focusList) {
      focusList = false;
      const first = document.querySelector('#actions tbody td.action a');
      (first || document.getElementById('line')).focus({preventScroll: true});
    }
  }

  // `total` games are listed (the copies too when the state asks for them); `copies` of the games
  // that reached the position are copies.
  function showGames(state, games, total, copies) {
    const turn = (offset) => {
      refocus = offset > state.page * kPageRows ? '#games .pager button.next' :
                                                  '#games .pager button.previous';
      go(Object.assign({}, state, {page: Math.floor(offset / kPageRows)}));
    };
    const note = document.getElementById('copies');
    note.hidden = copies === 0;
    const which = copies === 1 ? 'copy of an earlier game' : 'copies of earlier games';
    fill(
        note,
        state.copies ?
            `${count(copies)} of these games ${copies === 1 ? 'is a' : 'are'} ${which},` +
                ' which the counts above leave out.' :
            `Left out: ${count(copies)} ${which}, as the counts above leave ` +
                (copies === 1 ? 'it out.' : 'them out.'));
    fill(
        document.getElementById('games'),
        total === 0 ? el('p', {class: 'note'},
                         'No game in the database reached this position' +
                             (kFilters.some((n) => state[n]) ? ' and passes the filters.' : '.')) :
                      [
                        games.length === 0 ? null : fived.gamesTable(games, {action: true}),
                        fived.pager(state.page * kPageRows, kPageRows, total, turn)
                      ]);
    const again = refocus && document.querySelector(refocus);
    refocus = null;
    if (again && !again.disabled) again.focus({preventScroll: true});
  }

  // Empties what answers to an address fill in, so that none of it stays under the message of
  // a later address that failed.
  function clearResults() {
    fill(document.getElementById('position-title'), 'Position');
    fill(document.getElementById('position'));
    fill(document.querySelector('#actions tbody'));
    document.getElementById('no-actions').hidden = true;
    document.getElementById('copies').hidden = true;
    fill(document.getElementById('games'));
  }

  // Shows the state of the page's address.
  function show() {
    const state = readState();
    const mine = ++generation;
    showError('');
    const form = document.getElementById('filters');
    fived.clearInvalid(form);
    for (const name of kFilters) form.elements[name].value = state[name];
    form.elements.copies.checked = !state.copies;
    ensureVariant(choice(state));
    form.elements.variant.value = choice(state);
    showLine(state);
    const params = apiParams(state);
    const alt = `The position after ${state.line.length} actions`;
    // A board chosen under the picture is outlined in it: the same position, asked again.
    const where = state.start ? {state: state.start, moves: params.moves} :
                                {variant: state.variant, moves: params.moves};
    const picture = (mark) => {
      api('/api/position', Object.assign({mark}, where))
          .then((answer) => {
            if (mine === generation) viewer.show(answer.picture, alt, true);
          })
          .catch((error) => showError(error.message));
    };
    const host = document.getElementById('picture');
    host.setAttribute('aria-busy', 'true');
    document.getElementById('loading').hidden = false;
    const position = api('/api/position', where).then((answer) => {
          if (mine !== generation) return;
          document.getElementById('picture').classList.remove('stale');
          // Along a line the view follows the play; another variant opens on the present.
          viewer.show(answer.picture, alt, choice(state) === shownVariant);
          shownVariant = choice(state);
          const line = fived.movetext(state.line);
          fived.copyFen(document.getElementById('copy-fen'), answer.fen);
          fived.boardSearch(document.getElementById('board-search'), answer.fen, {
            variant: state.start ? '' : state.variant,
            describe: (board) => `${state.start ? startName(state.start) : state.variant}, ${
                line ? 'after ' + line : 'the start'}, board ${fived.boardName(board)}`,
            onChoose: picture
          });
        });
    // A line that does not replay has no picture: the one on screen is another position's.
    position.finally(() => {
      if (mine !== generation) return;
      host.removeAttribute('aria-busy');
      document.getElementById('loading').hidden = true;
    }).catch(() => {});
    position.catch(() => {
      if (mine !== generation) return;
      document.getElementById('picture').classList.add('stale');
      fill(document.getElementById('board-search'));
    });
    const tree = api('/api/tree', params);
    // The list, and the counts that say how many copies it leaves out or holds.
    const list = Object.assign({unique: state.copies ? '' : 'true'}, params);
    const games =
        api('/api/find',
            Object.assign({limit: kPageRows, offset: state.page * kPageRows, sort: '-date'}, list));
    const unique = api('/api/find', Object.assign({count: 'true', unique: 'true'}, params));
    const every = api('/api/find', Object.assign({count: 'true'}, params));
    busy(Promise.all([tree, games, unique, every, position])
             .then(([t, g, u, n]) => {
               if (mine !== generation) return;
               showTree(state, t);
               showGames(state, g, state.copies ? n : u, n - u);
             })
             .catch((error) => {
               if (mine !== generation) return;
               clearResults();
               fived.showFieldError(error, form, kNames);
             }));
  }

  // The custom starts of the database (GET /api/starts), by their 5DFEN.
  const starts = new Map();
  // What the page calls a custom start: the name its games' headers give, or "Custom", and its
  // size; with the first game that began there when another start has the same words.
  function startName(fen) {
    const start = starts.get(fen);
    if (!start) return 'Custom start';
    const words = (s) => `${s.name || 'Custom'} ${s.width}×${s.height}`;
    const shared = [...starts.values()].filter((s) => words(s) === words(start)).length > 1;
    return words(start) + (shared ? `, as game ${start.first_game}` : '');
  }
  // The value of the variant list for a state: a variant's name, or "state:" and a start.
  function choice(state) {
    return state.start ? 'state:' + state.start : state.variant;
  }

  // Adds a variant or start the database has no game of (a shared address may name one) to the
  // list.
  function ensureVariant(value) {
    const select = document.getElementById('variant');
    if ([...select.options].some((o) => o.value === value)) return;
    const text = value.startsWith('state:') ? startName(value.slice(6)) : value;
    select.appendChild(el('option', {value}, text));
  }
  // The state of a choice of the variant list, at its start.
  function chosen(value, state) {
    if (value.startsWith('state:')) {
      state.start = value.slice(6);
      state.variant = 'custom';
    } else {
      state.start = '';
      state.variant = value;
    }
    return state;
  }

  document.addEventListener('DOMContentLoaded', () => {
    viewer = fived.multiverse(document.getElementById('picture'));
    const form = document.getElementById('filters');
    const apply = () => {
      const state = chosen(form.elements.variant.value, readState());
      // Another variant has another start: the line does not carry over.
      if (choice(state) !== choice(readState())) state.line = [];
      for (const name of kFilters) state[name] = form.elements[name].value.trim();
      state.copies = !form.elements.copies.checked;
      state.page = 0;
      go(state);
    };
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      apply();
    });
    form.elements.copies.addEventListener('change', apply);
    form.elements.variant.addEventListener('change', () => {
      const state = chosen(form.elements.variant.value, readState());
      state.line = [];
      state.page = 0;
      go(state);
    });
    window.addEventListener('popstate', show);
    document.addEventListener('keydown', (event) => {
      // Shift + arrows move the picture's view (picture.js); fields keep their own keys.
      if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
      if (event.target.closest && event.target.closest('input, textarea, select, .picture-frame')) {
        return;
      }
      const state = readState();
      const links = [...document.querySelectorAll('#actions tbody td.action a')];
      if (event.key === 'ArrowLeft' && state.line.length > 0) {
        event.preventDefault();
        focusList = true;
        go(Object.assign(state, {line: state.line.slice(0, -1), page: 0}));
      } else if (event.key === 'ArrowRight' && links.length > 0) {
        event.preventDefault();
        focusList = true;
        const action = links[0].closest('tr').dataset.action;
        go(Object.assign(state, {line: state.line.concat([action]), page: 0}));
      } else if ((event.key === 'ArrowDown' || event.key === 'ArrowUp') && links.length > 0) {
        event.preventDefault();
        const at = links.indexOf(document.activeElement);
        const next = event.key === 'ArrowDown' ? Math.min(links.length - 1, at + 1) :
                                                 Math.max(0, at < 0 ? 0 : at - 1);
        links[next].focus();
      }
    });
    busy(Promise.all([fived.variants(true), api('/api/starts')])
             .then(([list, custom]) => {
               const select = form.elements.variant;
               for (const start of custom) starts.set(start.fen, start);
               fill(
                   select,
                   list.map(([name,
                              games]) => el('option', {value: name}, `${name} (${count(games)})`)),
                   custom.length === 0 ?
                       null :
                       el('optgroup', {label: 'Custom starts'},
                          custom.map(
                              (start) => el(
                                  'option', {value: 'state:' + start.fen},
                                  `${startName(start.fen)} (${count(start.games)})`))));
               // Custom games are explored from a start of theirs: an address that names no
               // start (?variant=custom) opens the first of the list.
               const asked = readState();
               if (asked.variant === 'custom' && !asked.start && custom.length > 0) {
                 history.replaceState(null, '', href(chosen('state:' + custom[0].fen, asked)));
               }
               ensureVariant('Standard');
               select.value = choice(readState());
             })
             .catch((error) => showError(error.message))
             .finally(show));
  });
})();
