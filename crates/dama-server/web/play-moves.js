// The game's board and moves: playing on the board (clicks, drags, keys, a typed move),
// touch-move, premoves while the opponent thinks, the opponent's moves animated, the
// spectators' suggestions and the engine's hint drawn, and browsing the moves played
// (the list, the arrow keys, the game report's marks).
import { applyMove, el, piecesOfFen, toast, variants } from './app.js';
import { Board } from './board.js';
import { t, side } from './i18n.js';
import { reportSection } from './report.js';

const GLYPHS = { inaccuracy: '?!', mistake: '?', blunder: '??' };

/** The board and moves of the page `p` (its game `p.g`, `p.send`, `p.render`). */
export function movesPart(p) {
  const { g, id } = p;
  let board = null;
  let flipped = null;
  // Browsing the moves during the game: the ply shown, or null for the live position.
  let viewPly = null;
  // A move chosen while the opponent thinks, played as soon as it is legal: {from, to}.
  let premove = null;
  let hintMove = null;
  let animating = false;
  let animation = 0; // the number of the last animation started
  let drawn = null; // the position last drawn: a selection survives redraws of it
  let reportBox = null; // the game report's section, once the game is over
  let report = null; // the report, once made

  /** The board, made on `host` the first time. */
  function boardOn(host) {
    if (board) return board;
    board = new Board(host, variants.get(g.snap.variant), { onMove, onSelect, onNote: (x) => toast(x), onRefused });
    if (flipped === null) flipped = g.seat?.color === 'black';
    if (flipped) board.setFlipped(true);
    return board;
  }

  /** What a premove may be: each of the player's pieces to any square on its lines. */
  function premoveCandidates() {
    const info = variants.get(g.snap.variant);
    const at = new Map(info.squares.map(([n, r, c]) => [`${r},${c}`, n]));
    const dirs = [[1, 1], [1, -1], [-1, 1], [-1, -1]].concat(info.full ? [[1, 0], [-1, 0], [0, 1], [0, -1]] : []);
    const out = [];
    for (const pc of g.snap.pieces.filter((x) => x.color === g.seat.color)) {
      const [, r0, c0] = info.squares.find(([n]) => n === pc.square);
      for (const [dr, dc] of dirs) {
        for (let k = 1; at.has(`${r0 + dr * k},${c0 + dc * k}`); k++) {
          const to = at.get(`${r0 + dr * k},${c0 + dc * k}`);
          out.push({ path: [pc.square, to], captured: [], promote: false, long: `${pc.square}-${to}`, notation: `${pc.square}-${to}` });
        }
      }
    }
    return out;
  }

  /** On the player's turn, once the legal moves are known: plays the premove if
   *  exactly one legal move fits it (true), or drops it. */
  function playPremove() {
    if (!premove || !g.myTurn() || !g.snap.legal.length) return false;
    const { from, to } = premove;
    premove = null;
    const fits = g.snap.legal.filter((m) => m.path[0] === from && m.path[m.path.length - 1] === to);
    if (fits.length !== 1) {
      toast(t('premove_dropped'));
      return false;
    }
    stopAnimation();
    p.render();
    onMove(fits[0]);
    return true;
  }

  /** Shows `mv` played from the pieces `from`, one landing at a time, then the game. */
  async function animate(mv, from) {
    if (!board || viewPly !== null) return;
    const mine = ++animation;
    animating = true;
    const mover = from.find((x) => x.square === mv.path[0]);
    for (let k = 1; k < mv.path.length && mover; k++) {
      const frame = from.filter((x) => x.square !== mv.path[0]).concat([{ ...mover, square: mv.path[k] }]);
      board.set({ pieces: frame, capturedShown: mv.captured.slice(0, k), last: mv, legal: [], interactive: false, arrows: [] });
      await new Promise((r) => setTimeout(r, mv.path.length > 2 ? 260 : 120));
      if (animation !== mine) return;
    }
    stopAnimation();
    p.render();
  }

  function stopAnimation() {
    animation++;
    animating = false;
    if (board) board.capturedShown = [];
  }

  /** The report's judgment of ply `ply` (from 1), when it names a better move. */
  function judgedAt(ply) {
    const j = ply ? report?.plies?.[ply - 1] : null;
    return j?.judgment && j.best_path ? j : null;
  }

  /** Under the move list, for a judged move being viewed: the move played, the better
   *  one and the engine's line from it (the words a phone shows, with no hover). */
  function betterPart() {
    const j = viewPly === null ? null : judgedAt(viewPly);
    if (!j) return null;
    return el('p', { class: 'better card', id: 'report-better', 'aria-live': 'polite' },
      t('rp_instead', { played: `${j.notation} ${GLYPHS[j.judgment]}`, best: j.best }), ' ',
      j.line?.length ? el('span', { class: 'line' }, t('rp_line', { line: j.line.join(' ') })) : null);
  }

  /** The pieces after `ply` moves of this game. */
  function piecesAt(ply) {
    let pieces = piecesOfFen(g.snap.start_fen);
    for (const mv of g.snap.moves.slice(0, ply)) pieces = applyMove(pieces, mv);
    return pieces;
  }

  /** Shows the position after `ply` moves (null, or the last ply: the live game). */
  function view(ply) {
    if (!g.snap) return;
    viewPly = ply === null || ply >= g.snap.moves.length ? null : Math.max(0, ply);
    p.render();
  }

  function draw() {
    const s = g.snap;
    if (!board || !s || animating) return;
    const last = s.moves[s.moves.length - 1] || null;
    if (viewPly !== null) {
      // A move the report judged shows the position it was played in, with the better
      // move as an arrow (its line is said under the move list).
      const better = judgedAt(viewPly);
      if (better) {
        board.set({ pieces: piecesAt(viewPly - 1), legal: [], last: null, interactive: false, arrows: [{ move: { path: better.best_path }, count: null }], hintMove: null });
      } else {
        board.set({ pieces: piecesAt(viewPly), legal: [], last: viewPly ? s.moves[viewPly - 1] : null, interactive: false, arrows: [], hintMove: null });
      }
      board.el.setAttribute('aria-label', t('viewing_move', { n: viewPly, of: s.moves.length }));
      return;
    }
    // Screen readers hear whose move it is, whichever way the board is drawn below.
    board.el.setAttribute('aria-label', t('board_label', { side: side(s.side_to_move) }));
    if (g.canPremove()) {
      board.set({ pieces: s.pieces, legal: premove ? [] : premoveCandidates(), last, interactive: !premove, arrows: [], hintMove: null, premove });
      return;
    }
    // Interactive once the legal moves are known (they follow the move that made them).
    const interactive = !g.sent && s.legal.length > 0 && (g.myTurn() || g.canSuggest());
    let arrows = [];
    const sg = g.suggestions;
    if (g.myTurn() && sg && sg.ply === s.moves.length + 1) {
      arrows = sg.moves
        .map(([text, count]) => ({ move: s.legal.find((m) => m.notation === text || m.long === text), count }))
        .filter((a) => a.move);
    }
    const key = `${s.moves.length} ${s.fen} ${s.legal.length}`;
    const same = drawn === key && interactive;
    drawn = key;
    board.set({
      pieces: s.pieces,
      legal: interactive ? s.legal : [],
      last,
      interactive,
      arrows,
      hintMove,
      premove: null,
      locked: same && board.locked,
      keepSelection: same,
    });
  }

  function onMove(mv) {
    if (g.myTurn()) {
      g.sent = mv.long;
      if (p.send({ type: 'move', move: mv.long })) {
        g.snap.pieces = applyMove(g.snap.pieces, mv);
        g.snap.legal = [];
        board.set({ pieces: g.snap.pieces, legal: [], last: mv, interactive: false, arrows: [], hintMove: null });
      } else g.sent = null;
    } else if (g.canSuggest()) {
      if (p.send({ type: 'suggest', move: mv.long })) toast(t('suggestion_sent', { move: mv.notation }));
      draw();
    } else if (g.canPremove()) {
      premove = { from: mv.path[0], to: mv.path[mv.path.length - 1] };
      toast(t('premove_set', { move: mv.notation }));
      p.render();
    }
  }

  /** A move the rules refuse, tried on the board or typed: on the player's turn the
   *  server is asked, and its refusal says which rule the move breaks ("a man cannot
   *  move backwards", "you must take the most pieces: 2 here"). */
  function explain(text) {
    if (!g.myTurn()) return toast(t('not_legal', { move: text }), true);
    p.send({ type: 'move', move: text });
  }

  function onRefused(squares) {
    // Off the player's turn the board offers premoves or suggestions: nothing to ask.
    if (g.myTurn()) explain(squares.join(squares.length > 2 ? 'x' : '-'));
  }

  function onSelect(sq) {
    if (g.snap.options.touch_move && g.myTurn()) {
      p.send({ type: 'touch', square: sq });
      board.locked = true;
    }
  }

  /** The moves played, each a button that shows its position. */
  function moveList() {
    const s = g.snap;
    const list = el('div', { class: 'moves', role: 'list', 'aria-label': t('moves'), id: 'moves' });
    const first = variants.get(s.variant).first;
    const startSide = /^([WB])/i.exec(s.start_fen)?.[1].toUpperCase() === 'W' ? 'white' : 'black';
    let i = 0;
    let n = 1;
    const shown = viewPly === null ? s.moves.length : viewPly;
    const item = (k) => {
      // A move the report judged: its glyph, and the better move on hover.
      const j = report?.plies?.[k];
      const cls = [k + 1 === shown ? 'cur' : '', j?.judgment ? `j-${j.judgment}` : ''].filter(Boolean).join(' ');
      return el('button', { type: 'button', role: 'listitem', 'data-ply': k + 1, class: cls, title: j?.best ? t('rp_better', { move: j.best }) : undefined, onclick: () => view(k + 1) },
        s.moves[k].notation + (j?.judgment ? ` ${GLYPHS[j.judgment]}` : ''));
    };
    if (startSide !== first && s.moves.length) {
      list.append(el('span', { class: 'n' }, '1.'), el('span', {}, '…'));
      list.append(item(0));
      i = 1;
      n = 2;
    }
    for (; i < s.moves.length; i += 2, n++) {
      list.append(el('span', { class: 'n' }, `${n}.`), item(i));
      if (s.moves[i + 1]) list.append(item(i + 1));
    }
    return list;
  }

  /** The game report's section (finished games only), kept across redraws. */
  function reportPart() {
    if (g.snap.state !== 'finished') return null;
    if (!reportBox) {
      reportBox = reportSection(id, {
        onJump: (ply) => view(ply),
        onReport: (r) => {
          report = r;
          p.render();
        },
      });
    }
    reportBox.at(viewPly ?? g.snap.moves.length);
    return reportBox.el;
  }

  /** While browsing: which move is shown, the steps, and the way back to the game. */
  function browseBar() {
    if (viewPly === null) return null;
    return el('div', { class: 'browse', id: 'browse', role: 'status' },
      el('span', {}, t('viewing_move', { n: viewPly, of: g.snap.moves.length })),
      el('button', { class: 'btn', type: 'button', onclick: () => view(viewPly - 1), 'aria-label': t('prev'), disabled: viewPly === 0 }, '◀'),
      el('button', { class: 'btn', type: 'button', onclick: () => view(viewPly + 1), 'aria-label': t('next') }, '▶'),
      el('button', { class: 'btn primary', type: 'button', id: 'back-to-live', onclick: () => view(null) }, t('back_to_game')));
  }

  /** A move typed in the game's notation, on the player's turn. */
  function moveInput() {
    if (!g.myTurn()) return null;
    return el('form', { class: 'row', onsubmit: (e) => {
      e.preventDefault();
      const text = e.target.move.value.trim();
      const mv = g.snap.legal.find((m) => m.notation === text || m.long === text);
      if (!mv) return explain(text);
      onMove(mv);
    } },
    el('label', { for: 'move-input' }, t('type_move')),
    el('input', { id: 'move-input', name: 'move', autocomplete: 'off', size: 10, placeholder: g.snap.legal[0]?.notation || '' }),
    el('button', { class: 'btn', type: 'submit' }, t('play')));
  }

  // Keys: left and right step through the moves, Home the start, End (or Escape) back
  // to the game; not while typing or moving on the board.
  const onKey = (e) => {
    if (!g.snap || e.target.closest('textarea, input, select, .board, dialog')) return;
    const at = viewPly === null ? g.snap.moves.length : viewPly;
    const to = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: null, Escape: null }[e.key];
    if (to === undefined || (e.key === 'Escape' && viewPly === null)) return;
    e.preventDefault();
    view(to);
  };
  window.addEventListener('keydown', onKey);

  return {
    boardOn,
    get board() {
      return board;
    },
    get browsing() {
      return viewPly !== null;
    },
    get premove() {
      return premove;
    },
    /** Back to the live game when the move shown was taken back. */
    keepView() {
      if (viewPly !== null && viewPly >= g.snap.moves.length) viewPly = null;
    },
    cancelPremove() {
      premove = null;
      p.render();
    },
    flip() {
      flipped = !board.flipped;
      board.setFlipped(flipped);
      p.render();
    },
    /** The engine's hint: a legal move (or null), marked on the board. */
    hint(text) {
      hintMove = g.snap.legal.find((m) => m.long === text || m.notation === text) || null;
      draw();
      return hintMove;
    },
    clearHint() {
      hintMove = null;
    },
    draw,
    animate,
    playPremove,
    moveList,
    reportPart,
    betterPart,
    browseBar,
    moveInput,
    destroy() {
      window.removeEventListener('keydown', onKey);
      reportBox?.destroy();
    },
  };
}
