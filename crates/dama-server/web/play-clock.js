// The game's clocks: the time each side has left as the server last said it (`clocks`,
// set at `since`, a `performance.now()`), counted down on the page, and what the page
// can tell of them after an event that carries none (the end, a takeback).
import { t, side } from './i18n.js';
import { play as sound } from './sound.js';

/** The longest wait for a side's first move of a game clock (the server's FIRST_MOVE_MS:
 *  one minute, or the whole clock if shorter; docs/api.md). */
const FIRST_MOVE_MS = 60000;

export function fmtClock(ms, kind) {
  ms = Math.max(0, ms);
  if (kind === 'correspondence' && ms >= 3600000) {
    const h = Math.floor(ms / 3600000);
    return h >= 24 ? `${Math.floor(h / 24)}d ${h % 24}h` : `${h}h ${Math.floor((ms % 3600000) / 60000)}m`;
  }
  const s = Math.floor(ms / 1000);
  const mm = Math.floor(s / 60);
  const ss = String(s % 60).padStart(2, '0');
  if (ms < 10000) return `${mm}:${ss}.${Math.floor((ms % 1000) / 100)}`;
  return `${mm}:${ss}`;
}

/** `color`'s time left now. */
export function clockLeft(clocks, color, since) {
  const ms = clocks[color + '_ms'];
  return clocks.running === color ? ms - (performance.now() - since) : ms;
}

/** The clocks once the game is over: the running side's time as it stood, nothing runs. */
export function frozen(clocks, since) {
  const out = { white_ms: clocks.white_ms, black_ms: clocks.black_ms, running: null };
  if (clocks.running) out[clocks.running + '_ms'] = Math.max(0, clockLeft(clocks, clocks.running, since));
  return out;
}

/**
 * The clocks after a takeback, as the server sets them (its event says the position,
 * not the clocks): `side`, to move now after `ply` plies, starts its turn with the time
 * it had (the turn cut short is not charged); a correspondence clock starts the move's
 * days; before a side's first move a game clock stands and the wait for that move runs.
 * Null for a per-move clock: the move's limit is shorter when its only legal move is a
 * single capture (seed 003), which the page cannot tell from the position.
 */
export function afterTakeback(clocks, time, side, ply) {
  if (time.kind === 'per_move') return null;
  const out = { white_ms: clocks.white_ms, black_ms: clocks.black_ms, running: side };
  if (time.kind === 'fischer' && ply < 2) return { ...out, running: null, first_move_ms: Math.min(time.initial_ms, FIRST_MOVE_MS) };
  if (time.kind === 'correspondence') out[side + '_ms'] = time.days * 86400000;
  return out;
}

/** Draws the clocks of the page `p` (its game `p.g`) every 200 ms, with one warning
 *  sound when the player's own time runs low. */
export function clockPart(p) {
  const { g, main } = p;
  let warnedLow = false;

  function tick() {
    const s = g.snap;
    if (!s || !s.clocks) return;
    const wait = main.querySelector('#first-move');
    if (wait) {
      const ms = s.clocks.first_move_ms;
      wait.textContent = ms != null && g.live() ? t('first_move_wait', { side: side(s.side_to_move), s: Math.max(0, Math.ceil((ms - (performance.now() - g.clockAt)) / 1000)) }) : '';
    }
    for (const color of ['white', 'black']) {
      for (const box of main.querySelectorAll(`.clock[data-color=${color}]`)) {
        const left = clockLeft(s.clocks, color, g.clockAt);
        if (!warnedLow && g.live() && g.mine(color) && s.clocks.running === color && left < 10000) {
          warnedLow = true;
          sound('low');
        }
        box.querySelector('.time').textContent = fmtClock(left, s.options.time.kind);
        box.classList.toggle('running', s.clocks.running === color && g.live());
        box.classList.toggle('low', left < 20000);
      }
    }
  }

  const timer = setInterval(tick, 200);
  return { tick, destroy: () => clearInterval(timer) };
}
