// The board: draws any variant's board from the server's square list, and turns clicks,
// drags and keys into legal moves. It never decides legality itself: it offers only the
// moves the server listed, and lets the player click through a capture's landing squares.
import { t, pieceName } from './i18n.js';

const NS = 'http://www.w3.org/2000/svg';

/** SVG of a piece: a man is one disc, a king two stacked discs. */
export function pieceSvg(color, king) {
  const c = color === 'white' ? 'p-white' : 'p-black';
  const disc = (y) =>
    `<ellipse cx="50" cy="${y + 8}" rx="42" ry="14" class="${c}" stroke-width="3"/>` +
    `<rect x="8" y="${y - 6}" width="84" height="14" class="${c}" stroke-width="0"/>` +
    `<ellipse cx="50" cy="${y - 6}" rx="42" ry="14" class="${c}" stroke-width="3"/>` +
    `<ellipse cx="50" cy="${y - 6}" rx="28" ry="8" fill="none" class="${c}" stroke-width="2" opacity=".7"/>`;
  const body = king ? disc(70) + disc(46) : disc(58);
  return `<svg class="piece" viewBox="0 0 100 100" aria-hidden="true">${body}</svg>`;
}

/**
 * A board on `root`. `info` is a variant from /api/variants. Callbacks: `onMove(move)`
 * when a whole legal move is chosen, `onSelect(square)` when a piece is first selected,
 * `onNote(text)` for messages to the player, `onRefused(squares)` when the selected
 * piece is taken to a square no legal move reaches (the squares of the attempt). With
 * `onAttempt(squares)` instead (the Learn pages), a piece that cannot move may be
 * picked too, and the attempt is handed over the same way, the selection cleared.
 */
export class Board {
  constructor(root, info, { onMove, onSelect, onNote, onRefused, onAttempt } = {}) {
    this.root = root;
    this.info = info;
    this.onMove = onMove || (() => {});
    this.onSelect = onSelect || (() => {});
    this.onNote = onNote || (() => {});
    this.onRefused = onRefused || (() => {});
    this.onAttempt = onAttempt || null;
    this.pieces = [];
    this.legal = [];
    this.last = null;
    this.flipped = false;
    this.interactive = false;
    this.locked = false; // touch-move: the selected piece may not change
    this.sel = [];
    this.tried = null;
    this.arrows = [];
    this.hintMove = null;
    this.capturedShown = [];
    this.pos = new Map(info.squares.map(([n, r, c]) => [n, [r, c]]));
    this.el = document.createElement('div');
    // The variant's class: a piece set may colour its sides by which moves first.
    this.el.className = `board v-${info.key}` + (info.full ? ' full' : '');
    this.el.setAttribute('role', 'group');
    this.el.style.gridTemplateColumns = `repeat(${info.cols}, 1fr)`;
    this.el.style.gridTemplateRows = `repeat(${info.rows}, 1fr)`;
    root.replaceChildren(this.el);
    this.el.addEventListener('pointerdown', (e) => this.pointerDown(e));
    this.el.addEventListener('click', (e) => {
      // Keyboard activation (Enter, Space) arrives as a click with detail 0; the
      // pointer is handled by pointerdown/up.
      const sq = e.target.closest('[data-sq]');
      if (sq && e.detail === 0) this.tap(sq.dataset.sq);
    });
    this.el.addEventListener('keydown', (e) => this.key(e));
    this.build();
  }

  /** Sets what the board shows and redraws. */
  set(state) {
    Object.assign(this, state);
    if (state.legal || state.interactive === false) {
      if (!state.keepSelection) this.sel = [];
    }
    this.draw();
  }

  setFlipped(f) {
    this.flipped = f;
    this.build();
    this.draw();
  }

  /** Screen cell (row, col) of a square. */
  cell(name) {
    const [r, c] = this.pos.get(name);
    return this.flipped ? [this.info.rows - 1 - r, this.info.cols - 1 - c] : [r, c];
  }

  build() {
    const { rows, cols } = this.info;
    this.cells = new Map();
    const grid = [];
    for (let r = 0; r < rows; r++) grid.push(new Array(cols).fill(null));
    for (const [name] of this.info.squares) {
      const [r, c] = this.cell(name);
      grid[r][c] = name;
    }
    this.grid = grid;
    const frag = document.createDocumentFragment();
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        const name = grid[r][c];
        let d;
        if (name) {
          d = document.createElement('button');
          d.type = 'button';
          d.className = 'sq play';
          d.dataset.sq = name;
          d.tabIndex = -1;
          this.cells.set(name, d);
        } else {
          d = document.createElement('div');
          d.className = 'sq';
          // File letters run along the bottom row, light squares included.
          const named = grid.map((row) => row[c]).find((x) => x);
          if (this.info.algebraic && r === rows - 1 && named) d.innerHTML = `<span class="coord file">${named.replace(/\d+$/, '')}</span>`;
        }
        d.style.gridRow = r + 1;
        d.style.gridColumn = c + 1;
        frag.append(d);
      }
    }
    this.arrowSvg = document.createElementNS(NS, 'svg');
    this.arrowSvg.setAttribute('class', 'arrows');
    this.arrowSvg.setAttribute('viewBox', `0 0 ${cols} ${rows}`);
    this.arrowSvg.setAttribute('aria-hidden', 'true');
    frag.append(this.arrowSvg);
    this.el.replaceChildren(frag);
    this.focusSq = this.focusSq && this.cells.has(this.focusSq) ? this.focusSq : this.info.squares[0][0];
  }

  coordLabels(name) {
    const [r, c] = this.cell(name);
    const { rows } = this.info;
    if (!this.info.algebraic) return [`<span class="coord">${name}</span>`];
    const out = [];
    // Ranks on the left-most playable square of a row, files on the bottom row (on
    // its light squares too, never over a piece of the row above).
    const row = this.grid[r];
    if (row.findIndex((x) => x) === c) out.push(`<span class="coord">${name.replace(/^[a-z]+/, '')}</span>`);
    if (r === rows - 1) out.push(`<span class="coord file">${name.replace(/\d+$/, '')}</span>`);
    return out;
  }

  /** Moves whose route starts with the current selection. */
  candidates() {
    return this.legal.filter((m) => this.sel.every((s, i) => m.path[i] === s));
  }

  /** The pieces as they stand during a selection: the mover on its latest landing,
   *  the pieces it has jumped still on the board, marked. */
  shown() {
    const at = new Map(this.pieces.map((p) => [p.square, p]));
    let captured = this.capturedShown;
    if (this.sel.length > 1) {
      const mover = at.get(this.sel[0]);
      const c = this.candidates()[0];
      at.delete(this.sel[0]);
      if (mover) at.set(this.sel[this.sel.length - 1], { ...mover, square: this.sel[this.sel.length - 1] });
      captured = c ? c.captured.slice(0, this.sel.length - 1) : [];
    }
    return { at, captured: new Set(captured) };
  }

  draw() {
    const { at, captured } = this.shown();
    const cands = this.sel.length ? this.candidates() : [];
    const next = new Set(cands.map((m) => m.path[this.sel.length]).filter(Boolean));
    const finals = new Set(cands.filter((m) => m.path.length > this.sel.length).map((m) => m.path[m.path.length - 1]));
    const lastSq = new Set(this.last ? [this.last.path[0], this.last.path[this.last.path.length - 1]] : []);
    // The last move's route (its landing squares on the way) and the pieces it took.
    const route = new Set(this.last ? this.last.path.slice(1, -1) : []);
    const taken = new Set(this.last ? this.last.captured || [] : []);
    const hint = new Set(this.hintMove ? [this.hintMove.path[0], this.hintMove.path[this.hintMove.path.length - 1]] : []);
    // A compulsory capture: the pieces that can take are marked until one is chosen.
    const must = new Set(
      this.interactive && !this.sel.length && this.legal.length && this.legal[0].captured.length
        ? this.legal.map((m) => m.path[0])
        : [],
    );
    for (const [name, d] of this.cells) {
      const p = at.get(name);
      const cls = ['sq', 'play'];
      if (lastSq.has(name)) cls.push('last');
      if (route.has(name)) cls.push('route');
      if (this.premove && (name === this.premove.from || name === this.premove.to)) cls.push('pre');
      if (taken.has(name) && !p) cls.push('taken');
      if (this.sel.length && name === this.sel[this.sel.length - 1]) cls.push('sel');
      if (next.has(name) || finals.has(name)) cls.push('target');
      if (p) cls.push('hasp');
      if (captured.has(name)) cls.push('captured');
      if (hint.has(name)) cls.push('hint');
      if (must.has(name)) cls.push('must');
      d.className = cls.join(' ');
      d.innerHTML = this.coordLabels(name).join('') + (p ? pieceSvg(p.color, p.king) : '');
      let label = name + ', ';
      label += p ? pieceName(p.color, p.king) : t('empty');
      if (captured.has(name)) label += ', ' + t('captured');
      if (taken.has(name) && !p) label += ', ' + t('taken_last');
      if (must.has(name)) label += ', ' + t('must_take');
      if (next.has(name) || finals.has(name)) label += ', ' + t('target');
      if (this.sel[0] === name) label += ', ' + t('selected');
      d.setAttribute('aria-label', label);
      d.tabIndex = name === this.focusSq ? 0 : -1;
    }
    this.el.classList.toggle('interactive', this.interactive);
    this.drawArrows();
  }

  drawArrows() {
    const parts = [];
    for (const { move, count } of this.arrows) {
      if (!this.pos.has(move.path[0])) continue;
      const pts = move.path.map((s) => {
        const [r, c] = this.cell(s);
        return [c + 0.5, r + 0.5];
      });
      for (let i = 0; i + 1 < pts.length; i++) {
        parts.push(`<line x1="${pts[i][0]}" y1="${pts[i][1]}" x2="${pts[i + 1][0]}" y2="${pts[i + 1][1]}" stroke-width="0.14"/>`);
      }
      const [x, y] = pts[pts.length - 1];
      // Suggestions carry how many suggested them; a single arrow (a better move) none.
      if (count == null) {
        parts.push(`<circle cx="${x}" cy="${y}" r="0.14"/>`);
        continue;
      }
      parts.push(`<circle cx="${x + 0.28}" cy="${y - 0.28}" r="0.22"/>`);
      parts.push(`<text x="${x + 0.28}" y="${y - 0.2}" font-size="0.26" text-anchor="middle">${count}</text>`);
    }
    this.arrowSvg.innerHTML = parts.join('');
  }

  /** A square was tapped (click, the end of a drag, or the keyboard). */
  tap(sq) {
    this.focusSq = sq;
    if (!this.interactive) return;
    const starts = this.legal.filter((m) => m.path[0] === sq);
    // A piece of the player's that has no legal move, tapped just before.
    const tried = this.tried;
    this.tried = null;
    if (this.sel.length === 0) {
      if (starts.length) return this.select(sq);
      const p = this.pieces.find((x) => x.square === sq);
      // Learning: any piece of the side to move may be picked, to try a move.
      if (this.onAttempt && p && p.color === this.side) return this.select(sq);
      const mine = p && this.legal.length && this.pieces.find((x) => x.square === this.legal[0].path[0])?.color === p.color;
      if (p && this.legal.length && this.legal[0].captured.length) {
        this.onNote(t('err_illegal_capture_compulsory', { example: this.legal[0].notation }));
      }
      else if (mine) {
        this.onNote(t('cannot_move'));
      }
      // Taken on to an empty square next, it asks why that move is refused (the
      // majority rule, a man's direction...).
      if (mine) this.tried = sq;
      else if (tried && !p && this.info.squares.some(([n]) => n === sq)) this.onRefused([tried, sq]);
      return;
    }
    if (sq === this.sel[this.sel.length - 1]) {
      if (this.sel.length === 1 && !this.locked) this.sel = [];
      else if (this.sel.length > 1) this.sel.pop();
      return this.draw();
    }
    const cands = this.candidates();
    const k = this.sel.length;
    const finals = cands.filter((m) => m.path.length > k && m.path[m.path.length - 1] === sq);
    const through = cands.filter((m) => m.path[k] === sq);
    const sameRoute = (a, b) => a.path.join() === b.path.join();
    if (finals.length && finals.every((m) => sameRoute(m, finals[0]))) return this.play(finals[0]);
    if (through.length) {
      this.sel.push(sq);
      const done = this.candidates().filter((m) => m.path.length === this.sel.length);
      if (done.length && this.candidates().every((m) => sameRoute(m, done[0]))) return this.play(done[0]);
      return this.draw();
    }
    if (finals.length) {
      this.onNote(t('click_through'));
      return;
    }
    if (starts.length && this.sel.length === 1 && !this.locked) return this.select(sq);
    // Touch-move: another of the player's pieces was clicked; say why nothing happens.
    if (this.locked && starts.length) {
      this.onNote(t('touch_move_locked', { sq: this.sel[0] }));
      return;
    }
    // Learning: a move no legal move fits goes to the server, which says why.
    if (this.onAttempt && !this.pieces.some((x) => x.square === sq && x.color === this.side)) {
      const tried = [...this.sel, sq];
      this.sel = [];
      this.draw();
      return this.onAttempt(tried);
    }
    if (this.onAttempt && this.sel.length === 1) return this.select(sq);
    // An empty playing square no legal move reaches: ask why (the page shows the
    // rule the attempt breaks, as the server words it).
    if (!this.pieces.some((x) => x.square === sq) && this.info.squares.some(([n]) => n === sq)) {
      this.onRefused([...this.sel, sq]);
    }
    if (!this.locked && this.sel.length === 1) {
      this.sel = [];
      this.draw();
    }
  }

  select(sq) {
    this.sel = [sq];
    this.onSelect(sq);
    this.draw();
  }

  play(move) {
    this.sel = [];
    this.capturedShown = [];
    this.onMove(move);
  }

  pointerDown(e) {
    const d = e.target.closest('[data-sq]');
    if (!d || e.button > 0) return;
    const sq = d.dataset.sq;
    this.focusSq = sq;
    const canDrag = this.interactive && this.sel.length <= 1 && this.legal.some((m) => m.path[0] === sq);
    if (!canDrag) {
      this.tap(sq);
      return;
    }
    e.preventDefault();
    const wasSelected = this.sel.length === 1 && this.sel[0] === sq;
    if (!wasSelected) this.tap(sq);
    const svg = d.querySelector('svg.piece');
    let ghost = null;
    const x0 = e.clientX;
    const y0 = e.clientY;
    const move = (ev) => {
      if (!ghost && Math.hypot(ev.clientX - x0, ev.clientY - y0) > 6 && svg) {
        const r = d.getBoundingClientRect();
        ghost = document.createElement('div');
        ghost.className = 'ghost';
        ghost.style.width = r.width + 'px';
        ghost.style.height = r.height + 'px';
        ghost.innerHTML = svg.outerHTML;
        ghost.firstChild.style.inset = '0';
        document.body.append(ghost);
        d.querySelector('svg.piece')?.setAttribute('opacity', '0.35');
      }
      if (ghost) {
        ghost.style.left = ev.clientX - ghost.offsetWidth / 2 + 'px';
        ghost.style.top = ev.clientY - ghost.offsetHeight / 2 + 'px';
      }
    };
    const up = (ev) => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
      window.removeEventListener('pointercancel', up);
      if (ghost) ghost.remove();
      const target = document.elementFromPoint(ev.clientX, ev.clientY)?.closest('[data-sq]');
      if (target && target.dataset.sq !== sq && this.el.contains(target)) this.tap(target.dataset.sq);
      else if (wasSelected && !ghost && !this.locked) {
        this.sel = [];
        this.draw();
      } else this.draw();
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
    window.addEventListener('pointercancel', up);
  }

  key(e) {
    const d = e.target.closest('[data-sq]');
    if (!d) return;
    const dirs = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (e.key === 'Escape') {
      if (!this.locked) this.sel = [];
      this.draw();
      return;
    }
    const dir = dirs[e.key];
    if (!dir) return;
    e.preventDefault();
    let [r, c] = this.cell(d.dataset.sq);
    const { rows, cols } = this.info;
    for (let step = 0; step < Math.max(rows, cols); step++) {
      r += dir[0];
      c += dir[1];
      if (r < 0 || c < 0 || r >= rows || c >= cols) return;
      // On a dark-squares board, step to the nearest playable square of that row/column.
      const name = this.grid[r][c] || this.grid[r][c + 1] || this.grid[r][c - 1];
      if (name && dir[0] !== 0) return this.focus(name);
      if (this.grid[r][c]) return this.focus(this.grid[r][c]);
    }
  }

  focus(name) {
    this.focusSq = name;
    for (const [n, d] of this.cells) d.tabIndex = n === name ? 0 : -1;
    this.cells.get(name).focus();
  }
}
