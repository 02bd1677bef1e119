// People: the header's bell (the account's notifications, live over its socket, with a
// toast for each), challenging a player from their page (and answering challenges in
// the bell), blocking, and who may challenge me. Loaded once a player is logged in.
import { api, el, go, seats, toast, variants, variantName } from './app.js';
import { t, lang } from './i18n.js';
import { PRESETS, TIMES } from './pages.js';

let socket = null;
let unread = 0;
let retry = null;
/** Called when the inbox changes while its panel is open. */
let onChange = null;

/** A notification in the reader's words. */
export function noticeText(n) {
  switch (n.kind) {
    case 'challenge': return t('ntf_challenge', { name: n.from, game: termsText(n.game) });
    case 'challenge_accepted': return t('ntf_accepted', { name: n.by });
    case 'challenge_declined': return t('ntf_declined', { name: n.by, reason: t('decline_' + n.reason) });
    case 'challenge_gone': return t('ntf_gone_' + n.why, { name: n.from });
    case 'your_move': return t('ntf_your_move', { name: n.opponent || '?', left: daysLeft(n.left_ms) });
    case 'time_running_out': return t('ntf_time_running_out', { name: n.opponent || '?', left: daysLeft(n.left_ms) });
    case 'game_over': return t('ntf_game_over_' + n.result, { name: n.opponent || '?' });
    case 'report_handled': return t('ntf_report_handled');
    case 'tournament_started': return t('ntf_tournament_started', { name: n.name });
    default: return n.kind;
  }
}

/** "5 h" or "2 days" left. */
function daysLeft(ms) {
  if (ms == null) return '';
  const h = Math.round(ms / 3600000);
  return h >= 48 ? t('days_n', { n: Math.round(h / 24) }) : t('hours_n', { n: Math.max(1, h) });
}

/** A challenge's game in a few words: variant, clock, rated or casual. */
export function termsText(g) {
  if (!g) return '';
  const time = g.time || { kind: 'none' };
  const clock = time.kind === 'fischer' ? `${time.initial_ms / 60000}+${time.increment_ms / 1000}`
    : time.kind === 'per_move' ? t('time_per_move')
      : time.kind === 'correspondence' ? t('days_per_move', { n: time.days }) : t('time_none');
  return `${variantName(g.variant)} · ${clock} · ${t(g.rated ? 'rated' : 'casual')}`;
}

/** Where a notification leads: its game, if any. */
function gameOf(n) {
  return n.kind === 'challenge' ? null : n.game || null;
}

function setCount(n) {
  unread = Math.max(0, n);
  const c = document.getElementById('bell-count');
  if (c) {
    c.textContent = unread ? String(unread) : '';
    c.hidden = !unread;
  }
  const b = document.getElementById('bell');
  if (b) b.setAttribute('aria-label', t('notifications_n', { n: unread }));
}

/** The bell for the header. */
export function bell() {
  const count = el('span', { class: 'bell-count', id: 'bell-count', hidden: !unread }, unread ? String(unread) : '');
  const panel = el('div', { class: 'inbox', id: 'inbox', hidden: true });
  const button = el('button', {
    type: 'button', class: 'bell', id: 'bell', 'aria-expanded': 'false', 'aria-controls': 'inbox',
    'aria-label': t('notifications_n', { n: unread }),
    onclick: () => (panel.hidden ? open(panel, button) : close(panel, button)),
  }, bellIcon(), count);
  return el('span', { class: 'bell-box' }, button, panel);
}

/** A bell drawn in SVG (no emoji font needed). */
function bellIcon() {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('width', '20');
  svg.setAttribute('height', '20');
  svg.setAttribute('aria-hidden', 'true');
  const path = document.createElementNS(ns, 'path');
  path.setAttribute('d', 'M12 2a6 6 0 0 0-6 6v4.5L4 16v1h16v-1l-2-3.5V8a6 6 0 0 0-6-6zm0 20a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22z');
  path.setAttribute('fill', 'currentColor');
  svg.append(path);
  return svg;
}

function close(panel, button) {
  panel.hidden = true;
  button.setAttribute('aria-expanded', 'false');
  onChange = null;
}

/** Opens the inbox: the notifications, newest first, with the challenges' answers;
 *  all are read then. */
async function open(panel, button) {
  panel.hidden = false;
  button.setAttribute('aria-expanded', 'true');
  const draw = async () => {
    try {
      const [inbox, ch] = await Promise.all([api('GET', '/api/me/notifications'), api('GET', '/api/challenges')]);
      const waiting = new Map(ch.in.map((c) => [c.id, c]));
      const items = inbox.notifications.map((n) => item(n, n.kind === 'challenge' ? waiting.get(n.challenge) : null));
      const out = ch.out.map((c) => el('li', { class: 'ntf out' },
        el('span', {}, t('challenge_waiting', { name: c.to, game: termsText(c) })), ' ',
        el('button', { type: 'button', class: 'btn', onclick: () => answer(c.id, 'cancel') }, t('cancel'))));
      panel.replaceChildren(
        el('h2', {}, t('notifications')),
        items.length || out.length ? el('ul', { class: 'ntf-list' }, ...out, ...items) : el('p', { class: 'muted' }, t('notifications_none')),
        'PushManager' in window && 'serviceWorker' in navigator
          ? el('p', {}, el('button', { type: 'button', class: 'btn', id: 'push-on', onclick: pushOn }, t('push_enable')))
          : null);
      if (inbox.unread) {
        const r = await api('POST', '/api/me/notifications/read', {});
        setCount(r.unread);
      }
    } catch (e) {
      panel.replaceChildren(el('p', { class: 'error' }, e.message));
    }
  };
  onChange = draw;
  await draw();
}

/** One notification: its words, when, and what to do (answer a challenge still
 *  waiting, open the game). */
function item(n, waiting) {
  const when = new Date(n.at_ms).toLocaleString(lang(), { dateStyle: 'short', timeStyle: 'short' });
  const actions = [];
  if (n.kind === 'challenge' && waiting) {
    const reason = el('select', { 'aria-label': t('decline_reason') },
      ...['generic', 'later', 'too_fast', 'too_slow', 'casual', 'rated', 'variant'].map((r) => el('option', { value: r }, t('decline_' + r))));
    actions.push(
      el('button', { type: 'button', class: 'btn primary accept', onclick: () => answer(waiting.id, 'accept') }, t('accept')),
      el('button', { type: 'button', class: 'btn decline', onclick: () => answer(waiting.id, 'decline', { reason: reason.value }) }, t('decline')),
      reason);
  }
  const g = gameOf(n);
  if (g) actions.push(el('a', { href: `/game/${g}`, 'data-link': true, class: 'btn' }, t('open')));
  if (n.tournament) actions.push(el('a', { href: `/tournament/${n.tournament}`, 'data-link': true, class: 'btn' }, t('open')));
  return el('li', { class: 'ntf' + (n.read ? '' : ' unread'), 'data-kind': n.kind },
    el('span', {}, noticeText(n)), ' ', el('small', { class: 'muted' }, when), ' ', ...actions);
}

/** This browser gets the notifications that matter while its tabs are closed (a
 *  correspondence move, a challenge): Web Push through the browser's push service. */
async function pushOn() {
  try {
    const reg = await navigator.serviceWorker.register('/sw.js');
    const { key } = await api('GET', '/api/push/key');
    const sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
    await api('POST', '/api/me/push', { ...sub.toJSON(), lang: lang() });
    toast(t('push_on'));
  } catch (e) {
    toast(t('push_failed', { why: e.message }), true);
  }
}

/** Answers a challenge (`accept`, `decline`) or withdraws one's own (`cancel`). */
async function answer(id, what, body) {
  try {
    const r = await api('POST', `/api/challenges/${id}/${what}`, body);
    if (what === 'accept') {
      seats.set(r.game, { token: r.token, color: r.color });
      document.getElementById('inbox').hidden = true;
      go(`/game/${r.game}`);
      return;
    }
  } catch (e) {
    toast(e.message, true);
  }
  onChange?.();
}

/** Listens to the account's socket (once logged in): the count, a toast for each
 *  notification, a followed player starting a game. */
export function listen() {
  if (socket) return;
  clearTimeout(retry);
  const s = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/me/ws`);
  socket = s;
  s.onmessage = (m) => {
    let e;
    try {
      e = JSON.parse(m.data);
    } catch {
      return;
    }
    if (e.type === 'unread') setCount(e.unread);
    else if (e.type === 'notification') {
      setCount(unread + 1);
      toast(noticeText(e.notification));
      // The challenger goes to the game the player challenged has just accepted.
      if (e.notification.kind === 'challenge_accepted') go(`/game/${e.notification.game}`);
      onChange?.();
    } else if (e.type === 'tournament_game') {
      // A game of the player's in an event has started: to the board.
      toast(t('t_game_started'));
      if (location.pathname !== `/game/${e.game}`) go(`/game/${e.game}`);
    } else if (e.type === 'following_playing') toast(t('ntf_following_playing', { name: e.name }));
    else if (e.type === 'challenge_update' || e.type === 'reload') onChange?.();
  };
  s.onclose = () => {
    if (socket !== s) return;
    socket = null;
    retry = setTimeout(listen, 3000);
  };
}

/** Stops listening (logged out). */
export function stop() {
  clearTimeout(retry);
  const s = socket;
  socket = null;
  s?.close();
  setCount(0);
}

/** The challenge form of a player's page: variant, rulebook, clock, colour, rated. */
export function challengeForm(name, done) {
  const variant = el('select', { name: 'variant', id: 'ch-variant' },
    ...[...variants.values()].map((v) => el('option', { value: v.key }, variantName(v.key))));
  const rules = el('select', { name: 'rules', id: 'ch-rules' });
  const fillRules = () => rules.replaceChildren(...(PRESETS[variant.value] || ['official']).map((r) => el('option', { value: r }, t('rules_' + r))));
  variant.addEventListener('change', fillRules);
  fillRules();
  // The clocks: the common ones, and correspondence with its days per move.
  const clocks = new Map(['f5_3', 'f3_2', 'g5', 'g10', 'f15_10', 'per_move', 'none'].map((k) => [k, [t('time_' + k), TIMES[k]]]));
  for (const days of [1, 2, 3, 5, 7, 14]) {
    clocks.set(`corr${days}`, [`${t('time_correspondence')}: ${t('days_per_move', { n: days })}`, { kind: 'correspondence', days }]);
  }
  const time = el('select', { name: 'time', id: 'ch-time' },
    ...[...clocks].map(([k, [label]]) => el('option', { value: k }, label)));
  const color = el('select', { name: 'color', id: 'ch-color' },
    ...['random', 'white', 'black'].map((c) => el('option', { value: c }, t('colour_' + c))));
  const rated = el('input', { type: 'checkbox', name: 'rated', id: 'ch-rated' });
  const error = el('p', { class: 'error', role: 'alert' });
  const label = (text, input) => el('label', {}, el('span', {}, text), input);
  async function send(e) {
    e.preventDefault();
    const body = { variant: variant.value, rules: rules.value, time: clocks.get(time.value)[1], color: color.value, rated: rated.checked };
    try {
      await api('POST', `/api/players/${encodeURIComponent(name)}/challenge`, body);
      toast(t('challenge_sent', { name }));
      done();
    } catch (err) {
      error.textContent = err.message;
    }
  }
  return el('form', { class: 'challenge-form', id: 'challenge-form', onsubmit: send },
    el('h2', {}, t('challenge_title', { name })),
    label(t('variant'), variant), label(t('rulebook'), rules), label(t('time_control'), time),
    label(t('your_colour'), color), el('label', {}, rated, ' ', t('rated')),
    el('button', { type: 'submit', class: 'btn primary', id: 'ch-send' }, t('challenge_send')),
    error);
}

/** Who may challenge me, for my own page. */
export function challengeSetting() {
  const select = el('select', { id: 'challenges-from', onchange: async () => {
    try {
      await api('POST', '/api/me/settings', { challenges: select.value });
      toast(t('saved'));
    } catch (e) {
      toast(e.message, true);
    }
  } }, ...['all', 'friends', 'none'].map((k) => el('option', { value: k }, t('challenges_from_' + k))));
  api('GET', '/api/me/settings').then((s) => { select.value = s.challenges; }, () => {});
  return el('p', {}, el('label', {}, t('challenges_from') + ' ', select));
}
