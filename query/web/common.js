// What every page of the explorer shares: building elements, calling the JSON API, the result
// bar, tables of games and pagers (the picture of the multiverse is picture.js).
//
// Every value that comes from the database reaches the page as text: el() turns strings into
// text nodes and sets attributes one by one, and nothing here (or in the pages' scripts) writes
// HTML from strings. Addresses are built with URLSearchParams and encodeURIComponent.
'use strict';

const fived = (() => {
  // An element: el('a', {href: '/search', class: 'x'}, 'text', child, [more children]).
  // Attributes whose value is null, undefined or false are left out; a function value for a
  // name starting with "on" becomes an event listener. Strings become text nodes.
  function el(tag, attributes, ...children) {
    return build(document.createElement(tag), attributes, children);
  }
  // The same in the SVG namespace, for the charts.
  function svg(tag, attributes, ...children) {
    return build(document.createElementNS('http://www.w3.org/2000/svg', tag), attributes, children);
  }
  function build(node, attributes, children) {
    for (const [name, value] of Object.entries(attributes || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (name.startsWith('on') && typeof value === 'function') {
        node.addEventListener(name.slice(2), value);
      } else {
        node.setAttribute(name, value === true ? '' : String(value));
      }
    }
    append(node, children);
    return node;
  }
  function append(node, children) {
    for (const child of children) {
      if (child === null || child === undefined || child === false) continue;
      if (Array.isArray(child)) {
        append(node, child);
      } else if (child instanceof Node) {
        node.appendChild(child);
      } else {
        node.appendChild(document.createTextNode(String(child)));
      }
    }
  }
  // Replaces the children of `node`.
  function fill(node, ...children) {
    node.replaceChildren();
    append(node, children);
    return node;
  }

  // The query string of `params` (an object; arrays repeat the name), leaving out empty values.
  function query(params) {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(params)) {
      for (const v of Array.isArray(value) ? value : [value]) {
        if (v !== null && v !== undefined && v !== '') search.append(name, String(v));
      }
    }
    const text = search.toString();
    return text ? '?' + text : '';
  }

  // The JSON answer of an API path, or an Error with the server's message, its HTTP `status`
  // and its whole answer as `answer` (a pattern or moves that do not read say where, with
  // "parameter", "column" and "reason").
  async function api(path, params) {
    const response =
        await fetch(path + query(params || {}), {headers: {Accept: 'application/json'}});
    let body = null;
    try {
      body = await response.json();
    } catch (error) {
      throw new Error(`The server's answer could not be read (status ${response.status}).`);
    }
    if (!response.ok) {
      const error = new Error(
          body && body.error ? body.error : `The server refused (status ${response.status}).`);
      error.status = response.status;
      error.answer = body;
      throw error;
    }
    return body;
  }

  // Calls callback({timeRemaining()}) when the browser is idle, or after `options.timeout` ms
  // at the latest (requestIdleCallback; a timer where the browser has none).
  const whenIdle = window.requestIdleCallback ?
      (callback, options) => window.requestIdleCallback(callback, options) :
      (callback) => setTimeout(() => callback({timeRemaining: () => 8}), 50);

  // The page's state for tests and people: body[data-state] is "loading" while requests are
  // under way, "ready" when the page shows their answers and "error" when one failed.
  let pending = 0;
  function busy(promise) {
    pending += 1;
    document.body.dataset.state = 'loading';
    return promise.finally(() => {
      pending -= 1;
      if (pending === 0 && document.body.dataset.state === 'loading') {
        document.body.dataset.state = 'ready';
      }
    });
  }
  // Shows `message` in the page's error box (or hides the box when it is empty).
  function showError(message) {
    const box = document.getElementById('error');
    // Most calls clear a box that is clear already: they change nothing.
    if (!box || (!message && box.hidden && !box.firstChild)) return;
    fill(box, message || '');
    box.hidden = !message;
    if (message) document.body.dataset.state = 'error';
  }

  // What the page calls the form field of parameter `name`: the text of its label ("From"), or
  // `names[name]` for a parameter the page has no field for (the explorer's line of moves).
  function fieldName(form, name, names) {
    if (names && names[name]) return names[name];
    // namedItem, not elements[name]: the collection's own properties ("length") are no fields.
    const field = form && form.elements.namedItem(name);
    const label = field && field.closest && field.closest('label');
    const text = label && label.firstChild && label.firstChild.nodeType === Node.TEXT_NODE ?
        label.firstChild.textContent.trim() :
        '';
    return text || null;
  }
  // The server names a wrong parameter first, as the API spells it ("date-from: '2021.13' is not
  // a date ...", "limit must be 0 or more": docs/http-api.md), or says where with "parameter",
  // "column" and "reason". Returns {parameter, message}: the message with the parameter named as
  // the page names it ("From: '2021.13' is not a date ...", "Moves, at character 4: Qh9: ..."),
  // or the server's message as it is when it is about no field the page knows.
  function explain(error, form, names) {
    const answer = error.answer || {};
    const message = String(error.message || error);
    const known = (name) => fieldName(form, name, names) !== null;
    if (answer.parameter && known(answer.parameter) && answer.reason) {
      const label = fieldName(form, answer.parameter, names);
      const where = answer.column ? `, at character ${answer.column}` : '';
      return {parameter: answer.parameter, message: `${label}${where}: ${answer.reason}`};
    }
    const match = /^(?:--)?([a-z][a-z-]*)([: ])/.exec(message);
    if (!match || !known(match[1])) return {parameter: null, message};
    // Other parameters the message names ("--date-from is after --date-to") are named as the
    // page names them too.
    const rest = message.slice(match[0].length - 1)
                     .replace(/(^|[\s(])(?:--)?([a-z][a-z-]*)(?=$|[\s),.:])/g,
                              (whole, before, name) => known(name) ?
                                  before + fieldName(form, name, names) :
                                  whole);
    return {parameter: match[1], message: fieldName(form, match[1], names) + rest};
  }
  // Shows a failed request's message in the page's words and marks the field at fault
  // (aria-invalid, styled), after unmarking the others; `names` as in explain().
  function showFieldError(error, form, names) {
    const {parameter, message} = explain(error, form, names);
    clearInvalid(form);
    const field = parameter && form && form.elements.namedItem(parameter);
    if (field && field.setAttribute) {
      field.setAttribute('aria-invalid', 'true');
      field.setAttribute('aria-describedby', 'error');
    }
    showError(message);
  }
  // Unmarks the fields of `form` showFieldError marked.
  function clearInvalid(form) {
    if (!form) return;
    for (const field of form.querySelectorAll('[aria-invalid]')) {
      field.removeAttribute('aria-invalid');
      field.removeAttribute('aria-describedby');
    }
  }

  // Numbers for people.
  function count(n) {
    return Number(n).toLocaleString('en-US');
  }
  function percent(value) {
    if (value === null || value === undefined) return '-';
    return (Math.round(value * 10) / 10).toFixed(1) + '%';
  }
  function dates(first, last) {
    if (!first) return '';
    return first === last ? first : `${first} – ${last}`;
  }

  // A bar of white wins, draws and black wins; `node` has the keys white_wins, draws and
  // black_wins (tree, stats). Empty (grey) when none of its games has a result.
  function resultBar(node) {
    const total = node.white_wins + node.draws + node.black_wins;
    const bar = el('div', {class: 'result-bar', role: 'img'});
    if (total === 0) {
      bar.classList.add('empty');
      bar.setAttribute('aria-label', 'no results');
      return bar;
    }
    const parts = [
      ['white', node.white_wins, 'white wins'],
      ['draw', node.draws, 'draws'],
      ['black', node.black_wins, 'black wins'],
    ];
    bar.setAttribute('aria-label', parts.map(([, n, what]) => `${n} ${what}`).join(', '));
    for (const [kind, n, what] of parts) {
      if (n === 0) continue;
      const share = (100 * n) / total;
      const part = el(
          'span', {class: kind, title: `${n} ${what}`}, share >= 12 ? `${Math.round(share)}%` : '');
      part.style.width = share + '%';
      bar.appendChild(part);
    }
    return bar;
  }

  // Movetext of canonical actions (strings of move texts), numbered as 5dpgn numbers them:
  // "1. (0T1)e3 / (0T1)f6 2. ...". White plays first in every official variant; a custom start
  // where black does is read as well, as the replay gives each action to the side to move.
  function movetext(actions) {
    return actions.map((action, i) => (i % 2 === 0 ? `${i / 2 + 1}. ${action}` : `/ ${action}`))
        .join(' ');
  }
  // The actions of a movetext, as 5d-query reads it: numbered text ("1." and "/" open an
  // action), or one move an action when it has no numbers or '/'.
  function splitMovetext(text) {
    const tokens = (text || '').trim().split(/\s+/).filter(Boolean);
    const opens = (t) => t === '/' || /\.$/.test(t);
    const numbered = tokens.some(opens);
    const actions = [];
    for (const token of tokens) {
      if (['1-0', '0-1', '1/2-1/2', '*'].includes(token)) break;
      if (opens(token)) {
        actions.push([]);
      } else if (!numbered || actions.length === 0) {
        actions.push([token]);
      } else {
        actions[actions.length - 1].push(token);
      }
    }
    return actions.filter((a) => a.length > 0).map((a) => a.join(' '));
  }
  // "1.", "1…": the number of the i-th action (from 0) and whose it is, white moving first.
  function actionNumber(i, firstMover) {
    const black = (i % 2 === 1) !== (firstMover === 'black');
    const turn = firstMover === 'black' ? Math.floor((i + 1) / 2) + 1 : Math.floor(i / 2) + 1;
    return black ? `${turn}…` : `${turn}.`;
  }

  // Goes to `address` (a path and query of this page): a new entry in the history, unless it
  // is the address shown already (clicking the current crumb, applying the same filters).
  function navigate(address) {
    if (address !== location.pathname + location.search) history.pushState(null, '', address);
  }

  // The address of a game's page, at an action when one is given, with boards to mark in its
  // picture ("L:T:c", as pattern searches name them).
  function gameHref(id, action, marks) {
    return `/game/${encodeURIComponent(id)}` + query({action, mark: marks || []});
  }

  // A board's coordinates as pattern answers and marks write them ("+1:5:b") and as the
  // pictures label them ("+1 T5 b").
  function boardName(board) {
    const [timeline, turn, colour] = String(board).split(':');
    return `${timeline} T${turn} ${colour}`;
  }
  // The boards of a state's 5DFEN ("[pieces:L:T:c][...]"), in its order, each as {board:
  // "L:T:c", pieces, half: the half-turn, for ordering}.
  function boardsOfFen(fen) {
    const boards = [];
    for (const match of String(fen || '').matchAll(/\[([^\]:]*):([^\]:]*):(\d+):([wb])\]/g)) {
      const [, pieces, timeline, turn, colour] = match;
      boards.push({
        board: `${timeline}:${turn}:${colour}`,
        pieces,
        half: 2 * Number(turn) + (colour === 'b' ? 1 : 0)
      });
    }
    return boards;
  }

  // "Search for boards like [board ▾] ›": a choice among the boards of a position (its 5DFEN)
  // and a link to the board editor (/patterns) holding the chosen board, newest boards first.
  // options: variant (the editor's), selected ("L:T:c" chosen first; default the newest board),
  // describe(board) (where the board is, for the editor to say), onChoose(board) (called when
  // people choose another, so that the page can mark it in its picture).
  //
  // A page that steps through a game calls it again at every step: the choice and its options
  // are then kept and changed where the boards changed, a few options a step, rather than made
  // again (hundreds on a game of many timelines).
  function boardSearch(host, fen, options) {
    const boards = boardsOfFen(fen).map((b, i) => Object.assign({order: i}, b));
    boards.sort((a, b) => b.half - a.half || a.order - b.order);
    if (boards.length === 0) {
      host.boardSearch = null;
      fill(host);
      return;
    }
    const chosen =
        boards.some((b) => b.board === options.selected) ? options.selected : boards[0].board;
    let state = host.boardSearch;
    if (!state || !host.contains(state.select)) {
      state = {select: el('select', {'aria-label': 'The board to search for'}), optionOf: new Map()};
      state.link = el('a', {class: 'board-search'}, 'Search for boards like this ›');
      state.point = () => {
        const board = state.boards.find((b) => b.board === state.select.value);
        state.link.href =
            '/patterns' + query({
              variant: state.options.variant,
              from: board.pieces,
              'from-label': state.options.describe ? state.options.describe(board.board) :
                                                     boardName(board.board)
            });
      };
      state.select.addEventListener('change', () => {
        state.point();
        if (state.options.onChoose) state.options.onChoose(state.select.value);
      });
      host.boardSearch = state;
      fill(host, el('label', {class: 'check'}, 'Board', state.select), ' ', state.link);
    }
    state.boards = boards;
    state.options = options;
    const wanted = new Set(boards.map((b) => b.board));
    for (const [board, option] of state.optionOf) {
      if (wanted.has(board)) continue;
      option.remove();
      state.optionOf.delete(board);
    }
    // The options in the boards' order, moving only those out of place.
    let next = state.select.firstChild;
    for (const b of boards) {
      let option = state.optionOf.get(b.board);
      if (!option) {
        option = el('option', {value: b.board}, boardName(b.board));
        state.optionOf.set(b.board, option);
      }
      if (option === next) {
        next = next.nextSibling;
      } else {
        state.select.insertBefore(option, next);
      }
    }
    state.select.value = chosen;
    state.point();
  }

  // "Copy 5DFEN": a button that puts `fen` (a position's 5DFEN boards) on the clipboard, and
  // holds it as its data-fen for people whose browser keeps the clipboard from pages. It says
  // "Copied" once the text is there.
  // Called again with the next position of a game, it only changes the text the button holds.
  function copyFen(host, fen) {
    if (!fen) {
      fill(host);
      return;
    }
    const kept = host.querySelector('button.copy-fen');
    if (kept) {
      kept.dataset.fen = fen;
      fill(kept.nextSibling);
      return;
    }
    const note = el('span', {class: 'note', role: 'status'});
    const button = el('button', {
      type: 'button',
      class: 'copy-fen',
      'data-fen': fen,
      title: 'Put this position\'s 5DFEN on the clipboard (the Search page\'s 5DFEN field takes it)',
      onclick: () => {
        const text = button.dataset.fen;
        const done = () => fill(note, ' Copied.');
        const fallback = () => {
          // Where the clipboard API is missing (an address that is no secure context).
          const area = el('textarea', {class: 'offscreen', readonly: true});
          area.value = text;
          document.body.appendChild(area);
          area.select();
          const copied = document.execCommand && document.execCommand('copy');
          area.remove();
          fill(note, copied ? ' Copied.' : ' Your browser did not let the page copy it.');
        };
        if (navigator.clipboard && navigator.clipboard.writeText) {
          navigator.clipboard.writeText(text).then(done, fallback);
        } else {
          fallback();
        }
      }
    },
                       'Copy 5DFEN');
    fill(host, button, note);
  }

  // A table of games as /api/find answers them. `options.sort` ("date", "-date", ...) marks
  // the sorted column and `options.onSort(field)` makes headers clickable; `options.action`
  // adds the action at which each game reached the searched position, and `options.boards` the
  // boards a pattern search matched there, which each game's link marks in its picture. A copy
  // of an earlier game (its duplicate_of set) says so under its id, with a link to the original.
  const gameColumns = [
    ['id', 'Id'],
    ['white', 'White'],
    ['black', 'Black'],
    ['result', 'Result'],
    ['date', 'Date'],
    ['variant', 'Variant'],
    ['actions', 'Actions'],
    ['timelines', 'Timelines'],
  ];
  function gamesTable(games, options) {
    options = options || {};
    const columns = gameColumns.slice();
    if (options.action) columns.push(['action', 'At action']);
    if (options.boards) columns.push(['boards', 'Boards']);
    const unsortable = ['boards'];  // the API sorts by the other columns
    const sorted = (options.sort || '').replace(/^-/, '');
    const descending = (options.sort || '').startsWith('-');
    const head = el('tr', {}, columns.map(([field, title]) => {
      if (!options.onSort || unsortable.includes(field)) return el('th', {scope: 'col'}, title);
      const arrow = field === sorted ? (descending ? ' ▼' : ' ▲') : '';
      return el(
          'th', {
            scope: 'col',
            'aria-sort': field === sorted ? (descending ? 'descending' : 'ascending') : null
          },
          el('button', {
            type: 'button',
            class: 'sort',
            'data-field': field,
            onclick: () => options.onSort(field)
          },
             title + arrow));
    }));
    const rows = games.map((game) => {
      const marks = options.boards ? [...new Set(game.boards || [])] : [];
      const href = gameHref(game.id, options.action ? game.action : undefined, marks);
      const cells = columns.map(([field]) => {
        const value = game[field];
        if (field === 'id') {
          const copyOf = game.duplicate_of ?
              el('span', {class: 'copy-of'}, 'copy of ',
                 el('a', {href: gameHref(game.duplicate_of)}, `game ${game.duplicate_of}`)) :
              null;
          return el('td', {class: 'num'}, el('a', {href}, String(value)), copyOf);
        }
        if (field === 'boards') {
          return el('td', {class: 'boards'}, (value || []).map(boardName).join(', '));
        }
        const text = value === null || value === undefined ? '' : String(value);
        const numeric = ['actions', 'timelines', 'action'].includes(field);
        // A result or a date is one piece ("1/2-1/2" never broken at its slashes).
        const whole = ['result', 'date'].includes(field);
        return el('td', {class: numeric ? 'num' : whole ? 'whole' : null}, text);
      });
      // The whole row opens the game (the id's link is what the keyboard and new tabs use).
      return el(
          'tr', {
            'data-id': game.id,
            'data-copy-of': game.duplicate_of || null,
            class: game.duplicate_of ? 'copy opens' : 'opens',
            onclick: (event) => {
              if (event.target.closest('a, button, input, select') || event.button !== 0) return;
              if (String(window.getSelection ? window.getSelection() : '')) return;  // copying
              if (event.ctrlKey || event.metaKey) {
                window.open(href, '_blank', 'noopener');
              } else {
                location.href = href;
              }
            }
          },
          cells);
    });
    return el(
        'div', {class: 'table-scroll'},
        el('table', {class: 'games'}, el('thead', {}, head), el('tbody', {}, rows)));
  }

  // "Games 21–40 of 95" with previous and next buttons; onPage(offset) turns the page. A page
  // past the last (an edited or old address) says so, and "Previous" goes to the last page.
  function pager(offset, limit, total, onPage) {
    const last = Math.min(offset + limit, total);
    const pages = Math.max(1, Math.ceil(total / limit));
    const past = total > 0 && offset >= total;
    const text = total === 0 ? 'No games' :
        past ? `No page ${count(Math.floor(offset / limit) + 1)}: the ${count(total)} game${
                   total === 1 ? '' : 's'} fill ${count(pages)} page${pages === 1 ? '' : 's'}` :
               `Games ${count(offset + 1)}–${count(last)} of ${count(total)}`;
    return el(
        'div', {class: past ? 'pager past-end' : 'pager'},
        el('button', {
          type: 'button',
          class: 'previous',
          disabled: offset === 0,
          onclick: () => onPage(past ? (pages - 1) * limit : Math.max(0, offset - limit))
        },
           past ? '‹ Last page' : '‹ Previous'),
        el('span', {}, text),
        el('button', {
          type: 'button',
          class: 'next',
          disabled: last >= total,
          onclick: () => onPage(offset + limit)
        },
           'Next ›'));
  }

  // The variants of the database's games (official ones only when `officialOnly`), most
  // games first, as [name, games] pairs.
  async function variants(officialOnly) {
    const stats = await api('/api/stats', {top: 0});
    return stats.variants.filter((v) => !officialOnly || v.variant !== 'custom')
        .map((v) => [v.variant, v.games]);
  }

  // Marks the link of the current page in the navigation bar.
  document.addEventListener('DOMContentLoaded', () => {
    for (const link of document.querySelectorAll('header nav a')) {
      const path = link.getAttribute('href');
      if (path === location.pathname) link.setAttribute('aria-current', 'page');
    }
  });

  return {
    el,
    svg,
    fill,
    query,
    api,
    whenIdle,
    busy,
    showError,
    explain,
    showFieldError,
    clearInvalid,
    count,
    percent,
    dates,
    resultBar,
    movetext,
    splitMovetext,
    actionNumber,
    navigate,
    gameHref,
    boardName,
    boardsOfFen,
    boardSearch,
    copyFen,
    gamesTable,
    pager,
    variants,
  };
})();
