// Search by board: boards drawn in the board editor (board_editor.js) are board patterns, and
// the games that had a board like each of them are listed with the action after which they all
// held and the boards they matched there; each game opens at that action with those boards
// outlined. The search lives in the page's address (pattern, repeatable, and the filters with
// the API's names; sort, page, copies=1 when "hide copies" is unticked), so that the back button and bookmarks work.
//
// The boards' size follows the variant chosen (GET /api/position says its boards' size and
// start); with any variant it is the files and ranks given. A link from a game or the opening
// explorer brings a board (from=PIECES, from-label=where it is), which the editor starts with
// and can copy again.
'use strict';

(() => {
  const {el, fill, api, busy, showError, count} = fived;
  const kFilters = ['variant', 'white', 'black', 'player', 'result', 'date-from', 'date-to'];
  const kPageRows = 50;
  let editor = null;
  let generation = 0;
  let variantSize = null;  // {files, ranks} of the chosen variant's boards, when one is chosen

  function readState() {
    const params = new URLSearchParams(location.search);
    const state = {
      patterns: params.getAll('pattern'),
      sort: params.get('sort') || '-date',
      page: Math.max(0, parseInt(params.get('page') || '0', 10) || 0),
      copies: params.get('copies') === '1',
      from: params.get('from') || '',
      fromLabel: params.get('from-label') || '',
    };
    for (const name of kFilters) state[name] = params.get(name) || '';
    return state;
  }
  function apiParams(state) {
    const params = {pattern: state.patterns};
    for (const name of kFilters) params[name] = state[name];
    return params;
  }
  function go(state) {
    const params = apiParams(state);
    params.sort = state.sort === '-date' ? '' : state.sort;
    params.page = state.page > 0 ? state.page : '';
    params.copies = state.copies ? '1' : '';
    params.from = state.from;
    params['from-label'] = state.fromLabel;
    fived.navigate('/patterns' + fived.query(params));
    run();
  }
  // Shows the page's address, the page's state saying when it is done.
  function run() {
    return busy(show().catch((error) => showError(forPeople(error))));
  }

  // A message of the server for people: a pattern's error names its board and column, a
  // filter's names the field as the page does (common.js explain).
  function forPeople(error) {
    const answer = error.answer || {};
    if (answer.parameter === 'pattern') {
      return `Board ${answer.index + 1}: ${answer.reason} (column ${answer.column}).`;
    }
    return fived.explain(error, document.getElementById('patterns')).message;
  }

  // The board size of a variant ('' for any: null), and its start as a source for the editor.
  async function learnVariant(variant) {
    if (!variant || variant === 'custom') {
      editor.setSource('start', null);
      return null;
    }
    const position = await api('/api/position', {variant});
    const first = fived.boardsOfFen(position.fen)[0];
    editor.setSource(
        'start', first ? {pieces: first.pieces, label: `The start of ${variant}`} : null);
    return {files: position.width, ranks: position.height};
  }

  function sizeInputs() {
    const form = document.getElementById('patterns');
    return {files: form.elements.files, ranks: form.elements.ranks};
  }
  function showSize(size) {
    const {files, ranks} = sizeInputs();
    files.value = size.files;
    ranks.value = size.ranks;
  }
  // A note when a board cannot match the variant's boards.
  function checkSizes() {
    const note = document.getElementById('size-note');
    const size = editor.size();
    const variant = document.getElementById('patterns').elements.variant.value;
    const off = variantSize && size &&
        (size.files !== variantSize.files || size.ranks !== variantSize.ranks);
    note.hidden = !off;
    if (off) {
      fill(
          note,
          `${variant}'s boards are ${variantSize.files}×${variantSize.ranks}: a board of ` +
              `${size.files}×${size.ranks} matches none of its games.`);
    }
  }

  function showResults(state, found, n, copies) {
    const which = copies === 1 ? 'copy of an earlier game' : 'copies of earlier games';
    const sortBy = (field) => {
      const next = Object.assign({}, state, {page: 0});
      next.sort = state.sort === field ? '-' + field : field;
      go(next);
    };
    const turn = (offset) => go(Object.assign({}, state, {page: Math.floor(offset / kPageRows)}));
    const boards = state.patterns.length;
    fill(
        document.getElementById('results'),
        el('h2', {}, `${count(n)} game${n === 1 ? '' : 's'} found`),
        copies === 0 ?
            null :
            el('p', {class: 'note copies'},
               state.copies ?
                   `${count(copies)} of them ${copies === 1 ? 'is a' : 'are'} ${which}.` :
                   `Left out: ${count(copies)} ${which}.`),
        n === 0 ?
            el('p', {class: 'note'},
               `No game had ${boards === 1 ? 'a board like this one' : 'boards like these'}` +
                   (kFilters.some((name) => state[name]) ? ' and passes the filters.' : '.')) :
            [
              el('p', {class: 'note'},
                 '“At action” is the first action after which ' +
                     (boards === 1 ? 'a board like this one was there' :
                                     'boards like all of these were there') +
                     ', and “Boards” says which matched. Each game opens at that action with ' +
                     (boards === 1 ? 'that board' : 'those boards') + ' outlined.'),
              found.length === 0 ? null :
                                   fived.gamesTable(found, {
                                     sort: state.sort,
                                     onSort: sortBy,
                                     action: true,
                                     boards: true
                                   }),
              fived.pager(state.page * kPageRows, kPageRows, n, turn),
            ]);
  }

  function search(state, mine) {
    const params = apiParams(state);
    const list = Object.assign({unique: state.copies ? '' : 'true'}, params);
    const games = api(
        '/api/find',
        Object.assign({sort: state.sort, limit: kPageRows, offset: state.page * kPageRows}, list));
    const unique = api('/api/find', Object.assign({count: 'true', unique: 'true'}, params));
    const every = api('/api/find', Object.assign({count: 'true'}, params));
    return Promise.all([games, unique, every])
        .then(([found, u, all]) => {
          if (mine !== generation) return;
          showResults(state, found, state.copies ? all : u, all - u);
        })
        .catch((error) => {
          if (mine !== generation) return;
          fill(document.getElementById('results'));
          const answer = error.answer || {};
          if (answer.parameter === 'pattern') {
            editor.showError(answer.index, answer.column, answer.reason);
            showError(forPeople(error));
          } else {
            fived.showFieldError(error, document.getElementById('patterns'));
          }
        });
  }

  // Shows the state of the page's address: the form, the boards (unless they already hold
  // those patterns), and the games.
  async function show() {
    const state = readState();
    const mine = ++generation;  // a later address's show drops this one's answers
    const form = document.getElementById('patterns');
    for (const name of kFilters) {
      if (name !== 'variant') form.elements[name].value = state[name];
    }
    ensureVariant(state.variant);
    form.elements.variant.value = state.variant;
    form.elements.copies.checked = !state.copies;
    showError('');
    fived.clearInvalid(form);
    fill(
        document.getElementById('from-note'),
        state.from ? `From the position shown: ${state.fromLabel || 'a board'}.` : '');
    document.getElementById('from-note').hidden = !state.from;
    editor.setSource('from', state.from ? {pieces: state.from, label: state.fromLabel} : null);
    const size = await learnVariant(state.variant);
    if (mine !== generation) return;
    variantSize = size;
    const shown = editor.patterns();
    const same =
        shown.length === state.patterns.length && shown.every((p, i) => p === state.patterns[i]);
    if (!same || shown.length === 0) {
      const blank = variantSize || {
        files: Number(sizeInputs().files.value) || 8,
        ranks: Number(sizeInputs().ranks.value) || 8
      };
      const start = state.patterns.length ? state.patterns : state.from ? [state.from] : [];
      editor.load(start, blank.files, blank.ranks);
    }
    showSize(editor.size());
    checkSizes();
    if (state.patterns.length === 0) {
      fill(document.getElementById('results'));
      return;
    }
    await search(state, mine);
  }

  // Adds a variant the database has no game of (a shared address may name one) to the list.
  function ensureVariant(name) {
    const select = document.getElementById('patterns').elements.variant;
    if (!name || [...select.options].some((o) => o.value === name)) return;
    select.appendChild(el('option', {value: name}, name));
  }

  document.addEventListener('DOMContentLoaded', () => {
    const form = document.getElementById('patterns');
    editor = fivedBoards.editor(
        {palette: document.getElementById('palette'), boards: document.getElementById('boards')},
        {onChange: checkSizes});
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      // Texts still being read are read first: a search never runs on a text the page has not
      // shown as a board (or as an error).
      busy(editor.settled().then(() => {
        const refused = editor.errors();
        if (refused.length > 0) {
          const [index, error] = refused[0];
          showError(`Board ${index + 1}: ${error.reason} (column ${error.column}).`);
          return;
        }
        const state = readState();
        for (const name of kFilters) state[name] = form.elements[name].value.trim();
        state.patterns = editor.patterns();
        state.copies = !form.elements.copies.checked;
        state.page = 0;
        go(state);
      }));
    });
    form.elements.copies.addEventListener('change', () => {
      if (readState().patterns.length > 0) form.requestSubmit();
    });
    form.elements.variant.addEventListener('change', () => {
      busy(learnVariant(form.elements.variant.value)
               .then((size) => {
                 variantSize = size;
                 if (size) {
                   showSize(size);
                   editor.resize(size.files, size.ranks);
                 }
                 checkSizes();
               })
               .catch((error) => showError(forPeople(error))));
    });
    for (const input of Object.values(sizeInputs())) {
      input.addEventListener('change', () => {
        const {files, ranks} = sizeInputs();
        const clamp = (value) => Math.max(1, Math.min(16, Math.round(Number(value)) || 8));
        editor.resize(clamp(files.value), clamp(ranks.value));
        showSize(editor.size());
      });
    }
    document.getElementById('add-board').addEventListener('click', () => {
      const size = editor.size() || {files: 8, ranks: 8};
      editor.add(size.files, size.ranks);
    });
    window.addEventListener('popstate', run);
    busy(fived.variants(false)
             .then((list) => {
               const select = form.elements.variant;
               for (const [name, games] of list) {
                 select.appendChild(el('option', {value: name}, `${name} (${count(games)})`));
               }
             })
             .catch((error) => showError(forPeople(error)))
             .finally(run));
  });
})();
