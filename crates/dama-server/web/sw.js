// dama's service worker: shows a player's pushed notifications (a correspondence move,
// a day left, a challenge, a game over, a tournament started) while no tab of the site is open, worded in
// the language the page subscribed with; a click opens the game.
const WORDS = {
  en: { tournament_started: '{name} has started', your_move: 'Your move against {opponent}', time_running_out: 'A day or less left for your move against {opponent}', challenge: '{from} challenges you', game_over: 'Your game against {opponent} is over' },
  es: { tournament_started: '{name} ha comenzado', your_move: 'Te toca jugar contra {opponent}', time_running_out: 'Queda un día o menos para tu jugada contra {opponent}', challenge: '{from} te desafía', game_over: 'Tu partida contra {opponent} ha terminado' },
  pt: { tournament_started: '{name} começou', your_move: 'Sua vez contra {opponent}', time_running_out: 'Resta um dia ou menos para o seu lance contra {opponent}', challenge: '{from} desafia você', game_over: 'Sua partida contra {opponent} terminou' },
  tr: { tournament_started: '{name} başladı', your_move: '{opponent} karşısında sıra sizde', time_running_out: '{opponent} karşısındaki hamleniz için bir gün ya da daha az kaldı', challenge: '{from} size meydan okuyor', game_over: '{opponent} ile oyununuz bitti' },
  ru: { tournament_started: 'Турнир {name} начался', your_move: 'Ваш ход против {opponent}', time_running_out: 'На ваш ход против {opponent} остался день или меньше', challenge: '{from} вызывает вас', game_over: 'Ваша партия с {opponent} окончена' },
};

self.addEventListener('push', (event) => {
  let n = {};
  try {
    n = event.data ? event.data.json() : {};
  } catch {
    n = {};
  }
  const words = WORDS[n.lang] || WORDS.en;
  const body = (words[n.kind] || 'dama').replace(/\{(\w+)\}/g, (_, k) => (n[k] == null ? '' : String(n[k])));
  const url = n.tournament ? `/tournament/${n.tournament}` : n.game && n.kind !== 'challenge' ? `/game/${n.game}` : '/';
  event.waitUntil(self.registration.showNotification('dama', { body, tag: n.game || n.kind, data: { url }, icon: '/assets/icon.svg' }));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  event.waitUntil(self.clients.openWindow(event.notification.data.url));
});
