// Statistics: what /api/stats counts, as figures and as charts drawn here in SVG (variants,
// results, endings, top players, lengths, timelines and years). Filters as in 5d-query stats,
// kept in the page's address. Copies of earlier games are left out of every figure, as of every
// count of the explorer, and counted apart.
'use strict';

(() => {
  const {el, svg, fill, api, busy, showError, count} = fived;
  const kFilters = ['player', 'variant', 'date-from', 'date-to'];
  const kTop = 15;

  // The width of a chart's drawing, in its own units: the width it will have on screen (one
  // column of the page's grid, less the box's padding), within 300 to 560, so that the labels'
  // 11 and 12 units are as many pixels and stay legible on a phone.
  function chartWidth() {
    const host = document.getElementById('charts');
    const column = host ? Math.min(host.clientWidth, 30 * 16 * 2) : 560;
    return Math.round(Math.max(300, Math.min(560, column - 30)));
  }

  // A name cut to `length` characters for a chart label (the whole name is its tooltip).
  const cut = (text, length) => (text.length > length ? text.slice(0, length - 1) + '…' : text);

  // Horizontal bars: rows of {label, parts: [[kind, value, what]...]}; kinds colour the parts.
  function barChart(title, rows, note) {
    const rowHeight = 24;
    const width = chartWidth();
    const labelWidth = width < 450 ? 130 : 170;
    const barWidth = width - labelWidth - 60;
    const max = Math.max(1, ...rows.map((r) => r.parts.reduce((sum, [, v]) => sum + v, 0)));
    const height = Math.max(1, rows.length) * rowHeight + 8;
    const chart =
        svg('svg',
            {viewBox: `0 0 ${width} ${height}`, class: 'chart', role: 'img', 'aria-label': title});
    rows.forEach((row, i) => {
      const y = 4 + i * rowHeight;
      const total = row.parts.reduce((sum, [, v]) => sum + v, 0);
      chart.appendChild(
          svg('text', {x: labelWidth - 8, y: y + 16, 'text-anchor': 'end', class: 'chart-label'},
              svg('title', {}, row.label), cut(row.label, labelWidth < 170 ? 18 : 24)));
      let x = labelWidth;
      for (const [kind, value, what] of row.parts) {
        if (value === 0) continue;
        const w = (barWidth * value) / max;
        chart.appendChild(
            svg('rect',
                {x, y: y + 3, width: Math.max(w, 1), height: rowHeight - 6, class: `bar ${kind}`},
                svg('title', {}, `${row.label}: ${count(value)} ${what}`)));
        x += w;
      }
      chart.appendChild(svg('text', {x: x + 6, y: y + 16, class: 'chart-value'}, count(total)));
    });
    return figure(title, chart, note);
  }

  // Vertical columns: rows of {label, value}.
  function columnChart(title, rows, note) {
    const width = chartWidth();
    const height = 220;
    const bottom = 40;
    const left = 10;
    const max = Math.max(1, ...rows.map((r) => r.value));
    const step = (width - 2 * left) / Math.max(1, rows.length);
    const chart =
        svg('svg',
            {viewBox: `0 0 ${width} ${height}`, class: 'chart', role: 'img', 'aria-label': title});
    rows.forEach((row, i) => {
      const h = ((height - bottom - 20) * row.value) / max;
      const x = left + i * step;
      chart.appendChild(
          svg('rect', {
            x: x + step * 0.1,
            y: height - bottom - h,
            width: step * 0.8,
            height: Math.max(h, row.value > 0 ? 1 : 0),
            class: 'bar games'
          },
              svg('title', {}, `${row.label}: ${count(row.value)} games`)));
      chart.appendChild(
          svg('text', {
            x: x + step / 2,
            y: height - bottom - h - 4,
            'text-anchor': 'middle',
            class: 'chart-value'
          },
              row.value ? count(row.value) : ''));
      chart.appendChild(svg(
          'text',
          {x: x + step / 2, y: height - bottom + 16, 'text-anchor': 'middle', class: 'chart-label'},
          row.label));
    });
    return figure(title, chart, note);
  }

  function figure(title, chart, note) {
    return el(
        'figure', {class: 'chart-box'}, el('figcaption', {}, title), chart,
        note ? el('p', {class: 'note'}, note) : null);
  }

  function show() {
    const params = new URLSearchParams(location.search);
    const filters = {};
    const form = document.getElementById('filters');
    for (const name of kFilters) {
      filters[name] = params.get(name) || '';
      form.elements[name].value = filters[name];
    }
    showError('');
    fived.clearInvalid(form);
    busy(
        api('/api/stats', Object.assign({top: kTop}, filters))
            .then((stats) => {
              const results = stats.results;
              const finished = results.white_wins + results.draws + results.black_wins;
              const dates = stats.dates;
              fill(
                  document.getElementById('summary'),
                  figureOf(
                      'Games', count(stats.games),
                      `${count(stats.copies)} ${stats.copies === 1 ? 'copy' : 'copies'} of ` +
                          'earlier games left out'),
                  figureOf(
                      'Rejected', count(stats.rejected), `${count(stats.sources)} sources read`),
                  figureOf(
                      'Actions', count(stats.actions),
                      stats.games ? `${(stats.actions / stats.games).toFixed(1)} a game` : ''),
                  figureOf(
                      'Dates', dates.first ? `${dates.first} – ${dates.last}` : 'none',
                      `${count(dates.dated)} dated, ${count(dates.undated)} not`),
                  figureOf('Results', count(finished), el('span', {}, fived.resultBar(results))),
                  figureOf(
                      'Result conflicts', count(stats.result_conflicts),
                      'endings that contradict the result'));
              const endings = stats.endings;
              fill(
                  document.getElementById('charts'),
                  barChart(
                      'Variants', stats.variants.map((v) => ({
                                                       label: v.variant,
                                                       parts: [
                                                         ['games', v.games, 'games'],
                                                         ['copies', v.copies, 'copies left out']
                                                       ]
                                                     }))),
                  barChart(
                      'Results',
                      [
                        {label: 'white wins', parts: [['white', results.white_wins, 'games']]},
                        {label: 'draws', parts: [['draw', results.draws, 'games']]},
                        {label: 'black wins', parts: [['black', results.black_wins, 'games']]},
                      ],
                      results.derived ?
                          `${count(results.derived)} derived from a proven checkmate or stalemate` :
                          null),
                  barChart(
                      'Endings',
                      [
                        {label: 'checkmate', parts: [['games', endings.checkmate, 'games']]},
                        {label: 'stalemate', parts: [['games', endings.stalemate, 'games']]},
                        {label: 'playable', parts: [['games', endings.playable, 'games']]},
                        {label: 'unknown', parts: [['games', endings.unknown, 'games']]},
                      ]
                          .concat(
                              endings.undecided ? [{
                                label: 'not decided',
                                parts: [['games', endings.undecided, 'games']]
                              }] :
                                                  [])),
                  barChart(
                      `Top ${kTop} players`,
                      stats.players.map(
                          (p) => ({
                            label: p.name,
                            parts: [
                              ['win', p.wins, 'wins'], ['draw', p.draws, 'draws'],
                              ['loss', p.losses, 'losses'],
                              ['other', p.games - p.wins - p.draws - p.losses, 'without a result']
                            ]
                          })),
                      'Wins, draws, losses and games without a result.'),
                  columnChart(
                      'Length (actions)',
                      stats.lengths.map((b) => ({label: b.range, value: b.games}))),
                  columnChart(
                      'Timelines', stats.timelines.map((b) => ({label: b.range, value: b.games}))),
                  columnChart(
                      'Games by year',
                      dates.years.map((y) => ({label: String(y.year), value: y.games})),
                      dates.years.length ? null : 'No game has a date within one year.'));
            })
            .catch((error) => {
              // The figures were those of the filters before.
              fill(document.getElementById('summary'));
              fill(document.getElementById('charts'));
              fived.showFieldError(error, form);
            }));
  }

  function figureOf(title, value, detail) {
    return el(
        'div', {class: 'figure'}, el('div', {class: 'figure-title'}, title),
        el('div', {class: 'figure-value'}, value), el('div', {class: 'note'}, detail));
  }

  document.addEventListener('DOMContentLoaded', () => {
    const form = document.getElementById('filters');
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const params = {};
      for (const name of kFilters) params[name] = form.elements[name].value.trim();
      fived.navigate('/stats' + fived.query(params));
      show();
    });
    window.addEventListener('popstate', show);
    busy(fived.variants(false)
             .then((list) => {
               for (const [name, games] of list)
                 form.elements.variant.appendChild(
                     el('option', {value: name}, `${name} (${count(games)})`));
             })
             .catch((error) => showError(error.message))
             .finally(show));
  });
})();
