// The game as the page knows it, and how each server message changes it. A snapshot
// sets everything; each versioned event after it is applied here, in order (its `v` one
// more than the page's), so the page follows the game without asking for it again. The
// server tells the player to move their legal moves (`legal`) after each move, takeback
// and start. Nothing here touches the page: each change answers what the page should do
// about it (`render`, a `sound`, a `toast` to show, `animate` a move, `resync`...).
import { piecesOfFen, seats } from './app.js';
import { t } from './i18n.js';
import { afterTakeback, frozen } from './play-clock.js';

export const other = (c) => (c === 'white' ? 'black' : 'white');
/** Who moves in a FEN (`W:...`, `B:...`). */
const sideOfFen = (fen) => (/^W/i.test(fen) ? 'white' : 'black');

/** The game as a page follows it; the page holds `seat` ({token, color}), or null to watch. */
export class Game {
  constructor(seat) {
    this.seat = seat;
    this.snap = null; // the last snapshot, kept up to date by the events since
    this.version = 0;
    this.resyncAt = null; // when a snapshot was asked for, until it comes
    this.suggestions = null; // the spectators' suggestions for the player to move
    this.sent = null; // the move this page sent (long notation), until the server plays it
    this.clockAt = 0; // when `snap.clocks` was set (performance.now())
  }

  live() {
    return !!this.snap && this.snap.state === 'live';
  }
  /** Without a seat token in this browser, the logged-in player's seats: the server
   *  holds them for the account over this page's socket (its log-in cookie), so a game
   *  begun in another browser is played here too. */
  seatOfAccount() {
    const name = this.me && this.me();
    if (this.seat || !name || !this.snap) return;
    const mine = (this.snap.players || []).map((p) => !!p && p.name === name);
    if (!mine[0] && !mine[1]) return;
    this.seat = { token: null, color: mine[0] && mine[1] ? 'both' : mine[0] ? 'white' : 'black' };
  }

  /** The page holds `color`'s seat (hot-seat holds both). */
  mine(color) {
    return !!this.seat && (this.seat.color === color || this.seat.color === 'both');
  }
  myTurn() {
    return this.live() && this.mine(this.snap.side_to_move);
  }
  canSuggest() {
    return !this.seat && this.live() && this.snap.options.suggestions;
  }
  canPremove() {
    return this.live() && !!this.seat && this.seat.color !== 'both' && !this.myTurn() && !this.sent;
  }
  vsAi() {
    return this.snap?.mode === 'ai';
  }
  /** The game ended without a result: aborted, abandoned before it began, or called
   *  off for want of a first move (nothing to analyse or report). */
  calledOff() {
    const code = this.snap?.result?.reason?.code;
    return this.snap?.state === 'finished' && ['aborted', 'abandoned', 'no_first_move'].includes(code);
  }
  /** Once the last game of a series is over: the series' final score, in the order of
   *  the sides now (White's, Black's), and which side now holds the series' winner
   *  (null for a drawn series). */
  seriesFinal() {
    const s = this.snap;
    const st = s?.options?.series_state;
    if (!st || s.state !== 'finished' || st.game < s.options.series || !s.result) return null;
    const score = [...st.score];
    const w = s.result.winner;
    if (w) score[w === 'white' ? 0 : 1] += 1;
    else if (!this.calledOff()) score.forEach((_, i) => (score[i] += 0.5));
    const winner = score[0] === score[1] ? null : score[0] > score[1] ? 'white' : 'black';
    return { score, winner };
  }

  /** Where message `m` stands: 'apply' (next in order, or not versioned), 'old' (seen,
   *  or it came before the first snapshot) or 'gap' (events were missed). An event
   *  taken in order moves the version on. `legal` carries the version it is for. */
  order(m) {
    if (m.type === 'snapshot' || m.type === 'suggestions') return 'apply';
    if (!this.snap || typeof m.v !== 'number') return 'old';
    if (m.type === 'legal') return m.v === this.version ? 'apply' : m.v < this.version ? 'old' : 'gap';
    if (m.v <= this.version) return 'old';
    if (m.v !== this.version + 1) return 'gap';
    this.version = m.v;
    return 'apply';
  }

  /** Keeps the seat for the next game (the players keep their tokens, colours swapped). */
  keepNextSeat() {
    const next = this.snap.next_game;
    if (!this.seat || !next || seats.get(next)) return;
    seats.set(next, { token: this.seat.token, color: this.seat.color === 'both' ? 'both' : other(this.seat.color) });
  }

  /** A spectator who may suggest needs the legal moves: the server sends them to such
   *  spectators too (`legal` with `spectators`), so no page asks for a snapshot. */
  spectatorNeedsLegal() {
    return false;
  }

  /** The position is now `fen`; the legal moves come with `legal` (or a snapshot). */
  setPosition(fen) {
    const s = this.snap;
    s.fen = fen;
    s.pieces = piecesOfFen(fen);
    s.side_to_move = sideOfFen(fen);
    s.legal = [];
  }
}

/** How each message about the game changes `g`; each answers what the page does. */
export const changes = {
  snapshot(g, m) {
    g.snap = m.game;
    g.seatOfAccount();
    g.version = m.v;
    g.resyncAt = null;
    g.clockAt = performance.now();
    g.keepNextSeat();
    return { premove: true, render: true, result: true };
  },
  move(g, m) {
    const s = g.snap;
    if (m.ply !== s.moves.length + 1) return { resync: true };
    const before = s.pieces;
    s.moves.push(m.mv);
    g.setPosition(m.fen);
    s.takeback_offer = null; // a move lapses the request (a draw offer's lapse is an event)
    if (m.clocks) {
      s.clocks = m.clocks;
      g.clockAt = performance.now();
    }
    const mine = g.sent === m.mv.long;
    g.sent = null;
    return {
      render: true,
      sound: m.mv.captured && m.mv.captured.length ? 'capture' : 'move',
      // Said to screen readers: who played what (the side to move is now the other).
      announce: { side: s.side_to_move === 'white' ? 'black' : 'white', move: m.mv.notation },
      animate: mine ? null : { mv: m.mv, from: before },
      clearHint: true,
      resync: g.spectatorNeedsLegal(),
    };
  },
  joined(g, m) {
    const s = g.snap;
    const i = m.color === 'white' ? 0 : 1;
    s.seats[i] = true;
    if (s.state === 'waiting' && s.seats[0] && s.seats[1]) s.state = 'live';
    // The event brings the player (when logged in) and the clocks the start set.
    if (m.player) {
      s.players = s.players || [null, null];
      s.players[i] = m.player;
    }
    if (m.clocks) {
      s.clocks = m.clocks;
      g.clockAt = performance.now();
    }
    const toast = g.seat && m.color !== g.seat.color ? t('opponent_joined') : null;
    return { render: true, toast, resync: !('clocks' in m) };
  },
  /** A player went berserk: their clock is halved. */
  berserk(g, m) {
    g.snap.berserk = g.snap.berserk || [false, false];
    g.snap.berserk[m.color === 'white' ? 0 : 1] = true;
    if (m.clocks) {
      g.snap.clocks = m.clocks;
      g.clockAt = performance.now();
    }
    return { render: true, toast: t('berserk_done', { side: t(m.color) }) };
  },
  /** A rematch or the series' next game, held until its players were there, starts. */
  started(g, m) {
    g.snap.held = false;
    if (m.clocks) {
      g.snap.clocks = m.clocks;
      g.clockAt = performance.now();
    }
    return { render: true };
  },
  draw_offer(g, m) {
    g.snap.draw_offer = m.by;
    return { render: true };
  },
  draw_declined(g) {
    g.snap.draw_offer = null;
    return { render: true, toast: t('draw_declined') };
  },
  end(g, m) {
    const s = g.snap;
    s.state = 'finished';
    s.result = m.result;
    s.legal = [];
    s.draw_offer = null;
    s.takeback_offer = null;
    if (s.clocks) {
      s.clocks = frozen(s.clocks, g.clockAt);
      g.clockAt = performance.now();
    }
    return { render: true, result: true };
  },
  takeback_offer(g, m) {
    g.snap.takeback_offer = m.by;
    return { render: true };
  },
  takeback_declined(g) {
    g.snap.takeback_offer = null;
    return { render: true, toast: t('takeback_declined') };
  },
  takeback(g, m) {
    const s = g.snap;
    s.moves.splice(Math.max(0, s.moves.length - m.plies));
    g.setPosition(m.fen);
    s.takeback_offer = null;
    s.draw_offer = null;
    // The event brings the clocks (a server that sends none: the page sets them as the
    // server does, where it can).
    const clocks = m.clocks || (s.clocks && afterTakeback(s.clocks, s.options.time, s.side_to_move, s.moves.length));
    if (clocks) {
      s.clocks = clocks;
      g.clockAt = performance.now();
    }
    g.suggestions = null;
    return { render: true, clearHint: true, resync: (s.clocks && !clocks) || g.spectatorNeedsLegal() };
  },
  rematch_offer(g, m) {
    g.snap.rematch_offer = m.by;
    return { render: true };
  },
  next_game(g, m) {
    g.snap.next_game = m.id;
    g.keepNextSeat();
    return { render: true, result: true };
  },
  rated(g, m) {
    m.ratings.forEach((r, i) => {
      const p = g.snap.players?.[i];
      if (r && p) p.rating = r;
    });
    return { render: true };
  },
  legal(g, m) {
    if (!g.live() || m.to !== g.snap.side_to_move) return null;
    g.snap.legal = m.moves;
    return { premove: true, render: true };
  },
  suggestions(g, m) {
    g.suggestions = m;
    return { board: true };
  },
};
