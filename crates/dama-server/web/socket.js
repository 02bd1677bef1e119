// A websocket to this site that comes back by itself: JSON messages each way, a wait
// that grows between attempts, the page's banner while it is away, and pings that keep
// an idle connection open through proxies. The game page and the analysis board use it.
import { banner } from './app.js';
import { t } from './i18n.js';

/** The wait before the `n`th attempt in a row: 0.6 s, 1.2 s, 2.4 s ... at most 8 s. */
export const backoff = (n) => Math.min(8000, 300 * 2 ** n);

/**
 * A socket to `path` (`/api/...`) on this site, opened at once unless `lazy`.
 * - `onOpen()` runs after each connection (the place for a hello);
 * - `onMessage(m)` gets each message, parsed (frames that are not JSON are dropped);
 * - `onLost()` runs when the connection closes; it may answer (a promise of) true to
 *   give up for good;
 * - `retry(n)` is the wait in ms before the `n`th attempt in a row, or null to wait
 *   for the next `connect()`;
 * - `showBanner` says "reconnecting" in the page's banner while the socket is away;
 * - `ping` is the time in ms between pings (`{"type": "ping"}`), 0 for none.
 */
export function liveSocket(path, { onOpen = () => {}, onMessage, onLost, retry = backoff, showBanner = false, ping = 0, lazy = false }) {
  let ws = null;
  let closed = false;
  let retries = 0;
  let retryTimer = null;
  const isOpen = () => !!ws && ws.readyState === WebSocket.OPEN;

  function connect() {
    if (closed || (ws && ws.readyState <= WebSocket.OPEN)) return;
    clearTimeout(retryTimer);
    const proto = location.protocol === 'https:' ? 'wss' : 'ws';
    const s = new WebSocket(`${proto}://${location.host}${path}`);
    ws = s;
    s.onopen = () => {
      retries = 0;
      if (showBanner) banner('');
      onOpen();
    };
    s.onmessage = (e) => {
      let m;
      try {
        m = JSON.parse(e.data);
      } catch {
        return;
      }
      onMessage(m);
    };
    s.onclose = async () => {
      if (ws !== s) return;
      ws = null;
      if (closed || (onLost && (await onLost())) || closed) return;
      const wait = retry(++retries);
      if (wait === null || wait === undefined) return;
      if (showBanner) banner(t('reconnecting'));
      retryTimer = setTimeout(connect, wait);
    };
  }

  const pinger = ping ? setInterval(() => isOpen() && ws.send('{"type":"ping"}'), ping) : null;
  if (!lazy) connect();
  return {
    connect,
    open: isOpen,
    /** Sends `msg` as JSON; false when the socket is not open. */
    send(msg) {
      if (!isOpen()) return false;
      ws.send(JSON.stringify(msg));
      return true;
    },
    close() {
      closed = true;
      clearTimeout(retryTimer);
      clearInterval(pinger);
      if (ws) ws.close();
    },
  };
}
