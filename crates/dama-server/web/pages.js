// The screens around play: home (new game and lobby), a variant's rules, replay and import.
import { api, el, fenOfPieces, go, levelRatings, piecesOfFen, poolKey, poolName, seats, toast, variants, variantName } from './app.js';
import { Board } from './board.js';
import { t, lang, ruleList, ruleKeys, resultText, errorText, namesRedBlack, setSideNames, sidesRedBlack } from './i18n.js';
import { DIAGRAMS } from './rules.js';
import { me } from './account.js';

/** "Level 5 — about 1500" (the rating from the server), or "Level 5" without it. */
function levelText(n) {
  const rating = levelRatings.get(n);
  return rating ? t('level_about', { n, rating }) : t('level_n', { n });
}

export const TIMES = {
  none: { kind: 'none' },
  g5: { kind: 'fischer', initial_ms: 300000, increment_ms: 0 },
  g10: { kind: 'fischer', initial_ms: 600000, increment_ms: 0 },
  f3_2: { kind: 'fischer', initial_ms: 180000, increment_ms: 2000 },
  f5_3: { kind: 'fischer', initial_ms: 300000, increment_ms: 3000 },
  f15_10: { kind: 'fischer', initial_ms: 900000, increment_ms: 10000 },
  per_move: { kind: 'per_move', limit_ms: 300000, capture_limit_ms: 60000 },
  corr3: { kind: 'correspondence', days: 3 },
  custom: null,
  custom_move: null,
};

/** The time control of the form: a preset, or the player's own numbers (minutes and
 *  increment in seconds; or seconds per move and for a single forced capture). */
function timeOf(form) {
  const n = (v, lo, hi, d) => Math.max(lo, Math.min(hi, Number.isFinite(Number(v)) && v !== '' ? Number(v) : d));
  const c = form.custom;
  if (form.time === 'custom') {
    return { kind: 'fischer', initial_ms: Math.round(n(c.minutes, 0.5, 1440, 5) * 60000), increment_ms: Math.round(n(c.inc, 0, 3600, 0) * 1000) };
  }
  if (form.time === 'custom_move') {
    const limit = n(c.move_s, 1, 86400, 60);
    return { kind: 'per_move', limit_ms: limit * 1000, capture_limit_ms: Math.min(limit, n(c.capture_s, 1, 86400, limit)) * 1000 };
  }
  return TIMES[form.time] || TIMES.none;
}
const BY_LANG = { ru: 'russian', tr: 'turkish', pt: 'brazilian', es: 'spanish' };

function boardLine(v) {
  return `${v.cols}×${v.rows}${v.full ? ' · ' + t('all_squares') : ''} · ${t('first_' + v.first)}`;
}

function radio(name, value, checked, label, extra) {
  return el('label', {}, el('input', { type: 'radio', name, value, checked }), label, extra);
}

/** The home page: the new-game form and the lobby. */
/** The rule sets a variant offers besides its official one: the seeds' house rules. */
export const PRESETS = { english: ['official', 'seed001', 'seed003'], russian: ['official', 'seed000'] };

/** A colour choice on the form; seed 001 names the sides Red (moving first: the rules'
 *  black) and Black (the rules' white). */
function colourLabel(k, redBlack) {
  if (!redBlack || k === 'random') return t('colour_' + k);
  return k === 'black' ? t('colour_red') : t('colour_black');
}

/** What a rulebook names: choosing it sets these (the player may still change them);
 *  leaving it for another puts back [`OPTION_DEFAULTS`]. Seed 001 plays on a whole-game
 *  clock (its length unnamed: 10 minutes); seed 003 on 5 minutes a move (1 for a
 *  single forced capture), with touch-move and a series of two, colours alternating. */
const RULEBOOK_SETS = {
  seed001: { time: 'g10' },
  seed003: { time: 'per_move', touch_move: true, series: 2 },
};
/** The options of a new game before the player or a rulebook chooses. */
const OPTION_DEFAULTS = { time: 'none', rules: 'official', color: 'random', series: 1, touch_move: false, suggestions: false, rated: false, range: ['', ''] };
/** What the home page always remembers (which game to set up); the options of a game
 *  carry into the next only when the player saves them as a preference. */
const ALWAYS_KEPT = ['variant', 'mode', 'level'];

/** The seed document (our players' own rulebooks, docs/seeds.md) whose rules a game of
 *  `variant` under `rules` follows, if any: Turkish's official rules are seed 002's. */
function seedOf(variant, rules) {
  if (variant === 'turkish') return '002';
  return { seed000: '000', seed001: '001', seed003: '003' }[rules] || null;
}

/** The form's start: the player's saved preference (all of it when they asked to keep
 *  the options, else only which game), over the defaults. */
function savedForm() {
  let saved = {};
  try {
    saved = JSON.parse(localStorage.getItem('dama.new') || '{}') || {};
  } catch {
    saved = {};
  }
  if (!saved.remember) saved = Object.fromEntries(ALWAYS_KEPT.filter((k) => k in saved).map((k) => [k, saved[k]]));
  return saved;
}

/** Moves the form from rulebook `from` to `to`: what `from` set goes back to its
 *  default, then what `to` names is set. */
function switchRulebook(form, from, to) {
  for (const k of Object.keys(RULEBOOK_SETS[from] || {})) form[k] = OPTION_DEFAULTS[k];
  Object.assign(form, RULEBOOK_SETS[to] || {});
  form.rules = to;
}

export function homePage(main) {
  setSideNames('official');
  const saved = savedForm();
  const form = {
    variant: saved.variant || BY_LANG[lang()] || 'english',
    mode: saved.mode || 'ai',
    level: saved.level || 2,
    time: saved.time || 'none',
    rules: saved.rules || 'official',
    color: saved.color || 'random',
    series: saved.series || 1,
    touch_move: !!saved.touch_move,
    suggestions: !!saved.suggestions,
    rated: !!saved.rated,
    range: saved.range || ['', ''],
    custom: { minutes: 5, inc: 3, move_s: 60, capture_s: 20, ...(saved.custom || {}) },
    remember: !!saved.remember,
    fen: '',
  };
  let timer = null;
  let lobby = el('div', { class: 'lobby' });

  const read = (f) => {
    const d = new FormData(f);
    form.variant = d.get('variant');
    form.mode = d.get('mode');
    if (d.get('level')) form.level = Number(d.get('level'));
    form.time = d.get('time');
    for (const k of ['minutes', 'inc', 'move_s', 'capture_s']) if (d.get(k) !== null) form.custom[k] = d.get(k);
    if (d.get('rules')) form.rules = d.get('rules');
    if (d.get('color')) form.color = d.get('color');
    form.series = Math.max(1, Math.min(20, Number(d.get('series')) || 1));
    form.touch_move = d.get('touch_move') === 'on';
    form.suggestions = d.get('suggestions') === 'on';
    form.rated = d.get('rated') === 'on';
    form.remember = d.get('remember') === 'on';
    if (d.get('range_lo') !== null) form.range = [d.get('range_lo') || '', d.get('range_hi') || ''];
    form.fen = (d.get('fen') || '').trim();
  };

  async function start(e) {
    e.preventDefault();
    read(e.target);
    const { fen, ...all } = form;
    const keep = form.remember ? all : Object.fromEntries(ALWAYS_KEPT.map((k) => [k, form[k]]));
    localStorage.setItem('dama.new', JSON.stringify(keep));
    const body = {
      variant: form.variant,
      mode: form.mode,
      level: form.level,
      color: form.color,
      time: timeOf(form),
      rules: PRESETS[form.variant]?.includes(form.rules) ? form.rules : 'official',
      series: form.series,
      touch_move: form.touch_move,
      suggestions: form.suggestions,
    };
    if (form.rated && me && (form.mode === 'friend' || form.mode === 'open')) body.rated = true;
    const [lo, hi] = form.range.map((x) => Number(x));
    if (form.mode === 'open' && (form.range[0] !== '' || form.range[1] !== '')) {
      body.rating_range = [form.range[0] === '' ? 0 : lo, form.range[1] === '' ? 4000 : hi];
    }
    if (fen) body.fen = fen;
    const btn = e.target.querySelector('button[type=submit]');
    btn.disabled = true;
    try {
      const r = await api('POST', '/api/games', body);
      seats.set(r.id, { token: r.token, color: r.color, invite: r.invite || undefined });
      go(`/game/${r.id}`);
    } catch (err) {
      toast(t('create_failed', { why: err.message }), true);
      btn.disabled = false;
    }
  }

  function render() {
    const v = variants.get(form.variant);
    const variantCards = [...variants.values()].map((x) =>
      el(
        'label',
        { class: 'variant' },
        el('input', { type: 'radio', name: 'variant', value: x.key, checked: x.key === form.variant }),
        el('span', { class: 'name' }, variantName(x.key)),
        el('div', { class: 'meta' }, boardLine(x)),
      ),
    );
    const seed = seedOf(form.variant, PRESETS[form.variant]?.includes(form.rules) ? form.rules : 'official');
    const summary = el(
      'p',
      { class: 'summary', id: 'summary' },
      t('sum_' + form.variant),
      ' ',
      el('a', { href: `/rules/${form.variant}`, 'data-link': true }, t('full_rules')),
      seed ? el('span', { class: 'muted', id: 'seed-note' }, ' ', t('seed_follows', { doc: t('seed_doc_' + seed), n: seed })) : null,
    );
    const levels = el(
      'select',
      { name: 'level', id: 'level' },
      ...Array.from({ length: 10 }, (_, i) =>
        el('option', { value: i + 1, selected: i + 1 === form.level }, levelText(i + 1) + (i === 0 ? ' — ' + t('beginner') : i === 9 ? ' — ' + t('strongest') : '')),
      ),
    );
    const f = el(
      'form',
      { onsubmit: start, onchange: (e) => {
          const before = { variant: form.variant, rules: form.rules };
          read(e.currentTarget);
          // A rulebook sets what it names; a variant without it leaves it.
          if (e.target.name === 'rules') switchRulebook(form, before.rules, form.rules);
          if (e.target.name === 'variant' && !PRESETS[form.variant]?.includes(before.rules)) switchRulebook(form, before.rules, 'official');
          if (['variant', 'mode', 'time', 'rules'].includes(e.target.name)) {
            // Redraw for the choice, keeping the keyboard focus on it.
            const { name, value } = e.target;
            render();
            (main.querySelector(`input[name=${name}][value=${value}]`) || main.querySelector(`[name=${name}]`))?.focus();
          }
        } },
      el('h1', {}, t('new_game')),
      el('fieldset', {}, el('legend', {}, t('variant')), el('div', { class: 'variants' }, variantCards), summary),
      el(
        'div',
        { class: 'form-grid' },
        el(
          'fieldset',
          {},
          el('legend', {}, t('mode')),
          el(
            'div',
            { class: 'choices' },
            radio('mode', 'ai', form.mode === 'ai', t('mode_ai')),
            radio('mode', 'hotseat', form.mode === 'hotseat', t('mode_hotseat')),
            radio('mode', 'friend', form.mode === 'friend', t('mode_friend')),
            radio('mode', 'open', form.mode === 'open', t('mode_open')),
          ),
          form.mode === 'ai' ? el('p', {}, el('label', { for: 'level' }, t('level') + ' '), levels) : null,
        ),
        el(
          'fieldset',
          {},
          el('legend', {}, t('time_control')),
          el(
            'select',
            { name: 'time', 'aria-label': t('time_control') },
            ...Object.keys(TIMES).map((k) => el('option', { value: k, selected: k === form.time }, t('time_' + k))),
          ),
          form.time === 'custom'
            ? el('p', { class: 'row' },
                el('label', {}, t('custom_minutes') + ' ', el('input', { type: 'number', name: 'minutes', min: 0.5, max: 1440, step: 0.5, value: form.custom.minutes, class: 'num' })),
                el('label', {}, t('custom_inc') + ' ', el('input', { type: 'number', name: 'inc', min: 0, max: 3600, value: form.custom.inc, class: 'num' })))
            : null,
          form.time === 'custom_move'
            ? el('p', { class: 'row' },
                el('label', {}, t('custom_move_s') + ' ', el('input', { type: 'number', name: 'move_s', min: 1, max: 86400, value: form.custom.move_s, class: 'num' })),
                el('label', {}, t('custom_capture_s') + ' ', el('input', { type: 'number', name: 'capture_s', min: 1, max: 86400, value: form.custom.capture_s, class: 'num' })))
            : null,
          PRESETS[form.variant]
            ? el(
                'p',
                {},
                el('label', { for: 'rules' }, t('rulebook') + ' '),
                el(
                  'select',
                  { name: 'rules', id: 'rules' },
                  ...PRESETS[form.variant].map((k) => el('option', { value: k, selected: k === form.rules }, t('rules_' + k))),
                ),
              )
            : null,
        ),
        el(
          'fieldset',
          {},
          el('legend', {}, t('options')),
          // On one device one player plays both sides: there is no colour of one's own.
          form.mode === 'hotseat'
            ? null
            : el(
                'p',
                { class: 'row' },
                el('label', { for: 'color' }, t('your_colour')),
                el(
                  'select',
                  { name: 'color', id: 'color' },
                  ...['random', 'white', 'black'].map((k) => el('option', { value: k, selected: k === form.color }, colourLabel(k, namesRedBlack(form.rules, form.variant)))),
                ),
              ),
          el(
            'p',
            { class: 'row' },
            el('label', { for: 'series' }, t('series_games')),
            el('input', { type: 'number', name: 'series', id: 'series', min: 1, max: 20, value: form.series, style: 'width:4.5rem' }),
          ),
          el('div', { class: 'choices' },
            el('label', {}, el('input', { type: 'checkbox', name: 'touch_move', checked: form.touch_move }), t('touch_move')),
            form.mode === 'friend' || form.mode === 'open'
              ? el('label', {}, el('input', { type: 'checkbox', name: 'suggestions', checked: form.suggestions }), t('allow_suggestions'))
              : null,
            form.mode === 'friend' || form.mode === 'open'
              ? me
                ? el('label', {}, el('input', { type: 'checkbox', name: 'rated', id: 'rated', checked: form.rated }),
                  PRESETS[form.variant]?.includes(form.rules) && form.rules !== 'official'
                    ? t('rated_game_seed', { n: seedOf(form.variant, form.rules) }) : t('rated_game'))
                : el('a', { href: '/login', 'data-link': true, id: 'rated-login' }, t('rated_needs_login'))
              : null,
          ),
          form.mode === 'open'
            ? el('p', { class: 'row' }, t('rating_range'), ' ',
                el('input', { type: 'number', name: 'range_lo', id: 'range-lo', min: 0, max: 4000, step: 50, value: form.range[0], class: 'num', 'aria-label': t('rating_from') }),
                ' – ',
                el('input', { type: 'number', name: 'range_hi', id: 'range-hi', min: 0, max: 4000, step: 50, value: form.range[1], class: 'num', 'aria-label': t('rating_to') }))
            : null,
          el('div', { class: 'choices' },
            el('label', {}, el('input', { type: 'checkbox', name: 'remember', id: 'remember', checked: form.remember }), t('remember_options'))),
          el('details', {}, el('summary', {}, t('from_position')),
            el('input', { name: 'fen', placeholder: v ? v.start : '', 'aria-label': 'FEN', style: 'width:100%' })),
        ),
      ),
      el('p', { class: 'startbar' }, el('button', { type: 'submit', class: 'btn primary big', id: 'start' }, t('start')),
        el('span', { class: 'muted' }, ' ', variantName(form.variant), ' · ', t('mode_' + form.mode))),
    );
    main.replaceChildren(quickPairing(), f, lobby);
    loadLobby();
  }

  /** One click to a game of the chosen variant at a common clock: an open seek that
   *  matches (rated for a logged-in player, casual otherwise) is accepted, or one is
   *  offered and the page waits on it. */
  async function quick(minutes, inc) {
    const time = { kind: 'fischer', initial_ms: minutes * 60000, increment_ms: inc * 1000 };
    const rated = !!me;
    try {
      const { seeks: open } = await api('GET', '/api/seeks');
      const blocked = await blockedNames();
      // Quick pairing plays the official rules: a seek under a seed rulebook is not one;
      // nor is a seek of a player blocked either way (the server refuses those).
      const match = open.find((s) => s.variant === form.variant && s.rated === rated && !seats.get(s.id)
        && !blocked.includes(s.name)
        && (s.rules || 'official') === 'official'
        && s.time.kind === 'fischer' && s.time.initial_ms === time.initial_ms && s.time.increment_ms === time.increment_ms
        && (!me || s.name !== me));
      if (match) return accept(match.id);
      const r = await api('POST', '/api/seeks', { variant: form.variant, time, rated });
      seats.set(r.id, { token: r.token, color: r.color });
      go(`/game/${r.id}`);
    } catch (err) {
      toast(t('create_failed', { why: err.message }), true);
    }
  }

  function quickPairing() {
    const clocks = [[1, 0], [3, 0], [3, 2], [5, 3], [10, 0], [15, 10]];
    return el('section', { class: 'quick', id: 'quick' },
      el('h2', {}, t('quick_pairing', { variant: variantName(form.variant) })),
      el('div', { class: 'quick-buttons' }, ...clocks.map(([m, i]) =>
        el('button', { type: 'button', class: 'btn', 'data-quick': `${m}+${i}`, onclick: () => quick(m, i) }, `${m}+${i}`))),
      el('p', { class: 'muted' }, t(me ? 'quick_rated' : 'quick_casual')));
  }

  /** A game being played, as a small board with its players; a click watches it. */
  function thumb(g) {
    const v = variants.get(g.variant);
    const board = v && g.fen ? diagram({ ...v, start: g.fen }, null) : null;
    const names = (g.players || []).map((n) => n || t('anonymous')).join(' – ');
    return el('a', { href: `/game/${g.id}`, 'data-link': true, class: 'thumb', 'data-game': g.id },
      board, el('span', {}, variantName(g.variant)), names ? el('span', { class: 'muted' }, names) : null);
  }

  /** Accepts a seek: the free seat of its game, then the game. */
  async function accept(id) {
    try {
      const r = await api('POST', `/api/seeks/${id}/accept`);
      seats.set(id, { token: r.token, color: r.color });
      go(`/game/${id}`);
    } catch (err) {
      toast(t('join_failed', { why: err.message }), true);
    }
  }

  function clockText(tc) {
    if (!tc || tc.kind === 'none') return t('time_none');
    if (tc.kind === 'fischer') return `${tc.initial_ms / 60000}+${tc.increment_ms / 1000}`;
    if (tc.kind === 'per_move') return t('seek_per_move', { s: tc.limit_ms / 1000 });
    return t('seek_days', { n: tc.days });
  }

  function seekRow(s) {
    const who = s.name ? el('a', { href: `/player/${encodeURIComponent(s.name)}`, 'data-link': true }, s.name) : t('anonymous');
    const action = seats.get(s.id)
      ? el('a', { href: `/game/${s.id}`, 'data-link': true, class: 'btn' }, t('open'))
      : el('button', { type: 'button', class: 'btn', 'data-seek': s.id, onclick: () => accept(s.id) }, t('join'));
    return el('tr', {},
      el('td', {}, who, s.rating ? ` (${s.rating})` : ''),
      el('td', {}, poolName(poolKey(s.variant, s.rules))),
      el('td', {}, clockText(s.time), ' · ', t('speed_' + s.speed)),
      el('td', {}, s.rated ? t('rated') : t('casual')),
      el('td', {}, action));
  }

  /** The seeks as dots: estimated game time across (log scale), rating up (anonymous
   *  seekers at 1500); rated seeks filled. A click accepts. */
  function seekGraph(list) {
    const NS = 'http://www.w3.org/2000/svg';
    const w = 480, h = 180, pad = 28;
    const svg = document.createElementNS(NS, 'svg');
    svg.setAttribute('viewBox', `0 0 ${w} ${h}`);
    svg.setAttribute('class', 'seek-graph');
    svg.setAttribute('role', 'img');
    svg.setAttribute('aria-label', t('seek_graph', { n: list.length }));
    const secs = (tc) => !tc || tc.kind === 'none' ? 3600 : tc.kind === 'fischer' ? tc.initial_ms / 1000 + 40 * tc.increment_ms / 1000
      : tc.kind === 'per_move' ? 40 * tc.limit_ms / 1000 : 86400 * tc.days;
    const x = (s) => pad + (Math.log(Math.max(30, Math.min(s, 86400 * 14))) - Math.log(30)) / (Math.log(86400 * 14) - Math.log(30)) * (w - 2 * pad);
    const y = (r) => h - pad / 2 - (Math.max(800, Math.min(r, 2600)) - 800) / 1800 * (h - pad);
    let marks = `<line x1="${pad}" y1="${h - pad / 2}" x2="${w - pad}" y2="${h - pad / 2}" stroke="currentColor" opacity=".4"/>`;
    for (const [label, s] of [['1′', 60], ['5′', 300], ['15′', 900], ['1h', 3600], ['1d', 86400]]) {
      marks += `<text x="${x(s)}" y="${h - 2}" font-size="10" text-anchor="middle">${label}</text>`;
    }
    for (const r of [1000, 1500, 2000, 2500]) marks += `<text x="2" y="${y(r) + 3}" font-size="10">${r}</text>`;
    svg.innerHTML = marks;
    for (const s of list) {
      const c = document.createElementNS(NS, 'circle');
      c.setAttribute('cx', x(secs(s.time)));
      c.setAttribute('cy', y(s.rating ?? 1500));
      c.setAttribute('r', 6);
      c.setAttribute('class', s.rated ? 'seek-dot rated' : 'seek-dot');
      const title = document.createElementNS(NS, 'title');
      title.textContent = `${s.name || t('anonymous')}${s.rating ? ' (' + s.rating + ')' : ''} · ${variantName(s.variant)} · ${clockText(s.time)}`;
      c.append(title);
      if (!seats.get(s.id)) c.addEventListener('click', () => accept(s.id));
      svg.append(c);
    }
    return svg;
  }

  async function loadLobby() {
    try {
      const [sk, l, f] = await Promise.all([api('GET', '/api/seeks'), ...['live', 'finished'].map((s) => api('GET', `/api/games?state=${s}`))]);
      // The players a logged-in visitor follows: the games they play now, their last.
      const followed = me ? (await api('GET', '/api/me/following').catch(() => ({ players: [] }))).players : [];
      // The seeks of players this one blocks are not shown.
      const blocked = await blockedNames();
      const w = { games: sk.seeks.filter((s) => !blocked.includes(s.name)) };
      const row = (g, action) =>
        el('tr', {}, el('td', {}, variantName(g.variant)), el('td', {}, t('mode_' + g.mode)), el('td', {}, g.result || ''), el('td', {}, action));
      const link = (href, text) => el('a', { href, 'data-link': true, class: 'btn' }, text);
      // Open seeks to join; public games being played, to watch; public games just ended.
      const section = (id, title, rows, empty) =>
        el('section', { id }, el('h2', {}, title), rows.length ? el('table', {}, el('tbody', {}, rows)) : el('p', { class: 'muted' }, empty));
      const next = el('div', { class: 'lobby' },
        section('seeks', t('lobby'), w.games.map(seekRow), t('lobby_empty')),
        w.games.length ? seekGraph(w.games) : null,
        l.games.length
          ? el('section', { id: 'watch-list' }, el('h2', {}, t('watch_live')),
            el('div', { class: 'thumbs' }, ...l.games.slice(0, 20).map(thumb)))
          : section('watch-list', t('watch_live'), [], t('watch_empty')),
        f.games.length ? section('recent', t('recent_games'), f.games.slice(0, 10).map((g) => row(g, link(`/replay?game=${g.id}`, t('replay')))), '') : null,
        followed.length ? section('following', t('following_title'), followed.map((p) =>
          el('tr', {},
            el('td', {}, el('a', { href: `/player/${encodeURIComponent(p.name)}`, 'data-link': true }, p.name)),
            el('td', {}, ...p.playing.map((id) => link(`/game/${id}`, t('following_watch')))),
            el('td', {}, p.last ? link(`/replay?game=${p.last.id}`, t('following_last', { v: variantName(p.last.variant) })) : ''))), '') : null);
      lobby.replaceWith(next);
      lobby = next;
    } catch (e) {
      const next = el('div', { class: 'lobby' }, el('p', { class: 'error' }, e.message));
      lobby.replaceWith(next);
      lobby = next;
    }
  }

  render();
  timer = setInterval(loadLobby, 5000);
  // Seeks come and go between the polls: the lobby's websocket says when.
  let socket = null;
  try {
    socket = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/lobby/ws`);
    let first = true;
    socket.onmessage = () => {
      if (first) first = false;
      else loadLobby();
    };
  } catch {
    socket = null;
  }
  return { render, destroy: () => { clearInterval(timer); socket?.close(); } };
}

/** The players the logged-in visitor blocks (none without a log-in). */
async function blockedNames() {
  if (!me) return [];
  return (await api('GET', '/api/me/settings').catch(() => ({ blocked: [] }))).blocked;
}

/** A variant's full rules. */
/** A small SVG board of variant `v`: its start position (`spec` null) or a rule's
 *  diagram (pieces, the move's path, other moves dashed, the pieces it takes). Null when a
 *  square of the diagram is not on this board. */
function diagram(v, spec) {
  const NS = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('viewBox', `0 0 ${v.cols} ${v.rows}`);
  svg.setAttribute('class', v.key ? `diagram v-${v.key}` : 'diagram');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', t(spec ? 'rule_diagram' : 'start_position'));
  const add = (tag, attrs) => {
    const e = document.createElementNS(NS, tag);
    for (const [k, x] of Object.entries(attrs)) e.setAttribute(k, x);
    svg.append(e);
    return e;
  };
  add('rect', { x: 0, y: 0, width: v.cols, height: v.rows, class: 'd-light' });
  const at = new Map(v.squares.map(([n, r, c]) => [n, [r, c]]));
  const dark = new Set(v.squares.map(([, r, c]) => `${r},${c}`));
  for (const [, r, c] of v.squares) add('rect', { x: c, y: r, width: 1, height: 1, class: v.full ? 'd-full' : 'd-dark' });
  const piece = (r, c, cls, king) => {
    add('circle', { cx: c + 0.5, cy: r + 0.5, r: 0.36, class: cls });
    if (king) add('circle', { cx: c + 0.5, cy: r + 0.5, r: 0.18, class: cls + ' d-crown' });
  };
  if (!spec) {
    for (const p of piecesOfFen(v.start)) {
      const [r, c] = at.get(p.square) || [];
      if (r !== undefined) piece(r, c, p.color === 'white' ? 'd-p1' : 'd-p2', p.king);
    }
    return svg;
  }
  // Diagram squares count from a dark lower-left corner; a board whose lower-left
  // corner is light is drawn mirrored.
  const mirrored = !dark.has(`${v.rows - 1},0`);
  const cell = ([x, y]) => [v.rows - 1 - y, mirrored ? v.cols - 1 - x : x];
  // Other moves: one (`alt`) or several (`alts`), dashed.
  const alts = spec.alts || (spec.alt ? [spec.alt] : []);
  const points = [...spec.pieces, ...(spec.path || []), ...alts.flat(), ...(spec.taken || [])];
  if (!points.every((p) => dark.has(cell(p).join(',')))) return null;
  for (const [x, y, side, king] of spec.pieces) {
    const [r, c] = cell([x, y]);
    piece(r, c, side === 1 ? 'd-p1' : 'd-p2', king);
  }
  for (const p of spec.taken || []) {
    const [r, c] = cell(p);
    add('path', { d: `M${c + 0.25} ${r + 0.25}L${c + 0.75} ${r + 0.75}M${c + 0.75} ${r + 0.25}L${c + 0.25} ${r + 0.75}`, class: 'd-taken' });
  }
  for (const [path, cls] of [...alts.map((a) => [a, 'd-move d-alt']), [spec.path, 'd-move']]) {
    if (!path) continue;
    const pts = path.map((p) => cell(p)).map(([r, c]) => `${c + 0.5},${r + 0.5}`).join(' ');
    add('polyline', { points: pts, class: cls });
    const [r, c] = cell(path[path.length - 1]);
    add('circle', { cx: c + 0.5, cy: r + 0.5, r: 0.12, class: cls.replace('d-move', 'd-end') });
  }
  return svg;
}

export function rulesPage(main, key) {
  function render() {
    const v = variants.get(key);
    if (!v) {
      main.replaceChildren(el('p', { class: 'error' }, t('unknown_variant', { v: key })));
      return;
    }
    main.replaceChildren(
      el('h1', {}, variantName(key)),
      el('p', { class: 'muted' }, boardLine(v)),
      el('p', {}, t('sum_' + key)),
      el('ul', { class: 'rules' }, ruleList(key).map((r, i, all) => {
        // The note of an untranslated page comes first; the sentences follow their keys.
        const k = ruleKeys(key)[i - (all.length - ruleKeys(key).length)];
        const pic = !k ? null : k.endsWith('_board') ? diagram(v, null) : DIAGRAMS[k] ? diagram(v, DIAGRAMS[k]) : null;
        // A drawing that does not fit this board is left out, and marked (tests look).
        return el('li', { 'data-missing-diagram': k && DIAGRAMS[k] && !pic ? k : null }, r, pic);
      })),
      el('p', {}, el('a', { href: '/', 'data-link': true, class: 'btn primary', onclick: () => {
        const s = JSON.parse(localStorage.getItem('dama.new') || '{}');
        localStorage.setItem('dama.new', JSON.stringify({ ...s, variant: key }));
      } }, t('play_this'))),
    );
  }
  render();
  return { render };
}

/** Why a game of a file does not replay, in the chosen language (the server sends a
 *  code and where; the details of a bad position or text stay as the reader wrote them). */
function importError(g) {
  if (g.problem) return errorText(g.problem);
  const e = g.error_at;
  if (!e) return g.error;
  const what = e.ply ? ', ' + t('imp_move', { ply: e.ply, move: e.text }) : '';
  const detail = ['setup', 'bad_move_text', 'result_mismatch'].includes(e.code) ? ` (${e.detail})` : '';
  return `${t('imp_where', { line: e.line, col: e.col })}${what}: ${t('imp_' + e.code)}${detail}`;
}

/** Replay a finished game or imported PDN; paste a FEN; play on from any position. */
export function replayPage(main, params) {
  let games = [];
  let gi = 0;
  let ply = 0;
  let board = null;
  let error = '';
  let importVariant = 'english';
  let pdnText = '';

  let lastBody = null;
  let more = null;

  async function load(body) {
    error = '';
    lastBody = body;
    try {
      const r = await api('POST', '/api/replay', body);
      // The server sends each game's start and moves; the positions are computed here.
      // A game with a bad move comes with its moves up to it (and the error).
      games = r.games.map((g) => (g.start ? { ...g, plies: expand(g) } : g));
      more = r.more ? r.next : null;
      gi = games.findIndex((g) => g.start);
      if (gi < 0) {
        error = games[0] ? importError(games[0]) : t('no_games');
        gi = 0;
        games = [];
      }
      const g = games[gi];
      ply = g ? g.plies.length : 0;
      if (g && params.get('game')) ply = 0;
    } catch (e) {
      error = e.message;
    }
    render();
  }

  /** The positions after each move of a game: its pieces, the side to move, the move. */
  function expand(g) {
    let pieces = g.start.pieces;
    let side = g.start.side;
    return g.moves.map((mv) => {
      const from = mv.path[0];
      const to = mv.path[mv.path.length - 1];
      const taken = new Set(mv.captured || []);
      const moving = pieces.find((p) => p.square === from);
      pieces = pieces.filter((p) => p !== moving && !taken.has(p.square));
      if (moving) pieces.push({ square: to, color: moving.color, king: moving.king || !!mv.promote });
      side = side === 'white' ? 'black' : 'white';
      return { mv, pieces, side };
    });
  }

  function current() {
    const g = games[gi];
    if (!g) return null;
    return ply === 0 ? g.start : g.plies[ply - 1];
  }

  function show() {
    const g = games[gi];
    const c = current();
    if (!g || !c || !board) return;
    board.set({ pieces: c.pieces, legal: [], last: ply ? g.plies[ply - 1].mv : null, interactive: false });
    main.querySelectorAll('.moves button').forEach((b) => b.classList.toggle('cur', Number(b.dataset.ply) === ply));
    const pl = main.querySelector('#ply');
    if (pl) pl.textContent = `${ply} / ${g.plies.length}`;
  }

  async function playFrom() {
    const g = games[gi];
    const c = current();
    const level = Number(main.querySelector('#from-level').value);
    try {
      const fen = ply === 0 ? g.start.fen : fenOfPieces(c.pieces, c.side, g.variant);
      const r = await api('POST', '/api/games', { variant: g.variant, mode: 'ai', level, fen, color: c.side });
      seats.set(r.id, { token: r.token, color: r.color });
      go(`/game/${r.id}`);
    } catch (e) {
      toast(e.message, true);
    }
  }

  /** Opens the game on the analysis board, at the move shown. */
  function analyseHere() {
    const g = games[gi];
    if (params.get('game')) return go(`/analysis?game=${encodeURIComponent(params.get('game'))}&ply=${ply}`);
    if (lastBody?.fen) return go(`/analysis?variant=${g.variant}&fen=${encodeURIComponent(g.start.fen)}`);
    sessionStorage.setItem('dama.analysis.pdn', pdnText);
    go(`/analysis?pdn=1&g=${(lastBody?.skip || 0) + gi}&ply=${ply}&variant=${g.variant}`);
  }

  function step(to) {
    const g = games[gi];
    if (!g) return;
    ply = Math.max(0, Math.min(g.plies.length, to));
    show();
  }

  function render() {
    const importForm = el(
      'form',
      {
        class: 'card',
        onsubmit: (e) => {
          e.preventDefault();
          const d = new FormData(e.target);
          importVariant = d.get('variant');
          more = null;
          pdnText = d.get('text');
          const text = pdnText.trim();
          const looksFen = /^[WB?]:/i.test(text) || (/^[WB]:/.test(text.split('\n')[0]) && !text.includes('['));
          load(looksFen ? { fen: text, variant: importVariant } : { pdn: text, variant: importVariant });
        },
      },
      el('h2', {}, t('import')),
      el('p', {}, el('label', { for: 'pdnfile' }, t('pdn_file') + ' '), el('input', { type: 'file', id: 'pdnfile', accept: '.pdn,.txt,text/plain', onchange: async (e) => {
        const file = e.target.files[0];
        if (!file) return;
        if (file.size > 4 << 20) return toast(t('file_too_big'), true);
        main.querySelector('#pdntext').value = await file.text();
      } })),
      el('label', { for: 'pdntext' }, t('paste_pdn_fen')),
      el('textarea', { id: 'pdntext', name: 'text', spellcheck: 'false' }, pdnText),
      el('p', { class: 'row' },
        el('label', { for: 'ivariant' }, t('variant_if_missing')),
        el('select', { id: 'ivariant', name: 'variant' }, [...variants.keys()].map((k) => el('option', { value: k, selected: k === importVariant }, variantName(k)))),
        el('button', { class: 'btn primary', type: 'submit' }, t('load'))),
    );
    const g = games[gi];
    const parts = [el('h1', {}, t('replay_title'))];
    if (error) parts.push(el('p', { class: 'error', role: 'alert' }, error));
    if (g) {
      const info = variants.get(g.variant);
      const tags = g.tags || {};
      // A game played under seed 001 (its PDN says so) names the sides Red and Black.
      setSideNames(/^seed 001\b/i.test(tags.Rules || '') ? 'seed001' : 'official', g.variant);
      const wrap = el('div', { class: sidesRedBlack() ? 'board-wrap sides-rb' : 'board-wrap' });
      const named = (x) => x && x !== '?';
      const title = named(tags.White) || named(tags.Black) ? `${tags.White || '?'} – ${tags.Black || '?'}` : '';
      const moves = el('div', { class: 'moves', role: 'list', 'aria-label': t('moves') });
      g.plies.forEach((p, i) => {
        if (i % 2 === 0) moves.append(el('span', { class: 'n' }, `${i / 2 + 1}.`));
        moves.append(el('button', { 'data-ply': i + 1, onclick: () => step(i + 1) }, p.mv.notation));
      });
      const panel = el(
        'div',
        { class: 'panel' },
        games.length > 1
          ? el('select', { 'aria-label': t('game'), onchange: (e) => {
              gi = Number(e.target.value);
              ply = 0;
              render();
            } }, games.map((x, i) => el('option', { value: i, selected: i === gi, disabled: !x.start },
              `${i + 1}. ${[x.tags?.White, x.tags?.Black].filter(Boolean).join(' – ') || variantName(x.variant || '')} ${x.tags?.Result || ''}${x.error ? ' ⚠' : ''}`)))
          : null,
        more !== null ? el('button', { class: 'btn', id: 'more-games', onclick: () => load({ ...lastBody, skip: more }) }, t('more_games')) : null,
        el('div', {}, el('strong', {}, variantName(g.variant)), title ? ' · ' + title : '', tags.Result ? ' · ' + tags.Result : ''),
        tags.Termination ? el('div', { id: 'termination' }, resultText(tags.Termination)) : null,
        el('div', { class: 'replay-controls' },
          el('button', { class: 'btn', onclick: () => step(0), 'aria-label': t('first') }, '|◀'),
          el('button', { class: 'btn', onclick: () => step(ply - 1), 'aria-label': t('prev'), id: 'prev' }, '◀'),
          el('button', { class: 'btn', onclick: () => step(ply + 1), 'aria-label': t('next'), id: 'next' }, '▶'),
          el('button', { class: 'btn', onclick: () => step(1e9), 'aria-label': t('last') }, '▶|'),
          el('button', { class: 'btn', onclick: () => board.setFlipped(!board.flipped) }, t('flip'))),
        el('div', { id: 'ply', class: 'muted', 'aria-live': 'polite' }),
        moves,
        g.error ? el('p', { class: 'error', role: 'alert', id: 'game-error' }, t('game_stops_at', { error: importError(g) })) : null,
        el('p', { class: 'row' },
          el('label', { for: 'from-level' }, t('level')),
          el('select', { id: 'from-level' }, Array.from({ length: 10 }, (_, i) => el('option', { value: i + 1, selected: i === 1 }, levelText(i + 1)))),
          el('button', { class: 'btn primary', onclick: playFrom, id: 'play-from' }, t('play_from_here'))),
        el('p', {}, el('button', { class: 'btn', id: 'analyse', onclick: analyseHere }, t('an_analyse'))),
      );
      parts.push(el('div', { class: 'game' }, wrap, panel));
      main.replaceChildren(...parts, importForm);
      board = new Board(wrap, info);
      board.el.setAttribute('aria-label', t('board'));
      show();
    } else {
      main.replaceChildren(...parts, importForm);
    }
  }

  const onKey = (e) => {
    if (e.target.closest('textarea, input, select, .board')) return;
    if (e.key === 'ArrowLeft') step(ply - 1);
    if (e.key === 'ArrowRight') step(ply + 1);
  };
  window.addEventListener('keydown', onKey);
  render();
  const id = params.get('game');
  if (id) {
    api('GET', `/api/games/${id}/pdn`).then((text) => load({ pdn: text }), (e) => {
      error = e.message;
      render();
    });
  }
  return { render, destroy: () => window.removeEventListener('keydown', onKey) };
}
