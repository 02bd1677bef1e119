// The moderators' page (`/mod`): reported chat lines with their game, and what to do
// with each — hide the line, mute its author's chat (which hides it too), or dismiss
// the report. Only accounts the operator made moderators see it.
import { api, el, toast } from './app.js';
import { lang, t } from './i18n.js';

/** `/mod`. */
export function modPage(main) {
  let reports = null;
  let error = '';

  async function load() {
    try {
      reports = (await api('GET', '/api/mod/reports')).reports;
      error = '';
    } catch (e) {
      error = e.message;
    }
    render();
  }

  async function handle(r, action) {
    try {
      await api('POST', `/api/mod/reports/${r.game_id}/${r.n}`, { action });
      toast(t('mod_done_' + action));
    } catch (e) {
      toast(e.message, true);
    }
    load();
  }

  function row(r) {
    const when = new Date(r.at_ms).toLocaleString(lang());
    const done = r.action ? t('mod_handled', { action: t('mod_action_' + r.action), by: r.handled_by || '?' }) : '';
    return el('li', { class: 'mod-report' + (r.action ? ' handled' : ''), 'data-game': r.game_id, 'data-n': r.n },
      el('p', {},
        el('a', { href: `/game/${r.game_id}`, 'data-link': true }, t('mod_game', { id: r.game_id })), ' · ',
        t(r.room === 'players' ? 'chat_players' : 'chat_spectators'), ' · ', when),
      el('blockquote', { class: r.hidden ? 'hidden-line' : '' }, el('b', {}, r.account || r.author), ' ', r.text),
      el('p', { class: 'muted' }, t('mod_reason', { reason: r.reason })),
      r.action
        ? el('p', { class: 'muted mod-status' }, done)
        : el('p', { class: 'mod-actions' },
          el('button', { type: 'button', class: 'mod-hide', onclick: () => handle(r, 'hide') }, t('mod_hide')), ' ',
          el('button', { type: 'button', class: 'mod-mute', disabled: !r.account, title: r.account ? '' : t('mod_no_account'), onclick: () => handle(r, 'mute') }, t('mod_mute')), ' ',
          el('button', { type: 'button', class: 'link mod-dismiss', onclick: () => handle(r, 'dismiss') }, t('mod_dismiss'))));
  }

  function render() {
    const body = error
      ? el('p', { class: 'error' }, error)
      : reports === null
        ? el('p', { class: 'loading' }, t('loading'))
        : reports.length === 0
          ? el('p', { id: 'mod-none' }, t('mod_none'))
          : el('ol', { class: 'mod-reports', id: 'mod-reports' }, ...reports.map(row));
    main.replaceChildren(el('section', { class: 'page' }, el('h1', {}, t('mod_title')), body));
  }

  render();
  load();
  return { render };
}
