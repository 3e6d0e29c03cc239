// Search: games by players, variant, result, ending, dates, headers and a position (moves or
// 5DFEN) or one board (exact, as 5DFEN writes it; drawn in the board editor of board_editor.js,
// which the board search page shares, or typed), as 5d-query finds them, in a table sorted by any column and paged. The search lives in
// the page's address with the API's parameter names (and sort, page, copies), so that the back
// button and bookmarks work. Copies of earlier games are left out, as statistics and the explorer
// leave them out, while "hide copies" is ticked (the default); unticked, the address says
// copies=1 and each copy's row names the game it copies. The heading says how many there are.
'use strict';

(() => {
  const {el, fill, api, busy, showError, count} = fived;
  const kFields = [
    'white', 'black', 'player', 'variant', 'result', 'ending', 'date-from', 'date-to', 'moves',
    'state', 'board'
  ];
  const kPageRows = 50;
  let generation = 0;
  let editor = null;  // the board editor, made when first shown
  // What gets the focus once the results are shown again after a sort or a page turn (the
  // table and the pager are made anew): a selector.
  let refocus = null;

  function readState() {
    const params = new URLSearchParams(location.search);
    const state = {
      header: params.getAll('header'),
      sort: params.get('sort') || '-date',
      page: Math.max(0, parseInt(params.get('page') || '0', 10) || 0),
      copies: params.get('copies') === '1'
    };
    for (const name of kFields) state[name] = params.get(name) || '';
    return state;
  }
  function apiParams(state) {
    const params = {header: state.header};
    for (const name of kFields) params[name] = state[name];
    return params;
  }
  function go(state) {
    const params = apiParams(state);
    params.sort = state.sort === '-date' ? '' : state.sort;
    params.page = state.page > 0 ? state.page : '';
    params.copies = state.copies ? '1' : '';
    fived.navigate('/search' + fived.query(params));
    show();
  }
  function searching(state) {
    return kFields.some((name) => state[name]) || state.header.length > 0;
  }

  function show() {
    const state = readState();
    const mine = ++generation;
    const form = document.getElementById('search');
    for (const name of kFields) form.elements[name].value = state[name];
    form.elements.header.value = state.header.join('\n');
    form.elements.copies.checked = !state.copies;
    showError('');
    fived.clearInvalid(form);
    const params = apiParams(state);
    const list = Object.assign({unique: state.copies ? '' : 'true'}, params);
    const games = api(
        '/api/find',
        Object.assign({sort: state.sort, limit: kPageRows, offset: state.page * kPageRows}, list));
    const unique = api('/api/find', Object.assign({count: 'true', unique: 'true'}, params));
    const every = api('/api/find', Object.assign({count: 'true'}, params));
    busy(Promise.all([games, unique, every])
             .then(([found, u, all]) => {
               if (mine !== generation) return;
               const n = state.copies ? all : u;
               const copies = all - u;
               const which = copies === 1 ? 'copy of an earlier game' : 'copies of earlier games';
               const sortBy = (field) => {
                 refocus = `#results button.sort[data-field="${field}"]`;
                 const next = Object.assign({}, state, {page: 0});
                 next.sort = state.sort === field ? '-' + field : field;
                 go(next);
               };
               const turn = (offset) => {
                 refocus = offset > state.page * kPageRows ? '#results .pager button.next' :
                                                             '#results .pager button.previous';
                 go(Object.assign({}, state, {page: Math.floor(offset / kPageRows)}));
               };
               const position = Boolean(state.moves || state.state || state.board);
               fill(
                   document.getElementById('results'),
                   el('h2', {},
                      `${count(n)} game${n === 1 ? '' : 's'}` +
                          (searching(state) ? ' found' : ' in the database')),
                   copies === 0 ? null :
                                  el('p', {class: 'note copies'},
                                     state.copies ? `${count(copies)} of them ${
                                                        copies === 1 ? 'is a' : 'are'} ${which}.` :
                                                    `Left out: ${count(copies)} ${which}.`),
                   n === 0 ? null : [
                     found.length === 0 ?
                         null :
                         fived.gamesTable(
                             found, {sort: state.sort, onSort: sortBy, action: position}),
                     fived.pager(state.page * kPageRows, kPageRows, n, turn)
                   ]);
               const again = refocus && document.querySelector(refocus);
               refocus = null;
               if (again) again.focus({preventScroll: true});
             })
             .catch((error) => {
               if (mine !== generation) return;
               fill(document.getElementById('results'));
               fived.showFieldError(error, form);
             }));
  }

  // The board's 5DFEN as the editor reads it: the pieces, and ":L:T:c" when it has coordinates
  // (which the editor shows as pins); an empty board of 8x8 when the field is empty.
  function fieldBoard(form) {
    const text = form.elements.board.value.trim().replace(/^\[/, '').replace(/\]$/, '');
    const files = Number(form.elements['board-files'].value) || 8;
    const ranks = Number(form.elements['board-ranks'].value) || 8;
    const read = text ? fivedBoards.readPattern(text) : null;
    if (read) return {text, files: read.files, ranks: read.ranks};
    const empty = Array(ranks).fill(String(files)).join('/');
    return {text: empty, files, ranks};
  }
  // Shows or hides the board editor under the fields. Drawing writes the Board field; the
  // field, when it reads as a board, is what the editor opens with.
  function toggleDrawing() {
    const form = document.getElementById('search');
    const host = document.getElementById('board-drawing');
    const button = document.getElementById('draw-board');
    const open = host.hidden;
    host.hidden = !open;
    button.setAttribute('aria-expanded', String(open));
    if (!open) return;
    const sizes = [form.elements['board-files'], form.elements['board-ranks']];
    if (!editor) {
      editor = fivedBoards.editor(
          {palette: document.getElementById('palette'), boards: document.getElementById('boards')},
          {
            onChange: () => {
              const drawn = editor.patterns()[0] || '';
              form.elements.board.value = drawn ? `[${drawn}]` : '';
              const size = editor.size();
              if (size) [sizes[0].value, sizes[1].value] = [size.files, size.ranks];
            }
          });
      const resize = () => {
        const files = Math.min(16, Math.max(1, Number(sizes[0].value) || 8));
        const ranks = Math.min(16, Math.max(1, Number(sizes[1].value) || 8));
        editor.load([Array(ranks).fill(String(files)).join('/')], files, ranks);
        form.elements.board.value = `[${editor.patterns()[0]}]`;
      };
      for (const input of sizes) input.addEventListener('change', resize);
    }
    const board = fieldBoard(form);
    editor.load([board.text], board.files, board.ranks);
    [sizes[0].value, sizes[1].value] = [board.files, board.ranks];
    const first = host.querySelector('button.square');
    if (first) first.focus();
  }

  document.addEventListener('DOMContentLoaded', () => {
    const form = document.getElementById('search');
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const state = readState();
      for (const name of kFields) state[name] = form.elements[name].value.trim();
      state.header =
          form.elements.header.value.split('\n').map((line) => line.trim()).filter(Boolean);
      state.copies = !form.elements.copies.checked;
      state.page = 0;
      // Sorting by the action needs a position; another search keeps its order otherwise.
      if (!state.moves && !state.state && !state.board && state.sort.replace('-', '') === 'action')
        state.sort = '-date';
      go(state);
    });
    form.elements.copies.addEventListener('change', () => form.requestSubmit());
    document.getElementById('clear').addEventListener('click', (event) => {
      event.preventDefault();
      go({header: [], sort: '-date', page: 0, copies: false});
    });
    window.addEventListener('popstate', show);
    document.getElementById('draw-board').addEventListener('click', toggleDrawing);
    busy(fived.variants(false)
             .then((list) => {
               const select = form.elements.variant;
               for (const [name, games] of list)
                 select.appendChild(el('option', {value: name}, `${name} (${count(games)})`));
             })
             .catch((error) => showError(error.message))
             .finally(show));
  });
})();
