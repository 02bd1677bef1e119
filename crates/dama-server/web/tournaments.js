// Tournaments: `/tournaments` lists the events (under way, coming, finished) and lets a
// logged-in player create one (arena, Swiss or round robin, with its clock, ballot and
// entry conditions); `/tournament/{id}` shows one event: its settings, a countdown,
// joining and leaving, the standings, the pairings by round, the crosstable (Swiss and
// round robin) and the PDN of its games. The event's page asks the server again every
// 3 s and redraws only the parts whose data changed (the password field is kept).
import { lang, t } from './i18n.js';
import { api, el, go, variants, variantName } from './app.js';
import { me } from './account.js';
import { PRESETS } from './pages.js';

const FORMATS = ['arena', 'swiss', 'robin'];

const ballotName = (b) => t('t_ballot_' + (b || 'none').replace(/-/g, '_'));
const when = (ms) => new Date(ms).toLocaleString(lang(), { dateStyle: 'short', timeStyle: 'short' });
const playerLink = (name) => el('a', { href: `/player/${encodeURIComponent(name)}`, 'data-link': true }, name);

/** A clock in words: "3 min + 2 s", "30 s per move", "3 days per move". */
export function clockText(time) {
  if (!time) return t('time_none');
  if (time.kind === 'fischer') return t('t_clock_fischer', { m: time.initial_ms / 60000, s: time.increment_ms / 1000 });
  if (time.kind === 'per_move') return t('t_clock_per_move', { s: Math.round(time.limit_ms / 1000) });
  if (time.kind === 'correspondence') return t('days_per_move', { n: time.days });
  return t('time_none');
}

/** "1:05:03" or "4:07" until (or since) `ms`. */
function span(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), ss = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** `/tournaments`: the events, and the creation form. */
export function tournamentsPage(main) {
  let events = null;
  let error = '';
  const list = el('div', { id: 'tournaments-list' });

  function row(ev) {
    return el('tr', { 'data-tournament': ev.id },
      el('td', {}, el('a', { href: `/tournament/${ev.id}`, 'data-link': true }, ev.name), ev.private ? el('span', { title: t('t_private'), 'aria-label': t('t_private') }, ' 🔒') : null),
      el('td', {}, t('tf_' + ev.format)),
      el('td', {}, variantName(ev.variant)),
      el('td', {}, clockText(ev.time), ' · ', t(ev.rated ? 'rated' : 'casual')),
      el('td', {}, t('ts_' + ev.status)),
      el('td', {}, when(ev.starts_ms)),
      el('td', {}, String(ev.players)));
  }

  function drawList() {
    if (error) return list.replaceChildren(el('p', { class: 'error' }, error));
    if (!events) return list.replaceChildren(el('p', { class: 'loading' }, t('loading')));
    const groups = [['started', 't_under_way'], ['created', 't_coming'], ['finished', 't_finished']];
    list.replaceChildren(...groups.map(([status, title]) => {
      const evs = events.filter((e) => e.status === status);
      return el('section', { class: 'tournament-group', 'data-status': status },
        el('h2', {}, t(title)),
        evs.length ? el('table', { class: 'leaderboard tournaments' },
          el('thead', {}, el('tr', {}, ...['t_name', 't_format', 'variant', 'time_control', 't_status', 't_starts', 't_players']
            .map((k) => el('th', { scope: 'col' }, t(k))))),
          el('tbody', {}, ...evs.map(row))) : el('p', { class: 'muted' }, t('t_none')));
    }));
  }

  function render() {
    document.title = `${t('t_title')} · dama`;
    main.replaceChildren(el('section', { class: 'tournament' },
      el('h1', {}, t('t_title')),
      list,
      me ? createForm() : el('p', { id: 't-login' }, t('t_login_to_create'), ' ', el('a', { href: '/login', 'data-link': true }, t('log_in')))));
    drawList();
  }

  (async () => {
    try {
      events = (await api('GET', '/api/tournaments')).tournaments;
      // Soonest first; the finished ones, latest first.
      events.sort((a, b) => (a.status === 'finished' && b.status === 'finished' ? b.starts_ms - a.starts_ms : a.starts_ms - b.starts_ms));
    } catch (e) {
      error = e.message;
    }
    drawList();
  })();
  render();
  return { render };
}

/** The creation form. */
function createForm() {
  const field = (id, label, input, cls) => el('label', { for: id, class: cls }, el('span', {}, label), input);
  const check = (id, label, input) => el('label', { for: id, class: 'check' }, input, ' ', label);
  const num = (id, value, min, max) => el('input', { type: 'number', id, value: String(value), min: String(min), max: String(max), required: true });
  const name = el('input', { id: 't-name', maxlength: '60', required: true, autocomplete: 'off' });
  const format = el('select', { id: 't-format' }, ...FORMATS.map((f) => el('option', { value: f }, t('tf_' + f))));
  const variant = el('select', { id: 't-variant' },
    ...[...variants.values()].map((v) => el('option', { value: v.key }, variantName(v.key))));
  const rules = el('select', { id: 't-rules' });
  const ballot = el('select', { id: 't-ballot' });
  const minutes = num('t-minutes', 45, 5, 720);
  const rounds = num('t-rounds', 7, 1, 20);
  const initial = num('t-initial', 3, 1, 180);
  const increment = num('t-increment', 2, 0, 180);
  const starts = num('t-starts', 10, 0, 43200);
  const rated = el('input', { type: 'checkbox', id: 't-rated', checked: true });
  const micro = el('input', { type: 'checkbox', id: 't-micro' });
  const berserk = el('input', { type: 'checkbox', id: 't-berserk' });
  const password = el('input', { id: 't-password', type: 'text', maxlength: '100', autocomplete: 'off' });
  const cond = (id) => el('input', { type: 'number', id, min: '0' });
  const minRating = cond('t-min-rating'), maxRating = cond('t-max-rating');
  const minDays = cond('t-min-days'), minGames = cond('t-min-games');
  const error = el('p', { class: 'error', role: 'alert', id: 't-create-error' });
  const arenaOnly = [field('t-minutes', t('t_minutes'), minutes, 'arena-only'), check('t-berserk', t('t_berserk_allowed'), berserk)];
  const swissOnly = field('t-rounds', t('t_rounds'), rounds);

  const fillVariant = () => {
    rules.replaceChildren(...(PRESETS[variant.value] || ['official']).map((r) => el('option', { value: r }, t('rules_' + r))));
    ballot.replaceChildren(...[null, ...(variants.get(variant.value)?.ballots || [])].map((b) => el('option', { value: b || '' }, ballotName(b))));
  };
  const fillFormat = () => {
    for (const f of arenaOnly) f.hidden = format.value !== 'arena';
    swissOnly.hidden = format.value !== 'swiss';
  };
  variant.addEventListener('change', fillVariant);
  format.addEventListener('change', fillFormat);
  fillVariant();
  fillFormat();

  async function submit(e) {
    e.preventDefault();
    const n = (input) => (input.value === '' ? undefined : Number(input.value));
    const arena = format.value === 'arena';
    const body = {
      name: name.value.trim(), format: format.value, variant: variant.value, rules: rules.value,
      time: { kind: 'fischer', initial_ms: Math.round(n(initial) * 60000), increment_ms: Math.round(n(increment) * 1000) },
      rated: rated.checked, starts_in_minutes: n(starts) ?? 0,
      minutes: arena ? n(minutes) : undefined, rounds: format.value === 'swiss' ? n(rounds) : undefined,
      ballot: ballot.value || null, micro: micro.checked, berserk: arena && berserk.checked,
      conditions: { min_rating: n(minRating), max_rating: n(maxRating), min_account_days: n(minDays), min_rated_games: n(minGames) },
      password: password.value || undefined,
    };
    button.disabled = true;
    try {
      const r = await api('POST', '/api/tournaments', body);
      go(`/tournament/${r.tournament.id}`);
    } catch (err) {
      error.textContent = err.message;
      button.disabled = false;
    }
  }
  const button = el('button', { type: 'submit', class: 'btn primary', id: 't-create' }, t('t_create'));
  return el('form', { id: 't-create-form', class: 'tournament-form', onsubmit: submit },
    el('h2', {}, t('t_create_title')),
    el('div', { class: 'form-grid' },
      field('t-name', t('t_name'), name), field('t-format', t('t_format'), format),
      field('t-variant', t('variant'), variant), field('t-rules', t('rulebook'), rules),
      ...arenaOnly.slice(0, 1), swissOnly,
      field('t-initial', t('t_initial'), initial), field('t-increment', t('t_increment'), increment),
      field('t-starts', t('t_starts_in'), starts), field('t-ballot', t('t_ballot'), ballot),
      field('t-password', t('t_password_opt'), password)),
    el('fieldset', {}, el('legend', {}, t('t_conditions')),
      el('div', { class: 'form-grid' },
        field('t-min-rating', t('t_min_rating'), minRating), field('t-max-rating', t('t_max_rating'), maxRating),
        field('t-min-days', t('t_min_days'), minDays), field('t-min-games', t('t_min_games'), minGames))),
    el('div', { class: 'row' },
      check('t-rated', t('rated'), rated), check('t-micro', t('t_micro'), micro), arenaOnly[1]),
    button, error);
}

/** `/tournament/{id}`: one event, asked again every 3 s. */
export function tournamentPage(main, id) {
  let ev = null;
  let error = '';
  let gone = false;
  let busy = false;
  // Each part is redrawn only when its data changed (`drawn` holds what it showed).
  const parts = {
    head: el('div', { class: 't-head' }), status: el('p', { id: 't-status', class: 't-status', role: 'status' }),
    actions: el('div', { id: 't-actions', class: 'row' }), standings: el('div', { class: 't-part' }),
    pairings: el('div', { id: 't-pairings', class: 't-part' }), crosstable: el('div', { class: 't-part' }),
  };
  let drawn = {};
  // Kept across redraws: the player may be typing in it.
  const password = el('input', { id: 't-join-password', type: 'password', autocomplete: 'off' });
  const pdn = el('a', { id: 't-pdn', href: `/api/tournaments/${encodeURIComponent(id)}/games.pdn`, download: `${id}.pdn` });

  async function act(what) {
    if (busy) return;
    busy = true;
    try {
      await api('POST', `/api/tournaments/${encodeURIComponent(id)}/${what}`, what === 'join' && ev.private ? { password: password.value } : {});
      password.value = '';
      await load();
    } catch (e) {
      parts.actions.querySelector('.error')?.remove();
      parts.actions.append(el('p', { class: 'error', role: 'alert' }, e.message));
    }
    busy = false;
  }

  function head() {
    const c = ev.conditions || {};
    const conds = [
      c.min_rating != null && t('t_cond_min_rating', { n: c.min_rating }), c.max_rating != null && t('t_cond_max_rating', { n: c.max_rating }),
      c.min_account_days != null && t('t_cond_min_days', { n: c.min_account_days }), c.min_rated_games != null && t('t_cond_min_games', { n: c.min_rated_games }),
    ].filter(Boolean);
    const facts = [t('tf_' + ev.format), variantName(ev.variant), clockText(ev.time), t(ev.rated ? 'rated' : 'casual'),
      ev.format === 'arena' ? t('t_arena_minutes', { n: Math.round((ev.ends_ms - ev.starts_ms) / 60000) }) : null,
      ev.format === 'swiss' ? t('t_rounds_n', { n: ev.rounds }) : null,
      ev.ballot ? ballotName(ev.ballot) : null, ev.micro ? t('t_micro') : null,
      ev.berserk ? t('t_berserk_allowed') : null, ev.private ? t('t_private') : null].filter(Boolean);
    return [el('h1', { id: 't-title' }, ev.name),
      el('p', { id: 't-settings' }, facts.join(' · ')),
      conds.length ? el('p', { id: 't-conditions', class: 'muted' }, t('t_conditions'), ': ', conds.join(' · ')) : null];
  }

  function statusText() {
    const now = Date.now();
    if (ev.status === 'finished') return t('ts_finished');
    if (ev.status === 'created') return t('t_starts_at', { when: when(ev.starts_ms), left: span(ev.starts_ms - now) });
    const round = ev.format === 'arena' ? '' : ' · ' + t('t_round_of', { n: ev.round, of: ev.rounds });
    return t('ts_started') + round + (ev.ends_ms ? ' · ' + t('t_ends_in', { left: span(ev.ends_ms - now) }) : '');
  }

  function actions() {
    const mine = ev.me;
    const out = [];
    if (mine?.game) out.push(el('a', { id: 't-my-game', class: 'btn primary', href: `/game/${mine.game}`, 'data-link': true }, t('t_my_game')));
    if (!me) out.push(el('a', { href: '/login', 'data-link': true }, t('t_login_to_join')));
    else if (ev.status !== 'finished' && mine?.joined && mine.active) {
      out.push(el('button', { type: 'button', class: 'btn', id: 't-leave', onclick: () => act('leave') }, t('t_leave')));
    } else if (ev.status !== 'finished') {
      if (ev.private) out.push(el('label', { for: 't-join-password' }, t('t_password')), password);
      out.push(el('button', { type: 'button', class: 'btn primary', id: 't-join', onclick: () => act('join') }, t(mine?.joined ? 't_rejoin' : 't_join')));
    }
    return out;
  }

  function standings() {
    const arena = ev.format === 'arena';
    const cols = arena ? ['lb_rank', 'lb_player', 't_points', 't_sheet'] : ['lb_rank', 'lb_player', 't_points', 't_buchholz', 't_sb'];
    if (!ev.standings.length) return [el('h2', {}, t('t_standings')), el('p', { class: 'muted', id: 't-standings' }, t('t_no_players'))];
    return [el('h2', {}, t('t_standings')), el('table', { id: 't-standings', class: 'leaderboard' },
      el('thead', {}, el('tr', {}, ...cols.map((k) => el('th', { scope: 'col' }, t(k))))),
      el('tbody', {}, ...ev.standings.map((s) => el('tr', { class: s.active ? '' : 'muted' },
        el('td', {}, String(s.rank)),
        el('td', {}, playerLink(s.name), s.rating ? el('small', { class: 'muted' }, ` ${s.rating}`) : null,
          s.active ? null : el('small', {}, ` (${t('t_withdrawn')})`)),
        el('td', { class: 'rating' }, String(s.points), s.on_fire ? el('span', { class: 'fire', title: t('t_on_fire'), 'aria-label': t('t_on_fire') }, ' 🔥') : null),
        ...(arena
          ? [el('td', { class: 'sheet' }, (s.sheet || []).join(' '))]
          : [el('td', {}, String(s.buchholz)), el('td', {}, String(s.sonneborn_berger))])))))];
  }

  function pairing(p) {
    if (p.kind !== 'game') {
      return el('li', { 'data-kind': p.kind }, playerLink(p.white), ': ', t('t_kind_' + p.kind), p.result ? ` (${p.result})` : '');
    }
    const extra = [p.leg > 1 ? t('t_leg', { n: p.leg }) : null, p.ballot != null ? t('t_ballot_n', { n: p.ballot }) : null,
      p.berserk ? t('t_berserk') : null].filter(Boolean);
    return el('li', { 'data-kind': 'game' },
      p.board != null ? el('span', { class: 'muted' }, `${t('t_board', { n: p.board })}: `) : null,
      playerLink(p.white), ' – ', p.black ? playerLink(p.black) : '?', ' ',
      el('strong', {}, p.result || t('t_playing')),
      extra.length ? el('small', { class: 'muted' }, ` (${extra.join(', ')})`) : null, ' ',
      p.game ? el('a', { href: `/game/${p.game}`, 'data-link': true, class: 'btn' }, t(p.result ? 'replay' : 'watch')) : null);
  }

  function pairings() {
    if (!ev.pairings.length) return [el('h2', {}, t('t_pairings')), el('p', { class: 'muted' }, t('t_no_pairings'))];
    const rounds = [...new Set(ev.pairings.map((p) => p.round))].sort((a, b) => b - a);
    return [el('h2', {}, t('t_pairings')), ...rounds.map((r) => el('section', { class: 't-round', 'data-round': r },
      el('h3', {}, t('t_round', { n: r })),
      el('ul', { class: 't-pairs' }, ...ev.pairings.filter((p) => p.round === r).map(pairing))))];
  }

  function crosstable() {
    if (!ev.crosstable || !ev.crosstable.length) return [];
    const n = Math.max(...ev.crosstable.map((c) => c.rounds.length));
    const mark = (c) => (c.color === 'white' ? '○' : c.color === 'black' ? '●' : '');
    return [el('h2', {}, t('t_crosstable')), el('div', { class: 'scroll' }, el('table', { id: 't-crosstable', class: 'leaderboard crosstable' },
      el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, '#'), el('th', { scope: 'col' }, t('lb_player')),
        ...Array.from({ length: n }, (_, i) => el('th', { scope: 'col' }, String(i + 1))), el('th', { scope: 'col' }, t('t_points')))),
      el('tbody', {}, ...ev.crosstable.map((c, i) => el('tr', {},
        el('th', { scope: 'row' }, String(i + 1)), el('td', {}, playerLink(c.name)),
        ...c.rounds.map((r) => el('td', { class: r.played ? '' : 'muted' }, `${r.opponent ?? '–'}${mark(r)} ${r.score}`)),
        el('td', { class: 'rating' }, String(c.points))))))),
    el('p', { class: 'muted' }, t('t_cross_note'))];
  }

  /** Redraws the parts whose data changed (`all`: every part, as after a change of language). */
  function draw(all = false) {
    if (all) drawn = {};
    const keys = {
      head: [ev.name, ev.format, ev.variant, ev.time, ev.rated, ev.rounds, ev.ends_ms, ev.ballot, ev.micro, ev.berserk, ev.private, ev.conditions],
      actions: [ev.status, ev.me, !!me], standings: ev.standings, pairings: ev.pairings, crosstable: ev.crosstable,
    };
    const makers = { head, actions, standings, pairings, crosstable };
    for (const [k, data] of Object.entries(keys)) {
      const key = JSON.stringify(data);
      if (drawn[k] === key) continue;
      drawn[k] = key;
      parts[k].replaceChildren(...makers[k]().filter(Boolean));
    }
    parts.status.textContent = statusText();
  }

  function render() {
    document.title = `${ev ? ev.name : t('t_title')} · dama`;
    if (gone) return main.replaceChildren(el('section', { class: 'tournament' }, el('h1', {}, t('err_tournament_not_found')),
      el('a', { href: '/tournaments', 'data-link': true }, t('t_all'))));
    pdn.textContent = t('t_pdn');
    main.replaceChildren(el('section', { class: 'tournament' },
      el('p', {}, el('a', { href: '/tournaments', 'data-link': true }, t('t_all'))),
      parts.head, parts.status, parts.actions,
      error ? el('p', { class: 'error' }, error) : null,
      ev ? null : el('p', { class: 'loading' }, t('loading')),
      parts.standings, parts.pairings, parts.crosstable, el('p', {}, pdn)));
    if (ev) draw(true);
  }

  async function load() {
    const had = !!ev && !error;
    try {
      ev = await api('GET', `/api/tournaments/${encodeURIComponent(id)}`);
      error = '';
    } catch (e) {
      if (e.status === 404) gone = true;
      else error = e.message;
    }
    if (gone || !had || error) render();
    else draw();
  }

  load();
  const poll = setInterval(() => { if (!gone && !document.hidden) load(); }, 3000);
  const tick = setInterval(() => { if (ev) parts.status.textContent = statusText(); }, 1000);
  render();
  return { render, destroy() { clearInterval(poll); clearInterval(tick); } };
}
