// The game screen: board, clocks, move list and every action, live over the websocket.
// The server is the authority: after each event the screen asks for the whole game again
// (`resync`), so it never drifts; a lost connection reconnects with `since`.
import { api, banner, el, go, piecesOfFen, seats, toast, variants, variantName } from './app.js';
import { Board } from './board.js';
import { t, resultText, setSideNames, side, sidesNow, sidesRedBlack } from './i18n.js';
import { play as sound } from './sound.js';
import { reportSection } from './report.js';

const GLYPHS = { inaccuracy: '?!', mistake: '?', blunder: '??' };

const other = (c) => (c === 'white' ? 'black' : 'white');

function fmtClock(ms, kind) {
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

/** After `mv`, the pieces as the board shows them. */
function applyMove(pieces, mv) {
  const gone = new Set(mv.captured);
  const from = mv.path[0];
  const to = mv.path[mv.path.length - 1];
  return pieces
    .filter((p) => !gone.has(p.square) || p.square === from)
    .map((p) => (p.square === from ? { ...p, square: to, king: p.king || mv.promote } : p));
}

/** The game `id` on `main`. */
export function playPage(main, id) {
  let seat = seats.get(id);
  let snap = null;
  let version = 0;
  let ws = null;
  let closed = false;
  let retries = 0;
  let board = null;
  let flipped = null;
  let suggestions = null;
  let hintMove = null;
  let animating = false;
  let sentMove = null;
  let clockAt = performance.now();
  let takebackOffer = null;
  let rematchOffer = null;
  let warnedLow = false;
  // A move chosen while the opponent thinks, played as soon as it is legal: {from, to}.
  let premove = null;
  // Browsing the moves during the game: the ply shown, or null for the live position.
  let viewPly = null;
  let resignArmed = false;
  let shownResult = false;
  let pingTimer = null;
  let drawnVersion = -1; // the selection survives redraws of the same position
  let retryTimer = null;
  // The game report of a finished game: its section, and the report once made.
  let reportBox = null;
  let report = null;
  const boardHost = el('div');
  // On a phone the players and clocks sit right above and below the board.
  const stripTop = el('div', { class: 'strip' });
  const stripBottom = el('div', { class: 'strip' });
  const wrap = el('div', { class: 'board-wrap' }, stripTop, boardHost, stripBottom);
  const panel = el('div', { class: 'panel' });
  // The chat: built once, so that a line being typed survives the panel's redraws.
  const chatLines = el('ol', { class: 'chat-lines', id: 'chat-lines', 'aria-live': 'polite' });
  const chatInput = el('input', { id: 'chat-input', maxlength: 140, autocomplete: 'off' });
  const mutedAuthors = new Set(JSON.parse(localStorage.getItem('dama.muted') || '[]'));
  const chatToggle = el('input', { type: 'checkbox', id: 'chat-rated' });
  const chatBox = el('section', { class: 'chat', id: 'chat' },
    el('h2', { id: 'chat-title' }),
    el('label', { class: 'muted', id: 'chat-rated-label' }, chatToggle, ' ', el('span', { id: 'chat-rated-text' })),
    chatLines,
    el('form', { onsubmit: (e) => {
      e.preventDefault();
      const text = chatInput.value.trim();
      if (!text) return;
      send({ type: 'chat', text });
      chatInput.value = '';
    } }, chatInput));
  chatToggle.addEventListener('change', () => {
    localStorage.setItem('dama.chat_rated', chatToggle.checked ? 'on' : 'off');
    render();
  });
  function addChat(line) {
    if (mutedAuthors.has(line.author)) return;
    const mute = () => {
      mutedAuthors.add(line.author);
      localStorage.setItem('dama.muted', JSON.stringify([...mutedAuthors]));
      for (const li of [...chatLines.children]) if (li.dataset.author === line.author) li.remove();
    };
    const report = async () => {
      try {
        await api('POST', `/api/games/${id}/chat/${line.n}/report`, { reason: 'reported from the game page' });
        toast(t('chat_reported'));
      } catch (e) {
        toast(e.message, true);
      }
    };
    const li = el('li', { 'data-n': line.n, 'data-author': line.author },
      el('b', {}, line.author), ' ', line.text, ' ',
      el('button', { type: 'button', class: 'link', onclick: mute, title: t('chat_mute', { name: line.author }) }, t('chat_mute_short')),
      ' ',
      el('button', { type: 'button', class: 'link', onclick: report, title: t('chat_report') }, t('chat_report_short')));
    chatLines.append(li);
    chatLines.scrollTop = chatLines.scrollHeight;
  }
  /** The chat box, where the game has one (two players online) and the player wants it. */
  function chatPanel() {
    if (!snap || !['friend', 'open'].includes(snap.mode)) return null;
    const wanted = localStorage.getItem('dama.chat_rated') !== 'off';
    chatBox.querySelector('#chat-title').textContent = t(seat ? 'chat_players' : 'chat_spectators');
    chatBox.querySelector('#chat-rated-label').hidden = !snap.options.rated;
    chatBox.querySelector('#chat-rated-text').textContent = t('chat_in_rated');
    chatToggle.checked = wanted;
    const shown = !snap.options.rated || wanted;
    chatLines.hidden = !shown;
    chatInput.hidden = !shown;
    chatInput.setAttribute('aria-label', t('chat_say'));
    chatInput.placeholder = t('chat_say');
    return chatBox;
  }
  const dialog = el('dialog', { id: 'result-dialog', 'aria-labelledby': 'result-title' });
  main.replaceChildren(el('p', { class: 'loading' }, t('loading')));

  const me = () => (seat ? seat.color : null);
  const live = () => snap && snap.state === 'live';
  const myTurn = () => live() && seat && (seat.color === 'both' || seat.color === snap.side_to_move);
  const canSuggest = () => !seat && live() && snap.options.suggestions;
  const canPremove = () => live() && seat && seat.color !== 'both' && !myTurn() && !sentMove;

  /** What a premove may be: each of the player's pieces to any square on its lines. */
  function premoveCandidates() {
    const info = variants.get(snap.variant);
    const at = new Map(info.squares.map(([n, r, c]) => [`${r},${c}`, n]));
    const dirs = [[1, 1], [1, -1], [-1, 1], [-1, -1]].concat(info.full ? [[1, 0], [-1, 0], [0, 1], [0, -1]] : []);
    const out = [];
    for (const p of snap.pieces.filter((x) => x.color === seat.color)) {
      const [, r0, c0] = info.squares.find(([n]) => n === p.square);
      for (const [dr, dc] of dirs) {
        for (let k = 1; at.has(`${r0 + dr * k},${c0 + dc * k}`); k++) {
          const to = at.get(`${r0 + dr * k},${c0 + dc * k}`);
          out.push({ path: [p.square, to], captured: [], promote: false, long: `${p.square}-${to}`, notation: `${p.square}-${to}` });
        }
      }
    }
    return out;
  }

  /** On the player's turn: plays the premove if exactly one legal move fits it. */
  function playPremove() {
    if (!premove || !myTurn()) return false;
    const { from, to } = premove;
    premove = null;
    const fits = snap.legal.filter((m) => m.path[0] === from && m.path[m.path.length - 1] === to);
    if (fits.length !== 1) {
      toast(t('premove_dropped'));
      return false;
    }
    render();
    onMove(fits[0]);
    return true;
  }
  const vsAi = () => snap && snap.mode === 'ai';

  function send(msg) {
    if (!ws || ws.readyState !== WebSocket.OPEN) {
      toast(t('not_connected'), true);
      return false;
    }
    ws.send(JSON.stringify(msg));
    return true;
  }

  function connect() {
    if (closed) return;
    const proto = location.protocol === 'https:' ? 'wss' : 'ws';
    ws = new WebSocket(`${proto}://${location.host}/api/games/${id}/ws`);
    ws.onopen = () => {
      // The seat token goes in the first frame, never in the address.
      const hello = { type: 'hello' };
      if (seat) hello.token = seat.token;
      if (snap) hello.since = version;
      ws.send(JSON.stringify(hello));
      retries = 0;
      banner('');
    };
    ws.onmessage = (e) => {
      let m;
      try {
        m = JSON.parse(e.data);
      } catch {
        return;
      }
      handle(m);
    };
    ws.onclose = async () => {
      if (closed) return;
      if (!snap && (await missing())) return;
      banner(t('reconnecting'));
      retries++;
      retryTimer = setTimeout(connect, Math.min(8000, 300 * 2 ** retries));
    };
  }

  /** True (and the page says so) when the server has no game `id`. */
  async function missing() {
    let status = 0;
    try {
      status = (await fetch(`/api/games/${id}`)).status;
    } catch {
      return false;
    }
    if ((status !== 404 && status !== 400) || closed) return false;
    closed = true;
    banner('');
    main.replaceChildren(
      el('section', { class: 'card', id: 'game-missing' },
        el('h1', {}, t('game_missing')),
        el('p', {}, el('a', { href: '/', 'data-link': true, class: 'btn primary', id: 'go-home' }, t('go_home')))),
    );
    return true;
  }

  function handle(m) {
    switch (m.type) {
      case 'snapshot':
        snap = m.game;
        version = m.v;
        clockAt = performance.now();
        takebackOffer = snap.takeback_offer;
        rematchOffer = snap.rematch_offer;
        if (playPremove()) return;
        if (!animating) render();
        if (snap.state === 'finished' && snap.result && !shownResult) showResult();
        return;
      case 'error':
        toast(m.message, true);
        sentMove = null;
        send({ type: 'resync' });
        return;
      case 'pong':
        return;
      case 'suggestions':
        suggestions = m;
        drawBoard();
        return;
      case 'chat_history':
        chatLines.replaceChildren();
        for (const line of m.lines) addChat(line);
        return;
      case 'chat':
        addChat(m);
        return;
      case 'chat_hidden':
        // A moderator hid the line.
        for (const li of [...chatLines.children]) if (li.dataset.n === String(m.n)) li.remove();
        return;
    }
    if (m.type === 'next_game') {
      // Acted on even when a snapshot newer than it came first. The players stay on
      // the end of this game (its result and final position) until they choose
      // "Next game"; its clocks stand until each side's first move.
      if (seat) seats.set(m.id, { token: seat.token, color: seat.color === 'both' ? 'both' : other(seat.color) });
      if (snap) {
        snap.next_game = m.id;
        render();
        if (snap.state === 'finished' && snap.result && (dialog.open || !shownResult)) showResult();
      }
      return;
    }
    if (typeof m.v !== 'number') return;
    if (m.v <= version) return;
    if (m.v !== version + 1) {
      send({ type: 'resync' });
      return;
    }
    version = m.v;
    switch (m.type) {
      case 'move':
        hintMove = null;
        sound(m.mv.captured && m.mv.captured.length ? 'capture' : 'move');
        if (m.clocks && snap) {
          snap.clocks = m.clocks;
          clockAt = performance.now();
        }
        if (snap && sentMove !== m.mv.long && viewPly === null) animate(m.mv);
        sentMove = null;
        break;
      case 'joined':
        if (seat && m.color !== seat.color) toast(t('opponent_joined'));
        break;
      case 'draw_offer':
        if (snap) snap.draw_offer = m.by;
        break;
      case 'draw_declined':
        toast(t('draw_declined'));
        break;
      case 'takeback_offer':
        takebackOffer = m.by;
        break;
      case 'takeback_declined':
        takebackOffer = null;
        toast(t('takeback_declined'));
        break;
      case 'takeback':
        takebackOffer = null;
        break;
      case 'rematch_offer':
        rematchOffer = m.by;
        break;
    }
    send({ type: 'resync' });
  }

  async function animate(mv) {
    if (!board) return;
    animating = true;
    const pieces = snap.pieces;
    const mover = pieces.find((p) => p.square === mv.path[0]);
    for (let k = 1; k < mv.path.length && mover; k++) {
      const frame = pieces.filter((p) => p.square !== mv.path[0]).concat([{ ...mover, square: mv.path[k] }]);
      board.set({ pieces: frame, capturedShown: mv.captured.slice(0, k), last: mv, legal: [], interactive: false, arrows: [] });
      await new Promise((r) => setTimeout(r, mv.path.length > 2 ? 260 : 120));
    }
    board.capturedShown = [];
    snap.pieces = applyMove(pieces, mv);
    animating = false;
    render();
  }

  /** The pieces after `ply` moves of this game. */
  function piecesAt(ply) {
    let pieces = piecesOfFen(snap.start_fen);
    for (const mv of snap.moves.slice(0, ply)) pieces = applyMove(pieces, mv);
    return pieces;
  }

  /** Shows the position after `ply` moves (null, or the last ply: the live game). */
  function view(ply) {
    if (!snap) return;
    viewPly = ply === null || ply >= snap.moves.length ? null : Math.max(0, ply);
    render();
  }

  function drawBoard() {
    if (!board || !snap || animating) return;
    if (viewPly !== null) {
      board.set({ pieces: piecesAt(viewPly), legal: [], last: viewPly ? snap.moves[viewPly - 1] : null, interactive: false, arrows: [], hintMove: null });
      board.el.setAttribute('aria-label', t('viewing_move', { n: viewPly, of: snap.moves.length }));
      return;
    }
    if (canPremove()) {
      board.set({
        pieces: snap.pieces,
        legal: premove ? [] : premoveCandidates(),
        last: snap.moves[snap.moves.length - 1] || null,
        interactive: !premove,
        arrows: [],
        hintMove: null,
        premove,
      });
      return;
    }
    const interactive = !sentMove && (myTurn() || canSuggest());
    let arrows = [];
    if (myTurn() && suggestions && suggestions.ply === snap.moves.length + 1) {
      arrows = suggestions.moves
        .map(([text, count]) => ({ move: snap.legal.find((m) => m.notation === text || m.long === text), count }))
        .filter((a) => a.move);
    }
    const same = drawnVersion === version && interactive;
    drawnVersion = version;
    board.set({
      pieces: snap.pieces,
      legal: interactive ? snap.legal : [],
      last: snap.moves[snap.moves.length - 1] || null,
      interactive,
      arrows,
      hintMove,
      premove: null,
      locked: same && board.locked,
      keepSelection: same,
    });
    board.el.setAttribute('aria-label', t('board_label', { side: side(snap.side_to_move) }));
  }

  function onMove(mv) {
    if (myTurn()) {
      sentMove = mv.long;
      if (send({ type: 'move', move: mv.long })) {
        snap.pieces = applyMove(snap.pieces, mv);
        snap.legal = [];
        board.set({ pieces: snap.pieces, legal: [], last: mv, interactive: false, arrows: [], hintMove: null });
      } else sentMove = null;
    } else if (canSuggest()) {
      if (send({ type: 'suggest', move: mv.long })) toast(t('suggestion_sent', { move: mv.notation }));
      drawBoard();
    } else if (canPremove()) {
      premove = { from: mv.path[0], to: mv.path[mv.path.length - 1] };
      toast(t('premove_set', { move: mv.notation }));
      render();
    }
  }

  function onSelect(sq) {
    if (snap.options.touch_move && myTurn()) {
      send({ type: 'touch', square: sq });
      board.locked = true;
    }
  }

  function clockLeft(color) {
    const c = snap.clocks;
    const ms = c[color + '_ms'];
    return c.running === color ? ms - (performance.now() - clockAt) : ms;
  }

  function tick() {
    if (!snap || !snap.clocks) return;
    const wait = main.querySelector('#first-move');
    if (wait) {
      const ms = snap.clocks.first_move_ms;
      wait.textContent = ms != null && live() ? t('first_move_wait', { side: side(snap.side_to_move), s: Math.max(0, Math.ceil((ms - (performance.now() - clockAt)) / 1000)) }) : '';
    }
    for (const color of ['white', 'black']) {
      for (const box of main.querySelectorAll(`.clock[data-color=${color}]`)) {
        const left = clockLeft(color);
        // One warning when the player's own time runs low.
        if (!warnedLow && live() && seat && (seat.color === color || seat.color === 'both') && snap.clocks.running === color && left < 10000) {
          warnedLow = true;
          sound('low');
        }
        box.querySelector('.time').textContent = fmtClock(left, snap.options.time.kind);
        box.classList.toggle('running', snap.clocks.running === color && live());
        box.classList.toggle('low', left < 20000);
      }
    }
  }

  function playerName(color) {
    if (snap.ai === color) return t('engine_level', { n: snap.options.level });
    if (snap.mode === 'hotseat') return '';
    const p = snap.players?.[color === 'white' ? 0 : 1];
    if (p) {
      const r = p.rating;
      const name = seat && seat.color === color ? `${p.name} (${t('you')})` : p.name;
      return r ? `${name} · ${t('rating_change', { rating: r.after, change: (r.change >= 0 ? '+' : '') + r.change })}` : name;
    }
    if (seat && seat.color === color) return t('you');
    const taken = snap.seats[color === 'white' ? 0 : 1];
    if (!taken) return t('waiting_player');
    return seat ? t('opponent') : t('player');
  }

  function playerBox(color, strip = false) {
    return el(
      'div',
      { class: 'clock' + (strip ? '' : ' side'), 'data-color': color },
      el('span', { class: 'player-line' }, el('span', { class: 'dot ' + color, 'aria-hidden': 'true' }), [side(color), playerName(color)].filter(Boolean).join(' · ')),
      snap.clocks ? el('span', { class: 'time', role: strip ? null : 'timer', 'aria-hidden': strip ? 'true' : null, 'aria-label': t('clock_of', { side: side(color) }) }) : null,
    );
  }

  function statusText() {
    if (snap.state === 'waiting') return t('waiting_opponent');
    if (snap.state === 'finished') return snap.result ? resultText(snap.result) : t('finished');
    if (myTurn()) return seat.color === 'both' ? t('to_move', { side: side(snap.side_to_move) }) : t('your_move');
    return t('to_move', { side: side(snap.side_to_move) });
  }

  function btn(text, onclick, attrs = {}) {
    return el('button', { class: 'btn', type: 'button', onclick, ...attrs }, text);
  }

  function actions() {
    const out = [];
    const pdn = el('a', { class: 'btn', href: `/api/games/${id}/pdn`, download: `dama-${id}.pdn`, id: 'pdn' }, t('download_pdn'));
    const flip = btn(t('flip'), () => {
      flipped = !board.flipped;
      board.setFlipped(flipped);
      render();
    }, { id: 'flip' });
    if (seat && live()) {
      const plies = snap.moves.length;
      if (vsAi()) {
        out.push(btn(t('undo'), () => send({ type: 'takeback' }), { id: 'undo', disabled: plies < 2 }));
        out.push(btn(t('hint'), getHint, { id: 'hint', disabled: !myTurn() }));
        out.push(btn(t('offer_draw'), () => send({ type: 'offer_draw' }) && toast(t('draw_offered')), { id: 'offer-draw' }));
      } else if (seat.color !== 'both') {
        out.push(btn(t('offer_draw'), () => send({ type: 'offer_draw' }) && toast(t('draw_offered')), { id: 'offer-draw', disabled: !!snap.draw_offer }));
        out.push(btn(t('takeback'), () => send({ type: 'takeback' }) && toast(t('takeback_asked')), { id: 'takeback', disabled: plies === 0 }));
      } else {
        out.push(btn(t('takeback'), () => send({ type: 'takeback' }), { id: 'takeback', disabled: plies === 0 }));
        out.push(btn(t('draw_agreed'), () => send({ type: 'offer_draw' }), { id: 'offer-draw' }));
      }
      if (premove) out.push(btn(t('premove_cancel'), () => { premove = null; render(); }, { id: 'cancel-premove' }));
      if (plies < 2) out.push(btn(t('abort'), () => send({ type: 'abort' }), { id: 'abort' }));
      const r = btn(resignArmed ? t('confirm_resign') : t('resign'), () => {
        if (resignArmed) {
          resignArmed = false;
          send({ type: 'resign' });
        } else {
          resignArmed = true;
          setTimeout(() => {
            resignArmed = false;
            render();
          }, 4000);
        }
        render();
      }, { id: 'resign', class: 'btn danger' });
      out.push(r);
    }
    if (seat && snap.state === 'waiting') out.push(btn(t('abort'), () => send({ type: 'abort' }), { id: 'abort' }));
    if (seat && snap.state === 'finished') out.push(btn(t('rematch'), () => send({ type: 'rematch' }) && toast(t('rematch_asked')), { id: 'rematch' }));
    if (snap.state === 'finished') out.push(el('a', { class: 'btn', href: `/replay?game=${id}`, 'data-link': true, id: 'replay' }, t('replay')));
    if (snap.state === 'finished') out.push(el('a', { class: 'btn', href: `/analysis?game=${id}`, 'data-link': true, id: 'analyse' }, t('an_analyse')));
    if (snap.next_game) out.push(el('a', { class: 'btn primary', href: `/game/${snap.next_game}`, 'data-link': true, id: 'next-game' }, t('next_game')));
    out.push(flip, pdn);
    return el('div', { class: 'row' }, out);
  }

  function offers() {
    const out = [];
    const mine = (c) => seat && (seat.color === c || seat.color === 'both');
    if (live() && snap.draw_offer && seat && !mine(snap.draw_offer)) {
      out.push(el('div', { class: 'offer', role: 'alert' }, t('draw_offer_from', { side: side(snap.draw_offer) }), ' ',
        btn(t('accept'), () => send({ type: 'accept_draw' }), { id: 'accept-draw' }), ' ',
        btn(t('decline'), () => send({ type: 'decline_draw' }), { id: 'decline-draw' })));
    } else if (live() && snap.draw_offer) out.push(el('div', { class: 'offer' }, t('draw_offer_from', { side: side(snap.draw_offer) })));
    if (live() && takebackOffer && seat && !mine(takebackOffer)) {
      out.push(el('div', { class: 'offer', role: 'alert' }, t('takeback_from', { side: side(takebackOffer) }), ' ',
        btn(t('accept'), () => send({ type: 'accept_takeback' })), ' ', btn(t('decline'), () => send({ type: 'decline_takeback' }))));
    }
    if (snap.state === 'finished' && rematchOffer && seat && !mine(rematchOffer)) {
      out.push(el('div', { class: 'offer', role: 'alert' }, t('rematch_from', { side: side(rematchOffer) })));
    }
    return out;
  }

  function share() {
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
    if (seat && seat.invite && snap.state === 'waiting' && snap.mode === 'friend') box.push(line(t('invite_link'), `/game/${id}/join#${seat.invite}`, 'invite-url'));
    if (snap.mode !== 'hotseat') box.push(line(t('watch_link'), `/game/${id}`, 'watch-url'));
    return box;
  }

  function moveList() {
    const list = el('div', { class: 'moves', role: 'list', 'aria-label': t('moves'), id: 'moves' });
    const first = variants.get(snap.variant).first;
    const startSide = /^([WB])/i.exec(snap.start_fen)?.[1].toUpperCase() === 'W' ? 'white' : 'black';
    let i = 0;
    let n = 1;
    const shown = viewPly === null ? snap.moves.length : viewPly;
    const item = (k) => {
      // A move the report judged: its glyph, and the better move on hover.
      const j = report?.plies?.[k];
      const cls = [k + 1 === shown ? 'cur' : '', j?.judgment ? `j-${j.judgment}` : ''].filter(Boolean).join(' ');
      return el('button', { type: 'button', role: 'listitem', 'data-ply': k + 1, class: cls, title: j?.best ? t('rp_better', { move: j.best }) : undefined, onclick: () => view(k + 1) },
        snap.moves[k].notation + (j?.judgment ? ` ${GLYPHS[j.judgment]}` : ''));
    };
    if (startSide !== first && snap.moves.length) {
      list.append(el('span', { class: 'n' }, '1.'), el('span', {}, '…'));
      list.append(item(0));
      i = 1;
      n = 2;
    }
    for (; i < snap.moves.length; i += 2, n++) {
      list.append(el('span', { class: 'n' }, `${n}.`), item(i));
      if (snap.moves[i + 1]) list.append(item(i + 1));
    }
    return list;
  }

  /** The game report's section (finished games only), kept across redraws. */
  function reportPart() {
    if (snap.state !== 'finished') return null;
    if (!reportBox) {
      reportBox = reportSection(id, {
        onJump: (ply) => view(ply),
        onReport: (r) => {
          report = r;
          render();
        },
      });
    }
    reportBox.at(viewPly ?? snap.moves.length);
    return reportBox.el;
  }

  /** While browsing: which move is shown, the steps, and the way back to the game. */
  function browseBar() {
    if (viewPly === null) return null;
    return el('div', { class: 'browse', id: 'browse', role: 'status' },
      el('span', {}, t('viewing_move', { n: viewPly, of: snap.moves.length })),
      el('button', { class: 'btn', type: 'button', onclick: () => view(viewPly - 1), 'aria-label': t('prev'), disabled: viewPly === 0 }, '◀'),
      el('button', { class: 'btn', type: 'button', onclick: () => view(viewPly + 1), 'aria-label': t('next') }, '▶'),
      el('button', { class: 'btn primary', type: 'button', id: 'back-to-live', onclick: () => view(null) }, t('back_to_game')));
  }

  function shortcuts() {
    return el('details', { class: 'muted', id: 'shortcuts' }, el('summary', {}, t('shortcuts')),
      el('ul', {}, ...['keys_browse', 'keys_ends', 'keys_board'].map((k) => el('li', {}, t(k)))));
  }

  function moveInput() {
    if (!myTurn()) return null;
    return el('form', { class: 'row', onsubmit: (e) => {
      e.preventDefault();
      const text = e.target.move.value.trim();
      const mv = snap.legal.find((m) => m.notation === text || m.long === text);
      if (!mv) return toast(t('not_legal', { move: text }), true);
      onMove(mv);
    } },
    el('label', { for: 'move-input' }, t('type_move')),
    el('input', { id: 'move-input', name: 'move', autocomplete: 'off', size: 10, placeholder: snap.legal[0]?.notation || '' }),
    el('button', { class: 'btn', type: 'submit' }, t('play')));
  }

  async function getHint() {
    try {
      const r = await api('GET', `/api/games/${id}/hint`, undefined, seat.token);
      hintMove = snap.legal.find((m) => m.long === r.move || m.notation === r.move) || null;
      const shown = hintMove ? hintMove.notation : r.move;
      const end = r.end ? ' · ' + t(r.end.result === 'win' ? 'hint_win' : 'hint_loss', { n: r.end.moves }) : '';
      toast(t('hint_is', { move: shown }) + end);
      drawBoard();
    } catch (e) {
      toast(e.message, true);
    }
  }

  function showResult() {
    if (!shownResult) sound('end');
    shownResult = true;
    const r = snap.result;
    let title = t('draw');
    if (r.winner) title = seat && seat.color !== 'both' ? (r.winner === seat.color ? t('you_won') : t('you_lost')) : t('wins', { side: side(r.winner) });
    dialog.replaceChildren(
      el('h2', { id: 'result-title' }, title),
      el('p', { id: 'result-text' }, resultText(r)),
      el('p', { class: 'muted' }, r.token),
      el('div', { class: 'row' },
        snap.next_game ? el('a', { class: 'btn primary', href: `/game/${snap.next_game}`, 'data-link': true, id: 'result-next-game', onclick: () => dialog.close() }, t('next_game')) : null,
        seat && !snap.next_game ? btn(t('rematch'), () => send({ type: 'rematch' }) && toast(t('rematch_asked'))) : null,
        el('a', { class: 'btn', href: `/replay?game=${id}`, 'data-link': true, onclick: () => dialog.close() }, t('replay')),
        el('a', { class: 'btn', href: `/analysis?game=${id}`, 'data-link': true, onclick: () => dialog.close() }, t('an_analyse')),
        el('a', { class: 'btn', href: `/api/games/${id}/pdn`, download: `dama-${id}.pdn` }, t('download_pdn')),
        el('a', { class: 'btn', href: '/', 'data-link': true, onclick: () => dialog.close() }, t('new_game')),
        btn(t('close'), () => dialog.close(), { id: 'close-result' })),
    );
    if (!dialog.open) dialog.showModal();
    const next = dialog.querySelector('#result-next-game');
    if (next) next.focus();
  }

  function render() {
    if (!snap) return;
    const info = variants.get(snap.variant);
    setSideNames(snap.options.rules, snap.variant);
    if (!board) {
      main.replaceChildren(el('div', { class: 'game' }, wrap, panel), dialog);
      board = new Board(boardHost, info, { onMove, onSelect, onNote: (x) => toast(x) });
      if (flipped === null) flipped = me() === 'black';
      if (flipped) board.setFlipped(true);
    }
    // Seed 001's pieces are red (moving first) and black.
    main.querySelector('.game')?.classList.toggle('sides-rb', sidesRedBlack());
    const top = board.flipped ? 'white' : 'black';
    stripTop.replaceChildren(playerBox(top, true));
    stripBottom.replaceChildren(playerBox(other(top), true));
    const series = snap.options.series_state;
    const parts = [
      el('h1', {}, variantName(snap.variant), el('span', { class: 'muted' }, ' · ' + t('mode_' + snap.mode))),
      series ? el('div', { class: 'muted' }, t('series_state', { n: series.game, of: snap.options.series, w: series.score[0], b: series.score[1], sides: sidesNow() })) : null,
      playerBox(top),
      el('div', { class: 'status', role: 'status', 'aria-live': 'polite', id: 'status' }, statusText()),
      el('div', { class: 'muted', id: 'first-move' }),
      ...offers(),
      playerBox(other(top)),
      ...(seat ? [] : [el('p', { class: 'muted' }, canSuggest() ? t('spectator_suggest') : t('spectating'))]),
      actions(),
      moveInput(),
      browseBar(),
      moveList(),
      reportPart(),
      chatPanel(),
      shortcuts(),
      ...share(),
    ];
    panel.replaceChildren(...parts.filter(Boolean));
    const ml = panel.querySelector('#moves');
    const cur = ml.querySelector('.cur');
    if (viewPly === null || !cur) ml.scrollTop = ml.scrollHeight;
    else cur.scrollIntoView({ block: 'nearest' });
    document.title = `${variantName(snap.variant)} — dama`;
    drawBoard();
    tick();
  }

  connect();
  // Keys: left and right step through the moves, Home the start, End (or Escape) back
  // to the game; not while typing or moving on the board.
  const onKey = (e) => {
    if (!snap || e.target.closest('textarea, input, select, .board, dialog')) return;
    const at = viewPly === null ? snap.moves.length : viewPly;
    const to = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: null, Escape: null }[e.key];
    if (to === undefined || (e.key === 'Escape' && viewPly === null)) return;
    e.preventDefault();
    view(to);
  };
  window.addEventListener('keydown', onKey);
  const clockTimer = setInterval(tick, 200);
  pingTimer = setInterval(() => ws && ws.readyState === WebSocket.OPEN && ws.send('{"type":"ping"}'), 25000);
  return {
    render: () => {
      render();
      if (dialog.open && snap?.result) {
        dialog.close();
        showResult();
      }
    },
    destroy() {
      closed = true;
      window.removeEventListener('keydown', onKey);
      clearInterval(clockTimer);
      clearInterval(pingTimer);
      clearTimeout(retryTimer);
      reportBox?.destroy();
      if (ws) ws.close();
      if (dialog.open) dialog.close();
    },
  };
}
