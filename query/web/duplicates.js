// Duplicates: the groups 5d-query duplicates reports (exact copies, different games with the same
// moves, unfinished copies, twins), each game a link to its page with its players, date and
// result, so that people can judge the group. In a group of exact copies the original is kept
// (counted) and the copies are left out of every count; the games of other groups are all
// counted. The number of actions twins share is in the address.
'use strict';

(() => {
  const {el, fill, api, busy, showError, count} = fived;
  const kKinds = {
    exact: 'exact copies',
    'same-moves': 'same moves, different games',
    prefix: 'unfinished copy',
    twin: 'twins'
  };

  // A game as people tell games apart: "White – Black, date, result", the unknown left out.
  function describe(game) {
    const players = game.white || game.black ? `${game.white || '?'} – ${game.black || '?'}` : '';
    return [players, game.date, game.result].filter(Boolean).join(', ') || 'no players or date';
  }
  // Which of the group's games the counts keep: the original of exact copies is kept and each
  // copy names it (as text: the original is the group's first link); games of the other kinds are
  // different games, each counted.
  function status(group, game) {
    if (game.duplicate_of) {
      return el('span', {class: 'status copy'},
                `copy of game ${game.duplicate_of}, left out of counts`);
    }
    return el('span', {class: 'status kept'}, group.kind === 'exact' ? 'kept' : 'counted');
  }
  function gameList(group) {
    return el('ul', {class: 'group-games'}, group.games.map((game) => el(
        'li', {
          'data-id': game.id,
          'data-kept': game.duplicate_of ? 'false' : 'true'
        },
        el('a', {href: fived.gameHref(game.id)}, String(game.id)), ' ',
        el('span', {class: 'game'}, describe(game)), ' · ', status(group, game))));
  }

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
                          el('td', {class: 'ids'}, gameList(group)),
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
