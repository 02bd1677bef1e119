// The game's chat: the players' room, or the spectators'. Built once, so that a line
// being typed survives the panel's redraws. A player may mute an author (kept in this
// browser), report a line to a moderator, and turn chat off in rated games.
import { api, el, toast } from './app.js';
import { t, side } from './i18n.js';

/** The chat of the page `p` (its game `p.g`, `p.send`, `p.render`). */
export function chatPart(p) {
  const { g, id } = p;
  const lines = el('ol', { class: 'chat-lines', id: 'chat-lines', 'aria-live': 'polite' });
  const input = el('input', { id: 'chat-input', maxlength: 140, autocomplete: 'off' });
  const muted = new Set(JSON.parse(localStorage.getItem('dama.muted') || '[]'));
  const toggle = el('input', { type: 'checkbox', id: 'chat-rated' });
  const box = el('section', { class: 'chat', id: 'chat' },
    el('h2', { id: 'chat-title' }),
    el('label', { class: 'muted', id: 'chat-rated-label' }, toggle, ' ', el('span', { id: 'chat-rated-text' })),
    lines,
    el('form', { onsubmit: (e) => {
      e.preventDefault();
      const text = input.value.trim();
      if (!text) return;
      sent = text;
      p.send({ type: 'chat', text });
      input.value = '';
    } }, input));
  toggle.addEventListener('change', () => {
    localStorage.setItem('dama.chat_rated', toggle.checked ? 'on' : 'off');
    p.render();
  });

  const drop = (keep) => {
    for (const li of [...lines.children]) if (!keep(li)) li.remove();
  };

  // The author this page writes as: a player's account name or colour (known from the
  // game); a spectator's is learnt from the echo of the first line it sends.
  let sent = null;
  let spectatorName = null;
  const isOwn = (line) => {
    const s = g.snap;
    if (g.seat) return ['white', 'black'].some((c, i) => g.mine(c) && line.author === (s?.players?.[i]?.name ?? c));
    if (!spectatorName && sent !== null && line.text === sent && /^spectator \d+$/.test(line.author)) spectatorName = line.author;
    return line.author === spectatorName;
  };
  /** An author as the reader's language names them: a side, a spectator, or a name. */
  const authorName = (a) => {
    if (a === 'white' || a === 'black') return side(a);
    const m = /^spectator (\d+)$/.exec(a);
    return m ? t('chat_spectator', { n: m[1] }) : a;
  };

  /** Adds a line ({n, author, text}), unless its author is muted. One's own lines
   *  cannot be muted or reported. */
  function add(line) {
    if (muted.has(line.author)) return;
    const own = isOwn(line);
    if (own && sent === line.text) sent = null;
    const mute = () => {
      muted.add(line.author);
      localStorage.setItem('dama.muted', JSON.stringify([...muted]));
      drop((li) => li.dataset.author !== line.author);
    };
    const report = async () => {
      try {
        await api('POST', `/api/games/${id}/chat/${line.n}/report`, { reason: 'reported from the game page' });
        toast(t('chat_reported'));
      } catch (e) {
        toast(e.message, true);
      }
    };
    const name = authorName(line.author);
    lines.append(el('li', { 'data-n': line.n, 'data-author': line.author, class: own ? 'own' : null },
      el('b', {}, name), ' ', line.text, ' ',
      own ? null : el('button', { type: 'button', class: 'link', onclick: mute, title: t('chat_mute', { name }) }, t('chat_mute_short')),
      ' ',
      own ? null : el('button', { type: 'button', class: 'link', onclick: report, title: t('chat_report') }, t('chat_report_short'))));
    lines.scrollTop = lines.scrollHeight;
  }

  return {
    add,
    /** The room's lines so far (after each connection). */
    history(all) {
      lines.replaceChildren();
      for (const line of all) add(line);
    },
    /** A moderator hid line `n`. */
    hide(n) {
      drop((li) => li.dataset.n !== String(n));
    },
    /** The chat box, where the game has one (two players online) and the player wants it. */
    panel() {
      const s = g.snap;
      if (!s || !['friend', 'open'].includes(s.mode)) return null;
      const wanted = localStorage.getItem('dama.chat_rated') !== 'off';
      box.querySelector('#chat-title').textContent = t(g.seat ? 'chat_players' : 'chat_spectators');
      box.querySelector('#chat-rated-label').hidden = !s.options.rated;
      box.querySelector('#chat-rated-text').textContent = t('chat_in_rated');
      toggle.checked = wanted;
      const shown = !s.options.rated || wanted;
      lines.hidden = !shown;
      input.hidden = !shown;
      input.setAttribute('aria-label', t('chat_say'));
      input.placeholder = t('chat_say');
      return box;
    },
  };
}
