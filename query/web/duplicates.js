// Duplicates: the groups 5d-query duplicates reports (exact copies, different games with the same
// moves, unfinished copies, twins), each game a link to its page. The number of actions twins
// share is in the address.
'use strict';

(() => {
  const {el, fill, api, busy, showError, count} = fived;
  const kKinds = {
    exact: 'exact copies',
    'same-moves': 'same moves, different games',
    prefix: 'unfinished copy',
    twin: 'twins'
  };

  function show() {
    const params = new URLSearchParams(location.search);
    const twinActions = params.get('twin-actions') || '';
    document.getElementById('options').elements['twin-actions'].value = twinActions || '10';
    showError('');
    busy(api('/api/duplicates', {'twin-actions': twinActions})
             .then((groups) => {
               const rows = groups.map(
                   (group) =>
                       el('tr', {'data-kind': group.kind},
                          el('td', {}, kKinds[group.kind] || group.kind),
                          el('td', {class: 'ids'},
                             group.ids.map(
                                 (id, i) =>
                                     [i > 0 ? ', ' : '',
                                      el('a', {href: fived.gameHref(id)}, String(id))])),
                          el('td', {}, group.reason)));
               const kinds = Object.keys(kKinds).map((kind) => {
                 const n = groups.filter((g) => g.kind === kind).length;
                 return `${count(n)} ${kind}`;
               });
               fill(
                   document.getElementById('groups'),
                   el('h2', {}, `${count(groups.length)} group${groups.length === 1 ? '' : 's'}`,
                      el('span', {class: 'note'}, ` (${kinds.join(', ')})`)),
                   groups.length === 0 ? null :
                                         el('div', {class: 'table-scroll'},
                                            el('table', {class: 'duplicates'},
                                               el('thead', {},
                                                  el('tr', {}, el('th', {scope: 'col'}, 'Kind'),
                                                     el('th', {scope: 'col'}, 'Games'),
                                                     el('th', {scope: 'col'}, 'Why'))),
                                               el('tbody', {}, rows))));
             })
             .catch((error) => showError(error.message)));
  }

  document.addEventListener('DOMContentLoaded', () => {
    const form = document.getElementById('options');
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const value = form.elements['twin-actions'].value.trim();
      fived.navigate('/duplicates' + fived.query({'twin-actions': value === '10' ? '' : value}));
      show();
    });
    window.addEventListener('popstate', show);
    show();
  });
})();
