// Puzzles: a position from a real game where exactly one move wins material or the
// game. The solver plays the winning line's moves; the page answers with the replies.
// Another move is judged by the server's engine: one that keeps the outcome is
// accepted and the puzzle goes on along the engine's line (or ends, its point made); a
// move that does not ends the attempt and shows the line. The server keeps the
// solver's rating per variant (the account's, or this browser's visitor cookie's).
import { t } from './i18n.js';
import { api, el, variants, variantName } from './app.js';
import { Board } from './board.js';

/** `/puzzles?variant=V`. */
export function puzzlesPage(main, params) {
  let variant = variants.has(params.get('variant')) ? params.get('variant') : localStorage.getItem('dama.puzzle.variant') || 'russian';
  let puzzle = null;
  let pos = null; // the position shown, from the server
  let line = []; // the moves played and those expected: the puzzle's, or the engine's after another move
  let step = 0; // moves of the line played
  let other = false; // the last move was another winning move, accepted
  let last = null;
  let state = 'play'; // 'play', 'checking' (the server judges a move), 'solved' or 'failed'
  let change = null;
  let board = null;
  let error = '';
  let timer = null;

  let rating = 1500; // the solver's, as the server last said
  const myRating = () => rating;
  const position = (fen) => api('POST', '/api/analysis/position', { variant, fen });

  async function load() {
    clearTimeout(timer);
    error = '';
    try {
      const q = new URLSearchParams({ variant });
      if (puzzle) q.set('after', puzzle.id);
      const r = await api('GET', `/api/puzzles/next?${q}`);
      puzzle = r.puzzle;
      if (typeof r.rating === 'number') rating = r.rating;
      line = puzzle ? puzzle.line : [];
      step = 0;
      other = false;
      last = null;
      state = 'play';
      change = null;
      pos = puzzle ? await position(puzzle.fen) : null;
    } catch (e) {
      error = e.message;
    }
    render();
  }

  async function attempt(solved) {
    try {
      const r = await api('POST', `/api/puzzles/${puzzle.id}/attempt`, { solved });
      rating = r.rating;
      change = r.change;
    } catch (e) {
      error = e.message;
    }
  }

  async function onMove(mv) {
    if (state !== 'play') return;
    const played = line.slice(0, step).concat([mv.long]);
    let r = { verdict: 'line', solved: step + 1 >= line.length, line: line.slice(step + 1) };
    const [before, shown, id] = [pos, last, puzzle.id];
    last = mv;
    pos = await position(mv.fen);
    if (mv.long !== line[step]) {
      // Not the line's move: the server's engine says whether it keeps the outcome.
      state = 'checking';
      render();
      try {
        r = await api('POST', `/api/puzzles/${id}/check`, { moves: played });
      } catch (e) {
        [error, pos, last, state] = [e.message, before, shown, 'play'];
        return render();
      }
      if (!puzzle || puzzle.id !== id) return; // another puzzle meanwhile
      error = '';
    }
    other = r.verdict === 'accepted';
    if (r.verdict === 'refused') {
      state = 'failed';
      await attempt(false);
      return render();
    }
    line = played.concat(r.line);
    step += 1;
    if (r.solved || step >= line.length) {
      state = 'solved';
      await attempt(true);
      return render();
    }
    state = 'play';
    render();
    // The opponent's reply, after a moment.
    timer = setTimeout(async () => {
      const reply = pos.legal.find((m) => m.long === line[step]);
      if (!reply) return;
      last = reply;
      pos = await position(reply.fen);
      step += 1;
      render();
    }, 450);
  }

  function status() {
    const accepted = other ? ' ' + t('pz_other') : '';
    if (state === 'solved') return el('p', { class: 'ok', id: 'pz-status', role: 'status' }, t('pz_solved') + accepted);
    if (state === 'failed') return el('p', { class: 'error', id: 'pz-status', role: 'status' }, t('pz_wrong'));
    if (step > 0) return el('p', { id: 'pz-status', role: 'status' }, other ? t('pz_other') : t('pz_good'));
    return el('p', { id: 'pz-status', role: 'status' }, t('pz_find', { side: t('colour_' + pos.side) }));
  }

  function render() {
    const info = variants.get(variant);
    const parts = [el('h1', {}, t('pz_title'))];
    const head = el('p', { class: 'row' },
      el('select', { id: 'pz-variant', 'aria-label': t('variant'), onchange: (e) => {
        variant = e.target.value;
        localStorage.setItem('dama.puzzle.variant', variant);
        puzzle = null;
        load();
      } }, [...variants.keys()].map((k) => el('option', { value: k, selected: k === variant }, variantName(k)))),
      el('span', { id: 'pz-rating' }, t('pz_rating', { n: myRating() }) + (change !== null ? ` (${change >= 0 ? '+' : ''}${change})` : '')));
    parts.push(head);
    if (error) parts.push(el('p', { class: 'error', role: 'alert' }, error));
    if (!puzzle) {
      parts.push(el('p', { class: 'muted', id: 'pz-none' }, t('pz_none')));
      main.replaceChildren(...parts);
      return;
    }
    const wrap = el('div', { class: 'board-wrap' });
    const done = state !== 'play';
    const panel = el('div', { class: 'panel' },
      status(),
      el('p', { class: 'muted' }, t('pz_puzzle_rating', { n: puzzle.rating })),
      done ? el('p', { id: 'pz-line' }, t('pz_solution'), ' ', el('strong', {}, puzzle.line.join(' '))) : null,
      el('p', { class: 'row' },
        el('button', { class: done ? 'btn primary' : 'btn', id: 'pz-next', onclick: load }, t('pz_next')),
        el('a', { class: 'btn', href: `/analysis?variant=${variant}&fen=${encodeURIComponent(puzzle.fen)}`, 'data-link': true, id: 'pz-analyse' }, t('an_analyse'))));
    parts.push(el('div', { class: 'game' }, wrap, panel));
    main.replaceChildren(...parts);
    board = new Board(wrap, info, { onMove });
    board.el.setAttribute('aria-label', t('board'));
    // The solver plays from the bottom.
    if (puzzle && pos && (/^W/i.test(puzzle.fen) ? 'white' : 'black') === 'black') board.setFlipped(true);
    const playing = state === 'play' && step % 2 === 0;
    board.set({ pieces: pos.pieces, legal: playing ? pos.legal : [], last, interactive: playing });
  }

  load();
  return { render, destroy: () => clearTimeout(timer) };
}
