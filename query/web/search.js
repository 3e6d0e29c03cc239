// Search: games by players, variant, result, ending, dates, headers and a position (moves or
// 5DFEN), as 5d-query finds them, in a table sorted by any column and paged. The search lives in
// the page's address with the API's parameter names (and sort, page, copies), so that the back
// button and bookmarks work. Copies of earlier games are left out, as statistics and the explorer
// leave them out, while "hide copies" is ticked (the default); unticked, the address says
// copies=1 and each copy's row names the game it copies. The heading says how many there are.
'use strict';

(() => {
  const {el, fill, api, busy, showError, count} = fived;
  const kFields = [
    'white', 'black', 'player', 'variant', 'result', 'ending', 'date-from', 'date-to', 'moves',
    'state'
  ];
  const kPageRows = 50;
  let generation = 0;

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
                 const next = Object.assign({}, state, {page: 0});
                 next.sort = state.sort === field ? '-' + field : field;
                 go(next);
               };
               const turn = (offset) =>
                   go(Object.assign({}, state, {page: Math.floor(offset / kPageRows)}));
               const position = Boolean(state.moves || state.state);
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
                     fived.gamesTable(found, {sort: state.sort, onSort: sortBy, action: position}),
                     fived.pager(state.page * kPageRows, kPageRows, n, turn)
                   ]);
             })
             .catch((error) => {
               if (mine !== generation) return;
               fill(document.getElementById('results'));
               fived.showFieldError(error, form);
             }));
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
      if (!state.moves && !state.state && state.sort.replace('-', '') === 'action')
        state.sort = '-date';
      go(state);
    });
    form.elements.copies.addEventListener('change', () => form.requestSubmit());
    document.getElementById('clear').addEventListener('click', (event) => {
      event.preventDefault();
      go({header: [], sort: '-date', page: 0, copies: false});
    });
    window.addEventListener('popstate', show);
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
