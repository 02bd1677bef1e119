// dama's web UI: the router, the server calls every screen shares, and the preferences.
import { t, LANGS, lang, loadLang, setLang, applyStatic, errorText } from './i18n.js';
import { muted, setMuted } from './sound.js';

/** Variants from the server, by key, in the server's order. */
export const variants = new Map();
/** Each level of play's approximate rating, from /api/variants. */
export const levelRatings = new Map();

let current = null; // the screen shown: { render(), destroy() }

/** Calls the API; throws an Error whose message is the server's words. */
export async function api(method, path, body, token) {
  const headers = {};
  // Every write is declared JSON, body or not: the server refuses other writes that
  // carry the log-in cookie (a page of another origin could send them).
  if (body !== undefined || (method !== 'GET' && method !== 'HEAD')) headers['content-type'] = 'application/json';
  if (token) headers['x-dama-token'] = token;
  let res;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new Error(t('err_network'));
  }
  const text = await res.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  // The server's error in the reader's language (by its code), or its own words; the
  // status and the code go with it for pages that answer one of them differently.
  if (!res.ok) {
    const e = new Error((data && errorText(data)) || `${res.status} ${res.statusText}`);
    e.status = res.status;
    e.code = data && data.code;
    throw e;
  }
  return data ?? text;
}

/** The pieces of a FEN as the server writes it (`B:W21,K22:B1,2`; a field after the
 *  pieces, as Frisian's king moves `:+0+0`, is not pieces). */
export function piecesOfFen(fen) {
  const out = [];
  for (const part of fen.replace(/\.$/, '').split(':').slice(1)) {
    if (!/^[WB]/i.test(part)) continue;
    const color = part[0].toUpperCase() === 'W' ? 'white' : 'black';
    for (const s of part.slice(1).split(',').filter(Boolean)) {
      const king = /^K/i.test(s);
      out.push({ square: king ? s.slice(1) : s, color, king });
    }
  }
  return out;
}

/** After `mv`, the pieces as the board shows them. */
export function applyMove(pieces, mv) {
  const gone = new Set(mv.captured);
  const from = mv.path[0];
  const to = mv.path[mv.path.length - 1];
  return pieces
    .filter((p) => !gone.has(p.square) || p.square === from)
    .map((p) => (p.square === from ? { ...p, square: to, king: p.king || mv.promote } : p));
}

/** A position as FEN from its pieces, with the variant's square names in board order. */
export function fenOfPieces(pieces, side, variant) {
  const order = new Map(variants.get(variant).squares.map((sq, i) => [sq[0], i]));
  const part = (color) => pieces
    .filter((p) => p.color === color)
    .sort((a, b) => order.get(a.square) - order.get(b.square))
    .map((p) => (p.king ? 'K' : '') + p.square)
    .join(',');
  return `${side === 'white' ? 'W' : 'B'}:W${part('white')}:B${part('black')}`;
}

/** Creates an element: el('button', {class: 'btn', onclick: f}, 'text', child). */
export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else if (k === 'class') e.className = v;
    else if (k === 'text') e.textContent = v;
    else if (v === true) e.setAttribute(k, '');
    else e.setAttribute(k, v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) e.append(c);
  return e;
}

/** Shows a message for a few seconds; `err` marks it as an error. */
export function toast(msg, err = false) {
  const box = document.getElementById('toasts');
  const d = el('div', { class: 'toast' + (err ? ' err' : '') }, msg);
  box.append(d);
  setTimeout(() => d.remove(), err ? 6000 : 3500);
}

/** Shows or hides the connection banner. */
export function banner(text) {
  const b = document.getElementById('banner');
  b.hidden = !text;
  b.textContent = text || '';
}

/** Seats this browser holds, by game id. */
export const seats = {
  get(id) {
    try {
      return JSON.parse(localStorage.getItem('dama.seat.' + id) || 'null');
    } catch {
      return null;
    }
  },
  set(id, seat) {
    localStorage.setItem('dama.seat.' + id, JSON.stringify(seat));
  },
};

/** Goes to a path of the app without reloading. */
export function go(path, replace = false) {
  if (replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  route();
}

/** A variant's name in the player's language (falls back to the server's name). */
export function variantName(key) {
  const n = t('v_' + key);
  return n.startsWith('⟦') ? variants.get(key)?.name || key : n;
}

/** A rating pool's name: its variant, and the seed rulebook it is kept for, if any
 *  (`english-seed001`: English under seed 001's rules). */
export function poolName(key) {
  const [variant, rules] = key.split('-');
  const seed = /^seed(\d{3})$/.exec(rules || '');
  return seed ? t('pool_seed', { v: variantName(variant), n: seed[1] }) : variantName(variant);
}

/** The key of the pool a game of `variant` under `rules` is rated in. */
export function poolKey(variant, rules) {
  return rules && rules !== 'official' ? `${variant}-${rules}` : variant;
}

/** The rating pools: every variant under its official rules, and the seed rulebooks. */
export const SEED_POOLS = ['english-seed001', 'english-seed003', 'russian-seed000'];

/** The site's "nothing here" page: an address with no page, or a player or game
 *  that does not exist. */
export function notFoundPage(main) {
  document.title = `${t('nf_title')} · dama`;
  main.replaceChildren(
    el('section', { class: 'not-found' },
      el('h1', {}, t('nf_title')),
      el('p', {}, t('nf_text')),
      el('a', { href: '/', 'data-link': true, class: 'btn primary', id: 'not-found-home' }, t('nf_home'))));
  return null;
}

async function route() {
  if (current?.destroy) current.destroy();
  current = null;
  banner('');
  const main = document.getElementById('main');
  const path = location.pathname;
  let m;
  try {
    if ((m = path.match(/^\/game\/([A-Za-z0-9]+)\/join$/))) {
      const id = m[1];
      if (!seats.get(id)) {
        try {
          // The invite secret is after '#': it never reaches the server's logs.
          const invite = decodeURIComponent(location.hash.slice(1));
          const seat = await api('POST', `/api/games/${id}/join`, invite ? { invite } : {});
          seats.set(id, seat);
        } catch (e) {
          toast(t('join_failed', { why: e.message }), true);
        }
      }
      return go(`/game/${id}`, true);
    }
    if ((m = path.match(/^\/game\/([A-Za-z0-9]+)$/))) {
      const { playPage } = await import('./play.js');
      current = playPage(main, m[1]);
    } else if ((m = path.match(/^\/rules\/([a-z]+)$/))) {
      const { rulesPage } = await import('./pages.js');
      current = rulesPage(main, m[1]);
    } else if (path === '/login') {
      const { loginPage } = await import('./account.js');
      current = loginPage(main);
    } else if ((m = path.match(/^\/player\/([^/]+)$/))) {
      const { playerPage } = await import('./account.js');
      current = playerPage(main, decodeURIComponent(m[1]));
    } else if (path === '/mod') {
      const { modPage } = await import('./mod.js');
      current = modPage(main);
    } else if (path === '/games') {
      const { gamesPage } = await import('./games.js');
      current = gamesPage(main);
    } else if (path === '/leaderboard') {
      const { leaderboardPage } = await import('./leaderboard.js');
      current = leaderboardPage(main, new URLSearchParams(location.search));
    } else if (path === '/tournaments') {
      const { tournamentsPage } = await import('./tournaments.js');
      current = tournamentsPage(main);
    } else if ((m = path.match(/^\/tournament\/([A-Za-z0-9_-]+)$/))) {
      const { tournamentPage } = await import('./tournaments.js');
      current = tournamentPage(main, m[1]);
    } else if (path === '/puzzles') {
      const { puzzlesPage } = await import('./puzzles.js');
      current = puzzlesPage(main, new URLSearchParams(location.search));
    } else if (path === '/learn') {
      const { learnIndex } = await import('./learn.js');
      current = learnIndex(main);
    } else if ((m = path.match(/^\/learn\/([a-z]+)$/))) {
      const { learnPage } = await import('./learn.js');
      current = learnPage(main, m[1]);
    } else if (path === '/analysis') {
      const { analysisPage } = await import('./analysis.js');
      current = analysisPage(main, new URLSearchParams(location.search));
    } else if (path === '/replay') {
      const { replayPage } = await import('./pages.js');
      current = replayPage(main, new URLSearchParams(location.search));
    } else if (path === '/') {
      const { homePage } = await import('./pages.js');
      current = homePage(main);
    } else {
      current = notFoundPage(main);
    }
  } catch (e) {
    main.replaceChildren(el('p', { class: 'error' }, e.message));
  }
  main.focus({ preventScroll: true });
}

function setupPrefs() {
  const ls = document.getElementById('lang');
  ls.replaceChildren(...LANGS.map(([k, name]) => el('option', { value: k, selected: k === lang() }, name)));
  ls.addEventListener('change', async () => {
    try {
      await loadLang(ls.value);
    } catch {
      toast(t('err_network'), true);
      ls.value = lang();
      return;
    }
    setLang(ls.value);
    fillThemes();
    applyStatic();
    import('./account.js').then((a) => a.drawHeader());
    if (current?.render) current.render();
  });
  const th = document.getElementById('theme');
  const bt = document.getElementById('board-theme');
  const snd = document.getElementById('sound');
  // Piece colours and board colours, each a class on the body; sound on or off.
  const fillThemes = () => {
    const pieces = localStorage.getItem('dama.theme') || 'theme-wb';
    const board = localStorage.getItem('dama.board') || 'board-wood';
    th.replaceChildren(
      ...['theme-wb', 'theme-wr', 'theme-bb', 'theme-rb'].map((k) => el('option', { value: k, selected: k === pieces }, t(k))),
    );
    bt.replaceChildren(
      ...['board-wood', 'board-green', 'board-blue'].map((k) => el('option', { value: k, selected: k === board }, t(k))),
    );
    document.body.className = `${pieces} ${board}`;
    // A speaker drawn in SVG (emoji fonts are missing on some systems), with waves or a cross.
    const tail = muted() ? '<path d="M16 9l5 6M21 9l-5 6"/>' : '<path d="M16 9c1.5 1.5 1.5 4.5 0 6M18.5 6.5c3 3 3 8 0 11"/>';
    snd.innerHTML = `<svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"><path d="M4 9h4l5-4v14l-5-4H4z" fill="currentColor"/>${tail}</svg>`;
    snd.setAttribute('aria-label', t(muted() ? 'sound_off' : 'sound_on'));
    snd.setAttribute('aria-pressed', String(!muted()));
  };
  fillThemes();
  th.addEventListener('change', () => {
    localStorage.setItem('dama.theme', th.value);
    fillThemes();
  });
  bt.addEventListener('change', () => {
    localStorage.setItem('dama.board', bt.value);
    fillThemes();
  });
  snd.addEventListener('click', () => {
    setMuted(!muted());
    fillThemes();
  });
}

document.addEventListener('click', (e) => {
  const a = e.target.closest('a[data-link]');
  if (!a || e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
  e.preventDefault();
  go(a.getAttribute('href'));
});
window.addEventListener('popstate', route);

async function start() {
  // The chosen language's texts first (English is built in: it stays if they fail).
  await loadLang().catch(() => {});
  applyStatic();
  setupPrefs();
  try {
    const data = await api('GET', '/api/variants');
    for (const v of data.variants) variants.set(v.key, v);
    for (const l of data.levels || []) levelRatings.set(l.level, l.rating);
    const { loadMe } = await import('./account.js');
    await loadMe();
  } catch (e) {
    document.getElementById('main').replaceChildren(el('p', { class: 'error' }, e.message));
    return;
  }
  route();
}
start();
