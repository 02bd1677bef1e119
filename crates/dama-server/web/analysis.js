// The analysis board: set up any position, play moves freely in any variant (a tree of
// variations with comments), the engine's best lines streamed from the server, and the
// tree exported or imported as PDN. Every position and legal move comes from the
// server; the page only keeps the tree.
import { t, errorText } from './i18n.js';
import { api, el, toast, variants, variantName, fenOfPieces } from './app.js';
import { Board, pieceSvg } from './board.js';
import { liveSocket } from './socket.js';

const TOOLS = [
  ['wm', 'white', false],
  ['wk', 'white', true],
  ['bm', 'black', false],
  ['bk', 'black', true],
  ['erase', null, false],
];

/** `/analysis?variant=V&fen=F`, `?game=ID` (a stored game) or `?pdn=1&g=N&ply=P`
 *  (a text the replay page left in this tab's session storage). */
export function analysisPage(main, params) {
  let variant = variants.has(params.get('variant')) ? params.get('variant') : 'english';
  let start = null; // the start position: { fen, side, pieces, legal, winner }
  let nodes = []; // moves: { parent, notation, long, path, captured, promote, fen, nags, comments }
  let cur = -1; // the move shown; -1 for the start position
  let leading = ''; // the comment before the first move
  let tags = [];
  let shown = null; // the position shown
  let board = null;
  let setup = null; // setting up: { pieces: Map(square -> piece), side, tool }
  let pdnOut = null; // exported PDN text
  let importOpen = false;
  const cache = new Map();
  let kids = null; // continuations by node (-1: the start), rebuilt after a change

  // The engine.
  let engineOn = localStorage.getItem('dama.analysis.engine') !== 'off';
  let lineCount = Number(localStorage.getItem('dama.analysis.lines')) || 2;
  let seq = 0;
  let report = null; // the last lines of the current request
  let engineState = ''; // '', 'queued', 'done', or an error message

  // The opening explorer.
  let exSource = localStorage.getItem('dama.explorer.source') || 'masters';
  let exMin = '';
  let exMax = '';
  let exSeq = 0;

  async function positionOf(fen) {
    const key = `${variant}|${fen}`;
    if (!cache.has(key)) {
      if (cache.size > 500) cache.clear();
      cache.set(key, await api('POST', '/api/analysis/position', { variant, fen }));
    }
    return cache.get(key);
  }

  const parentOf = (i) => (i < 0 ? null : nodes[i].parent ?? -1);
  function children(i) {
    if (!kids) {
      kids = new Map();
      nodes.forEach((n, k) => {
        const p = n.parent ?? -1;
        if (!kids.has(p)) kids.set(p, []);
        kids.get(p).push(k);
      });
    }
    return kids.get(i) || [];
  }
  /** Sets the moves (the continuations are recomputed). */
  function setNodes(list) {
    nodes = list;
    kids = null;
  }
  function pathTo(i) {
    const out = [];
    for (let k = i; k >= 0; k = nodes[k].parent ?? -1) out.push(k);
    return out.reverse();
  }
  const fenAt = (i) => (i < 0 ? start.fen : nodes[i].fen);
  const firstMover = () => variants.get(variant).first;
  // Plies before a move, counted so that the variant's first mover plays even plies.
  const offset = () => (start.side === firstMover() ? 0 : 1);

  /** Starts over from `fen` (or the variant's start). */
  async function reset(fen) {
    start = await positionOf(fen || '');
    setNodes([]);
    cur = -1;
    leading = '';
    tags = [];
    pdnOut = null;
    render();
  }

  async function goTo(i) {
    cur = i;
    pdnOut = null;
    await show();
  }

  /** Plays a legal move of the position shown: into an existing continuation if the
   *  tree has it, else as a new one (a variation when the move has others). */
  function play(mv) {
    const same = children(cur).find((k) => nodes[k].long === mv.long);
    if (same !== undefined) return goTo(same);
    setNodes([...nodes, { ...mv, parent: cur < 0 ? null : cur, nags: [], comments: [] }]);
    return goTo(nodes.length - 1);
  }

  /** Rebuilds the node list (parents first, children in order), leaving out `drop`
   *  and its descendants and putting the nodes of `prefer` first among their
   *  siblings. Returns the new index of each old one kept. */
  function rebuild(drop, prefer = new Set()) {
    const out = [];
    const map = new Map();
    const stack = [[-1, null]];
    while (stack.length) {
      const [old, parent] = stack.pop();
      let list = children(old).filter((k) => k !== drop);
      const p = list.find((k) => prefer.has(k));
      if (p !== undefined) list = [p, ...list.filter((k) => k !== p)];
      for (const k of list) {
        out.push({ ...nodes[k], parent });
        map.set(k, out.length - 1);
      }
      // Last in, first out: pushed in reverse, the children are laid out in order.
      for (const k of list.reverse()) stack.push([k, map.get(k)]);
    }
    setNodes(out);
    return map;
  }

  function deleteFromHere() {
    if (cur < 0) return;
    const parent = parentOf(cur);
    const map = rebuild(cur);
    cur = parent < 0 ? -1 : map.get(parent);
    show();
  }

  /** Makes the line to the move shown the main line. */
  function makeMain() {
    if (cur < 0) return;
    const map = rebuild(undefined, new Set(pathTo(cur)));
    cur = map.get(cur);
    show();
  }

  // ---- the engine ----

  // Opened when the engine is first wanted; back after 2 s while it is on.
  const engine = liveSocket('/api/analysis/ws', {
    lazy: true,
    onOpen: () => analyse(),
    onMessage(m) {
      if (m.id !== undefined && m.id !== seq) return; // an older position's
      if (m.type === 'lines') {
        report = m;
        engineState = '';
      } else if (m.type === 'done') engineState = 'done';
      else if (m.type === 'queued') engineState = 'queued';
      else if (m.type === 'error') engineState = m.message;
      drawEngine();
    },
    retry: () => (engineOn ? 2000 : null),
  });

  function analyse() {
    report = null;
    engineState = '';
    if (!engineOn || !start || setup) {
      engine.send({ type: 'stop' });
      drawEngine();
      return;
    }
    if (!engine.open()) return engine.connect(); // sent once open
    seq += 1;
    const moves = pathTo(cur).map((k) => nodes[k].long);
    engine.send({ type: 'analyse', id: seq, variant, fen: start.fen, moves, lines: lineCount });
    drawEngine();
  }

  /** A score for the side to move as words and as White's share of the bar. */
  function judge(line, side) {
    const sign = side === 'white' ? 1 : -1;
    if (line.moves_to_end !== null && line.moves_to_end !== undefined) {
      const n = line.moves_to_end;
      const text = n > 0 ? t('an_win_in', { n }) : t('an_loss_in', { n: -n });
      return { text, white: n * sign > 0 ? 1 : 0 };
    }
    const s = line.score;
    const text = (s >= 0 ? '+' : '−') + (Math.abs(s) / 100).toFixed(2);
    return { text, white: 1 / (1 + Math.exp((-s * sign) / 150)) };
  }

  function drawEngine() {
    const box = main.querySelector('#engine');
    if (!box) return;
    const bar = main.querySelector('#evalbar');
    const parts = [];
    if (!engineOn) parts.push(el('p', { class: 'muted' }, t('an_engine_off')));
    else if (shown?.winner) parts.push(el('p', {}, t('an_game_over')));
    else if (!report) parts.push(el('p', { class: 'muted', id: 'engine-wait' }, engineState === 'queued' ? t('an_queued') : engineState && engineState !== 'done' ? engineState : t('an_thinking')));
    if (report && shown && !shown.winner) {
      const best = judge(report.lines[0], shown.side);
      if (bar) {
        bar.style.setProperty('--white', `${Math.round(best.white * 100)}%`);
        bar.setAttribute('aria-label', `${t('an_eval')}: ${best.text}`);
      }
      parts.push(el('p', { class: 'muted', id: 'engine-depth' }, t('an_depth', { d: report.depth, n: (report.nodes / 1000).toFixed(0) }) + (engineState === 'done' ? ` · ${t('an_done')}` : '')));
      const list = el('ol', { class: 'lines', id: 'lines' });
      for (const line of report.lines) {
        const j = judge(line, shown.side);
        const first = shown.legal.find((m) => m.long === line.moves[0] || m.notation === line.moves[0]);
        list.append(el('li', {},
          el('strong', { class: 'score' }, j.text), ' ',
          el('button', { class: 'linkish', title: t('an_play_line'), onclick: () => first && play(first) }, line.moves.slice(0, 14).join(' '))));
      }
      parts.push(list);
    } else if (bar) {
      bar.style.setProperty('--white', '50%');
      bar.setAttribute('aria-label', t('an_eval'));
    }
    box.replaceChildren(...parts);
  }

  // ---- the opening explorer ----

  async function explore() {
    const box = main.querySelector('#explorer-moves');
    if (!box || !shown) return;
    const mine = ++exSeq;
    const q = new URLSearchParams({ variant, fen: shown.fen, source: exSource });
    if (exSource === 'players' && exMin) q.set('min', exMin);
    if (exSource === 'players' && exMax) q.set('max', exMax);
    let r;
    try {
      r = await api('GET', `/api/explorer?${q}`);
    } catch (e) {
      box.replaceChildren(el('p', { class: 'error' }, e.message));
      return;
    }
    if (mine !== exSeq) return; // a later position's answer is coming
    if (!r.moves.length) {
      box.replaceChildren(el('p', { class: 'muted' }, t('ex_none')));
      return;
    }
    const pct = (n, of) => `${Math.round((100 * n) / of)}%`;
    const rows = r.moves.map((m) => {
      const legal = shown.legal.find((x) => x.long === m.long);
      return el('tr', {},
        el('td', {}, el('button', { class: 'linkish', 'data-move': m.long, onclick: () => legal && play(legal) }, m.notation)),
        el('td', { class: 'num' }, String(m.games)),
        el('td', { class: 'results' }, el('div', { class: 'result-bar', title: `${t('colour_white')} ${pct(m.white, m.games)} · ${t('ex_draws')} ${pct(m.draws, m.games)} · ${t('colour_black')} ${pct(m.black, m.games)}` },
          el('span', { class: 'w', style: `width:${pct(m.white, m.games)}` }),
          el('span', { class: 'd', style: `width:${pct(m.draws, m.games)}` }),
          el('span', { class: 'b', style: `width:${pct(m.black, m.games)}` }))));
    });
    box.replaceChildren(el('table', { class: 'explorer', id: 'explorer-table' },
      el('thead', {}, el('tr', {}, el('th', {}, t('ex_move')), el('th', {}, t('ex_games')), el('th', {}, t('ex_results')))),
      el('tbody', {}, ...rows)));
  }

  function explorerCard() {
    const range = exSource === 'players'
      ? [
        el('label', { for: 'ex-min' }, t('ex_rating')),
        el('input', { id: 'ex-min', type: 'number', min: 0, max: 4000, step: 100, value: exMin, placeholder: '0', style: 'width:5rem', onchange: (e) => {
          exMin = e.target.value;
          explore();
        } }),
        '–',
        el('input', { id: 'ex-max', type: 'number', min: 0, max: 4000, step: 100, value: exMax, placeholder: '3000', 'aria-label': t('ex_rating_max'), style: 'width:5rem', onchange: (e) => {
          exMax = e.target.value;
          explore();
        } }),
      ]
      : [];
    return el('div', { class: 'card', id: 'explorer' },
      el('p', { class: 'row' },
        el('strong', {}, t('ex_title')),
        el('select', { id: 'ex-source', 'aria-label': t('ex_source'), onchange: (e) => {
          exSource = e.target.value;
          localStorage.setItem('dama.explorer.source', exSource);
          render();
        } }, ['masters', 'players'].map((k) => el('option', { value: k, selected: k === exSource }, t('ex_' + k)))),
        ...range),
      el('div', { id: 'explorer-moves', 'aria-live': 'polite' }));
  }

  // ---- the page's one message ----

  // The latest error (or import warning) shows in one place at the top of the panel,
  // replacing the one before; it never covers a control, and it can be dismissed.
  const noteBox = el('div', { id: 'an-note', role: 'alert', hidden: true });
  function say(text, err = true) {
    noteBox.hidden = !text;
    noteBox.className = 'an-note' + (err ? ' err' : '');
    noteBox.replaceChildren(...(text
      ? [el('span', {}, text), el('button', { type: 'button', class: 'link', id: 'an-note-close', 'aria-label': t('close'), onclick: () => say(null) }, '×')]
      : []));
  }

  // ---- drawing ----

  async function show() {
    if (!start) return;
    if (setup) return drawSetup();
    try {
      shown = await positionOf(fenAt(cur));
    } catch (e) {
      say(e.message);
      return;
    }
    board.set({ pieces: shown.pieces, legal: shown.winner ? [] : shown.legal, last: cur >= 0 ? nodes[cur] : null, interactive: !shown.winner, arrows: [] });
    drawTree();
    const note = main.querySelector('#comment');
    if (note) note.value = cur < 0 ? leading : nodes[cur].comments.join(' ');
    const fen = main.querySelector('#fen');
    if (fen) fen.value = shown.fen;
    const turn = main.querySelector('#turn');
    if (turn) turn.textContent = shown.winner ? t('an_wins', { side: t('colour_' + shown.winner) }) : t('an_to_move', { side: t('colour_' + shown.side) });
    analyse();
    explore();
  }

  function moveButton(i) {
    const n = nodes[i];
    return el('button', { class: i === cur ? 'mv cur' : 'mv', 'data-node': i, onclick: () => goTo(i) },
      n.notation + (n.nags.length ? ' ' + n.nags.join(' ') : ''));
  }

  /** The line from move `i`, numbered, with its variations in parentheses. */
  function lineEls(i, out) {
    let numbered = false;
    let ply = pathTo(i).length - 1 + offset();
    while (i !== undefined) {
      const num = Math.floor(ply / 2) + 1;
      if (ply % 2 === 0) out.push(el('span', { class: 'n' }, `${num}.`));
      else if (!numbered) out.push(el('span', { class: 'n' }, `${num}…`));
      numbered = true;
      out.push(moveButton(i));
      if (nodes[i].comments.length) out.push(el('span', { class: 'comment' }, nodes[i].comments.join(' ')));
      const sibs = children(parentOf(i));
      if (sibs[0] === i) {
        for (const alt of sibs.slice(1)) {
          const inner = [];
          lineEls(alt, inner);
          out.push(el('span', { class: 'var' }, ...inner));
          numbered = false;
        }
      }
      i = children(i)[0];
      ply += 1;
    }
  }

  function drawTree() {
    const box = main.querySelector('#tree');
    if (!box) return;
    const out = [];
    if (leading) out.push(el('span', { class: 'comment' }, leading));
    const first = children(-1)[0];
    if (first !== undefined) lineEls(first, out);
    else out.push(el('span', { class: 'muted' }, t('an_no_moves')));
    box.replaceChildren(...out);
    box.querySelector('.cur')?.scrollIntoView({ block: 'nearest' });
    main.querySelector('#delete').disabled = cur < 0;
    main.querySelector('#promote').disabled = cur < 0 || pathTo(cur).every((k) => children(parentOf(k))[0] === k);
  }

  // ---- setting up a position ----

  function startSetup() {
    setup = { pieces: new Map(shown.pieces.map((p) => [p.square, p])), side: shown.side, tool: 'wm' };
    report = null;
    analyse();
    render();
  }

  function setupFen() {
    return fenOfPieces([...setup.pieces.values()], setup.side, variant);
  }

  function drawSetup() {
    board.set({ pieces: [...setup.pieces.values()], legal: [], last: null, interactive: false, arrows: [] });
    const fen = main.querySelector('#fen');
    if (fen) fen.value = setupFen();
  }

  /** Puts the tool's piece on `sq` (a click on the same piece takes it off again). */
  function placeAt(sq, toggle = true) {
    if (!setup || !board.pos.has(sq)) return;
    const [, color, king] = TOOLS.find((x) => x[0] === setup.tool);
    const here = setup.pieces.get(sq);
    if (!color || (toggle && here && here.color === color && here.king === king)) setup.pieces.delete(sq);
    else setup.pieces.set(sq, { square: sq, color, king });
    drawSetup();
  }

  async function finishSetup(fen) {
    try {
      const pos = await positionOf(fen);
      setup = null;
      await reset(pos.fen);
    } catch (e) {
      say(e.message);
    }
  }

  // ---- PDN ----

  async function exportPdn() {
    try {
      const r = await api('POST', '/api/analysis/export', {
        variant,
        fen: start.fen,
        comment: leading,
        tags,
        nodes: nodes.map((n) => ({ parent: n.parent ?? null, move: n.long, nags: n.nags, comments: n.comments })),
      });
      pdnOut = r.pdn;
    } catch (e) {
      say(e.message);
    }
    render();
  }

  async function importPdn(text, game = 0, ply = 0, fallback = variant) {
    try {
      const r = await api('POST', '/api/analysis/import', { pdn: text, variant: fallback, game });
      variant = r.variant;
      start = await positionOf(r.fen);
      setNodes(r.nodes.map((n) => ({ ...n, parent: n.parent ?? null, nags: n.nags || [], comments: n.comments || [] })));
      leading = r.comment || '';
      tags = r.tags || [];
      cur = -1;
      // Go `ply` moves down the main line.
      for (let k = 0; k < ply; k++) {
        const next = children(cur)[0];
        if (next === undefined) break;
        cur = next;
      }
      importOpen = false;
      pdnOut = null;
      // What the reader read past, each worded by its code (`err_pdnw_<kind>`).
      say((r.notes || []).slice(0, 3).map(errorText).join(' · ') || null, false);
    } catch (e) {
      say(e.message);
    }
    render();
  }

  // ---- the page ----

  function render() {
    if (!start) return;
    const info = variants.get(variant);
    const wrap = el('div', { class: 'board-wrap' });
    const bar = el('div', { class: 'evalbar', id: 'evalbar', role: 'img', 'aria-label': t('an_eval') });
    const variantSel = el('select', { id: 'an-variant', 'aria-label': t('variant'), onchange: async (e) => {
      variant = e.target.value;
      setup = null;
      await reset();
    } }, [...variants.keys()].map((k) => el('option', { value: k, selected: k === variant }, variantName(k))));
    const fenBox = el('p', { class: 'row' },
      el('label', { for: 'fen' }, 'FEN'),
      el('input', { id: 'fen', spellcheck: 'false', size: 40 }),
      el('button', { class: 'btn', id: 'load-fen', onclick: () => finishSetup(main.querySelector('#fen').value.trim()) }, t('load')));
    let tools;
    if (setup) {
      tools = el('div', { class: 'card', id: 'setup' },
        el('h2', {}, t('an_setup')),
        el('div', { class: 'palette', role: 'radiogroup', 'aria-label': t('an_palette') }, TOOLS.map(([k, color, king]) =>
          el('button', { class: setup.tool === k ? 'tool on' : 'tool', 'data-tool': k, role: 'radio', 'aria-checked': String(setup.tool === k), title: t('an_tool_' + k), 'aria-label': t('an_tool_' + k), draggable: 'true', onclick: () => {
            setup.tool = k;
            render();
          }, ondragstart: (e) => {
            // Dragged from the palette onto a square: the piece goes there.
            e.dataTransfer.setData('text/plain', k);
            e.dataTransfer.effectAllowed = 'copy';
          } }, color ? icon(color, king) : '✕'))),
        el('p', { class: 'row' },
          el('label', { for: 'setup-side' }, t('an_side_to_move')),
          el('select', { id: 'setup-side', onchange: (e) => {
            setup.side = e.target.value;
            drawSetup();
          } }, ['white', 'black'].map((c) => el('option', { value: c, selected: c === setup.side }, t('colour_' + c))))),
        el('p', { class: 'row' },
          el('button', { class: 'btn', id: 'setup-start', onclick: async () => {
            const p = await positionOf('');
            setup.pieces = new Map(p.pieces.map((x) => [x.square, x]));
            setup.side = p.side;
            render();
          } }, t('an_start_position')),
          el('button', { class: 'btn', id: 'setup-clear', onclick: () => {
            setup.pieces = new Map();
            drawSetup();
          } }, t('an_clear')),
          el('button', { class: 'btn primary', id: 'setup-done', onclick: () => finishSetup(setupFen()) }, t('an_done_setup')),
          el('button', { class: 'btn', id: 'setup-cancel', onclick: () => {
            setup = null;
            render();
          } }, t('an_cancel'))));
    } else {
      tools = el('div', { class: 'card' },
        el('p', { class: 'row' },
          el('label', {}, el('input', { type: 'checkbox', id: 'engine-on', checked: engineOn, onchange: (e) => {
            engineOn = e.target.checked;
            localStorage.setItem('dama.analysis.engine', engineOn ? 'on' : 'off');
            analyse();
          } }), ' ', t('an_engine')),
          el('label', { for: 'line-count' }, t('an_lines')),
          el('select', { id: 'line-count', onchange: (e) => {
            lineCount = Number(e.target.value);
            localStorage.setItem('dama.analysis.lines', String(lineCount));
            analyse();
          } }, [1, 2, 3].map((n) => el('option', { value: n, selected: n === lineCount }, String(n))))),
        el('div', { id: 'engine', 'aria-live': 'polite' }));
    }
    const treeTools = el('p', { class: 'row' },
      el('button', { class: 'btn', onclick: () => goTo(-1), 'aria-label': t('first') }, '|◀'),
      el('button', { class: 'btn', id: 'back', onclick: () => cur >= 0 && goTo(parentOf(cur)), 'aria-label': t('prev') }, '◀'),
      el('button', { class: 'btn', id: 'forward', onclick: () => children(cur)[0] !== undefined && goTo(children(cur)[0]), 'aria-label': t('next') }, '▶'),
      el('button', { class: 'btn', id: 'delete', onclick: deleteFromHere }, t('an_delete')),
      el('button', { class: 'btn', id: 'promote', onclick: makeMain }, t('an_promote')),
      el('button', { class: 'btn', onclick: () => board.setFlipped(!board.flipped) }, t('flip')));
    const commentBox = el('p', {},
      el('label', { for: 'comment' }, t('an_comment')),
      el('textarea', { id: 'comment', rows: 2, oninput: (e) => {
        const text = e.target.value;
        if (cur < 0) leading = text;
        else nodes[cur].comments = text.trim() ? [text] : []; // the tree's shape is unchanged
        drawTree();
      } }));
    const pdnBox = el('div', { class: 'card' },
      el('p', { class: 'row' },
        el('button', { class: 'btn', id: 'export', onclick: exportPdn }, t('an_export')),
        el('button', { class: 'btn', id: 'import-open', onclick: () => {
          importOpen = !importOpen;
          render();
        } }, t('an_import')),
        setup ? null : el('button', { class: 'btn', id: 'setup-open', onclick: startSetup }, t('an_setup'))),
      pdnOut !== null
        ? el('div', {},
          el('textarea', { id: 'pdn-out', readonly: true, rows: 8, spellcheck: 'false' }, pdnOut),
          el('a', { class: 'btn', id: 'pdn-download', download: 'analysis.pdn', href: URL.createObjectURL(new Blob([pdnOut], { type: 'text/plain' })) }, t('download_pdn')))
        : null,
      importOpen
        ? el('form', { id: 'import-form', onsubmit: (e) => {
          e.preventDefault();
          importPdn(main.querySelector('#pdn-in').value);
        } },
        el('label', { for: 'pdn-in' }, t('an_paste_pdn')),
        el('textarea', { id: 'pdn-in', rows: 6, spellcheck: 'false' }),
        el('p', { class: 'row' },
          el('input', { type: 'file', accept: '.pdn,.txt,text/plain', 'aria-label': t('pdn_file'), onchange: async (e) => {
            const file = e.target.files[0];
            if (file) main.querySelector('#pdn-in').value = await file.text();
          } }),
          el('button', { class: 'btn primary', type: 'submit', id: 'import-load' }, t('load'))))
        : null);
    // While a position is set up, the tree and its tools wait.
    const panel = setup
      ? el('div', { class: 'panel' }, el('p', { class: 'row' }, variantSel), noteBox, tools, fenBox)
      : el('div', { class: 'panel' },
        el('p', { class: 'row' }, variantSel, el('span', { id: 'turn', 'aria-live': 'polite' })),
        noteBox,
        tools,
        explorerCard(),
        el('div', { class: 'tree', id: 'tree', role: 'group', 'aria-label': t('moves') }),
        treeTools,
        commentBox,
        fenBox,
        pdnBox);
    main.replaceChildren(el('h1', {}, t('an_title')), el('div', { class: 'game analysis' }, el('div', { class: 'bar-and-board' }, bar, wrap), panel));
    board = new Board(wrap, info, { onMove: (mv) => play(mv), onNote: (x) => toast(x) });
    board.el.setAttribute('aria-label', t('board'));
    board.el.addEventListener('click', (e) => {
      const sq = e.target.closest('[data-sq]');
      if (setup && sq) placeAt(sq.dataset.sq);
    });
    board.el.addEventListener('dragover', (e) => {
      if (setup) e.preventDefault();
    });
    board.el.addEventListener('drop', (e) => {
      const sq = e.target.closest('[data-sq]');
      const tool = e.dataTransfer?.getData('text/plain');
      if (!setup || !sq || !TOOLS.some((x) => x[0] === tool)) return;
      e.preventDefault();
      setup.tool = tool;
      placeAt(sq.dataset.sq, false);
      render();
    });
    show();
    drawEngine();
  }

  const onKey = (e) => {
    if (e.target.closest('textarea, input, select, .board')) return;
    if (e.key === 'ArrowLeft' && cur >= 0) goTo(parentOf(cur));
    if (e.key === 'ArrowRight' && children(cur)[0] !== undefined) goTo(children(cur)[0]);
  };
  window.addEventListener('keydown', onKey);

  (async () => {
    try {
      if (params.get('game')) {
        const text = await api('GET', `/api/games/${encodeURIComponent(params.get('game'))}/pdn`);
        start = await positionOf('');
        await importPdn(text, 0, Number(params.get('ply')) || 0);
      } else if (params.get('pdn')) {
        const text = sessionStorage.getItem('dama.analysis.pdn') || '';
        start = await positionOf('');
        await importPdn(text, Number(params.get('g')) || 0, Number(params.get('ply')) || 0, params.get('variant') || variant);
      } else {
        await reset(params.get('fen') || '');
      }
    } catch (e) {
      main.replaceChildren(el('p', { class: 'error' }, e.message));
    }
  })();

  return {
    render,
    destroy() {
      window.removeEventListener('keydown', onKey);
      engine.close();
    },
  };
}

/** A palette icon: the board's own piece. */
function icon(color, king) {
  const s = el('span', { class: 'piece-icon' });
  s.innerHTML = pieceSvg(color, king);
  return s;
}
