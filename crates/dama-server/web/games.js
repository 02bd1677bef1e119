// "My games": the logged-in player's games waiting or being played, those where it is
// their move first (least time left first), each with its opponent and time left.
import { t, side } from './i18n.js';
import { api, el, poolKey, poolName } from './app.js';

/** The time left: days and hours for correspondence, else h:mm:ss or m:ss. */
function timeLeft(ms, tc) {
  if (ms === null || ms === undefined) return t('time_none');
  if (tc && tc.kind === 'correspondence') {
    const days = Math.floor(ms / 86400000);
    const hours = Math.floor((ms % 86400000) / 3600000);
    return t('days_hours_left', { d: days, h: hours });
  }
  const s = Math.max(0, Math.floor(ms / 1000));
  const hh = Math.floor(s / 3600), mm = Math.floor((s % 3600) / 60), ss = String(s % 60).padStart(2, '0');
  return hh ? `${hh}:${String(mm).padStart(2, '0')}:${ss}` : `${mm}:${ss}`;
}

function opponentOf(g) {
  if (g.opponent.computer) return t('vs_computer', { n: g.opponent.computer });
  if (g.opponent.one_device) return t('mode_hotseat');
  return g.opponent.name
    ? el('a', { href: `/player/${encodeURIComponent(g.opponent.name)}`, 'data-link': true }, g.opponent.name)
    : t('anonymous');
}

function row(g) {
  const where = g.state === 'waiting' ? t('mg_waiting') : g.held ? t('held_wait')
    : g.my_turn ? t('your_move') : t('to_move', { side: side(g.side_to_move) });
  const pool = poolName(poolKey(g.variant, g.rules));
  return el('tr', { class: g.my_turn ? 'my-turn' : '', 'data-game': g.id },
    el('td', {}, el('a', { href: `/game/${g.id}`, 'data-link': true, class: 'btn' + (g.my_turn ? ' primary' : '') }, t('open'))),
    el('td', {}, opponentOf(g)),
    el('td', {}, pool),
    el('td', { class: g.my_turn ? 'turn' : 'muted' }, where),
    el('td', { class: 'time-left' }, g.state === 'live' ? timeLeft(g.time_left_ms, g.time) : ''));
}

/** `/games`. */
export function gamesPage(main) {
  let games = null;
  let error = '';
  let loggedOut = false;
  function render() {
    document.title = `${t('mg_title')} · dama`;
    let body;
    if (loggedOut) {
      body = el('p', { id: 'mg-login' }, t('mg_login'), ' ', el('a', { href: '/login', 'data-link': true }, t('log_in')));
    } else if (error) body = el('p', { class: 'error' }, error);
    else if (!games) body = el('p', { class: 'loading' }, t('loading'));
    else if (!games.length) body = el('p', { class: 'muted', id: 'mg-empty' }, t('mg_empty'));
    else {
      const mine = games.filter((g) => g.my_turn).length;
      body = el('div', {},
        el('p', { id: 'mg-count' }, t('mg_your_move_n', { n: mine })),
        el('table', { id: 'my-games', class: 'leaderboard' },
          el('thead', {}, el('tr', {},
            el('th', { scope: 'col' }, el('span', { class: 'sr' }, t('open'))), el('th', { scope: 'col' }, t('mg_opponent')),
            el('th', { scope: 'col' }, t('mg_variant')), el('th', { scope: 'col' }, t('mg_where')),
            el('th', { scope: 'col' }, t('mg_time_left')))),
          el('tbody', {}, ...games.map(row))));
    }
    main.replaceChildren(el('h1', {}, t('mg_title')), body);
  }
  (async () => {
    try {
      games = (await api('GET', '/api/me/games')).games;
    } catch (e) {
      if (e.status === 401) loggedOut = true;
      else error = e.message;
    }
    render();
  })();
  render();
  return { render };
}
