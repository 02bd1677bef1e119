// Learn to play: `/learn` lists the rulebooks, `/learn/<variant>` teaches one. Each
// lesson is a position with a goal; the learner plays on the board and the server's
// rules judge every move: a move the rules refuse comes back with the rule it breaks
// (the same reason a game gives), a legal move that misses the goal says so, and the
// opponent's replies are the lesson's. Then ten practice positions: find the winning
// shot. Progress is kept in this browser and, when logged in, on the account.
import { t, resultText } from './i18n.js';
import { api, el, variants, variantName, notFoundPage } from './app.js';
import { Board } from './board.js';
import { me } from './account.js';

const KEY = 'dama.learn';

/** The players' documents (docs/seeds.md) whose moves a rulebook's lessons teach: their
 *  rulebooks differ from the variant's official rules only in clocks and draws. */
const SEEDS = { english: ['001', '003'], russian: ['000'], turkish: ['002'] };

/** This browser's progress: completed lesson ids by variant. */
function local() {
  try {
    const p = JSON.parse(localStorage.getItem(KEY) || '{}');
    return p && typeof p === 'object' ? p : {};
  } catch {
    return {};
  }
}

function keep(p) {
  localStorage.setItem(KEY, JSON.stringify(p));
}

/** Adds completed lessons to `into` (no id twice). */
function merge(into, from) {
  for (const [v, ids] of Object.entries(from || {})) {
    if (!Array.isArray(ids)) continue;
    into[v] = [...new Set([...(into[v] || []), ...ids.filter((x) => typeof x === 'string')])];
  }
  return into;
}

/** Logged in: the browser's progress goes to the account and the account's comes
 *  back, so both hold the union (on logging in, and on opening a Learn page). */
export async function syncProgress() {
  if (!me) return local();
  const mine = local();
  const known = Object.fromEntries(Object.entries(mine).filter(([v]) => variants.has(v)));
  try {
    const r = await api('POST', '/api/learn/progress', { done: known });
    const all = merge(mine, r.done);
    keep(all);
    return all;
  } catch {
    return mine;
  }
}

/** `/learn`: the rulebooks, each with its progress. */
export function learnIndex(main) {
  let progress = local();
  let counts = {};
  function render() {
    document.title = `${t('learn_title')} · dama`;
    const items = [...variants.keys()].map((k) => el('li', {},
      el('a', { href: `/learn/${k}`, 'data-link': true, class: 'learn-variant', 'data-variant': k }, variantName(k)),
      ' ', el('span', { class: 'muted learn-count' }, t('learn_done_count', { n: (progress[k] || []).length, of: counts[k] ?? '…' })),
      ...(SEEDS[k] || []).map((n) => el('span', { class: 'muted learn-seed' }, '; ' + t('learn_seed', { doc: t('seed_doc_' + n), n })))));
    main.replaceChildren(el('section', { class: 'learn' },
      el('h1', {}, t('learn_title')),
      el('p', {}, t('learn_intro')),
      el('ul', { class: 'learn-list' }, items)));
  }
  render();
  api('GET', '/api/learn').then((r) => {
    counts = r.variants;
    render();
  }).catch(() => {});
  syncProgress().then((p) => {
    progress = p;
    render();
  });
  return { render };
}

/** `/learn/<variant>`: the lessons, then the practice positions. */
export function learnPage(main, variant) {
  if (!variants.has(variant)) return notFoundPage(main);
  const info = variants.get(variant);
  let lessons = [];
  let at = 0; // the lesson shown
  let moves = []; // the learner's moves so far
  let pos = null; // the position shown: {pieces, legal, side}
  let last = null;
  let state = 'play'; // 'play', 'checking', 'done', 'failed'
  let note = null; // {text, error}
  let progress = local();
  let board = null;
  let error = '';

  const position = (fen) => api('POST', '/api/analysis/position', { variant, fen });
  const lesson = () => lessons[at];
  const done = (l) => (progress[variant] || []).includes(l.id);
  const title = (l) => (l.practice ? t('learn_practice_n', { n: l.id.slice(1) }) : t(`learn_${l.id}_title`));

  async function start(i) {
    at = i;
    moves = [];
    last = null;
    state = 'play';
    note = null;
    try {
      pos = await position(lesson().fen);
    } catch (e) {
      error = e.message;
    }
    render();
  }

  async function complete() {
    progress = merge(local(), { [variant]: [lesson().id] });
    keep(progress);
    if (me) api('POST', '/api/learn/progress', { done: { [variant]: [lesson().id] } }).catch(() => {});
  }

  async function send(text, mv) {
    if (state !== 'play') return;
    const tried = moves.concat([text]);
    const id = lesson().id;
    state = 'checking';
    let r;
    try {
      r = await api('POST', '/api/learn/check', { variant, lesson: id, moves: tried });
    } catch (e) {
      // Refused: the rule it breaks, in the reader's language; the board stays.
      state = 'play';
      note = { text: t('learn_refused', { why: e.message }), error: true };
      return render();
    }
    if (lesson().id !== id) return;
    moves = tried;
    last = r.reply || r.played || mv;
    pos = await position(r.fen);
    if (r.verdict === 'done') {
      state = 'done';
      const ended = r.result ? ' ' + resultText(r.result) + '.' : '';
      note = { text: t('learn_well_done') + ended };
      await complete();
    } else if (r.verdict === 'failed') {
      state = 'failed';
      note = { text: t('learn_failed_' + r.why), error: true };
    } else {
      state = 'play';
      note = { text: t('learn_go_on') };
    }
    render();
  }

  function goal(l) {
    const g = l.goal;
    if (l.practice) return t('learn_goal_line');
    if (g.kind === 'capture' && g.n === 1) return t('learn_goal_capture_one');
    return t('learn_goal_' + g.kind, { square: g.square, n: g.n, moves: l.moves });
  }

  function render() {
    document.title = `${t('learn_title')}: ${variantName(variant)} · dama`;
    const parts = [
      el('p', { class: 'row' },
        el('a', { href: '/learn', 'data-link': true, id: 'learn-back' }, t('learn_all')),
        el('a', { href: `/rules/${variant}`, 'data-link': true }, t('full_rules'))),
      el('h1', {}, t('learn_title') + ': ' + variantName(variant)),
    ];
    if (error) parts.push(el('p', { class: 'error', role: 'alert' }, error));
    const l = lesson();
    if (!l || !pos) {
      main.replaceChildren(...parts);
      return;
    }
    const list = (practice) => el('ol', { class: 'learn-lessons' }, lessons.map((x, i) => (x.practice === practice
      ? el('li', {}, el('button', {
        type: 'button', class: 'link' + (i === at ? ' current' : ''), 'data-lesson': x.id,
        'aria-current': i === at ? 'step' : undefined, onclick: () => start(i),
      }, (done(x) ? '✓ ' : '') + title(x)))
      : null)));
    const wrap = el('div', { class: 'board-wrap' });
    const next = at + 1 < lessons.length;
    const panel = el('div', { class: 'panel learn-panel' },
      el('h2', { id: 'learn-lesson' }, title(l)),
      el('p', {}, l.practice ? t('learn_practice_text') : t(`learn_${l.id}_text`)),
      el('p', { id: 'learn-goal' }, el('strong', {}, goal(l))),
      el('p', { id: 'learn-status', role: 'status', 'aria-live': 'polite', class: note && note.error ? 'error' : note ? 'ok' : '' },
        note ? note.text : ''),
      el('p', { id: 'learn-hint-text', class: 'muted', hidden: true }, l.practice ? t('learn_practice_hint') : t(`learn_${l.id}_hint`)),
      el('p', { class: 'row' },
        el('button', { type: 'button', class: 'btn', id: 'learn-hint', onclick: () => {
          document.getElementById('learn-hint-text').hidden = false;
        } }, t('learn_hint')),
        el('button', { type: 'button', class: state === 'failed' ? 'btn primary' : 'btn', id: 'learn-retry', onclick: () => start(at) }, t('learn_retry')),
        next ? el('button', { type: 'button', class: state === 'done' ? 'btn primary' : 'btn', id: 'learn-next', onclick: () => start(at + 1) }, t('learn_next')) : null));
    parts.push(el('div', { class: 'game' }, wrap, panel));
    parts.push(el('div', { class: 'learn-index' },
      el('h2', {}, t('learn_lessons')), list(false),
      el('h2', {}, t('learn_practice')), list(true)));
    main.replaceChildren(...parts);
    board = new Board(wrap, info, {
      onMove: (mv) => send(mv.long, mv),
      onAttempt: (squares) => send(squares.join('-')),
      onNote: (x) => {
        note = { text: x, error: true };
        document.getElementById('learn-status').textContent = x;
      },
    });
    board.el.setAttribute('aria-label', t('board'));
    const playing = state === 'play';
    board.set({ pieces: pos.pieces, legal: playing ? pos.legal : [], side: pos.side, last, interactive: playing });
  }

  (async () => {
    try {
      const r = await api('GET', `/api/learn/${variant}`);
      lessons = r.lessons;
    } catch (e) {
      error = e.message;
      return render();
    }
    progress = await syncProgress();
    const first = lessons.findIndex((l) => !done(l));
    await start(first < 0 ? 0 : first);
  })();
  return { render };
}
