// The leaderboard: the top 100 of a rating pool (a variant, or a variant under a seed
// rulebook) in a speed class, as the server ranks them: established ratings of players
// active in the last weeks.
import { t } from './i18n.js';
import { api, el, go, poolName, SEED_POOLS, variants } from './app.js';

const SPEEDS = ['bullet', 'blitz', 'rapid', 'classical', 'correspondence'];

/** `/leaderboard?pool=P&speed=S`. */
export function leaderboardPage(main, params) {
  const pools = [...variants.keys(), ...SEED_POOLS];
  const pool = pools.includes(params.get('pool')) ? params.get('pool') : 'english';
  const speed = SPEEDS.includes(params.get('speed')) ? params.get('speed') : 'blitz';
  let board = null;
  let error = '';

  function choose(p, s) {
    go(`/leaderboard?pool=${encodeURIComponent(p)}&speed=${encodeURIComponent(s)}`);
  }

  function render() {
    document.title = `${t('lb_title')} · dama`;
    const poolSel = el('select', { id: 'lb-pool', onchange: (e) => choose(e.target.value, speed) },
      ...pools.map((p) => el('option', { value: p, selected: p === pool }, poolName(p))));
    const speedSel = el('select', { id: 'lb-speed', onchange: (e) => choose(pool, e.target.value) },
      ...SPEEDS.map((s) => el('option', { value: s, selected: s === speed }, t('speed_' + s))));
    let body;
    if (error) body = el('p', { class: 'error' }, error);
    else if (!board) body = el('p', { class: 'loading' }, t('loading'));
    else if (!board.players.length) body = el('p', { class: 'muted', id: 'lb-empty' }, t('lb_empty', { days: board.active_days }));
    else {
      body = el('table', { id: 'leaderboard', class: 'leaderboard' },
        el('thead', {}, el('tr', {},
          el('th', { scope: 'col' }, t('lb_rank')), el('th', { scope: 'col' }, t('lb_player')),
          el('th', { scope: 'col' }, t('lb_rating')), el('th', { scope: 'col' }, t('lb_games')))),
        el('tbody', {}, ...board.players.map((p) => el('tr', {},
          el('td', {}, String(p.rank)),
          el('td', {}, el('a', { href: `/player/${encodeURIComponent(p.name)}`, 'data-link': true }, p.name)),
          el('td', { class: 'rating' }, String(p.rating)),
          el('td', {}, String(p.games))))));
    }
    main.replaceChildren(
      el('h1', {}, t('lb_title')),
      el('div', { class: 'row' },
        el('label', { for: 'lb-pool' }, t('lb_pool')), poolSel,
        el('label', { for: 'lb-speed' }, t('lb_speed')), speedSel),
      el('p', { class: 'muted' }, t('lb_note', { days: board ? board.active_days : 28 })),
      body);
  }

  (async () => {
    try {
      board = await api('GET', `/api/leaderboard?pool=${encodeURIComponent(pool)}&speed=${encodeURIComponent(speed)}`);
    } catch (e) {
      error = e.message;
    }
    render();
  })();
  render();
  return { render };
}
