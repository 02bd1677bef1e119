// Accounts, optional: the header's log-in link or name, the log-in / sign-up page, and
// a player's page (ratings with their history, wins, draws and losses, recent games).
import { api, el, go, notFoundPage, poolName, toast, variantName } from './app.js';
import { lang, t } from './i18n.js';

/** The logged-in player's name, or null. */
export let me = null;
/** The roles the operator gave the account (`moderator`). */
let roles = [];
/** Whether the people module (the bell) was loaded. */
let people = false;

/** Asks the server who is logged in and redraws the header. */
export async function loadMe() {
  try {
    const s = await api('GET', '/api/session');
    me = s.name;
    roles = s.roles || [];
  } catch {
    me = null;
    roles = [];
  }
  drawHeader();
}

/** The header's account corner: "Log in", or the name and "Log out". */
export function drawHeader() {
  const box = document.getElementById('account');
  if (!box) return;
  if (!me) {
    box.replaceChildren(el('a', { href: '/login', 'data-link': true, id: 'login-link' }, t('log_in')));
    if (people) import('./people.js').then((p) => p.stop());
    return;
  }
  // The bell: the account's notifications, live.
  people = true;
  import('./people.js').then((p) => {
    if (!me || box.querySelector('#bell')) return;
    box.prepend(p.bell(), ' ');
    p.listen();
  }).catch(() => {});
  const out = async () => {
    try {
      await api('DELETE', '/api/session');
    } catch (e) {
      toast(e.message, true);
    }
    me = null;
    drawHeader();
    go('/');
  };
  const moderate = roles.includes('moderator')
    ? [el('a', { href: '/mod', 'data-link': true, id: 'mod-link' }, t('mod_title')), ' ']
    : [];
  box.replaceChildren(
    ...moderate,
    el('a', { href: '/games', 'data-link': true, id: 'my-games-link' }, t('mg_title')),
    ' ',
    el('a', { href: `/player/${encodeURIComponent(me)}`, 'data-link': true, id: 'me' }, me),
    ' ',
    el('button', { type: 'button', class: 'link', id: 'log-out', onclick: out }, t('log_out')),
  );
}

/** `/login`: log in, or create an account with the same two fields. */
export function loginPage(main) {
  async function submit(e, path) {
    e.preventDefault();
    const f = e.target.closest('form');
    const d = new FormData(f);
    const body = { name: String(d.get('name') || '').trim(), password: String(d.get('password') || '') };
    if (path === '/api/guests') delete body.password;
    for (const b of f.querySelectorAll('button')) b.disabled = true;
    try {
      const r = await api('POST', path, body);
      me = r.name;
      drawHeader();
      // The Learn section's progress in this browser joins the account's.
      import('./learn.js').then((l) => l.syncProgress()).catch(() => {});
      toast(t(path === '/api/session' ? 'logged_in' : 'account_created', { name: me }));
      go('/');
    } catch (err) {
      f.querySelector('.error').textContent = err.message;
      for (const b of f.querySelectorAll('button')) b.disabled = false;
    }
  }
  function render() {
    const form = el(
      'form',
      { class: 'login', onsubmit: (e) => submit(e, '/api/session') },
      el('h1', {}, t('log_in')),
      el('p', { class: 'muted' }, t('accounts_optional')),
      // The name's rule is stated before the player types; the form neither cuts a
      // pasted name nor refuses it with the browser's words: the server's refusal
      // says what is wrong with it, in the player's language.
      el('p', {}, el('label', {}, t('account_name'), el('input', { name: 'name', id: 'name', autocomplete: 'username', required: true, 'aria-describedby': 'name-rule' })),
        el('small', { class: 'muted', id: 'name-rule' }, t('name_rule'))),
      el('p', {}, el('label', {}, t('password'), el('input', { name: 'password', type: 'password', autocomplete: 'current-password', required: true, minlength: 8 }))),
      el('p', { class: 'error', role: 'alert' }),
      el('p', { class: 'row' },
        el('button', { type: 'submit', class: 'btn primary', id: 'login' }, t('log_in')),
        el('button', { type: 'button', class: 'btn', id: 'signup', onclick: (e) => {
          const f = e.target.closest('form');
          if (f.reportValidity()) submit({ preventDefault() {}, target: e.target }, '/api/accounts');
        } }, t('sign_up'))),
      el('p', { class: 'row' },
        el('button', { type: 'button', class: 'btn', id: 'guest', onclick: (e) => {
          const name = e.target.closest('form').querySelector('input[name=name]');
          if (name.reportValidity()) submit({ preventDefault() {}, target: e.target }, '/api/guests');
        } }, t('play_as_guest'))),
      el('p', { class: 'muted' }, t('guest_explained')),
    );
    main.replaceChildren(form);
  }
  render();
  return { render };
}

/** Who a game of `name`'s page was against: a player (a link to their page), the
 *  computer at its level, or someone without an account. */
function opponentCell(g, name) {
  if (g.engine_level) return t('vs_computer', { n: g.engine_level });
  if (!g.opponent) return t('anonymous');
  if (g.opponent === name) return t('mode_hotseat');
  return el('a', { href: `/player/${encodeURIComponent(g.opponent)}`, 'data-link': true }, g.opponent);
}

/** A line chart of ratings over time, as SVG. */
function chart(points) {
  const w = 360, h = 120, pad = 24;
  if (points.length < 2) return null;
  const ts = points.map((p) => p[0]), rs = points.map((p) => p[1]);
  const [t0, t1] = [Math.min(...ts), Math.max(...ts)];
  const [r0, r1] = [Math.min(...rs) - 20, Math.max(...rs) + 20];
  const x = (v) => pad + ((v - t0) / Math.max(1, t1 - t0)) * (w - 2 * pad);
  const y = (v) => h - pad / 2 - ((v - r0) / Math.max(1, r1 - r0)) * (h - pad);
  const path = points.map((p, i) => `${i ? 'L' : 'M'}${x(p[0]).toFixed(1)},${y(p[1]).toFixed(1)}`).join(' ');
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('viewBox', `0 0 ${w} ${h}`);
  svg.setAttribute('class', 'rating-chart');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', t('rating_history_of', { from: rs[0], to: rs[rs.length - 1], n: rs.length }));
  svg.innerHTML =
    `<text x="2" y="12" font-size="10">${r1 - 20}</text><text x="2" y="${h - 4}" font-size="10">${r0 + 20}</text>` +
    `<path d="${path}" fill="none" stroke="currentColor" stroke-width="2"/>`;
  return svg;
}

/** On a guest's own page: set a password to keep the name and its games. */
function claimSection() {
  const input = el('input', { type: 'password', name: 'password', id: 'claim-password', autocomplete: 'new-password', minlength: 8, maxlength: 128, required: true });
  const submit = async (e) => {
    e.preventDefault();
    try {
      await api('POST', '/api/accounts/password', { password: input.value });
      toast(t('claimed'));
      go(`/player/${encodeURIComponent(me)}`, true);
    } catch (err) {
      toast(err.message, true);
    }
  };
  return el('form', { class: 'login', id: 'claim', onsubmit: submit },
    el('h2', {}, t('guest_claim')),
    el('p', {}, el('label', {}, t('password'), input)),
    el('button', { type: 'submit', class: 'btn primary' }, t('guest_claim_button')));
}

/** On one's own page: a token for programs that play for the account (shown once). */
function tokenSection() {
  const out = el('p', { class: 'muted', id: 'token-out' });
  const make = async () => {
    try {
      const r = await api('POST', '/api/tokens', { scopes: ['bot:play'] });
      out.replaceChildren(t('token_once'), ' ', el('code', { id: 'token' }, r.token));
    } catch (e) {
      toast(e.message, true);
    }
  };
  return el('section', {},
    el('h2', {}, t('programs')),
    el('p', { class: 'muted' }, t('programs_intro')),
    el('button', { type: 'button', class: 'btn', id: 'new-token', onclick: make }, t('new_token')),
    out);
}

/** `/player/{name}`. */
export function playerPage(main, name) {
  let data = null;
  let error = null;
  let missing = false;
  /** Follows the player, or no longer. */
  async function follow() {
    try {
      const r = await api(data.following ? 'DELETE' : 'POST', `/api/players/${encodeURIComponent(name)}/follow`);
      data.following = r.following;
    } catch (e) {
      toast(e.message, true);
    }
    render();
  }
  /** Blocks the player, or no longer. */
  async function block() {
    try {
      const r = await api(data.blocked ? 'DELETE' : 'POST', `/api/players/${encodeURIComponent(name)}/block`);
      data.blocked = r.blocked;
      if (r.blocked) data.following = false;
    } catch (e) {
      toast(e.message, true);
    }
    render();
  }
  /** The challenge form, shown under the buttons. */
  let challenging = false;
  let tools = null;
  async function challenge() {
    challenging = !challenging;
    render();
  }
  function render() {
    if (missing) return notFoundPage(main);
    if (error) return main.replaceChildren(el('p', { class: 'error' }, error));
    if (!data) return main.replaceChildren(el('p', { class: 'loading' }, t('loading')));
    const ratings = [];
    for (const [variant, speeds] of Object.entries(data.ratings)) {
      for (const [speed, r] of Object.entries(speeds)) {
        ratings.push(
          el('tr', {},
            el('td', {}, poolName(variant)),
            el('td', {}, t('speed_' + speed)),
            el('td', { class: 'rating' }, String(r.rating) + (r.provisional ? '?' : '')),
            el('td', {}, t('games_n', { n: r.games })),
            el('td', {}, r.rank ? el('a', { href: `/leaderboard?pool=${variant}&speed=${speed}`, 'data-link': true, class: 'rank' },
              t('rank_n', { n: r.rank })) : null),
            el('td', {}, chart(data.history?.[variant]?.[speed] || []))),
        );
      }
    }
    const record = Object.entries(data.record).map(([variant, r]) =>
      el('tr', {}, el('td', {}, variantName(variant)), el('td', {}, t('wdl', { w: r.win, d: r.draw, l: r.loss }))));
    const games = data.games.map((g) =>
      el('tr', {},
        el('td', {}, new Date(g.created_ms).toLocaleDateString(lang())),
        el('td', {}, variantName(g.variant)),
        el('td', {}, t('colour_' + g.color)),
        el('td', { class: 'opponent' }, opponentCell(g, data.name)),
        el('td', {}, g.rated ? t('rated') : t('casual')),
        el('td', {}, g.result ? t('result_' + g.result) : t('state_' + g.state)),
        el('td', {}, el('a', { href: `/game/${g.id}`, 'data-link': true, class: 'btn' }, t('open')))));
    main.replaceChildren(
      el('section', { class: 'player-page' },
        el('h1', {}, data.name, data.online ? el('span', { class: 'online', id: 'online' }, t('online_now')) : null),
        typeof data.following === 'boolean'
          ? el('p', { class: 'player-actions' },
            data.blocked ? null : el('button', { type: 'button', class: 'btn', id: 'follow', 'aria-pressed': String(data.following), onclick: follow },
              t(data.following ? 'unfollow' : 'follow')),
            ' ',
            data.blocked || data.guest ? null : el('button', { type: 'button', class: 'btn primary', id: 'challenge', 'aria-expanded': String(challenging), onclick: challenge }, t('challenge')),
            ' ',
            el('button', { type: 'button', class: 'btn', id: 'block', 'aria-pressed': String(!!data.blocked), onclick: block },
              t(data.blocked ? 'unblock' : 'block')))
          : null,
        challenging && !data.blocked && tools ? tools.challengeForm(data.name, () => { challenging = false; render(); }) : null,
        me === data.name && !data.guest && tools ? tools.challengeSetting() : null,
        el('p', { class: 'muted' }, t('member_since', { date: new Date(data.created_ms).toLocaleDateString(lang()) })),
        el('h2', {}, t('ratings')),
        ratings.length ? el('table', { id: 'ratings' }, el('tbody', {}, ratings)) : el('p', { class: 'muted' }, t('no_rated_games')),
        el('h2', {}, t('record')),
        record.length ? el('table', { id: 'record' }, el('tbody', {}, record)) : el('p', { class: 'muted' }, t('no_games')),
        el('h2', {}, t('recent_games_of')),
        games.length ? el('table', { id: 'games' }, el('tbody', {}, games)) : el('p', { class: 'muted' }, t('no_games')),
        games.length ? el('p', {}, el('a', { href: `/api/players/${encodeURIComponent(data.name)}/games.pdn`, class: 'btn', id: 'all-pdn', download: true }, t('download_all_pdn'))) : null,
        me === data.name && data.guest ? claimSection() : null,
        me === data.name && !data.guest ? tokenSection() : null),
    );
  }
  if (me) import('./people.js').then((p) => { tools = p; render(); }).catch(() => {});
  api('GET', `/api/players/${encodeURIComponent(name)}`).then(
    (d) => { data = d; render(); },
    (e) => {
      // No such player: the site's "nothing here" page, as for an address with no page.
      if (e.status === 404) missing = true;
      else error = e.message;
      render();
    },
  );
  render();
  return { render };
}
