// The game report of a finished game: asks the server for it, follows its progress,
// then draws the evaluation over the game (an SVG graph; a click jumps to the move)
// and each player's accuracy and mistakes. The move list marks the moves (play.js).
import { t } from './i18n.js';
import { api, el } from './app.js';

const NS = 'http://www.w3.org/2000/svg';
const W = 600;
const H = 140;

/** White's winning chances of a White score, -1 to 1 (as the server judges moves). */
const chances = (score) => Math.tanh(score / 300);

/**
 * The report section of game `id`. `onJump(ply)` shows the position after a ply;
 * `onReport(report)` hears of the report once it is there.
 */
export function reportSection(id, { onJump, onReport }) {
  const box = el('section', { class: 'report card', id: 'report', 'aria-label': t('rp_title') });
  let timer = null;
  let report = null;
  let svg = null;

  async function poll(method = 'GET') {
    try {
      show(await api(method, `/api/games/${id}/report`));
    } catch (e) {
      box.replaceChildren(el('h2', {}, t('rp_title')), el('p', { class: 'error' }, e.message));
    }
  }

  function show(r) {
    clearTimeout(timer);
    if (r.state === 'done') {
      report = r.report;
      draw();
      onReport(report);
    } else if (r.state === 'queued' || r.state === 'running') {
      const pct = r.total ? Math.round((100 * r.done) / r.total) : 0;
      box.replaceChildren(
        el('h2', {}, t('rp_title')),
        el('p', { id: 'report-state' }, r.state === 'queued' ? t('rp_queued') : t('rp_running', { pct })),
        el('progress', { max: 100, value: pct, id: 'report-progress' }),
      );
      timer = setTimeout(() => poll(), 600);
    } else {
      box.replaceChildren(
        el('h2', {}, t('rp_title')),
        r.state === 'failed' ? el('p', { class: 'error' }, t('rp_failed')) : el('p', { class: 'muted' }, t('rp_explain')),
        el('button', { class: 'btn', type: 'button', id: 'request-report', onclick: () => poll('POST') }, t('rp_request')),
      );
    }
  }

  /** The graph: White's chances over the plies, White above the middle line. */
  function graph() {
    const n = report.scores.length;
    const x = (i) => (n > 1 ? (i / (n - 1)) * W : W / 2);
    const y = (s) => H / 2 - chances(s) * (H / 2 - 4);
    const pts = report.scores.map((s, i) => `${x(i).toFixed(1)},${y(s).toFixed(1)}`);
    const area = `M0,${H / 2} L${pts.join(' L')} L${x(n - 1).toFixed(1)},${H / 2} Z`;
    const marks = report.plies
      .filter((p) => p.judgment && p.judgment !== 'inaccuracy')
      .map((p) => `<circle class="${p.judgment}" cx="${x(p.ply).toFixed(1)}" cy="${y(report.scores[p.ply]).toFixed(1)}" r="4"><title>${p.ply}. ${p.notation}</title></circle>`);
    const s = document.createElementNS(NS, 'svg');
    s.setAttribute('viewBox', `0 0 ${W} ${H}`);
    s.setAttribute('class', 'report-graph');
    s.setAttribute('id', 'report-graph');
    s.setAttribute('role', 'img');
    s.setAttribute('aria-label', t('rp_graph'));
    s.innerHTML =
      `<rect width="${W}" height="${H}" class="bg"/><line x1="0" x2="${W}" y1="${H / 2}" y2="${H / 2}" class="mid"/>` +
      `<path d="${area}" class="area"/><polyline points="${pts.join(' ')}" class="curve"/>` +
      `<line id="report-at" x1="-10" x2="-10" y1="0" y2="${H}" class="at"/>${marks.join('')}`;
    s.addEventListener('click', (e) => {
      const r = s.getBoundingClientRect();
      const ply = Math.round(((e.clientX - r.left) / r.width) * (n - 1));
      onJump(Math.max(0, Math.min(n - 1, ply)));
    });
    return s;
  }

  function side(color) {
    const r = report[color];
    return el('div', { class: 'report-side', id: `report-${color}` },
      el('strong', {}, t('colour_' + color)),
      el('span', { class: 'accuracy' }, t('rp_accuracy', { n: r.accuracy.toFixed(1) })),
      el('span', { class: 'muted' }, t('rp_counts', { i: r.inaccuracy, m: r.mistake, b: r.blunder })));
  }

  function draw() {
    svg = graph();
    box.replaceChildren(el('h2', {}, t('rp_title')), svg, el('div', { class: 'row' }, side('white'), side('black')));
  }

  poll();
  return {
    el: box,
    /** Marks the ply shown on the graph. */
    at(ply) {
      const line = svg?.querySelector('#report-at');
      if (!line || !report) return;
      const n = report.scores.length;
      const xx = n > 1 ? (ply / (n - 1)) * W : -10;
      line.setAttribute('x1', xx);
      line.setAttribute('x2', xx);
    },
    destroy() {
      clearTimeout(timer);
    },
  };
}
