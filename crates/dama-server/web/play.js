// The game screen: board, clocks, move list and every action, live over the websocket.
// The page keeps the game (play-state.js) and applies to it each event the server
// sends, one handler per message type. It asks for the whole game again (`resync`)
// only when it missed events (a gap in versions), after an action the server refused,
// and where an event does not say enough: a player joined (their name, the clocks), a
// takeback under a per-move clock, and a spectator who may suggest moves needs the
// legal moves after each change. A lost connection comes back with `since` and hears
// what it missed (a client too far behind gets a snapshot).
import { el, seats, toast, variantName } from './app.js';
import * as account from './account.js';
import { t, errorText, points, setSideNames, side, sidesNow, sidesRedBlack } from './i18n.js';
import { play as sound } from './sound.js';
import { liveSocket } from './socket.js';
import { Game, changes, other } from './play-state.js';
import { clockPart } from './play-clock.js';
import { movesPart } from './play-moves.js';
import { actionsPart } from './play-actions.js';
import { chatPart } from './play-chat.js';
import { connection, gameMissing, playerBox, share, shortcuts, statusText } from './play-panel.js';

/** The game `id` on `main`. */
export function playPage(main, id) {
  const g = new Game(seats.get(id));
  g.me = () => account.me;
  let closed = false;
  // The page's parts share the game, the socket and the redraw.
  const p = { g, id, main, send, render };
  p.moves = movesPart(p);
  const actions = actionsPart(p);
  const chat = chatPart(p);
  const clock = clockPart(p);
  const boardHost = el('div');
  // On a phone the players and clocks sit right above and below the board.
  const stripTop = el('div', { class: 'strip' });
  const stripBottom = el('div', { class: 'strip' });
  const wrap = el('div', { class: 'board-wrap' }, stripTop, boardHost, stripBottom);
  const panel = el('div', { class: 'panel' });
  main.replaceChildren(el('p', { class: 'loading' }, t('loading')));

  const socket = liveSocket(`/api/games/${id}/ws`, {
    onOpen() {
      // The seat token goes in the first frame, never in the address; `since` asks for
      // the events missed while away (or a snapshot when they are too many).
      const hello = { type: 'hello' };
      if (g.seat) hello.token = g.seat.token;
      if (g.snap) hello.since = g.version;
      g.resyncAt = null;
      g.sent = null;
      socket.send(hello);
    },
    onMessage: (m) => Object.hasOwn(on, m.type) && on[m.type](m),
    onLost: async () => !g.snap && (await gameMissing(main, id, () => closed)),
    showBanner: true,
    ping: 25000,
  });

  function send(msg) {
    if (socket.send(msg)) return true;
    toast(t('not_connected'), true);
    return false;
  }

  /** Asks for the whole game: once until it comes (or for 5 s). */
  function resync() {
    if (g.resyncAt !== null && performance.now() - g.resyncAt < 5000) return;
    if (socket.send({ type: 'resync' })) g.resyncAt = performance.now();
  }

  /** Does what a change of the game asks of the page (see play-state.js). */
  function perform(fx) {
    if (!fx) return;
    if (fx.clearHint) p.moves.clearHint();
    if (fx.sound) sound(fx.sound);
    if (fx.announce) {
      const box = document.getElementById('announce');
      if (box) box.textContent = t('announce_move', { side: side(fx.announce.side), move: fx.announce.move });
    }
    if (fx.toast) toast(fx.toast);
    if (fx.animate) p.moves.animate(fx.animate.mv, fx.animate.from);
    if (fx.resync) resync();
    // A premove played redraws the page itself.
    if (!(fx.premove && p.moves.playPremove())) {
      if (fx.render) render();
      else if (fx.board) p.moves.draw();
    }
    if (fx.result) actions.result();
  }

  /** A message about the game: applied in order; a gap asks for the whole game. */
  const game = (type) => (m) => {
    const step = g.order(m);
    if (step === 'gap') resync();
    else if (step === 'apply') perform(changes[type](g, m));
  };

  // One handler per message the server sends.
  const on = {
    snapshot: game('snapshot'),
    move: game('move'),
    joined: game('joined'),
    started: game('started'),
    berserk: game('berserk'),
    draw_offer: game('draw_offer'),
    draw_declined: game('draw_declined'),
    end: game('end'),
    takeback_offer: game('takeback_offer'),
    takeback: game('takeback'),
    takeback_declined: game('takeback_declined'),
    rematch_offer: game('rematch_offer'),
    next_game: game('next_game'),
    rated: game('rated'),
    legal: game('legal'),
    suggestions: game('suggestions'),
    chat: (m) => chat.add(m),
    chat_history: (m) => chat.history(m.lines),
    chat_hidden: (m) => chat.hide(m.n),
    // A player's connection changed band: its bars change in place (it comes at any
    // time; the page is not drawn again under a player typing a move or a line).
    connection: (m) => {
      if (!g.snap) return;
      g.snap.connection = m.rtt_ms;
      for (const box of document.querySelectorAll('.clock.side[data-color]')) {
        const line = box.querySelector('.player-line');
        line?.querySelector('.conn')?.remove();
        const bars = connection(g, box.dataset.color);
        if (line && bars) line.append(bars);
      }
    },
    // A refused action: say why, and take the game as the server has it.
    error: (m) => {
      toast(errorText(m), true);
      g.sent = null;
      resync();
    },
    pong: () => {},
  };

  function render() {
    const s = g.snap;
    if (!s || closed) return;
    // The log-in may have come after the first snapshot.
    g.seatOfAccount();
    setSideNames(s.options.rules, s.variant);
    if (!p.moves.board) {
      main.replaceChildren(el('div', { class: 'game' }, wrap, panel), actions.dialog);
      p.moves.boardOn(boardHost);
    }
    p.moves.keepView();
    // Seed 001's pieces are red (moving first) and black.
    main.querySelector('.game')?.classList.toggle('sides-rb', sidesRedBlack());
    main.querySelector('.game')?.classList.add(`v-${s.variant}`);
    const top = p.moves.board.flipped ? 'white' : 'black';
    stripTop.replaceChildren(playerBox(g, top, true));
    stripBottom.replaceChildren(playerBox(g, other(top), true));
    const series = s.options.series_state;
    const parts = [
      el('h1', {}, variantName(s.variant), el('span', { class: 'muted' }, ' · ' + t('mode_' + s.mode))),
      series && !g.seriesFinal() ? el('div', { class: 'muted', id: 'series-state' }, t('series_state', { n: series.game, of: s.options.series, w: points(series.score[0]), b: points(series.score[1]), sides: sidesNow() })) : null,
      actions.seriesLine(),
      playerBox(g, top),
      el('div', { class: 'status', role: 'status', 'aria-live': 'polite', id: 'status' }, statusText(g)),
      el('div', { class: 'muted', id: 'first-move' }),
      ...actions.offers(),
      playerBox(g, other(top)),
      ...(g.seat ? [] : [el('p', { class: 'muted' }, g.canSuggest() ? t('spectator_suggest') : t('spectating'))]),
      actions.buttons(),
      p.moves.moveInput(),
      p.moves.browseBar(),
      p.moves.moveList(),
      p.moves.betterPart(),
      p.moves.reportPart(),
      chat.panel(),
      shortcuts(),
      ...share(g, id),
    ];
    panel.replaceChildren(...parts.filter(Boolean));
    const ml = panel.querySelector('#moves');
    const cur = ml.querySelector('.cur');
    if (!p.moves.browsing || !cur) ml.scrollTop = ml.scrollHeight;
    else cur.scrollIntoView({ block: 'nearest' });
    document.title = `${variantName(s.variant)} — dama`;
    p.moves.draw();
    clock.tick();
  }

  return {
    render: () => {
      render();
      actions.retranslate();
    },
    destroy() {
      closed = true;
      socket.close();
      clock.destroy();
      p.moves.destroy();
      actions.destroy();
    },
  };
}
