// Sounds of play, made with Web Audio (no files to load): a move, a capture, low time
// and the end of a game. Off with the switch in the header (kept in localStorage).

let ctx = null;
const KEY = 'dama.mute';

/** True when the player switched sound off. */
export function muted() {
  return localStorage.getItem(KEY) === '1';
}

/** Switches sound off or on. */
export function setMuted(on) {
  localStorage.setItem(KEY, on ? '1' : '0');
}

// Each sound: tones as [frequency Hz, start s, length s, loudness].
const SOUNDS = {
  move: [[520, 0, 0.07, 0.25]],
  capture: [[330, 0, 0.06, 0.3], [250, 0.07, 0.09, 0.3]],
  low: [[880, 0, 0.08, 0.2], [880, 0.16, 0.08, 0.2]],
  end: [[523, 0, 0.12, 0.25], [659, 0.13, 0.12, 0.25], [784, 0.26, 0.2, 0.25]],
};

/** Plays a sound of play unless muted; the page records the last one it was asked for
 *  (`data-sound` on the body) so that tests can see it. */
export function play(kind) {
  document.body.dataset.sound = kind;
  if (muted() || !SOUNDS[kind]) return;
  try {
    ctx = ctx || new AudioContext();
    if (ctx.state === 'suspended') ctx.resume();
    const now = ctx.currentTime;
    for (const [f, at, len, vol] of SOUNDS[kind]) {
      const o = ctx.createOscillator();
      const g = ctx.createGain();
      o.frequency.value = f;
      g.gain.setValueAtTime(vol, now + at);
      g.gain.exponentialRampToValueAtTime(0.001, now + at + len);
      o.connect(g).connect(ctx.destination);
      o.start(now + at);
      o.stop(now + at + len + 0.02);
    }
  } catch {
    // No audio on this device: play on silently.
  }
}
