// The game panel's parts that only show the game: the players and their clocks, the
// status line, the links to share, the keyboard help, and the page for a game address
// that leads nowhere.
import { banner, el, levelRatings, toast } from './app.js';
import { t, resultText, side } from './i18n.js';
import { btn } from './play-actions.js';

function playerName(g, color) {
  const s = g.snap;
  const { seat } = g;
  if (s.ai === color) {
    const rating = levelRatings.get(s.options.level);
    return rating ? t('engine_level_about', { n: s.options.level, rating }) : t('engine_level', { n: s.options.level });
  }
  if (s.mode === 'hotseat') return '';
  const pl = s.players?.[color === 'white' ? 0 : 1];
  if (pl) {
    const r = pl.rating;
    const name = seat && seat.color === color ? `${pl.name} (${t('you')})` : pl.name;
    return r ? `${name} · ${t('rating_change', { rating: r.after, change: (r.change >= 0 ? '+' : '') + r.change })}` : name;
  }
  if (seat && seat.color === color) return t('you');
  const taken = s.seats[color === 'white' ? 0 : 1];
  if (!taken) return t('waiting_player');
  return seat ? t('opponent') : t('player');
}

/** `color`'s connection as the server measured it: three bars, as many lit as it is
 *  good (under 150 ms), fair (under 400 ms) or poor. */
export function connection(g, color) {
  const ms = g.snap.connection?.[color === 'white' ? 0 : 1];
  if (ms == null || g.snap.mode === 'hotseat') return null;
  const q = ms < 150 ? 'good' : ms < 400 ? 'fair' : 'poor';
  const label = t('conn_' + q, { ms });
  return el('span', { class: 'conn ' + q, title: label, 'aria-label': label, role: 'img' },
    el('i', {}), el('i', {}), el('i', {}));
}

/** `color`'s side and player; an account's name leads to their page (to follow or
 *  challenge them), in the panel. */
function nameOf(g, color, strip) {
  const text = [side(color), playerName(g, color)].filter(Boolean).join(' · ');
  const pl = g.snap.players?.[color === 'white' ? 0 : 1];
  if (strip || !pl || g.snap.mode === 'hotseat') return text;
  return el('a', { href: `/player/${encodeURIComponent(pl.name)}`, 'data-link': true, class: 'player-link' }, text);
}

/** `color`'s player and clock: in the panel, or in the strip by the board (`strip`). */
export function playerBox(g, color, strip = false) {
  return el(
    'div',
    { class: 'clock' + (strip ? '' : ' side'), 'data-color': color },
    el('span', { class: 'player-line' }, el('span', { class: 'dot ' + color, 'aria-hidden': 'true' }), nameOf(g, color, strip), strip ? null : connection(g, color)),
    g.snap.clocks ? el('span', { class: 'time', role: strip ? null : 'timer', 'aria-hidden': strip ? 'true' : null, 'aria-label': t('clock_of', { side: side(color) }) }) : null,
  );
}

export function statusText(g) {
  const s = g.snap;
  // Only a friend's game has an invite link to share; an open game waits in the lobby.
  if (s.state === 'waiting') return t(s.mode === 'friend' ? 'waiting_opponent' : 'waiting_lobby');
  if (s.state === 'finished') return s.result ? resultText(s.result) : t('finished');
  if (s.held) return t('held_wait');
  if (g.myTurn()) return g.seat.color === 'both' ? t('to_move', { side: side(s.side_to_move) }) : t('your_move');
  return t('to_move', { side: side(s.side_to_move) });
}

/** The invite link (while a friend game waits) and the link to watch. */
export function share(g, id) {
  const box = [];
  const line = (label, path, idAttr) => {
    const url = location.origin + path;
    const input = el('input', { value: url, readonly: true, id: idAttr, 'aria-label': label, onfocus: (e) => e.target.select() });
    return el('div', {}, el('div', { class: 'muted' }, label),
      el('div', { class: 'share' }, input, btn(t('copy'), async () => {
        try {
          await navigator.clipboard.writeText(url);
          toast(t('copied'));
        } catch {
          input.select();
        }
      })));
  };
  const s = g.snap;
  if (g.seat && g.seat.invite && s.state === 'waiting' && s.mode === 'friend') box.push(line(t('invite_link'), `/game/${id}/join#${g.seat.invite}`, 'invite-url'));
  if (s.mode !== 'hotseat') box.push(line(t('watch_link'), `/game/${id}`, 'watch-url'));
  return box;
}

export function shortcuts() {
  return el('details', { class: 'muted', id: 'shortcuts' }, el('summary', {}, t('shortcuts')),
    el('ul', {}, ...['keys_browse', 'keys_ends', 'keys_board'].map((k) => el('li', {}, t(k)))));
}

/** True (and `main` says so, with a way home) when the server has no game `id`;
 *  false also once the page is `gone()`. */
export async function gameMissing(main, id, gone) {
  let status = 0;
  try {
    status = (await fetch(`/api/games/${id}`)).status;
  } catch {
    return false;
  }
  if ((status !== 404 && status !== 400) || gone()) return false;
  banner('');
  main.replaceChildren(
    el('section', { class: 'card', id: 'game-missing' },
      el('h1', {}, t('game_missing')),
      el('p', {}, el('a', { href: '/', 'data-link': true, class: 'btn primary', id: 'go-home' }, t('go_home')))),
  );
  return true;
}
