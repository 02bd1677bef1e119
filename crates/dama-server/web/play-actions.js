// The game's actions: resign (in two steps), draw, takeback, undo and hint against the
// engine, abort, rematch, the next game, replay, analysis and the PDN; the opponent's
// offers to answer; and the dialog that says how the game ended.
import { api, el, toast } from './app.js';
import { t, points, resultText, side, sidesNow } from './i18n.js';
import { play as sound } from './sound.js';

export function btn(text, onclick, attrs = {}) {
  return el('button', { class: 'btn', type: 'button', onclick, ...attrs }, text);
}

/** The actions of the page `p` (its game `p.g`, `p.send`, `p.render`, the board and
 *  moves `p.moves`). */
export function actionsPart(p) {
  const { g, id } = p;
  const dialog = el('dialog', { id: 'result-dialog', 'aria-labelledby': 'result-title' });
  let resignArmed = false;
  let shownResult = false;
  const send = (msg, note) => p.send(msg) && note && toast(t(note));

  async function getHint() {
    try {
      const r = await api('GET', `/api/games/${id}/hint`, undefined, g.seat.token);
      const hint = p.moves.hint(r.move);
      const end = r.end ? ' · ' + t(r.end.result === 'win' ? 'hint_win' : 'hint_loss', { n: r.end.moves }) : '';
      toast(t('hint_is', { move: hint ? hint.notation : r.move }) + end);
    } catch (e) {
      toast(e.message, true);
    }
  }

  /** A rematch: between two accounts, a challenge to the opponent with the same terms
   *  and colours swapped (they answer it in their bell, as any challenge); otherwise,
   *  or without a log-in, the game's own rematch offer. */
  async function rematch() {
    const s = g.snap;
    const mine = g.seat?.color;
    const other = s.players?.[mine === 'white' ? 1 : 0];
    if (mine && mine !== 'both' && s.players?.[0] && s.players?.[1] && !s.options.fen) {
      const terms = { variant: s.variant, rules: s.options.rules, time: s.options.time, rated: s.options.rated, color: mine === 'white' ? 'black' : 'white' };
      try {
        await api('POST', `/api/players/${encodeURIComponent(other.name)}/challenge`, terms);
        toast(t('challenge_sent', { name: other.name }));
        return;
      } catch (e) {
        if (e.status !== 401) {
          toast(e.message, true);
          return;
        }
      }
    }
    send({ type: 'rematch' }, 'rematch_asked');
  }

  function resign() {
    if (resignArmed) {
      resignArmed = false;
      send({ type: 'resign' });
    } else {
      resignArmed = true;
      setTimeout(() => {
        resignArmed = false;
        p.render();
      }, 4000);
    }
    p.render();
  }

  /** The row of buttons under the players. */
  function buttons() {
    const s = g.snap;
    const { seat } = g;
    const out = [];
    if (seat && g.live()) {
      const plies = s.moves.length;
      if (g.vsAi()) {
        out.push(btn(t('undo'), () => send({ type: 'takeback' }), { id: 'undo', disabled: plies < 2 }));
        out.push(btn(t('hint'), getHint, { id: 'hint', disabled: !g.myTurn() }));
        out.push(btn(t('offer_draw'), () => send({ type: 'offer_draw' }, 'draw_offered'), { id: 'offer-draw' }));
      } else if (seat.color !== 'both') {
        out.push(btn(t('offer_draw'), () => send({ type: 'offer_draw' }, 'draw_offered'), { id: 'offer-draw', disabled: !!s.draw_offer }));
        out.push(btn(t('takeback'), () => send({ type: 'takeback' }, 'takeback_asked'), { id: 'takeback', disabled: plies === 0 }));
      } else {
        out.push(btn(t('takeback'), () => send({ type: 'takeback' }), { id: 'takeback', disabled: plies === 0 }));
        out.push(btn(t('draw_agreed'), () => send({ type: 'offer_draw' }), { id: 'offer-draw' }));
      }
      if (p.moves.premove) out.push(btn(t('premove_cancel'), () => p.moves.cancelPremove(), { id: 'cancel-premove' }));
      if (plies < 2) out.push(btn(t('abort'), () => send({ type: 'abort' }), { id: 'abort' }));
      // An arena that allows it: berserk before one's first move (half the clock, no
      // increment, a bonus point for a win).
      const mine = seat.color === 'white' ? 0 : 1;
      const first = plies === 0 ? s.side_to_move : (s.side_to_move === 'white' ? 'black' : 'white');
      const moved = plies >= 2 || (plies === 1 && first === seat.color);
      if (s.options?.berserk && seat.color !== 'both' && !moved && !s.berserk?.[mine]) {
        out.push(btn(t('berserk'), () => send({ type: 'berserk' }), { id: 'berserk', title: t('berserk_title') }));
      }
      out.push(btn(resignArmed ? t('confirm_resign') : t('resign'), resign, { id: 'resign', class: 'btn danger' }));
    }
    const over = s.state === 'finished';
    if (seat && s.state === 'waiting') out.push(btn(t('abort'), () => send({ type: 'abort' }), { id: 'abort' }));
    if (seat && over) out.push(btn(t('rematch'), rematch, { id: 'rematch' }));
    if (over) out.push(el('a', { class: 'btn', href: `/replay?game=${id}`, 'data-link': true, id: 'replay' }, t('replay')));
    if (over && !g.calledOff()) out.push(el('a', { class: 'btn', href: `/analysis?game=${id}`, 'data-link': true, id: 'analyse' }, t('an_analyse')));
    if (s.next_game) out.push(el('a', { class: 'btn primary', href: `/game/${s.next_game}`, 'data-link': true, id: 'next-game' }, t('next_game')));
    out.push(btn(t('flip'), () => p.moves.flip(), { id: 'flip' }));
    out.push(el('a', { class: 'btn', href: `/api/games/${id}/pdn`, download: `dama-${id}.pdn`, id: 'pdn' }, t('download_pdn')));
    return el('div', { class: 'row' }, out);
  }

  /** The opponent's pending offers, with the answers; one's own, said. */
  function offers() {
    const s = g.snap;
    const out = [];
    const theirs = (by) => g.seat && !g.mine(by);
    if (g.live() && s.draw_offer && theirs(s.draw_offer)) {
      out.push(el('div', { class: 'offer', role: 'alert' }, t('draw_offer_from', { side: side(s.draw_offer) }), ' ',
        btn(t('accept'), () => send({ type: 'accept_draw' }), { id: 'accept-draw' }), ' ',
        btn(t('decline'), () => send({ type: 'decline_draw' }), { id: 'decline-draw' })));
    } else if (g.live() && s.draw_offer) out.push(el('div', { class: 'offer' }, t('draw_offer_from', { side: side(s.draw_offer) })));
    if (g.live() && s.takeback_offer && theirs(s.takeback_offer)) {
      out.push(el('div', { class: 'offer', role: 'alert' }, t('takeback_from', { side: side(s.takeback_offer) }), ' ',
        btn(t('accept'), () => send({ type: 'accept_takeback' })), ' ', btn(t('decline'), () => send({ type: 'decline_takeback' }))));
    }
    if (s.state === 'finished' && s.rematch_offer && theirs(s.rematch_offer)) {
      out.push(el('div', { class: 'offer', role: 'alert' }, t('rematch_from', { side: side(s.rematch_offer) })));
    }
    return out;
  }

  /** After a series' last game: its final score and who won it. */
  function seriesLine() {
    const f = g.seriesFinal();
    if (!f) return null;
    const { seat } = g;
    const score = f.score.map(points).join('–');
    let who = t('series_drawn');
    if (f.winner) {
      who = seat && seat.color !== 'both'
        ? t(f.winner === seat.color ? 'series_you_won' : 'series_you_lost')
        : t('series_won_by', { side: side(f.winner) });
    }
    return el('p', { id: 'series-final', class: 'series-final' }, t('series_final', { score, sides: sidesNow() }), ' ', who);
  }

  function showResult() {
    if (!shownResult) sound('end');
    shownResult = true;
    const s = g.snap;
    const r = s.result;
    const { seat } = g;
    const close = () => dialog.close();
    const calledOff = g.calledOff();
    let title = calledOff ? t(r.reason.code === 'abandoned' ? 'abandoned' : 'aborted') : t('draw');
    if (r.winner) title = seat && seat.color !== 'both' ? (r.winner === seat.color ? t('you_won') : t('you_lost')) : t('wins', { side: side(r.winner) });
    dialog.replaceChildren(
      el('h2', { id: 'result-title' }, title),
      el('p', { id: 'result-text' }, resultText(r)),
      calledOff ? null : el('p', { class: 'muted' }, r.token),
      seriesLine(),
      el('div', { class: 'row' },
        s.next_game ? el('a', { class: 'btn primary', href: `/game/${s.next_game}`, 'data-link': true, id: 'result-next-game', onclick: close }, t('next_game')) : null,
        seat && !s.next_game ? btn(t('rematch'), () => { close(); rematch(); }, { id: 'result-rematch' }) : null,
        el('a', { class: 'btn', href: `/replay?game=${id}`, 'data-link': true, onclick: close }, t('replay')),
        calledOff ? null : el('a', { class: 'btn', href: `/analysis?game=${id}`, 'data-link': true, onclick: close }, t('an_analyse')),
        el('a', { class: 'btn', href: `/api/games/${id}/pdn`, download: `dama-${id}.pdn` }, t('download_pdn')),
        el('a', { class: 'btn', href: '/', 'data-link': true, onclick: close }, t('new_game')),
        btn(t('close'), close, { id: 'close-result' })),
    );
    if (!dialog.open) dialog.showModal();
    dialog.querySelector('#result-next-game')?.focus();
  }

  return {
    dialog,
    buttons,
    offers,
    seriesLine,
    /** Once the game is over: the result dialog, the first time, or again while open
     *  (a next game to offer). */
    result() {
      const s = g.snap;
      if (s && s.state === 'finished' && s.result && (dialog.open || !shownResult)) showResult();
    },
    /** The dialog again, in the page's language now. */
    retranslate() {
      if (dialog.open && g.snap?.result) {
        dialog.close();
        showResult();
      }
    },
    destroy() {
      if (dialog.open) dialog.close();
    },
  };
}
