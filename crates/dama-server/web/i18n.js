// The interface in five languages. `t(key, params)` looks the key up in the chosen
// language, then in English; a key missing everywhere shows as ⟦key⟧ (tests look for it).
import { rulesOf } from './rules.js';

export const LANGS = [
  ['en', 'English'],
  ['es', 'Español'],
  ['pt', 'Português'],
  ['tr', 'Türkçe'],
  ['ru', 'Русский'],
];

const en = {
  nf_title: 'Nothing here', nf_text: 'There is no page at this address. It may have been mistyped, or what it showed is gone.', nf_home: 'Back to the home page',
  err_not_a_player: "Only the players of this game can do that.", err_illegal_move: "That move is not legal here.", err_not_your_turn: "It is {side}'s turn.", err_game_over: "The game is over.", err_not_started: "The game has not started: waiting for an opponent.", err_not_being_played: "The game is not being played.", err_move_too_long: "That move text is too long.", err_time_ran_out: "Your time ran out before the move.", err_must_move_touched: "Touch-move: you touched the piece on {square} and must move it.", err_touched_another: "Touch-move: you touched the piece on {square} and must move it.", err_cannot_abort: "A game can be aborted only before both sides have moved.", err_draw_offer_pending: "A draw offer is waiting for an answer already.", err_draw_offered_this_move: "You offered a draw at this move already; offer again after a move.", err_no_draw_offer: "There is no draw offer to answer.", err_engine_busy: "The computer is busy; try again in a moment.", err_nothing_to_take_back: "There is no move to take back.", err_no_move_of_yours: "You have no move to take back yet.", err_wait_for_engine: "Wait for the computer's move.", err_takeback_pending: "A takeback request is waiting for an answer already.", err_takeback_asked_this_move: "You asked for a takeback at this move already.", err_no_takeback_request: "There is no takeback request to answer.", err_rematch_too_early: "A rematch can be asked for once the game is over.", err_next_game_exists: "The next game is already there.", err_rematch_asked: "You have asked for a rematch already.", err_no_free_seat: "This game has no free seat.", err_invite_needed: "This game is for a friend: open the invite link its creator shared.", err_log_in_for_rated: "Log in to play a rated game.", err_guest_rated: "A guest plays casual games only: set a password to play rated games.", err_rated_against_self: "You cannot play a rated game against yourself.", err_suggestions_off: "The players did not allow suggestions in this game.", err_players_cannot_suggest: "Players cannot suggest moves; spectators can.", err_suggest_over_socket: "Suggestions are sent from the game's page.", err_not_legal_here: "{arg} is not a legal move here.", err_too_many_suggestions: "Too many suggestions already.", err_hints_against_engine_only: "Hints are given in games against the computer only.", err_hint_for_player_to_move: "A hint is for the player to move.", err_hint_busy: "A hint is being computed already.", err_too_many_connections: "Too many connections to this game from your address.", err_chat_empty: "The message is empty.", err_chat_too_long: "A message has at most {n} characters.", err_chat_full: "This game's chat is full.", err_chat_too_fast: "You are writing too fast; wait a moment.", err_chat_muted: "A moderator has muted your chat.", err_no_chat_on_one_device: "A game on one device has no chat.", err_watch_to_chat: "Watch the game to chat with its spectators.", err_not_moderator: "Only moderators can do this.", err_no_chat_line: "There is no such chat line.", err_not_found: "There is no such game.", err_no_seek: "That open game is gone.", err_no_player: "There is no player with that name.", err_no_route: "There is nothing at this address.", err_unavailable: "The server is busy; try again in a moment.", err_gone: "The game is being reloaded; try again.", err_internal: "Something went wrong on the server; try again.",
  mod_title: 'Moderation', mod_none: 'No reported chat line.', mod_game: 'Game {id}', mod_reason: 'Reported: {reason}', mod_hide: 'Hide the line', mod_mute: 'Mute the author', mod_dismiss: 'Dismiss', mod_no_account: 'The author has no account: hide the line', mod_handled: '{action} by {by}', mod_action_hide: 'Hidden', mod_action_mute: 'Author muted', mod_action_dismiss: 'Dismissed', mod_done_hide: 'The line is hidden.', mod_done_mute: 'The author is muted and the line hidden.', mod_done_dismiss: 'The report is dismissed.',
  skip: 'Skip to content', nav_play: 'Play', nav_replay: 'Replay & import', language: 'Language', pieces: 'Pieces',
  'theme-wb': 'White / black', 'theme-wr': 'White / red', 'theme-bb': 'Beige / black',
  loading: 'Loading…', err_network: 'The server cannot be reached. Check your connection.',
  new_game: 'New game', variant: 'Variant', mode: 'Mode', mode_ai: 'Against the computer', mode_hotseat: 'Two players on this device',
  mode_friend: 'Invite a friend', mode_open: 'Open game in the lobby', level: 'Level', level_n: 'Level {n}', beginner: 'beginner',
  strongest: 'strongest', time_control: 'Time control', time_none: 'No clock', time_g5: '5 minutes per game',
  time_g10: '10 minutes per game', time_f3_2: '3 min + 2 s per move', time_f5_3: '5 min + 3 s per move',
  time_f15_10: '15 min + 10 s per move', time_per_move: '5 minutes per move (1 minute for a single forced capture)',
  time_corr3: 'Correspondence: 3 days per move', time_custom: 'My own: minutes + increment', time_custom_move: 'My own: a limit per move', custom_minutes: 'Minutes', custom_inc: 'Increment (s)', custom_move_s: 'Seconds per move', custom_capture_s: 'for a single forced capture (s)', rulebook: 'Rulebook', rules_official: 'Official rules',
  rules_seed001: 'Club rules: Red against Black, whole-game clock, 40-move and 200-move draws', rules_seed000: 'Club rules: draws by repetition, king against king and 3 kings in 15 moves only', rules_seed003: 'Official English (arbiter for king endings)',
  options: 'Options', your_colour: 'Your colour', colour_random: 'Random', colour_white: 'White', colour_black: 'Black',
  series_games: 'Games in the series (colours alternate)', touch_move: 'Touch-move (a selected piece must be moved)',
  allow_suggestions: 'Spectators may suggest moves', from_position: 'Start from a position (FEN)', start: 'Start',
  full_rules: 'Full rules', lobby: 'Open games to join', watch_live: 'Games being played', watch_empty: 'No public game is being played right now.', recent_games: 'Just finished', abandoned: 'Abandoned', r_abandonment: 'the game was abandoned', lobby_empty: 'No open game right now: create one with “Open game in the lobby”.',
  join: 'Join', watch: 'Watch', open: 'Open', replay: 'Replay', create_failed: 'The game could not be created: {why}',
  join_failed: 'You could not join this game: {why}. You are watching it.', all_squares: 'all 64 squares',
  first_white: 'White moves first', first_black: 'Dark side moves first', unknown_variant: 'There is no variant "{v}".',
  play_this: 'Play this variant', rules_note: '',
  white: 'White', black: 'Black', white_man: 'white man', white_king: 'white king', black_man: 'black man', black_king: 'black king',
  red: 'Red', red_man: 'red man', red_king: 'red king', colour_red: 'Red (moves first)', sides_now: '{a}–{b} now',
  empty: 'empty', captured: 'captured', target: 'you can move here', selected: 'selected', must_take: 'must capture',
  board: 'Board', board_label: 'Board, {side} to move', must_capture: 'A capture is compulsory: take with a highlighted piece.',
  cannot_move: 'That piece cannot move.', click_through: 'Several captures end there: click each landing square in turn.',
  not_connected: 'Not connected — reconnecting…', reconnecting: 'Connection lost. Reconnecting…',
  game_missing: 'There is no game at this address. It may have been mistyped, or the link is from another site.', go_home: 'Back to the start page',
  opponent_joined: 'Your opponent has joined. The game begins!', draw_declined: 'The draw offer was declined.',
  takeback_declined: 'The takeback was declined.', engine_level: 'Computer (level {n})', you: 'You', opponent: 'Opponent', player: 'Player',
  waiting_player: 'waiting…', clock_of: "{side}'s clock", waiting_opponent: 'Waiting for an opponent — share the invite link.',
  finished: 'The game is over.', your_move: 'Your move', to_move: '{side} to move', download_pdn: 'Download PDN', flip: 'Flip board',
  undo: 'Undo', hint: 'Hint', offer_draw: 'Offer a draw', draw_offered: 'Draw offered.', takeback: 'Take back',
  takeback_asked: 'Takeback asked.', draw_agreed: 'Agree a draw', abort: 'Abort', confirm_resign: 'Really resign?', resign: 'Resign',
  rematch: 'Rematch', next_game: 'Next game →', rematch_asked: 'Rematch asked.', draw_offer_from: '{side} offers a draw.', accept: 'Accept', decline: 'Decline',
  takeback_from: '{side} asks to take back a move.', rematch_from: '{side} wants a rematch.', copy: 'Copy', copied: 'Copied.',
  invite_link: 'Invite link — send it to your friend', watch_link: 'Watch link — for spectators', moves: 'Moves',
  not_legal: '"{move}" is not a legal move here.', type_move: 'Type a move', play: 'Play', hint_is: 'Hint: {move}', hint_win: 'wins in {n} moves', hint_loss: 'loses in {n} moves',
  draw: 'Draw', you_won: 'You won!', you_lost: 'You lost', wins: '{side} wins', close: 'Close',
  series_state: 'Game {n} of {of} · score {w}–{b} ({sides})', spectating: 'You are watching this game.',
  spectator_suggest: 'You are watching. Move a piece to suggest that move to the player.', suggestion_sent: 'Suggestion sent: {move}',
  replay_title: 'Replay and import', import: 'Import a game', pdn_file: 'PDN file', paste_pdn_fen: 'or paste PDN or a FEN:',
  variant_if_missing: 'Variant (when the file does not say)', load: 'Load', no_games: 'No game found in the text.', more_games: 'Next games of the file →',
  file_too_big: 'The file is larger than 4 MB.', game: 'Game', first: 'First move', prev: 'Previous move', next: 'Next move',
  last: 'Last move', play_from_here: 'Play on from here against the computer',
  res_win: '{side} wins: {why}', res_draw: 'Draw: {why}', aborted: 'Aborted', start_position: 'The start position', rule_diagram: 'An example on the board: the move drawn as a line, other moves dashed, captured pieces crossed', imp_where: 'line {line}, column {col}', imp_move: 'move {ply} “{move}”', imp_setup: 'the start position cannot be read', imp_illegal_move: 'not a legal move here', imp_ambiguous_move: 'several moves fit and the game does not tell which', imp_bad_move_text: 'this is not a move', imp_result_mismatch: 'the game does not end as its recorded result says', premove_set: 'Premove {move}: played as soon as it is your turn, if it is legal then.', premove_dropped: 'The premove is not legal now; it was dropped.', premove_cancel: 'Cancel the premove', board_theme: 'Board', 'board-wood': 'Wood', 'board-green': 'Green', 'board-blue': 'Blue', sound_on: 'Sound on (click to mute)', sound_off: 'Sound off (click to turn on)', taken_last: 'taken by the last move', viewing_move: 'Move {n} of {of}', back_to_game: 'Back to the game', shortcuts: 'Keyboard', keys_browse: '← and → step through the moves', keys_ends: 'Home: the start; End or Esc: back to the game', keys_board: 'On the board: arrow keys go from square to square, Enter or Space picks a piece and its landing squares', touch_move_locked: 'Touch-move: you touched the piece on {sq} and must move it.', game_stops_at: 'The game is shown up to a move that cannot be played: {error}', aborted_no_move: 'Aborted: {side} made no first move', first_move_wait: '{side}: first move within {s} s, or the game is aborted',
  r_no_moves: 'no legal move left', r_no_pieces: 'no pieces left', r_repetition: 'the same position occurred {n} times',
  r_no_progress: '{n} moves each without a capture or a crowning', r_move_cap: '{n} moves were played without a winner',
  r_kings_only: '{n} moves each with only kings moving and no capture', r_lone_king: 'the lone king was not caught in {n} moves',
  r_many_kings: '3 kings could not catch the lone king in {n} moves', r_king_vs_king: 'one king against one king cannot win',
  r_lone_man: 'several pieces against a lone man', r_one_each: 'one piece each', r_agreement: 'agreement',
  r_resignation: 'resignation', r_time: 'time', r_adjudication: 'adjudication',
  v_english: 'English draughts / checkers', v_russian: 'Russian draughts', v_turkish: 'Turkish draughts', v_brazilian: 'Brazilian draughts',
  v_international: 'International draughts', v_pool: 'Pool checkers', v_italian: 'Italian draughts', v_spanish: 'Spanish draughts',
  v_portuguese: 'Portuguese draughts', v_czech: 'Czech draughts', v_thai: 'Thai draughts', v_frisian: 'Frisian draughts',
  v_canadian: 'Canadian draughts',
  sum_english: 'Men move one square diagonally forward and capture forward only; kings move and capture one square in any diagonal direction. Captures are compulsory but you may choose which; a man that is crowned ends its move. The dark side moves first.',
  sum_russian: 'Men move forward and capture forward and backward; kings fly any distance along diagonals. Capturing is compulsory, any sequence may be chosen, and a man reaching the far row during a capture goes on capturing as a king.',
  sum_turkish: 'Played on all 64 squares: men move and capture forward or sideways, kings fly along ranks and files. You must take the sequence that captures the most pieces; captured pieces leave the board as they are jumped.',
  sum_brazilian: 'International rules on an 8x8 board: men capture backward too, kings fly, and you must take the most pieces. A man crowns only if it ends its move on the far row.',
  sum_international: 'The world game on 10x10 with 20 men each: men capture forward and backward, kings fly, and the capture of the most pieces is compulsory. A man crowns only if it ends its move on the far row.',
  sum_pool: 'American pool checkers: men capture backward, kings fly, any capture sequence may be chosen; a man passing the far row during a capture is not crowned. The dark side moves first.',
  sum_italian: 'Men move and capture forward only and may not capture kings; kings move one square. The capture must take the most pieces, then prefer capturing with a king and capturing kings.',
  sum_spanish: 'Men move and capture forward only, kings fly. You must capture the most pieces, and then the most kings. The board is mirrored: the main diagonal runs to your right.',
  sum_portuguese: 'Like Spanish draughts: men forward only, flying kings, and the capture that takes the most pieces (then the most kings) is compulsory.',
  sum_czech: 'Men move and capture forward only, kings fly; when a king can capture, a king must make the capture. Otherwise the choice of capture is free.',
  sum_thai: 'Eight men each on two rows. Kings fly but land directly behind the piece they take; captured pieces are removed as they are jumped. Any capture may be chosen. The dark side moves first.',
  sum_frisian: 'On 10x10, pieces also capture straight along ranks and files. The most valuable capture is compulsory (a king counts more than a man), and a king may make only three non-capturing moves in a row while its side has men.',
  sum_canadian: 'International rules on a 12x12 board with 30 men each: men capture backward, kings fly, and the capture of the most pieces is compulsory.',
  log_in: 'Log in', log_out: 'Log out', sign_up: 'Create account', account_name: 'Name', password: 'Password',
  accounts_optional: 'An account keeps your games and gives you a rating. You can play without one.',
  account_created: 'Welcome, {name}: your account is ready.', logged_in: 'Logged in as {name}.',
  rating_history_of: 'Rating from {from} to {to} over {n} rated games', speed_bullet: 'Bullet', speed_blitz: 'Blitz',
  speed_rapid: 'Rapid', speed_classical: 'Classical', speed_correspondence: 'Correspondence', games_n: '{n} games',
  wdl: '{w} won, {d} drawn, {l} lost', rated: 'Rated', casual: 'Casual', result_win: 'Won', result_draw: 'Drawn',
  result_loss: 'Lost', state_waiting: 'Waiting', state_live: 'Being played', state_finished: 'Over',
  member_since: 'Playing since {date}', ratings: 'Ratings', no_rated_games: 'No rated game yet.', record: 'Results',
  no_games: 'No game yet.', recent_games_of: 'Recent games', rated_game: 'Rated game (changes both players\' ratings)',
  rated_needs_login: 'Log in to play rated games', rating_change: '{rating} ({change})',
  anonymous: 'Anonymous', seek_per_move: '{s} s per move', seek_days: '{n} days per move',
  seek_graph: '{n} seeks by game length and rating',
  chat_players: 'Chat with your opponent', chat_spectators: 'Spectators\' chat', chat_say: 'Say something (140 characters)', chat_mute: 'Hide what {name} writes', chat_mute_short: 'mute', chat_report: 'Report this line to a moderator', chat_report_short: 'report', chat_reported: 'Reported. Thank you.', chat_in_rated: 'Chat in rated games',
  download_all_pdn: 'Download all games (PDN)', programs: 'Programs', programs_intro: 'A program can play for your account through the bot API (docs/bots.md).', new_token: 'Make an API token', token_once: 'Your token (shown only now; keep it secret):',
  quick_pairing: 'Quick pairing: {variant}', quick_rated: 'Rated: joins a waiting player at that clock, or waits for one.', quick_casual: 'Casual (log in for rated): joins a waiting player at that clock, or waits for one.',
  play_as_guest: 'Play as a guest (name only)', guest_explained: 'A guest keeps its games under its name and plays casual games; set a password later to keep the account and play rated games.', guest_claim: 'You play as a guest: set a password to keep this name and its games', guest_claim_button: 'Set the password', claimed: 'Your account is yours: log in with its password from anywhere.',
  rating_range: 'Opponents rated', rating_from: 'lowest rating', rating_to: 'highest rating',
  nav_analysis: 'Analysis board', an_title: 'Analysis board', an_analyse: 'Analyse', an_win_in: 'win in {n}',
  an_loss_in: 'loss in {n}', an_engine_off: 'The engine is off.', an_game_over: 'The game is over in this position.', an_queued: 'Waiting for the engine…',
  an_thinking: 'The engine is thinking…', an_eval: 'Evaluation', an_depth: 'depth {d}, {n} thousand positions', an_done: 'finished',
  an_play_line: 'Play this line\'s first move', an_wins: '{side} wins', an_to_move: '{side} to move', an_no_moves: 'No moves yet: play one on the board.',
  an_setup: 'Set up a position', an_palette: 'Pieces to place', an_tool_wm: 'White man', an_tool_wk: 'White king',
  an_tool_bm: 'Black man', an_tool_bk: 'Black king', an_tool_erase: 'Remove a piece', an_side_to_move: 'Side to move',
  an_start_position: 'Start position', an_clear: 'Empty board', an_done_setup: 'Done', an_cancel: 'Cancel',
  an_engine: 'Engine', an_lines: 'Lines', an_delete: 'Delete from here', an_promote: 'Make main line',
  an_comment: 'Comment on this move', an_export: 'Export PDN', an_import: 'Import PDN', an_paste_pdn: 'Paste a PDN game (its variations are kept):',
  rp_title: 'Computer analysis', rp_explain: 'The engine reviews every move and shows where the game turned.', rp_request: 'Request a computer analysis',
  rp_queued: 'Waiting for the engine…', rp_running: 'The engine is reviewing the game: {pct}%', rp_failed: 'The analysis failed. Try again.',
  rp_graph: 'Evaluation over the game (White above the line); click to see a move', rp_accuracy: 'accuracy {n}%', rp_counts: 'inaccuracies: {i} · mistakes: {m} · blunders: {b}',
  rp_better: 'Better: {move}',
  ex_title: 'Opening explorer', ex_source: 'Games', ex_masters: 'Masters', ex_players: 'Players here',
  ex_rating: 'Rating', ex_rating_max: 'highest rating', ex_none: 'No game reached this position.', ex_move: 'Move',
  ex_games: 'Games', ex_results: 'White · draws · Black', ex_draws: 'draws',
  nav_puzzles: 'Puzzles', pz_title: 'Puzzles', pz_none: 'No puzzle for this variant yet: they are found in the games as the engine goes through them.',
  pz_find: '{side} to move: find the move that wins.', pz_good: 'Right. Go on.', pz_solved: 'Solved!',
  pz_wrong: 'Not that move.', pz_solution: 'The winning line:', pz_next: 'Next puzzle',
  pz_rating: 'Your puzzle rating: {n}', pz_puzzle_rating: 'Puzzle rated {n}',
  pz_other: 'Another winning move: accepted.',
};

const es = {
  nf_title: 'Aquí no hay nada', nf_text: 'No hay ninguna página en esta dirección. Puede que esté mal escrita o que lo que mostraba ya no exista.', nf_home: 'Volver a la página de inicio',
  err_not_a_player: "Solo los jugadores de esta partida pueden hacer eso.", err_not_your_turn: "Es el turno de {side}.", err_game_over: "La partida ha terminado.", err_not_started: "La partida no ha empezado: se espera a un rival.", err_not_being_played: "La partida no se está jugando.", err_move_too_long: "El texto de la jugada es demasiado largo.", err_illegal_move: "Esa jugada no es legal aquí.", err_time_ran_out: "Se te acabó el tiempo antes de la jugada.", err_must_move_touched: "Pieza tocada: tocaste la pieza de {square} y debes moverla.", err_touched_another: "Pieza tocada: tocaste la pieza de {square} y debes moverla.", err_cannot_abort: "Una partida solo se puede anular antes de que ambos bandos hayan jugado.", err_draw_offer_pending: "Ya hay una oferta de tablas esperando respuesta.", err_draw_offered_this_move: "Ya ofreciste tablas en esta jugada; vuelve a ofrecerlas después de una jugada.", err_no_draw_offer: "No hay ninguna oferta de tablas que responder.", err_engine_busy: "El ordenador está ocupado; inténtalo de nuevo en un momento.", err_nothing_to_take_back: "No hay ninguna jugada que deshacer.", err_no_move_of_yours: "Todavía no tienes ninguna jugada que deshacer.", err_wait_for_engine: "Espera la jugada del ordenador.", err_takeback_pending: "Ya hay una petición de deshacer esperando respuesta.", err_takeback_asked_this_move: "Ya pediste deshacer en esta jugada.", err_no_takeback_request: "No hay ninguna petición de deshacer que responder.", err_rematch_too_early: "La revancha se puede pedir cuando la partida haya terminado.", err_next_game_exists: "La siguiente partida ya está creada.", err_rematch_asked: "Ya has pedido la revancha.", err_no_free_seat: "Esta partida no tiene ningún sitio libre.", err_invite_needed: "Esta partida es para un amigo: abre el enlace de invitación que compartió su creador.", err_log_in_for_rated: "Inicia sesión para jugar una partida puntuable.", err_guest_rated: "Un invitado solo juega partidas amistosas: pon una contraseña para jugar partidas puntuables.", err_rated_against_self: "No puedes jugar una partida puntuable contra ti mismo.", err_suggestions_off: "Los jugadores no permitieron sugerencias en esta partida.", err_players_cannot_suggest: "Los jugadores no pueden sugerir jugadas; los espectadores sí.", err_suggest_over_socket: "Las sugerencias se envían desde la página de la partida.", err_not_legal_here: "{arg} no es una jugada legal aquí.", err_too_many_suggestions: "Ya hay demasiadas sugerencias.", err_hints_against_engine_only: "Solo hay pistas en las partidas contra el ordenador.", err_hint_for_player_to_move: "La pista es para el jugador que mueve.", err_hint_busy: "Ya se está calculando una pista.", err_too_many_connections: "Demasiadas conexiones a esta partida desde tu dirección.", err_chat_empty: "El mensaje está vacío.", err_chat_too_long: "Un mensaje tiene como mucho {n} caracteres.", err_chat_full: "El chat de esta partida está lleno.", err_chat_too_fast: "Escribes demasiado deprisa; espera un momento.", err_chat_muted: "Un moderador ha silenciado tu chat.", err_no_chat_on_one_device: "Una partida en un solo dispositivo no tiene chat.", err_watch_to_chat: "Mira la partida para chatear con sus espectadores.", err_not_moderator: "Solo los moderadores pueden hacer esto.", err_no_chat_line: "Esa línea del chat no existe.", err_not_found: "Esa partida no existe.", err_no_seek: "Esa partida abierta ya no está.", err_no_player: "No hay ningún jugador con ese nombre.", err_no_route: "No hay nada en esta dirección.", err_unavailable: "El servidor está ocupado; inténtalo de nuevo en un momento.", err_gone: "La partida se está recargando; inténtalo de nuevo.", err_internal: "Algo falló en el servidor; inténtalo de nuevo.",
  mod_title: 'Moderación', mod_none: 'No hay líneas de chat denunciadas.', mod_game: 'Partida {id}', mod_reason: 'Denunciada: {reason}', mod_hide: 'Ocultar la línea', mod_mute: 'Silenciar al autor', mod_dismiss: 'Descartar', mod_no_account: 'El autor no tiene cuenta: oculta la línea', mod_handled: '{action} por {by}', mod_action_hide: 'Oculta', mod_action_mute: 'Autor silenciado', mod_action_dismiss: 'Descartada', mod_done_hide: 'La línea está oculta.', mod_done_mute: 'El autor está silenciado y la línea oculta.', mod_done_dismiss: 'La denuncia está descartada.',
  skip: 'Ir al contenido', nav_play: 'Jugar', nav_replay: 'Repetir e importar', language: 'Idioma', pieces: 'Piezas',
  'theme-wb': 'Blancas / negras', 'theme-wr': 'Blancas / rojas', 'theme-bb': 'Beige / negras',
  loading: 'Cargando…', err_network: 'No se puede contactar con el servidor. Revisa tu conexión.',
  new_game: 'Nueva partida', variant: 'Variante', mode: 'Modo', mode_ai: 'Contra el ordenador', mode_hotseat: 'Dos jugadores en este dispositivo',
  mode_friend: 'Invitar a un amigo', mode_open: 'Partida abierta en la sala', level: 'Nivel', level_n: 'Nivel {n}', beginner: 'principiante',
  strongest: 'el más fuerte', time_control: 'Control de tiempo', time_none: 'Sin reloj', time_g5: '5 minutos por partida',
  time_g10: '10 minutos por partida', time_f3_2: '3 min + 2 s por jugada', time_f5_3: '5 min + 3 s por jugada',
  time_f15_10: '15 min + 10 s por jugada', time_per_move: '5 minutos por jugada (1 minuto para una captura única obligada)',
  time_corr3: 'Por correspondencia: 3 días por jugada', time_custom: 'A medida: minutos + incremento', time_custom_move: 'A medida: límite por jugada', custom_minutes: 'Minutos', custom_inc: 'Incremento (s)', custom_move_s: 'Segundos por jugada', custom_capture_s: 'con una sola captura obligada (s)', rulebook: 'Reglamento', rules_official: 'Reglas oficiales',
  rules_seed001: 'Reglas de club: rojas contra negras, reloj por partida, tablas a las 40 y 200 jugadas', rules_seed000: 'Reglas de club: tablas solo por repetición, dama contra dama y 3 damas en 15 jugadas', rules_seed003: 'Inglés oficial (árbitro en finales de damas)',
  options: 'Opciones', your_colour: 'Tu color', colour_random: 'Al azar', colour_white: 'Blancas', colour_black: 'Negras',
  series_games: 'Partidas de la serie (los colores alternan)', touch_move: 'Pieza tocada, pieza movida',
  allow_suggestions: 'Los espectadores pueden sugerir jugadas', from_position: 'Empezar desde una posición (FEN)', start: 'Empezar',
  full_rules: 'Reglas completas', lobby: 'Partidas abiertas', watch_live: 'Partidas en juego', watch_empty: 'Ahora no se juega ninguna partida pública.', recent_games: 'Recién terminadas', abandoned: 'Abandonada', r_abandonment: 'la partida fue abandonada', lobby_empty: 'No hay partidas abiertas ahora: cree una con «Partida abierta en la sala».',
  join: 'Unirse', watch: 'Mirar', open: 'Abrir', replay: 'Repetir', create_failed: 'No se pudo crear la partida: {why}',
  join_failed: 'No pudiste unirte a esta partida: {why}. La estás mirando.', all_squares: 'las 64 casillas',
  first_white: 'Empiezan las blancas', first_black: 'Empieza el bando oscuro', unknown_variant: 'No existe la variante «{v}».',
  play_this: 'Jugar esta variante', rules_note: '',
  white: 'Blancas', black: 'Negras', white_man: 'peón blanco', white_king: 'dama blanca', black_man: 'peón negro', black_king: 'dama negra',
  red: 'Rojas', red_man: 'peón rojo', red_king: 'dama roja', colour_red: 'Rojas (empiezan)', sides_now: '{a}–{b} ahora',
  empty: 'vacía', captured: 'capturada', target: 'puedes mover aquí', selected: 'seleccionada', must_take: 'debe capturar',
  board: 'Tablero', board_label: 'Tablero, juegan {side}', must_capture: 'La captura es obligatoria: captura con una pieza resaltada.',
  cannot_move: 'Esa pieza no puede moverse.', click_through: 'Varias capturas terminan ahí: pulsa cada casilla de llegada por orden.',
  not_connected: 'Sin conexión — reconectando…', reconnecting: 'Se perdió la conexión. Reconectando…',
  game_missing: 'No hay ninguna partida en esta dirección. Puede estar mal escrita o el enlace es de otro sitio.', go_home: 'Volver a la página de inicio',
  opponent_joined: 'Tu rival ha llegado. ¡Empieza la partida!', draw_declined: 'La oferta de tablas fue rechazada.',
  takeback_declined: 'La anulación de jugada fue rechazada.', engine_level: 'Ordenador (nivel {n})', you: 'Tú', opponent: 'Rival', player: 'Jugador',
  waiting_player: 'esperando…', clock_of: 'Reloj de {side}', waiting_opponent: 'Esperando un rival: comparte el enlace de invitación.',
  finished: 'La partida ha terminado.', your_move: 'Te toca', to_move: 'Juegan {side}', download_pdn: 'Descargar PDN', flip: 'Girar tablero',
  undo: 'Deshacer', hint: 'Pista', offer_draw: 'Ofrecer tablas', draw_offered: 'Tablas ofrecidas.', takeback: 'Anular jugada',
  takeback_asked: 'Anulación pedida.', draw_agreed: 'Acordar tablas', abort: 'Cancelar', confirm_resign: '¿Seguro que abandonas?', resign: 'Abandonar',
  rematch: 'Revancha', next_game: 'Siguiente partida →', rematch_asked: 'Revancha pedida.', draw_offer_from: '{side} ofrecen tablas.', accept: 'Aceptar', decline: 'Rechazar',
  takeback_from: '{side} piden anular una jugada.', rematch_from: '{side} quieren la revancha.', copy: 'Copiar', copied: 'Copiado.',
  invite_link: 'Enlace de invitación — envíalo a tu amigo', watch_link: 'Enlace para espectadores', moves: 'Jugadas',
  not_legal: '«{move}» no es una jugada legal aquí.', type_move: 'Escribe una jugada', play: 'Jugar', hint_is: 'Pista: {move}', hint_win: 'gana en {n} jugadas', hint_loss: 'pierde en {n} jugadas',
  draw: 'Tablas', you_won: '¡Has ganado!', you_lost: 'Has perdido', wins: 'Ganan {side}', close: 'Cerrar',
  series_state: 'Partida {n} de {of} · marcador {w}–{b} ({sides})', spectating: 'Estás mirando esta partida.',
  spectator_suggest: 'Estás mirando. Mueve una pieza para sugerir esa jugada al jugador.', suggestion_sent: 'Sugerencia enviada: {move}',
  replay_title: 'Repetir e importar', import: 'Importar una partida', pdn_file: 'Archivo PDN', paste_pdn_fen: 'o pega PDN o un FEN:',
  variant_if_missing: 'Variante (si el archivo no la indica)', load: 'Cargar', no_games: 'No se encontró ninguna partida en el texto.', more_games: 'Siguientes partidas del archivo →',
  file_too_big: 'El archivo supera los 4 MB.', game: 'Partida', first: 'Primera jugada', prev: 'Jugada anterior', next: 'Jugada siguiente',
  last: 'Última jugada', play_from_here: 'Seguir desde aquí contra el ordenador',
  res_win: 'Ganan {side}: {why}', res_draw: 'Tablas: {why}', aborted: 'Cancelada', start_position: 'La posición inicial', rule_diagram: 'Un ejemplo en el tablero: la jugada dibujada como una línea, otras jugadas a trazos, las piezas capturadas tachadas', imp_where: 'línea {line}, columna {col}', imp_move: 'jugada {ply} «{move}»', imp_setup: 'no se puede leer la posición inicial', imp_illegal_move: 'no es una jugada legal aquí', imp_ambiguous_move: 'varias jugadas encajan y la partida no dice cuál', imp_bad_move_text: 'esto no es una jugada', imp_result_mismatch: 'la partida no termina como dice su resultado', premove_set: 'Jugada anticipada {move}: se juega en cuanto sea su turno, si entonces es legal.', premove_dropped: 'La jugada anticipada no es legal ahora; se descartó.', premove_cancel: 'Anular la jugada anticipada', board_theme: 'Tablero', 'board-wood': 'Madera', 'board-green': 'Verde', 'board-blue': 'Azul', sound_on: 'Sonido activado (clic para silenciar)', sound_off: 'Sonido desactivado (clic para activarlo)', taken_last: 'capturada en la última jugada', viewing_move: 'Jugada {n} de {of}', back_to_game: 'Volver a la partida', shortcuts: 'Teclado', keys_browse: '← y → recorren las jugadas', keys_ends: 'Inicio: el principio; Fin o Esc: volver a la partida', keys_board: 'En el tablero: las flechas van de casilla en casilla, Intro o Espacio eligen una pieza y sus casillas de llegada', touch_move_locked: 'Pieza tocada: tocó la pieza de {sq} y debe moverla.', game_stops_at: 'La partida se muestra hasta una jugada imposible: {error}', aborted_no_move: 'Cancelada: las {side} no hicieron su primera jugada', first_move_wait: '{side}: primera jugada en {s} s o la partida se cancela',
  r_no_moves: 'no quedan jugadas legales', r_no_pieces: 'no quedan piezas', r_repetition: 'la misma posición se repitió {n} veces',
  r_no_progress: '{n} jugadas cada uno sin captura ni coronación', r_move_cap: 'se jugaron {n} jugadas sin ganador',
  r_kings_only: '{n} jugadas cada uno moviendo solo damas y sin captura', r_lone_king: 'la dama solitaria no fue capturada en {n} jugadas',
  r_many_kings: '3 damas no pudieron capturar la dama solitaria en {n} jugadas', r_king_vs_king: 'una dama contra una dama no puede ganar',
  r_lone_man: 'varias piezas contra un peón solitario', r_one_each: 'una pieza cada uno', r_agreement: 'acuerdo',
  r_resignation: 'abandono', r_time: 'tiempo', r_adjudication: 'decisión arbitral',
  v_english: 'Damas inglesas / checkers', v_russian: 'Damas rusas', v_turkish: 'Damas turcas', v_brazilian: 'Damas brasileñas',
  v_international: 'Damas internacionales', v_pool: 'Damas pool', v_italian: 'Damas italianas', v_spanish: 'Damas españolas',
  v_portuguese: 'Damas portuguesas', v_czech: 'Damas checas', v_thai: 'Damas tailandesas', v_frisian: 'Damas frisias',
  v_canadian: 'Damas canadienses',
  sum_english: 'Los peones avanzan una casilla en diagonal y capturan solo hacia delante; las damas se mueven y capturan una casilla en cualquier diagonal. Capturar es obligatorio pero puedes elegir cuál; al coronar termina la jugada. Empieza el bando oscuro.',
  sum_russian: 'Los peones avanzan y capturan hacia delante y hacia atrás; las damas vuelan por las diagonales. Capturar es obligatorio, se puede elegir cualquier secuencia, y un peón que llega a la última fila durante una captura sigue capturando como dama.',
  sum_turkish: 'Se juega en las 64 casillas: los peones se mueven y capturan hacia delante o de lado, las damas vuelan por filas y columnas. Hay que elegir la secuencia que captura más piezas; las piezas capturadas salen al ser saltadas.',
  sum_brazilian: 'Reglas internacionales en un tablero de 8x8: los peones también capturan hacia atrás, las damas vuelan y hay que capturar el máximo de piezas. Un peón solo corona si termina su jugada en la última fila.',
  sum_international: 'El juego mundial en 10x10 con 20 peones cada uno: los peones capturan hacia delante y atrás, las damas vuelan y es obligatorio capturar el máximo de piezas.',
  sum_pool: 'Pool americano: los peones capturan hacia atrás, las damas vuelan y se puede elegir cualquier captura; un peón que pasa por la última fila capturando no corona. Empieza el bando oscuro.',
  sum_italian: 'Los peones se mueven y capturan solo hacia delante y no pueden capturar damas; las damas se mueven una casilla. Hay que capturar el máximo de piezas, y luego preferir capturar con dama y capturar damas.',
  sum_spanish: 'Los peones se mueven y capturan solo hacia delante, las damas vuelan. Hay que capturar el máximo de piezas y luego el máximo de damas. El tablero está invertido: la diagonal mayor va a tu derecha.',
  sum_portuguese: 'Como las damas españolas: peones solo hacia delante, damas voladoras, y es obligatoria la captura de más piezas (y luego de más damas).',
  sum_czech: 'Los peones se mueven y capturan solo hacia delante, las damas vuelan; si una dama puede capturar, debe capturar una dama. Si no, la elección es libre.',
  sum_thai: 'Ocho peones cada uno en dos filas. Las damas vuelan pero caen justo detrás de la pieza capturada; las piezas salen al ser saltadas. Se puede elegir cualquier captura. Empieza el bando oscuro.',
  sum_frisian: 'En 10x10, las piezas también capturan en línea recta por filas y columnas. Es obligatoria la captura de más valor (una dama vale más que un peón), y una dama solo puede hacer tres movimientos seguidos sin capturar mientras su bando tenga peones.',
  sum_canadian: 'Reglas internacionales en un tablero de 12x12 con 30 peones cada uno: los peones capturan hacia atrás, las damas vuelan y es obligatorio capturar el máximo de piezas.',
  log_in: 'Entrar', log_out: 'Salir', sign_up: 'Crear cuenta', account_name: 'Nombre', password: 'Contraseña',
  accounts_optional: 'Una cuenta guarda tus partidas y te da una puntuación. Puedes jugar sin ella.',
  account_created: 'Bienvenido, {name}: tu cuenta está lista.', logged_in: 'Has entrado como {name}.',
  rating_history_of: 'Puntuación de {from} a {to} en {n} partidas puntuables', speed_bullet: 'Bala', speed_blitz: 'Blitz',
  speed_rapid: 'Rápida', speed_classical: 'Clásica', speed_correspondence: 'Por correspondencia', games_n: '{n} partidas',
  wdl: '{w} ganadas, {d} tablas, {l} perdidas', rated: 'Puntuable', casual: 'Amistosa', result_win: 'Ganada', result_draw: 'Tablas',
  result_loss: 'Perdida', state_waiting: 'En espera', state_live: 'En juego', state_finished: 'Terminada',
  member_since: 'Juega desde {date}', ratings: 'Puntuaciones', no_rated_games: 'Aún no hay partidas puntuables.', record: 'Resultados',
  no_games: 'Aún no hay partidas.', recent_games_of: 'Partidas recientes', rated_game: 'Partida puntuable (cambia la puntuación de ambos)',
  rated_needs_login: 'Entra para jugar partidas puntuables', rating_change: '{rating} ({change})',
  anonymous: 'Anónimo', seek_per_move: '{s} s por jugada', seek_days: '{n} días por jugada',
  seek_graph: '{n} propuestas por duración y puntuación',
  chat_players: 'Chat con tu rival', chat_spectators: 'Chat de los espectadores', chat_say: 'Escribe algo (140 caracteres)', chat_mute: 'Ocultar lo que escribe {name}', chat_mute_short: 'silenciar', chat_report: 'Denunciar esta línea a un moderador', chat_report_short: 'denunciar', chat_reported: 'Denunciado. Gracias.', chat_in_rated: 'Chat en partidas puntuables',
  download_all_pdn: 'Descargar todas las partidas (PDN)', programs: 'Programas', programs_intro: 'Un programa puede jugar con tu cuenta mediante la API de bots (docs/bots.md).', new_token: 'Crear un token de API', token_once: 'Tu token (solo se muestra ahora; guárdalo en secreto):',
  quick_pairing: 'Emparejamiento rápido: {variant}', quick_rated: 'Puntuable: se une a quien espera con ese reloj, o espera a alguien.', quick_casual: 'Amistosa (entra para puntuables): se une a quien espera con ese reloj, o espera a alguien.',
  play_as_guest: 'Jugar como invitado (solo un nombre)', guest_explained: 'Un invitado guarda sus partidas con su nombre y juega partidas amistosas; pon una contraseña más tarde para conservar la cuenta y jugar partidas puntuables.', guest_claim: 'Juegas como invitado: pon una contraseña para conservar este nombre y sus partidas', guest_claim_button: 'Poner la contraseña', claimed: 'La cuenta es tuya: entra con su contraseña desde cualquier sitio.',
  rating_range: 'Rivales con puntuación', rating_from: 'puntuación mínima', rating_to: 'puntuación máxima',
  nav_analysis: 'Tablero de análisis', an_title: 'Tablero de análisis', an_analyse: 'Analizar', an_win_in: 'gana en {n}',
  an_loss_in: 'pierde en {n}', an_engine_off: 'El motor está apagado.', an_game_over: 'La partida ha terminado en esta posición.', an_queued: 'Esperando al motor…',
  an_thinking: 'El motor está pensando…', an_eval: 'Evaluación', an_depth: 'profundidad {d}, {n} mil posiciones', an_done: 'terminado',
  an_play_line: 'Jugar la primera jugada de esta línea', an_wins: 'ganan {side}', an_to_move: 'juegan {side}', an_no_moves: 'Aún no hay jugadas: haz una en el tablero.',
  an_setup: 'Preparar una posición', an_palette: 'Piezas para colocar', an_tool_wm: 'Peón blanco', an_tool_wk: 'Dama blanca',
  an_tool_bm: 'Peón negro', an_tool_bk: 'Dama negra', an_tool_erase: 'Quitar una pieza', an_side_to_move: 'Turno de',
  an_start_position: 'Posición inicial', an_clear: 'Tablero vacío', an_done_setup: 'Hecho', an_cancel: 'Cancelar',
  an_engine: 'Motor', an_lines: 'Líneas', an_delete: 'Borrar desde aquí', an_promote: 'Hacer línea principal',
  an_comment: 'Comentario de esta jugada', an_export: 'Exportar PDN', an_import: 'Importar PDN', an_paste_pdn: 'Pega una partida PDN (se conservan sus variantes):',
  rp_title: 'Análisis del ordenador', rp_explain: 'El motor revisa cada jugada y muestra dónde cambió la partida.', rp_request: 'Pedir un análisis del ordenador',
  rp_queued: 'Esperando al motor…', rp_running: 'El motor revisa la partida: {pct}%', rp_failed: 'El análisis falló. Inténtalo de nuevo.',
  rp_graph: 'Evaluación a lo largo de la partida (las blancas por encima de la línea); haz clic para ver una jugada', rp_accuracy: 'precisión {n}%', rp_counts: 'imprecisiones: {i} · errores: {m} · errores graves: {b}',
  rp_better: 'Mejor: {move}',
  ex_title: 'Explorador de aperturas', ex_source: 'Partidas', ex_masters: 'Maestros', ex_players: 'Jugadores de aquí',
  ex_rating: 'Puntuación', ex_rating_max: 'puntuación más alta', ex_none: 'Ninguna partida llegó a esta posición.', ex_move: 'Jugada',
  ex_games: 'Partidas', ex_results: 'Blancas · tablas · negras', ex_draws: 'tablas',
  nav_puzzles: 'Problemas', pz_title: 'Problemas', pz_none: 'Aún no hay problemas de esta variante: se encuentran en las partidas a medida que el motor las revisa.',
  pz_find: 'Juegan {side}: encuentra la jugada que gana.', pz_good: 'Bien. Sigue.', pz_solved: '¡Resuelto!',
  pz_wrong: 'Esa jugada no.', pz_solution: 'La línea ganadora:', pz_next: 'Siguiente problema',
  pz_rating: 'Tu puntuación en problemas: {n}', pz_puzzle_rating: 'Problema de {n}',
  pz_other: 'Otra jugada ganadora: aceptada.',
};

const pt = {
  nf_title: 'Nada aqui', nf_text: 'Não há nenhuma página neste endereço. Pode ter sido mal escrito, ou o que mostrava já não existe.', nf_home: 'Voltar à página inicial',
  err_not_a_player: "Só os jogadores desta partida podem fazer isso.", err_not_your_turn: "É a vez de {side}.", err_game_over: "A partida terminou.", err_not_started: "A partida não começou: à espera de um adversário.", err_not_being_played: "A partida não está a ser jogada.", err_move_too_long: "O texto do lance é demasiado longo.", err_illegal_move: "Esse lance não é legal aqui.", err_time_ran_out: "O seu tempo acabou antes do lance.", err_must_move_touched: "Peça tocada: tocou na peça de {square} e tem de a mover.", err_touched_another: "Peça tocada: tocou na peça de {square} e tem de a mover.", err_cannot_abort: "Uma partida só pode ser anulada antes de ambos os lados jogarem.", err_draw_offer_pending: "Já há uma proposta de empate à espera de resposta.", err_draw_offered_this_move: "Já propôs empate neste lance; proponha de novo depois de um lance.", err_no_draw_offer: "Não há nenhuma proposta de empate a responder.", err_engine_busy: "O computador está ocupado; tente de novo daqui a pouco.", err_nothing_to_take_back: "Não há nenhum lance a voltar atrás.", err_no_move_of_yours: "Ainda não tem nenhum lance a voltar atrás.", err_wait_for_engine: "Espere pelo lance do computador.", err_takeback_pending: "Já há um pedido de voltar atrás à espera de resposta.", err_takeback_asked_this_move: "Já pediu para voltar atrás neste lance.", err_no_takeback_request: "Não há nenhum pedido de voltar atrás a responder.", err_rematch_too_early: "A desforra pode ser pedida quando a partida terminar.", err_next_game_exists: "A próxima partida já existe.", err_rematch_asked: "Já pediu a desforra.", err_no_free_seat: "Esta partida não tem lugar livre.", err_invite_needed: "Esta partida é para um amigo: abra o link de convite que o criador partilhou.", err_log_in_for_rated: "Entre na sua conta para jogar uma partida valendo pontos.", err_guest_rated: "Um convidado só joga partidas amigáveis: defina uma palavra-passe para jogar partidas valendo pontos.", err_rated_against_self: "Não pode jogar uma partida valendo pontos contra si próprio.", err_suggestions_off: "Os jogadores não permitiram sugestões nesta partida.", err_players_cannot_suggest: "Os jogadores não podem sugerir lances; os espectadores podem.", err_suggest_over_socket: "As sugestões são enviadas a partir da página da partida.", err_not_legal_here: "{arg} não é um lance legal aqui.", err_too_many_suggestions: "Já há demasiadas sugestões.", err_hints_against_engine_only: "Só há dicas nas partidas contra o computador.", err_hint_for_player_to_move: "A dica é para o jogador que joga.", err_hint_busy: "Já está a ser calculada uma dica.", err_too_many_connections: "Demasiadas ligações a esta partida a partir do seu endereço.", err_chat_empty: "A mensagem está vazia.", err_chat_too_long: "Uma mensagem tem no máximo {n} caracteres.", err_chat_full: "A conversa desta partida está cheia.", err_chat_too_fast: "Está a escrever depressa demais; espere um momento.", err_chat_muted: "Um moderador silenciou a sua conversa.", err_no_chat_on_one_device: "Uma partida num só dispositivo não tem conversa.", err_watch_to_chat: "Assista à partida para conversar com os espectadores.", err_not_moderator: "Só os moderadores podem fazer isto.", err_no_chat_line: "Essa linha da conversa não existe.", err_not_found: "Essa partida não existe.", err_no_seek: "Essa partida aberta já não está disponível.", err_no_player: "Não há nenhum jogador com esse nome.", err_no_route: "Não há nada neste endereço.", err_unavailable: "O servidor está ocupado; tente de novo daqui a pouco.", err_gone: "A partida está a ser recarregada; tente de novo.", err_internal: "Algo correu mal no servidor; tente de novo.",
  mod_title: 'Moderação', mod_none: 'Nenhuma linha de conversa denunciada.', mod_game: 'Partida {id}', mod_reason: 'Denunciada: {reason}', mod_hide: 'Ocultar a linha', mod_mute: 'Silenciar o autor', mod_dismiss: 'Descartar', mod_no_account: 'O autor não tem conta: oculte a linha', mod_handled: '{action} por {by}', mod_action_hide: 'Oculta', mod_action_mute: 'Autor silenciado', mod_action_dismiss: 'Descartada', mod_done_hide: 'A linha está oculta.', mod_done_mute: 'O autor está silenciado e a linha oculta.', mod_done_dismiss: 'A denúncia foi descartada.',
  skip: 'Ir para o conteúdo', nav_play: 'Jogar', nav_replay: 'Rever e importar', language: 'Idioma', pieces: 'Peças',
  'theme-wb': 'Brancas / pretas', 'theme-wr': 'Brancas / vermelhas', 'theme-bb': 'Bege / pretas',
  loading: 'A carregar…', err_network: 'Não é possível contactar o servidor. Verifique a sua ligação.',
  new_game: 'Novo jogo', variant: 'Variante', mode: 'Modo', mode_ai: 'Contra o computador', mode_hotseat: 'Dois jogadores neste aparelho',
  mode_friend: 'Convidar um amigo', mode_open: 'Jogo aberto no salão', level: 'Nível', level_n: 'Nível {n}', beginner: 'iniciante',
  strongest: 'o mais forte', time_control: 'Controlo de tempo', time_none: 'Sem relógio', time_g5: '5 minutos por jogo',
  time_g10: '10 minutos por jogo', time_f3_2: '3 min + 2 s por lance', time_f5_3: '5 min + 3 s por lance',
  time_f15_10: '15 min + 10 s por lance', time_per_move: '5 minutos por lance (1 minuto para uma única captura obrigatória)',
  time_corr3: 'Por correspondência: 3 dias por lance', time_custom: 'À medida: minutos + incremento', time_custom_move: 'À medida: limite por lance', custom_minutes: 'Minutos', custom_inc: 'Incremento (s)', custom_move_s: 'Segundos por lance', custom_capture_s: 'com uma só captura obrigatória (s)', rulebook: 'Regulamento', rules_official: 'Regras oficiais',
  rules_seed001: 'Regras de clube: vermelhas contra pretas, relógio por jogo, empate aos 40 e 200 lances', rules_seed000: 'Regras de clube: empate só por repetição, dama contra dama e 3 damas em 15 lances', rules_seed003: 'Inglês oficial (árbitro nos finais de damas)',
  options: 'Opções', your_colour: 'A sua cor', colour_random: 'Aleatória', colour_white: 'Brancas', colour_black: 'Pretas',
  series_games: 'Jogos da série (as cores alternam)', touch_move: 'Peça tocada, peça jogada',
  allow_suggestions: 'Os espectadores podem sugerir lances', from_position: 'Começar de uma posição (FEN)', start: 'Começar',
  full_rules: 'Regras completas', lobby: 'Jogos abertos', watch_live: 'Jogos a decorrer', watch_empty: 'Nenhum jogo público a decorrer agora.', recent_games: 'Acabados de terminar', abandoned: 'Abandonado', r_abandonment: 'o jogo foi abandonado', lobby_empty: 'Não há jogos abertos agora: crie um com «Jogo aberto no salão».',
  join: 'Entrar', watch: 'Assistir', open: 'Abrir', replay: 'Rever', create_failed: 'Não foi possível criar o jogo: {why}',
  join_failed: 'Não conseguiu entrar neste jogo: {why}. Está a assistir.', all_squares: 'todas as 64 casas',
  first_white: 'As brancas começam', first_black: 'O lado escuro começa', unknown_variant: 'Não existe a variante «{v}».',
  play_this: 'Jogar esta variante', rules_note: '',
  white: 'Brancas', black: 'Pretas', white_man: 'pedra branca', white_king: 'dama branca', black_man: 'pedra preta', black_king: 'dama preta',
  red: 'Vermelhas', red_man: 'pedra vermelha', red_king: 'dama vermelha', colour_red: 'Vermelhas (começam)', sides_now: '{a}–{b} agora',
  empty: 'vazia', captured: 'capturada', target: 'pode mover para aqui', selected: 'selecionada', must_take: 'tem de capturar',
  board: 'Tabuleiro', board_label: 'Tabuleiro, jogam as {side}', must_capture: 'A captura é obrigatória: capture com uma peça destacada.',
  cannot_move: 'Essa peça não se pode mover.', click_through: 'Várias capturas terminam aí: clique em cada casa de chegada por ordem.',
  not_connected: 'Sem ligação — a religar…', reconnecting: 'Ligação perdida. A religar…',
  game_missing: 'Não há nenhum jogo neste endereço. Pode estar mal escrito, ou a ligação é de outro site.', go_home: 'Voltar à página inicial',
  opponent_joined: 'O adversário chegou. O jogo começa!', draw_declined: 'A proposta de empate foi recusada.',
  takeback_declined: 'O pedido para voltar atrás foi recusado.', engine_level: 'Computador (nível {n})', you: 'Você', opponent: 'Adversário', player: 'Jogador',
  waiting_player: 'à espera…', clock_of: 'Relógio das {side}', waiting_opponent: 'À espera de um adversário: partilhe o link de convite.',
  finished: 'O jogo terminou.', your_move: 'É a sua vez', to_move: 'Jogam as {side}', download_pdn: 'Descarregar PDN', flip: 'Virar tabuleiro',
  undo: 'Desfazer', hint: 'Dica', offer_draw: 'Propor empate', draw_offered: 'Empate proposto.', takeback: 'Voltar atrás',
  takeback_asked: 'Pedido enviado.', draw_agreed: 'Acordar empate', abort: 'Anular', confirm_resign: 'Desistir mesmo?', resign: 'Desistir',
  rematch: 'Desforra', next_game: 'Próximo jogo →', rematch_asked: 'Desforra pedida.', draw_offer_from: 'As {side} propõem empate.', accept: 'Aceitar', decline: 'Recusar',
  takeback_from: 'As {side} pedem para voltar um lance atrás.', rematch_from: 'As {side} querem a desforra.', copy: 'Copiar', copied: 'Copiado.',
  invite_link: 'Link de convite — envie-o ao seu amigo', watch_link: 'Link para espectadores', moves: 'Lances',
  not_legal: '«{move}» não é um lance legal aqui.', type_move: 'Escreva um lance', play: 'Jogar', hint_is: 'Dica: {move}', hint_win: 'vence em {n} lances', hint_loss: 'perde em {n} lances',
  draw: 'Empate', you_won: 'Ganhou!', you_lost: 'Perdeu', wins: 'Ganham as {side}', close: 'Fechar',
  series_state: 'Jogo {n} de {of} · resultado {w}–{b} ({sides})', spectating: 'Está a assistir a este jogo.',
  spectator_suggest: 'Está a assistir. Mova uma peça para sugerir esse lance ao jogador.', suggestion_sent: 'Sugestão enviada: {move}',
  replay_title: 'Rever e importar', import: 'Importar um jogo', pdn_file: 'Ficheiro PDN', paste_pdn_fen: 'ou cole PDN ou um FEN:',
  variant_if_missing: 'Variante (se o ficheiro não a indicar)', load: 'Carregar', no_games: 'Nenhum jogo encontrado no texto.', more_games: 'Jogos seguintes do ficheiro →',
  file_too_big: 'O ficheiro tem mais de 4 MB.', game: 'Jogo', first: 'Primeiro lance', prev: 'Lance anterior', next: 'Lance seguinte',
  last: 'Último lance', play_from_here: 'Continuar daqui contra o computador',
  res_win: 'Ganham as {side}: {why}', res_draw: 'Empate: {why}', aborted: 'Anulado', start_position: 'A posição inicial', rule_diagram: 'Um exemplo no tabuleiro: o lance desenhado como uma linha, outros lances tracejados, as peças capturadas riscadas', imp_where: 'linha {line}, coluna {col}', imp_move: 'lance {ply} «{move}»', imp_setup: 'não é possível ler a posição inicial', imp_illegal_move: 'não é um lance legal aqui', imp_ambiguous_move: 'vários lances servem e o jogo não diz qual', imp_bad_move_text: 'isto não é um lance', imp_result_mismatch: 'o jogo não termina como diz o seu resultado', premove_set: 'Lance antecipado {move}: jogado assim que for a sua vez, se então for legal.', premove_dropped: 'O lance antecipado não é legal agora; foi descartado.', premove_cancel: 'Cancelar o lance antecipado', board_theme: 'Tabuleiro', 'board-wood': 'Madeira', 'board-green': 'Verde', 'board-blue': 'Azul', sound_on: 'Som ligado (clique para silenciar)', sound_off: 'Som desligado (clique para ligar)', taken_last: 'capturada no último lance', viewing_move: 'Lance {n} de {of}', back_to_game: 'Voltar ao jogo', shortcuts: 'Teclado', keys_browse: '← e → percorrem os lances', keys_ends: 'Home: o início; End ou Esc: voltar ao jogo', keys_board: 'No tabuleiro: as setas vão de casa em casa, Enter ou Espaço escolhem uma peça e as casas de chegada', touch_move_locked: 'Peça tocada: tocou na peça em {sq} e tem de a mover.', game_stops_at: 'O jogo é mostrado até um lance impossível: {error}', aborted_no_move: 'Anulado: as {side} não fizeram o primeiro lance', first_move_wait: '{side}: primeiro lance em {s} s, ou o jogo é anulado',
  r_no_moves: 'sem lances legais', r_no_pieces: 'sem peças', r_repetition: 'a mesma posição repetiu-se {n} vezes',
  r_no_progress: '{n} lances cada sem captura nem coroação', r_move_cap: 'jogaram-se {n} lances sem vencedor',
  r_kings_only: '{n} lances cada só com damas e sem captura', r_lone_king: 'a dama isolada não foi capturada em {n} lances',
  r_many_kings: '3 damas não conseguiram capturar a dama isolada em {n} lances', r_king_vs_king: 'uma dama contra uma dama não pode ganhar',
  r_lone_man: 'várias peças contra uma pedra isolada', r_one_each: 'uma peça para cada lado', r_agreement: 'acordo',
  r_resignation: 'desistência', r_time: 'tempo', r_adjudication: 'decisão do árbitro',
  v_english: 'Damas inglesas / checkers', v_russian: 'Damas russas', v_turkish: 'Damas turcas', v_brazilian: 'Damas brasileiras',
  v_international: 'Damas internacionais', v_pool: 'Damas pool', v_italian: 'Damas italianas', v_spanish: 'Damas espanholas',
  v_portuguese: 'Damas portuguesas', v_czech: 'Damas checas', v_thai: 'Damas tailandesas', v_frisian: 'Damas frísias',
  v_canadian: 'Damas canadianas',
  sum_english: 'As pedras andam uma casa na diagonal para a frente e capturam só para a frente; as damas andam e capturam uma casa em qualquer diagonal. A captura é obrigatória mas pode escolher qual; ao coroar, o lance termina. O lado escuro começa.',
  sum_russian: 'As pedras andam para a frente e capturam para a frente e para trás; as damas voam pelas diagonais. Capturar é obrigatório, qualquer sequência pode ser escolhida, e uma pedra que chega à última fila durante uma captura continua a capturar como dama.',
  sum_turkish: 'Joga-se nas 64 casas: as pedras andam e capturam para a frente ou para o lado, as damas voam por filas e colunas. É obrigatória a sequência que captura mais peças; as peças capturadas saem ao serem saltadas.',
  sum_brazilian: 'Regras internacionais num tabuleiro de 8x8: as pedras também capturam para trás, as damas voam e é obrigatório capturar o maior número de peças. Uma pedra só coroa se terminar o lance na última fila.',
  sum_international: 'O jogo mundial em 10x10 com 20 pedras cada: as pedras capturam para a frente e para trás, as damas voam e é obrigatório capturar o maior número de peças.',
  sum_pool: 'Pool americano: as pedras capturam para trás, as damas voam e qualquer captura pode ser escolhida; uma pedra que passa pela última fila a capturar não coroa. O lado escuro começa.',
  sum_italian: 'As pedras andam e capturam só para a frente e não podem capturar damas; as damas andam uma casa. É obrigatório capturar o maior número de peças, depois preferir capturar com dama e capturar damas.',
  sum_spanish: 'As pedras andam e capturam só para a frente, as damas voam. É obrigatório capturar o maior número de peças e depois de damas. O tabuleiro é invertido: a grande diagonal fica à sua direita.',
  sum_portuguese: 'Como as damas espanholas: pedras só para a frente, damas voadoras, e é obrigatória a captura de mais peças (e depois de mais damas).',
  sum_czech: 'As pedras andam e capturam só para a frente, as damas voam; se uma dama pode capturar, uma dama tem de capturar. Caso contrário a escolha é livre.',
  sum_thai: 'Oito pedras cada em duas filas. As damas voam mas param logo atrás da peça capturada; as peças saem ao serem saltadas. Qualquer captura pode ser escolhida. O lado escuro começa.',
  sum_frisian: 'Em 10x10, as peças também capturam em linha reta por filas e colunas. É obrigatória a captura de maior valor (uma dama vale mais do que uma pedra), e uma dama só pode fazer três lances seguidos sem capturar enquanto o seu lado tiver pedras.',
  sum_canadian: 'Regras internacionais num tabuleiro de 12x12 com 30 pedras cada: as pedras capturam para trás, as damas voam e é obrigatório capturar o maior número de peças.',
  log_in: 'Entrar', log_out: 'Sair', sign_up: 'Criar conta', account_name: 'Nome', password: 'Senha',
  accounts_optional: 'Uma conta guarda as suas partidas e dá-lhe uma classificação. Pode jogar sem ela.',
  account_created: 'Bem-vindo, {name}: a sua conta está pronta.', logged_in: 'Entrou como {name}.',
  rating_history_of: 'Classificação de {from} a {to} em {n} partidas valendo pontos', speed_bullet: 'Bala', speed_blitz: 'Blitz',
  speed_rapid: 'Rápida', speed_classical: 'Clássica', speed_correspondence: 'Por correspondência', games_n: '{n} partidas',
  wdl: '{w} vitórias, {d} empates, {l} derrotas', rated: 'Vale pontos', casual: 'Amistosa', result_win: 'Vitória', result_draw: 'Empate',
  result_loss: 'Derrota', state_waiting: 'À espera', state_live: 'Em jogo', state_finished: 'Terminada',
  member_since: 'Joga desde {date}', ratings: 'Classificações', no_rated_games: 'Ainda não há partidas valendo pontos.', record: 'Resultados',
  no_games: 'Ainda não há partidas.', recent_games_of: 'Partidas recentes', rated_game: 'Partida valendo pontos (muda a classificação dos dois)',
  rated_needs_login: 'Entre para jogar partidas valendo pontos', rating_change: '{rating} ({change})',
  anonymous: 'Anónimo', seek_per_move: '{s} s por lance', seek_days: '{n} dias por lance',
  seek_graph: '{n} propostas por duração e classificação',
  chat_players: 'Conversa com o adversário', chat_spectators: 'Conversa dos espectadores', chat_say: 'Escreva algo (140 caracteres)', chat_mute: 'Ocultar o que {name} escreve', chat_mute_short: 'silenciar', chat_report: 'Denunciar esta linha a um moderador', chat_report_short: 'denunciar', chat_reported: 'Denunciado. Obrigado.', chat_in_rated: 'Conversa em partidas valendo pontos',
  download_all_pdn: 'Descarregar todas as partidas (PDN)', programs: 'Programas', programs_intro: 'Um programa pode jogar pela sua conta através da API de bots (docs/bots.md).', new_token: 'Criar um token de API', token_once: 'O seu token (mostrado só agora; guarde-o em segredo):',
  quick_pairing: 'Emparelhamento rápido: {variant}', quick_rated: 'Vale pontos: junta-se a quem espera com esse relógio, ou espera por alguém.', quick_casual: 'Amistosa (entre para valer pontos): junta-se a quem espera com esse relógio, ou espera por alguém.',
  play_as_guest: 'Jogar como convidado (só um nome)', guest_explained: 'Um convidado guarda as partidas com o seu nome e joga partidas amistosas; defina uma senha mais tarde para manter a conta e jogar partidas valendo pontos.', guest_claim: 'Joga como convidado: defina uma senha para manter este nome e as suas partidas', guest_claim_button: 'Definir a senha', claimed: 'A conta é sua: entre com a senha de qualquer lugar.',
  rating_range: 'Adversários com classificação', rating_from: 'classificação mínima', rating_to: 'classificação máxima',
  nav_analysis: 'Tabuleiro de análise', an_title: 'Tabuleiro de análise', an_analyse: 'Analisar', an_win_in: 'ganha em {n}',
  an_loss_in: 'perde em {n}', an_engine_off: 'O motor está desligado.', an_game_over: 'O jogo terminou nesta posição.', an_queued: 'À espera do motor…',
  an_thinking: 'O motor está a pensar…', an_eval: 'Avaliação', an_depth: 'profundidade {d}, {n} mil posições', an_done: 'terminado',
  an_play_line: 'Jogar o primeiro lance desta linha', an_wins: 'ganham as {side}', an_to_move: 'jogam as {side}', an_no_moves: 'Ainda sem lances: faça um no tabuleiro.',
  an_setup: 'Preparar uma posição', an_palette: 'Peças a colocar', an_tool_wm: 'Pedra branca', an_tool_wk: 'Dama branca',
  an_tool_bm: 'Pedra preta', an_tool_bk: 'Dama preta', an_tool_erase: 'Tirar uma peça', an_side_to_move: 'Vez de',
  an_start_position: 'Posição inicial', an_clear: 'Tabuleiro vazio', an_done_setup: 'Feito', an_cancel: 'Cancelar',
  an_engine: 'Motor', an_lines: 'Linhas', an_delete: 'Apagar a partir daqui', an_promote: 'Tornar linha principal',
  an_comment: 'Comentário a este lance', an_export: 'Exportar PDN', an_import: 'Importar PDN', an_paste_pdn: 'Cole um jogo PDN (as variantes são mantidas):',
  rp_title: 'Análise do computador', rp_explain: 'O motor revê cada lance e mostra onde o jogo mudou.', rp_request: 'Pedir uma análise do computador',
  rp_queued: 'À espera do motor…', rp_running: 'O motor está a rever o jogo: {pct}%', rp_failed: 'A análise falhou. Tente de novo.',
  rp_graph: 'Avaliação ao longo do jogo (as brancas acima da linha); clique para ver um lance', rp_accuracy: 'precisão {n}%', rp_counts: 'imprecisões: {i} · erros: {m} · erros graves: {b}',
  rp_better: 'Melhor: {move}',
  ex_title: 'Explorador de aberturas', ex_source: 'Jogos', ex_masters: 'Mestres', ex_players: 'Jogadores daqui',
  ex_rating: 'Rating', ex_rating_max: 'rating mais alto', ex_none: 'Nenhum jogo chegou a esta posição.', ex_move: 'Lance',
  ex_games: 'Jogos', ex_results: 'Brancas · empates · pretas', ex_draws: 'empates',
  nav_puzzles: 'Problemas', pz_title: 'Problemas', pz_none: 'Ainda não há problemas desta variante: são encontrados nos jogos à medida que o motor os revê.',
  pz_find: 'Jogam as {side}: encontre o lance que ganha.', pz_good: 'Certo. Continue.', pz_solved: 'Resolvido!',
  pz_wrong: 'Esse lance não.', pz_solution: 'A linha vencedora:', pz_next: 'Próximo problema',
  pz_rating: 'O seu rating em problemas: {n}', pz_puzzle_rating: 'Problema de {n}',
  pz_other: 'Outro lance vencedor: aceite.',
};

const tr = {
  nf_title: 'Burada bir şey yok', nf_text: 'Bu adreste bir sayfa yok. Adres yanlış yazılmış olabilir ya da gösterdiği şey artık yok.', nf_home: 'Ana sayfaya dön',
  err_not_a_player: "Bunu yalnızca bu oyunun oyuncuları yapabilir.", err_not_your_turn: "Sıra {side} tarafında.", err_game_over: "Oyun bitti.", err_not_started: "Oyun başlamadı: bir rakip bekleniyor.", err_not_being_played: "Oyun oynanmıyor.", err_move_too_long: "Hamle metni çok uzun.", err_illegal_move: "Bu hamle burada kurallara uygun değil.", err_time_ran_out: "Hamleden önce süreniz doldu.", err_must_move_touched: "Dokunulan taş oynanır: {square} karesindeki taşa dokundunuz, onu oynamalısınız.", err_touched_another: "Dokunulan taş oynanır: {square} karesindeki taşa dokundunuz, onu oynamalısınız.", err_cannot_abort: "Bir oyun ancak iki taraf da hamle yapmadan iptal edilebilir.", err_draw_offer_pending: "Zaten yanıt bekleyen bir beraberlik teklifi var.", err_draw_offered_this_move: "Bu hamlede zaten beraberlik teklif ettiniz; bir hamleden sonra yeniden teklif edin.", err_no_draw_offer: "Yanıtlanacak bir beraberlik teklifi yok.", err_engine_busy: "Bilgisayar meşgul; biraz sonra yeniden deneyin.", err_nothing_to_take_back: "Geri alınacak hamle yok.", err_no_move_of_yours: "Henüz geri alınacak bir hamleniz yok.", err_wait_for_engine: "Bilgisayarın hamlesini bekleyin.", err_takeback_pending: "Zaten yanıt bekleyen bir geri alma isteği var.", err_takeback_asked_this_move: "Bu hamlede zaten geri alma istediniz.", err_no_takeback_request: "Yanıtlanacak bir geri alma isteği yok.", err_rematch_too_early: "Rövanş oyun bittikten sonra istenebilir.", err_next_game_exists: "Sonraki oyun zaten hazır.", err_rematch_asked: "Zaten rövanş istediniz.", err_no_free_seat: "Bu oyunda boş yer yok.", err_invite_needed: "Bu oyun bir arkadaş için: oyunu kuranın paylaştığı davet bağlantısını açın.", err_log_in_for_rated: "Puanlı oyun oynamak için giriş yapın.", err_guest_rated: "Misafirler yalnızca puansız oyun oynar: puanlı oyunlar için bir şifre belirleyin.", err_rated_against_self: "Kendinize karşı puanlı oyun oynayamazsınız.", err_suggestions_off: "Oyuncular bu oyunda önerilere izin vermedi.", err_players_cannot_suggest: "Oyuncular hamle öneremez; izleyiciler önerebilir.", err_suggest_over_socket: "Öneriler oyunun sayfasından gönderilir.", err_not_legal_here: "{arg} burada kurallara uygun bir hamle değil.", err_too_many_suggestions: "Zaten çok fazla öneri var.", err_hints_against_engine_only: "İpuçları yalnızca bilgisayara karşı oyunlarda verilir.", err_hint_for_player_to_move: "İpucu hamle sırası olan oyuncu içindir.", err_hint_busy: "Zaten bir ipucu hesaplanıyor.", err_too_many_connections: "Adresinizden bu oyuna çok fazla bağlantı var.", err_chat_empty: "Mesaj boş.", err_chat_too_long: "Bir mesaj en fazla {n} karakterdir.", err_chat_full: "Bu oyunun sohbeti dolu.", err_chat_too_fast: "Çok hızlı yazıyorsunuz; biraz bekleyin.", err_chat_muted: "Bir moderatör sohbetinizi susturdu.", err_no_chat_on_one_device: "Tek cihazda oynanan oyunda sohbet yok.", err_watch_to_chat: "İzleyicilerle sohbet etmek için oyunu izleyin.", err_not_moderator: "Bunu yalnızca moderatörler yapabilir.", err_no_chat_line: "Böyle bir sohbet satırı yok.", err_not_found: "Böyle bir oyun yok.", err_no_seek: "O açık oyun artık yok.", err_no_player: "Bu adda bir oyuncu yok.", err_no_route: "Bu adreste bir şey yok.", err_unavailable: "Sunucu meşgul; biraz sonra yeniden deneyin.", err_gone: "Oyun yeniden yükleniyor; yeniden deneyin.", err_internal: "Sunucuda bir şeyler ters gitti; yeniden deneyin.",
  mod_title: 'Moderasyon', mod_none: 'Bildirilen sohbet satırı yok.', mod_game: 'Oyun {id}', mod_reason: 'Bildirim: {reason}', mod_hide: 'Satırı gizle', mod_mute: 'Yazarı sustur', mod_dismiss: 'Reddet', mod_no_account: 'Yazarın hesabı yok: satırı gizleyin', mod_handled: '{action}: {by}', mod_action_hide: 'Gizlendi', mod_action_mute: 'Yazar susturuldu', mod_action_dismiss: 'Reddedildi', mod_done_hide: 'Satır gizlendi.', mod_done_mute: 'Yazar susturuldu ve satır gizlendi.', mod_done_dismiss: 'Bildirim reddedildi.',
  skip: 'İçeriğe geç', nav_play: 'Oyna', nav_replay: 'İzle ve içe aktar', language: 'Dil', pieces: 'Taşlar',
  'theme-wb': 'Beyaz / siyah', 'theme-wr': 'Beyaz / kırmızı', 'theme-bb': 'Bej / siyah',
  loading: 'Yükleniyor…', err_network: 'Sunucuya ulaşılamıyor. Bağlantınızı kontrol edin.',
  new_game: 'Yeni oyun', variant: 'Tür', mode: 'Mod', mode_ai: 'Bilgisayara karşı', mode_hotseat: 'Bu cihazda iki oyuncu',
  mode_friend: 'Bir arkadaşı davet et', mode_open: 'Salonda açık oyun', level: 'Seviye', level_n: 'Seviye {n}', beginner: 'başlangıç',
  strongest: 'en güçlü', time_control: 'Süre', time_none: 'Saat yok', time_g5: 'Oyun başına 5 dakika',
  time_g10: 'Oyun başına 10 dakika', time_f3_2: '3 dk + hamle başına 2 sn', time_f5_3: '5 dk + hamle başına 3 sn',
  time_f15_10: '15 dk + hamle başına 10 sn', time_per_move: 'Hamle başına 5 dakika (tek zorunlu alışta 1 dakika)',
  time_corr3: 'Yazışmalı: hamle başına 3 gün', time_custom: 'Kendi sürem: dakika + artış', time_custom_move: 'Kendi sürem: hamle başına sınır', custom_minutes: 'Dakika', custom_inc: 'Artış (sn)', custom_move_s: 'Hamle başına saniye', custom_capture_s: 'tek zorunlu alışta (sn)', rulebook: 'Kurallar', rules_official: 'Resmî kurallar',
  rules_seed001: 'Kulüp kuralları: Kırmızı Siyaha karşı, oyun saati, 40 ve 200 hamlede beraberlik', rules_seed000: 'Kulüp kuralları: yalnız tekrar, damaya karşı dama ve 15 hamlede 3 dama beraberliği', rules_seed003: 'Resmî İngiliz (dama sonlarında hakem)',
  options: 'Seçenekler', your_colour: 'Renginiz', colour_random: 'Rastgele', colour_white: 'Beyaz', colour_black: 'Siyah',
  series_games: 'Serideki oyun sayısı (renkler değişir)', touch_move: 'Dokunulan taş oynanır',
  allow_suggestions: 'İzleyiciler hamle önerebilir', from_position: 'Bir pozisyondan başla (FEN)', start: 'Başla',
  full_rules: 'Tüm kurallar', lobby: 'Katılınabilecek oyunlar', watch_live: 'Oynanan oyunlar', watch_empty: 'Şu anda oynanan herkese açık oyun yok.', recent_games: 'Yeni bitenler', abandoned: 'Terk edildi', r_abandonment: 'oyun terk edildi', lobby_empty: 'Şu anda açık oyun yok: «Salonda açık oyun» ile bir tane oluşturun.',
  join: 'Katıl', watch: 'İzle', open: 'Aç', replay: 'Tekrar izle', create_failed: 'Oyun oluşturulamadı: {why}',
  join_failed: 'Bu oyuna katılamadınız: {why}. Oyunu izliyorsunuz.', all_squares: '64 karenin hepsi',
  first_white: 'Beyaz başlar', first_black: 'Koyu taraf başlar', unknown_variant: '"{v}" diye bir tür yok.',
  play_this: 'Bu türü oyna', rules_note: 'Kuralların tam metni İngilizcedir.',
  white: 'Beyaz', black: 'Siyah', white_man: 'beyaz taş', white_king: 'beyaz dama', black_man: 'siyah taş', black_king: 'siyah dama',
  red: 'Kırmızı', red_man: 'kırmızı taş', red_king: 'kırmızı dama', colour_red: 'Kırmızı (başlar)', sides_now: 'şimdiki {a}–{b}',
  empty: 'boş', captured: 'alındı', target: 'buraya oynayabilirsiniz', selected: 'seçili', must_take: 'almak zorunda',
  board: 'Tahta', board_label: 'Tahta, sıra {side}', must_capture: 'Taş almak zorunludur: vurgulanan bir taşla alın.',
  cannot_move: 'Bu taş oynayamaz.', click_through: 'Birkaç alış orada bitiyor: iniş karelerine sırayla tıklayın.',
  not_connected: 'Bağlantı yok — yeniden bağlanılıyor…', reconnecting: 'Bağlantı koptu. Yeniden bağlanılıyor…',
  game_missing: 'Bu adreste bir oyun yok. Adres yanlış yazılmış ya da bağlantı başka bir siteden olabilir.', go_home: 'Ana sayfaya dön',
  opponent_joined: 'Rakibiniz geldi. Oyun başlıyor!', draw_declined: 'Beraberlik teklifi reddedildi.',
  takeback_declined: 'Geri alma reddedildi.', engine_level: 'Bilgisayar (seviye {n})', you: 'Siz', opponent: 'Rakip', player: 'Oyuncu',
  waiting_player: 'bekleniyor…', clock_of: '{side} saati', waiting_opponent: 'Rakip bekleniyor: davet bağlantısını paylaşın.',
  finished: 'Oyun bitti.', your_move: 'Sıra sizde', to_move: 'Sıra: {side}', download_pdn: 'PDN indir', flip: 'Tahtayı çevir',
  undo: 'Geri al', hint: 'İpucu', offer_draw: 'Beraberlik teklif et', draw_offered: 'Beraberlik teklif edildi.', takeback: 'Hamleyi geri al',
  takeback_asked: 'Geri alma istendi.', draw_agreed: 'Beraberlikte anlaş', abort: 'İptal', confirm_resign: 'Gerçekten terk mi?', resign: 'Terk et',
  rematch: 'Rövanş', next_game: 'Sonraki oyun →', rematch_asked: 'Rövanş istendi.', draw_offer_from: '{side} beraberlik teklif ediyor.', accept: 'Kabul', decline: 'Reddet',
  takeback_from: '{side} bir hamleyi geri almak istiyor.', rematch_from: '{side} rövanş istiyor.', copy: 'Kopyala', copied: 'Kopyalandı.',
  invite_link: 'Davet bağlantısı — arkadaşınıza gönderin', watch_link: 'İzleme bağlantısı — izleyiciler için', moves: 'Hamleler',
  not_legal: '"{move}" burada geçerli bir hamle değil.', type_move: 'Hamle yazın', play: 'Oyna', hint_is: 'İpucu: {move}', hint_win: '{n} hamlede kazanır', hint_loss: '{n} hamlede kaybeder',
  draw: 'Berabere', you_won: 'Kazandınız!', you_lost: 'Kaybettiniz', wins: '{side} kazandı', close: 'Kapat',
  series_state: 'Oyun {n} / {of} · skor {w}–{b} ({sides})', spectating: 'Bu oyunu izliyorsunuz.',
  spectator_suggest: 'İzliyorsunuz. Oyuncuya hamle önermek için bir taşı oynayın.', suggestion_sent: 'Öneri gönderildi: {move}',
  replay_title: 'İzle ve içe aktar', import: 'Oyun içe aktar', pdn_file: 'PDN dosyası', paste_pdn_fen: 'ya da PDN veya FEN yapıştırın:',
  variant_if_missing: 'Tür (dosyada yazmıyorsa)', load: 'Yükle', no_games: 'Metinde oyun bulunamadı.', more_games: 'Dosyadaki sonraki oyunlar →',
  file_too_big: 'Dosya 4 MB’tan büyük.', game: 'Oyun', first: 'İlk hamle', prev: 'Önceki hamle', next: 'Sonraki hamle',
  last: 'Son hamle', play_from_here: 'Buradan bilgisayara karşı devam et',
  res_win: '{side} kazandı: {why}', res_draw: 'Berabere: {why}', aborted: 'İptal edildi', start_position: 'Başlangıç konumu', rule_diagram: 'Tahtada bir örnek: hamle bir çizgiyle, diğer hamleler kesik çizgiyle, alınan taşlar çarpıyla gösterilir', imp_where: 'satır {line}, sütun {col}', imp_move: '{ply}. hamle «{move}»', imp_setup: 'başlangıç konumu okunamıyor', imp_illegal_move: 'burada kurala uygun bir hamle değil', imp_ambiguous_move: 'birden çok hamle uyuyor ve oyun hangisi olduğunu söylemiyor', imp_bad_move_text: 'bu bir hamle değil', imp_result_mismatch: 'oyun, kayıtlı sonucunun söylediği gibi bitmiyor', premove_set: 'Ön hamle {move}: sıra size geçince, o an kuralsa oynanır.', premove_dropped: 'Ön hamle şimdi kurala uygun değil; bırakıldı.', premove_cancel: 'Ön hamleyi iptal et', board_theme: 'Tahta', 'board-wood': 'Ahşap', 'board-green': 'Yeşil', 'board-blue': 'Mavi', sound_on: 'Ses açık (kapatmak için tıklayın)', sound_off: 'Ses kapalı (açmak için tıklayın)', taken_last: 'son hamlede alındı', viewing_move: 'Hamle {n} / {of}', back_to_game: 'Oyuna dön', shortcuts: 'Klavye', keys_browse: '← ve → hamleler arasında gezer', keys_ends: 'Home: başlangıç; End ya da Esc: oyuna dönüş', keys_board: 'Tahtada: ok tuşları kareden kareye gider, Enter ya da Boşluk bir taşı ve varış karelerini seçer', touch_move_locked: 'Dokunulan taş oynanır: {sq} karesindeki taşa dokundunuz, onu oynamalısınız.', game_stops_at: 'Oyun, oynanamayan bir hamleye kadar gösteriliyor: {error}', aborted_no_move: 'İptal edildi: {side} ilk hamlesini yapmadı', first_move_wait: '{side}: ilk hamle {s} sn içinde, yoksa oyun iptal edilir',
  r_no_moves: 'geçerli hamle kalmadı', r_no_pieces: 'taş kalmadı', r_repetition: 'aynı pozisyon {n} kez tekrarlandı',
  r_no_progress: 'alış ya da dama çıkmadan her biri {n} hamle', r_move_cap: 'kazanan olmadan {n} hamle oynandı',
  r_kings_only: 'yalnız damalar oynadı, her biri {n} hamle, alış yok', r_lone_king: 'yalnız dama {n} hamlede yakalanamadı',
  r_many_kings: '3 dama yalnız damayı {n} hamlede yakalayamadı', r_king_vs_king: 'bir damaya karşı bir dama kazanamaz',
  r_lone_man: 'yalnız bir taşa karşı birkaç taş', r_one_each: 'her iki tarafta birer taş', r_agreement: 'anlaşma',
  r_resignation: 'terk', r_time: 'süre', r_adjudication: 'hakem kararı',
  v_english: 'İngiliz daması / checkers', v_russian: 'Rus daması', v_turkish: 'Türk daması', v_brazilian: 'Brezilya daması',
  v_international: 'Uluslararası dama', v_pool: 'Pool daması', v_italian: 'İtalyan daması', v_spanish: 'İspanyol daması',
  v_portuguese: 'Portekiz daması', v_czech: 'Çek daması', v_thai: 'Tay daması', v_frisian: 'Frizya daması',
  v_canadian: 'Kanada daması',
  sum_english: 'Taşlar çapraz olarak bir kare ileri gider ve yalnız ileri alır; damalar her çapraz yönde bir kare gider ve alır. Almak zorunludur ama hangisini seçebilirsiniz; dama çıkan taşın hamlesi biter. Koyu taraf başlar.',
  sum_russian: 'Taşlar ileri gider, ileri ve geri alır; damalar çaprazlarda uçar. Almak zorunludur, herhangi bir seri seçilebilir; alış sırasında son sıraya varan taş dama olarak almaya devam eder.',
  sum_turkish: '64 karenin hepsinde oynanır: taşlar ileri ya da yana gider ve alır, damalar sıra ve sütunlarda uçar. En çok taş alan seri zorunludur; alınan taşlar üzerinden atlanınca kalkar.',
  sum_brazilian: '8x8 tahtada uluslararası kurallar: taşlar geriye de alır, damalar uçar ve en çok taşı almak zorunludur. Taş ancak hamlesini son sırada bitirirse dama olur.',
  sum_international: '10x10 tahtada 20’şer taşla dünya oyunu: taşlar ileri ve geri alır, damalar uçar, en çok taşı almak zorunludur.',
  sum_pool: 'Amerikan pool: taşlar geriye alır, damalar uçar, herhangi bir alış seçilebilir; alış sırasında son sıradan geçen taş dama olmaz. Koyu taraf başlar.',
  sum_italian: 'Taşlar yalnız ileri gider ve alır, damaları alamaz; damalar bir kare gider. En çok taşı almak, sonra dama ile almak ve dama almak önceliklidir.',
  sum_spanish: 'Taşlar yalnız ileri gider ve alır, damalar uçar. En çok taşı, sonra en çok damayı almak zorunludur. Tahta aynalanmıştır: büyük çapraz sağınızdadır.',
  sum_portuguese: 'İspanyol daması gibi: taşlar yalnız ileri, damalar uçar; en çok taşı (sonra en çok damayı) alan alış zorunludur.',
  sum_czech: 'Taşlar yalnız ileri gider ve alır, damalar uçar; bir dama alabiliyorsa alışı bir dama yapmalıdır. Yoksa seçim serbesttir.',
  sum_thai: 'İki sırada sekizer taş. Damalar uçar ama aldıkları taşın hemen arkasına iner; alınan taşlar atlanınca kalkar. Herhangi bir alış seçilebilir. Koyu taraf başlar.',
  sum_frisian: '10x10 tahtada taşlar sıra ve sütunlarda düz de alır. En değerli alış zorunludur (dama taştan değerlidir); tarafın taşı varken bir dama üst üste en çok üç alışsız hamle yapabilir.',
  sum_canadian: '12x12 tahtada 30’ar taşla uluslararası kurallar: taşlar geriye alır, damalar uçar, en çok taşı almak zorunludur.',
  log_in: 'Giriş yap', log_out: 'Çıkış yap', sign_up: 'Hesap aç', account_name: 'Ad', password: 'Parola',
  accounts_optional: 'Hesap oyunlarınızı saklar ve size bir puan verir. Hesapsız da oynayabilirsiniz.',
  account_created: 'Hoş geldiniz {name}: hesabınız hazır.', logged_in: '{name} olarak giriş yapıldı.',
  rating_history_of: '{n} puanlı oyunda {from} puandan {to} puana', speed_bullet: 'Kurşun', speed_blitz: 'Yıldırım',
  speed_rapid: 'Hızlı', speed_classical: 'Klasik', speed_correspondence: 'Yazışmalı', games_n: '{n} oyun',
  wdl: '{w} galibiyet, {d} beraberlik, {l} yenilgi', rated: 'Puanlı', casual: 'Puansız', result_win: 'Kazandı', result_draw: 'Berabere',
  result_loss: 'Kaybetti', state_waiting: 'Bekliyor', state_live: 'Oynanıyor', state_finished: 'Bitti',
  member_since: '{date} tarihinden beri oynuyor', ratings: 'Puanlar', no_rated_games: 'Henüz puanlı oyun yok.', record: 'Sonuçlar',
  no_games: 'Henüz oyun yok.', recent_games_of: 'Son oyunlar', rated_game: 'Puanlı oyun (iki oyuncunun puanını değiştirir)',
  rated_needs_login: 'Puanlı oynamak için giriş yapın', rating_change: '{rating} ({change})',
  anonymous: 'Anonim', seek_per_move: 'hamle başına {s} sn', seek_days: 'hamle başına {n} gün',
  seek_graph: 'Süreye ve puana göre {n} oyun teklifi',
  chat_players: 'Rakibinizle sohbet', chat_spectators: 'İzleyici sohbeti', chat_say: 'Bir şey yazın (140 karakter)', chat_mute: '{name} yazdıklarını gizle', chat_mute_short: 'sustur', chat_report: 'Bu satırı moderatöre bildir', chat_report_short: 'bildir', chat_reported: 'Bildirildi. Teşekkürler.', chat_in_rated: 'Puanlı oyunlarda sohbet',
  download_all_pdn: 'Tüm oyunları indir (PDN)', programs: 'Programlar', programs_intro: 'Bir program bot API ile hesabınız adına oynayabilir (docs/bots.md).', new_token: 'API anahtarı oluştur', token_once: 'Anahtarınız (yalnızca şimdi gösterilir; gizli tutun):',
  quick_pairing: 'Hızlı eşleşme: {variant}', quick_rated: 'Puanlı: o sürede bekleyen birine katılır ya da birini bekler.', quick_casual: 'Puansız (puanlı için giriş yapın): o sürede bekleyen birine katılır ya da birini bekler.',
  play_as_guest: 'Misafir olarak oyna (yalnızca ad)', guest_explained: 'Misafir oyunlarını adıyla saklar ve puansız oynar; hesabı korumak ve puanlı oynamak için sonra bir parola belirleyin.', guest_claim: 'Misafir olarak oynuyorsunuz: bu adı ve oyunlarını korumak için bir parola belirleyin', guest_claim_button: 'Parolayı belirle', claimed: 'Hesap artık sizin: parolasıyla her yerden giriş yapın.',
  rating_range: 'Rakip puanı', rating_from: 'en düşük puan', rating_to: 'en yüksek puan',
  nav_analysis: 'Analiz tahtası', an_title: 'Analiz tahtası', an_analyse: 'Analiz et', an_win_in: '{n} hamlede kazanır',
  an_loss_in: '{n} hamlede kaybeder', an_engine_off: 'Motor kapalı.', an_game_over: 'Bu konumda oyun bitti.', an_queued: 'Motor bekleniyor…',
  an_thinking: 'Motor düşünüyor…', an_eval: 'Değerlendirme', an_depth: 'derinlik {d}, {n} bin konum', an_done: 'bitti',
  an_play_line: 'Bu hattın ilk hamlesini oyna', an_wins: '{side} kazanır', an_to_move: 'Sıra: {side}', an_no_moves: 'Henüz hamle yok: tahtada bir hamle yapın.',
  an_setup: 'Konum kur', an_palette: 'Yerleştirilecek taşlar', an_tool_wm: 'Beyaz taş', an_tool_wk: 'Beyaz dama',
  an_tool_bm: 'Siyah taş', an_tool_bk: 'Siyah dama', an_tool_erase: 'Taş kaldır', an_side_to_move: 'Hamle sırası',
  an_start_position: 'Başlangıç konumu', an_clear: 'Boş tahta', an_done_setup: 'Tamam', an_cancel: 'Vazgeç',
  an_engine: 'Motor', an_lines: 'Hatlar', an_delete: 'Buradan sonrasını sil', an_promote: 'Ana hat yap',
  an_comment: 'Bu hamleye yorum', an_export: 'PDN dışa aktar', an_import: 'PDN içe aktar', an_paste_pdn: 'Bir PDN oyunu yapıştırın (varyantları korunur):',
  rp_title: 'Bilgisayar analizi', rp_explain: 'Motor her hamleyi inceler ve oyunun nerede döndüğünü gösterir.', rp_request: 'Bilgisayar analizi iste',
  rp_queued: 'Motor bekleniyor…', rp_running: 'Motor oyunu inceliyor: %{pct}', rp_failed: 'Analiz başarısız oldu. Yeniden deneyin.',
  rp_graph: 'Oyun boyunca değerlendirme (beyaz çizginin üstünde); bir hamleyi görmek için tıklayın', rp_accuracy: 'doğruluk %{n}', rp_counts: 'eksik hamle: {i} · hata: {m} · büyük hata: {b}',
  rp_better: 'Daha iyisi: {move}',
  ex_title: 'Açılış gezgini', ex_source: 'Oyunlar', ex_masters: 'Ustalar', ex_players: 'Buradaki oyuncular',
  ex_rating: 'Puan', ex_rating_max: 'en yüksek puan', ex_none: 'Bu konuma ulaşan oyun yok.', ex_move: 'Hamle',
  ex_games: 'Oyun', ex_results: 'Beyaz · berabere · siyah', ex_draws: 'berabere',
  nav_puzzles: 'Bulmacalar', pz_title: 'Bulmacalar', pz_none: 'Bu varyant için henüz bulmaca yok: motor oyunları inceledikçe bulunurlar.',
  pz_find: 'Sıra {side}: kazandıran hamleyi bulun.', pz_good: 'Doğru. Devam edin.', pz_solved: 'Çözüldü!',
  pz_wrong: 'O hamle değil.', pz_solution: 'Kazandıran hat:', pz_next: 'Sonraki bulmaca',
  pz_rating: 'Bulmaca puanınız: {n}', pz_puzzle_rating: 'Bulmaca puanı {n}',
  pz_other: 'Kazandıran başka bir hamle: kabul edildi.',
};

const ru = {
  nf_title: 'Здесь ничего нет', nf_text: 'По этому адресу нет страницы. Возможно, в адресе опечатка или то, что он показывал, удалено.', nf_home: 'На главную',
  err_not_a_player: "Это могут делать только игроки этой партии.", err_not_your_turn: "Сейчас ходят {side}.", err_game_over: "Партия окончена.", err_not_started: "Партия не началась: ждём соперника.", err_not_being_played: "Партия сейчас не идёт.", err_move_too_long: "Слишком длинная запись хода.", err_illegal_move: "Здесь так ходить нельзя.", err_time_ran_out: "Ваше время истекло до хода.", err_must_move_touched: "Тронул — ходи: вы тронули шашку на {square} и должны ходить ею.", err_touched_another: "Тронул — ходи: вы тронули шашку на {square} и должны ходить ею.", err_cannot_abort: "Партию можно отменить только до того, как обе стороны сделали ход.", err_draw_offer_pending: "Предложение ничьей уже ждёт ответа.", err_draw_offered_this_move: "Вы уже предлагали ничью на этом ходу; предложите снова после хода.", err_no_draw_offer: "Нет предложения ничьей, на которое можно ответить.", err_engine_busy: "Компьютер занят; попробуйте чуть позже.", err_nothing_to_take_back: "Нет хода, который можно вернуть.", err_no_move_of_yours: "У вас ещё нет хода, который можно вернуть.", err_wait_for_engine: "Дождитесь хода компьютера.", err_takeback_pending: "Просьба вернуть ход уже ждёт ответа.", err_takeback_asked_this_move: "Вы уже просили вернуть ход на этом ходу.", err_no_takeback_request: "Нет просьбы вернуть ход, на которую можно ответить.", err_rematch_too_early: "Реванш можно попросить, когда партия окончена.", err_next_game_exists: "Следующая партия уже создана.", err_rematch_asked: "Вы уже попросили реванш.", err_no_free_seat: "В этой партии нет свободного места.", err_invite_needed: "Эта партия для друга: откройте ссылку-приглашение от её создателя.", err_log_in_for_rated: "Войдите, чтобы играть рейтинговую партию.", err_guest_rated: "Гость играет только товарищеские партии: задайте пароль, чтобы играть рейтинговые.", err_rated_against_self: "Нельзя играть рейтинговую партию против самого себя.", err_suggestions_off: "Игроки не разрешили подсказки в этой партии.", err_players_cannot_suggest: "Игроки не могут подсказывать ходы; зрители могут.", err_suggest_over_socket: "Подсказки отправляются со страницы партии.", err_not_legal_here: "{arg} — здесь недопустимый ход.", err_too_many_suggestions: "Подсказок уже слишком много.", err_hints_against_engine_only: "Подсказки есть только в партиях против компьютера.", err_hint_for_player_to_move: "Подсказка — для игрока, чей ход.", err_hint_busy: "Подсказка уже считается.", err_too_many_connections: "Слишком много подключений к этой партии с вашего адреса.", err_chat_empty: "Сообщение пустое.", err_chat_too_long: "В сообщении не больше {n} символов.", err_chat_full: "Чат этой партии заполнен.", err_chat_too_fast: "Вы пишете слишком быстро; подождите немного.", err_chat_muted: "Модератор запретил вам писать в чат.", err_no_chat_on_one_device: "В партии на одном устройстве нет чата.", err_watch_to_chat: "Смотрите партию, чтобы общаться со зрителями.", err_not_moderator: "Это могут делать только модераторы.", err_no_chat_line: "Такого сообщения в чате нет.", err_not_found: "Такой партии нет.", err_no_seek: "Эта открытая партия уже недоступна.", err_no_player: "Игрока с таким именем нет.", err_no_route: "По этому адресу ничего нет.", err_unavailable: "Сервер занят; попробуйте чуть позже.", err_gone: "Партия перезагружается; попробуйте ещё раз.", err_internal: "На сервере что-то пошло не так; попробуйте ещё раз.",
  mod_title: 'Модерация', mod_none: 'Жалоб на сообщения нет.', mod_game: 'Партия {id}', mod_reason: 'Жалоба: {reason}', mod_hide: 'Скрыть сообщение', mod_mute: 'Запретить автору чат', mod_dismiss: 'Отклонить', mod_no_account: 'У автора нет учётной записи: скройте сообщение', mod_handled: '{action}: {by}', mod_action_hide: 'Скрыто', mod_action_mute: 'Чат автора запрещён', mod_action_dismiss: 'Отклонено', mod_done_hide: 'Сообщение скрыто.', mod_done_mute: 'Чат автора запрещён, сообщение скрыто.', mod_done_dismiss: 'Жалоба отклонена.',
  skip: 'К содержимому', nav_play: 'Играть', nav_replay: 'Просмотр и импорт', language: 'Язык', pieces: 'Шашки',
  'theme-wb': 'Белые / чёрные', 'theme-wr': 'Белые / красные', 'theme-bb': 'Бежевые / чёрные',
  loading: 'Загрузка…', err_network: 'Сервер недоступен. Проверьте подключение.',
  new_game: 'Новая партия', variant: 'Вариант', mode: 'Режим', mode_ai: 'Против компьютера', mode_hotseat: 'Вдвоём на одном устройстве',
  mode_friend: 'Пригласить друга', mode_open: 'Открытая партия в зале', level: 'Уровень', level_n: 'Уровень {n}', beginner: 'новичок',
  strongest: 'сильнейший', time_control: 'Контроль времени', time_none: 'Без часов', time_g5: '5 минут на партию',
  time_g10: '10 минут на партию', time_f3_2: '3 мин + 2 с за ход', time_f5_3: '5 мин + 3 с за ход',
  time_f15_10: '15 мин + 10 с за ход', time_per_move: '5 минут на ход (1 минута на единственное обязательное взятие)',
  time_corr3: 'Заочно: 3 дня на ход', time_custom: 'Свой: минуты + добавка', time_custom_move: 'Свой: лимит на ход', custom_minutes: 'Минуты', custom_inc: 'Добавка (с)', custom_move_s: 'Секунд на ход', custom_capture_s: 'при единственном обязательном взятии (с)', rulebook: 'Правила', rules_official: 'Официальные правила',
  rules_seed001: 'Клубные правила: красные против чёрных, часы на партию, ничья после 40 и 200 ходов', rules_seed000: 'Клубные правила: ничья только по повторению, дамка против дамки и 3 дамки за 15 ходов', rules_seed003: 'Официальные английские (арбитр в дамочных окончаниях)',
  options: 'Настройки', your_colour: 'Ваш цвет', colour_random: 'Случайно', colour_white: 'Белые', colour_black: 'Чёрные',
  series_games: 'Партий в матче (цвета чередуются)', touch_move: 'Взялся — ходи',
  allow_suggestions: 'Зрители могут подсказывать ходы', from_position: 'Начать с позиции (FEN)', start: 'Начать',
  full_rules: 'Полные правила', lobby: 'Открытые партии', watch_live: 'Идущие партии', watch_empty: 'Сейчас не идёт ни одной открытой партии.', recent_games: 'Только что закончились', abandoned: 'Брошена', r_abandonment: 'партия брошена', lobby_empty: 'Сейчас нет открытых партий: создайте её через «Открытая партия в зале».',
  join: 'Войти', watch: 'Смотреть', open: 'Открыть', replay: 'Просмотр', create_failed: 'Не удалось создать партию: {why}',
  join_failed: 'Не удалось войти в партию: {why}. Вы зритель.', all_squares: 'все 64 поля',
  first_white: 'Начинают белые', first_black: 'Начинает тёмная сторона', unknown_variant: 'Варианта «{v}» нет.',
  play_this: 'Играть в этот вариант', rules_note: 'Полный текст правил — на английском.',
  white: 'Белые', black: 'Чёрные', white_man: 'белая шашка', white_king: 'белая дамка', black_man: 'чёрная шашка', black_king: 'чёрная дамка',
  red: 'Красные', red_man: 'красная шашка', red_king: 'красная дамка', colour_red: 'Красные (начинают)', sides_now: 'сейчас {a}–{b}',
  empty: 'пусто', captured: 'взята', target: 'сюда можно пойти', selected: 'выбрана', must_take: 'должна бить',
  board: 'Доска', board_label: 'Доска, ход: {side}', must_capture: 'Бить обязательно: бейте подсвеченной шашкой.',
  cannot_move: 'Эта шашка не может ходить.', click_through: 'Туда ведут несколько взятий: нажмите поля остановки по очереди.',
  not_connected: 'Нет связи — подключаемся…', reconnecting: 'Связь потеряна. Подключаемся снова…',
  game_missing: 'По этому адресу партии нет. Возможно, адрес набран с ошибкой или ссылка с другого сайта.', go_home: 'На главную страницу',
  opponent_joined: 'Соперник пришёл. Партия начинается!', draw_declined: 'Предложение ничьей отклонено.',
  takeback_declined: 'Отмена хода отклонена.', engine_level: 'Компьютер (уровень {n})', you: 'Вы', opponent: 'Соперник', player: 'Игрок',
  waiting_player: 'ожидание…', clock_of: 'Часы: {side}', waiting_opponent: 'Ждём соперника — отправьте ссылку-приглашение.',
  finished: 'Партия окончена.', your_move: 'Ваш ход', to_move: 'Ход: {side}', download_pdn: 'Скачать PDN', flip: 'Перевернуть доску',
  undo: 'Отменить', hint: 'Подсказка', offer_draw: 'Предложить ничью', draw_offered: 'Ничья предложена.', takeback: 'Вернуть ход',
  takeback_asked: 'Запрос отправлен.', draw_agreed: 'Согласовать ничью', abort: 'Прервать', confirm_resign: 'Точно сдаться?', resign: 'Сдаться',
  rematch: 'Реванш', next_game: 'Следующая партия →', rematch_asked: 'Реванш предложен.', draw_offer_from: '{side} предлагают ничью.', accept: 'Принять', decline: 'Отклонить',
  takeback_from: '{side} просят вернуть ход.', rematch_from: '{side} предлагают реванш.', copy: 'Копировать', copied: 'Скопировано.',
  invite_link: 'Ссылка-приглашение — отправьте другу', watch_link: 'Ссылка для зрителей', moves: 'Ходы',
  not_legal: '«{move}» — здесь невозможный ход.', type_move: 'Введите ход', play: 'Ходить', hint_is: 'Подсказка: {move}', hint_win: 'выигрыш за {n} ходов', hint_loss: 'проигрыш за {n} ходов',
  draw: 'Ничья', you_won: 'Вы победили!', you_lost: 'Вы проиграли', wins: 'Победа: {side}', close: 'Закрыть',
  series_state: 'Партия {n} из {of} · счёт {w}–{b} ({sides})', spectating: 'Вы смотрите эту партию.',
  spectator_suggest: 'Вы зритель. Сделайте ход, чтобы подсказать его игроку.', suggestion_sent: 'Подсказка отправлена: {move}',
  replay_title: 'Просмотр и импорт', import: 'Импорт партии', pdn_file: 'Файл PDN', paste_pdn_fen: 'или вставьте PDN или FEN:',
  variant_if_missing: 'Вариант (если в файле не указан)', load: 'Загрузить', no_games: 'В тексте не найдено партий.', more_games: 'Следующие партии файла →',
  file_too_big: 'Файл больше 4 МБ.', game: 'Партия', first: 'Первый ход', prev: 'Предыдущий ход', next: 'Следующий ход',
  last: 'Последний ход', play_from_here: 'Играть отсюда против компьютера',
  res_win: 'Победа: {side}, {why}', res_draw: 'Ничья: {why}', aborted: 'Прервана', start_position: 'Начальная позиция', rule_diagram: 'Пример на доске: ход показан линией, другие ходы пунктиром, побитые шашки перечёркнуты', imp_where: 'строка {line}, столбец {col}', imp_move: 'ход {ply} «{move}»', imp_setup: 'начальную позицию нельзя прочесть', imp_illegal_move: 'здесь такой ход невозможен', imp_ambiguous_move: 'подходят несколько ходов, и партия не говорит, какой', imp_bad_move_text: 'это не ход', imp_result_mismatch: 'партия кончается не так, как записано в её результате', premove_set: 'Предход {move}: будет сыгран, как только наступит ваш ход, если он тогда возможен.', premove_dropped: 'Предход сейчас невозможен и отменён.', premove_cancel: 'Отменить предход', board_theme: 'Доска', 'board-wood': 'Дерево', 'board-green': 'Зелёная', 'board-blue': 'Синяя', sound_on: 'Звук включён (нажмите, чтобы выключить)', sound_off: 'Звук выключен (нажмите, чтобы включить)', taken_last: 'взята последним ходом', viewing_move: 'Ход {n} из {of}', back_to_game: 'Вернуться к партии', shortcuts: 'Клавиатура', keys_browse: '← и → листают ходы', keys_ends: 'Home — начало; End или Esc — назад к партии', keys_board: 'На доске: стрелки переходят с поля на поле, Enter или Пробел выбирают шашку и поля, куда она идёт', touch_move_locked: 'Взялся — ходи: вы коснулись шашки на {sq} и должны ходить ею.', game_stops_at: 'Партия показана до невозможного хода: {error}', aborted_no_move: 'Прервана: {side} не сделали первый ход', first_move_wait: '{side}: первый ход в течение {s} с, иначе партия прерывается',
  r_no_moves: 'нет ходов', r_no_pieces: 'не осталось шашек', r_repetition: 'позиция повторилась {n} раза',
  r_no_progress: 'по {n} ходов без взятий и превращений', r_move_cap: 'сыграно {n} ходов без победителя',
  r_kings_only: 'по {n} ходов только дамками без взятий', r_lone_king: 'одинокую дамку не поймали за {n} ходов',
  r_many_kings: '3 дамки не поймали одинокую дамку за {n} ходов', r_king_vs_king: 'дамка против дамки не выигрывает',
  r_lone_man: 'несколько шашек против одинокой шашки', r_one_each: 'по одной шашке', r_agreement: 'по соглашению',
  r_resignation: 'сдача', r_time: 'время', r_adjudication: 'решение арбитра',
  v_english: 'Английские шашки / чекерс', v_russian: 'Русские шашки', v_turkish: 'Турецкие шашки', v_brazilian: 'Бразильские шашки',
  v_international: 'Международные шашки', v_pool: 'Пул', v_italian: 'Итальянские шашки', v_spanish: 'Испанские шашки',
  v_portuguese: 'Португальские шашки', v_czech: 'Чешские шашки', v_thai: 'Тайские шашки', v_frisian: 'Фризские шашки',
  v_canadian: 'Канадские шашки',
  sum_english: 'Шашки ходят на одно поле по диагонали вперёд и бьют только вперёд; дамки ходят и бьют на одно поле в любую сторону. Бить обязательно, но можно выбрать, чем; превращение в дамку заканчивает ход. Начинает тёмная сторона.',
  sum_russian: 'Шашки ходят вперёд и бьют вперёд и назад; дамки летают по диагоналям. Бить обязательно, можно выбрать любое взятие; шашка, дошедшая до последнего ряда во время взятия, продолжает бить как дамка.',
  sum_turkish: 'Играют на всех 64 полях: шашки ходят и бьют вперёд и вбок, дамки летают по горизонталям и вертикалям. Обязательно взятие наибольшего числа шашек; взятые снимаются сразу, как через них перепрыгнули.',
  sum_brazilian: 'Международные правила на доске 8x8: шашки бьют и назад, дамки летают, обязательно брать наибольшее число шашек. Шашка становится дамкой, только закончив ход на последнем ряду.',
  sum_international: 'Мировая игра на доске 10x10, по 20 шашек: шашки бьют вперёд и назад, дамки летают, обязательно брать наибольшее число шашек.',
  sum_pool: 'Американский пул: шашки бьют назад, дамки летают, можно выбрать любое взятие; шашка, пройдя последний ряд во время взятия, дамкой не становится. Начинает тёмная сторона.',
  sum_italian: 'Шашки ходят и бьют только вперёд и не могут бить дамок; дамки ходят на одно поле. Обязательно взятие наибольшего числа шашек, затем — взятие дамкой и взятие дамок.',
  sum_spanish: 'Шашки ходят и бьют только вперёд, дамки летают. Обязательно брать наибольшее число шашек, затем — дамок. Доска зеркальная: большая диагональ справа от вас.',
  sum_portuguese: 'Как испанские шашки: шашки только вперёд, дамки летают, обязательно взятие наибольшего числа шашек (затем дамок).',
  sum_czech: 'Шашки ходят и бьют только вперёд, дамки летают; если может бить дамка, бить должна дамка. Иначе выбор свободный.',
  sum_thai: 'По восемь шашек на двух рядах. Дамки летают, но встают сразу за взятой шашкой; взятые снимаются сразу. Можно выбрать любое взятие. Начинает тёмная сторона.',
  sum_frisian: 'На доске 10x10 бьют ещё и по прямым — горизонталям и вертикалям. Обязательно самое ценное взятие (дамка ценнее шашки); пока у стороны есть шашки, дамка может сделать не больше трёх тихих ходов подряд.',
  sum_canadian: 'Международные правила на доске 12x12, по 30 шашек: шашки бьют назад, дамки летают, обязательно брать наибольшее число шашек.',
  log_in: 'Войти', log_out: 'Выйти', sign_up: 'Создать аккаунт', account_name: 'Имя', password: 'Пароль',
  accounts_optional: 'Аккаунт хранит ваши партии и даёт рейтинг. Играть можно и без него.',
  account_created: 'Добро пожаловать, {name}: аккаунт создан.', logged_in: 'Вы вошли как {name}.',
  rating_history_of: 'Рейтинг от {from} до {to} за {n} рейтинговых партий', speed_bullet: 'Пуля', speed_blitz: 'Блиц',
  speed_rapid: 'Рапид', speed_classical: 'Классика', speed_correspondence: 'По переписке', games_n: 'партий: {n}',
  wdl: 'побед: {w}, ничьих: {d}, поражений: {l}', rated: 'Рейтинговая', casual: 'Товарищеская', result_win: 'Победа', result_draw: 'Ничья',
  result_loss: 'Поражение', state_waiting: 'Ожидание', state_live: 'Идёт', state_finished: 'Окончена',
  member_since: 'Играет с {date}', ratings: 'Рейтинги', no_rated_games: 'Рейтинговых партий пока нет.', record: 'Результаты',
  no_games: 'Партий пока нет.', recent_games_of: 'Последние партии', rated_game: 'Рейтинговая партия (меняет рейтинг обоих игроков)',
  rated_needs_login: 'Войдите, чтобы играть рейтинговые партии', rating_change: '{rating} ({change})',
  anonymous: 'Аноним', seek_per_move: '{s} с на ход', seek_days: '{n} дн. на ход',
  seek_graph: 'Заявок: {n}, по длительности и рейтингу',
  chat_players: 'Чат с соперником', chat_spectators: 'Чат зрителей', chat_say: 'Напишите что-нибудь (140 символов)', chat_mute: 'Скрыть сообщения {name}', chat_mute_short: 'скрыть', chat_report: 'Пожаловаться модератору', chat_report_short: 'пожаловаться', chat_reported: 'Жалоба отправлена. Спасибо.', chat_in_rated: 'Чат в рейтинговых партиях',
  download_all_pdn: 'Скачать все партии (PDN)', programs: 'Программы', programs_intro: 'Программа может играть за ваш аккаунт через API ботов (docs/bots.md).', new_token: 'Создать API-токен', token_once: 'Ваш токен (показан только сейчас; храните его в секрете):',
  quick_pairing: 'Быстрая игра: {variant}', quick_rated: 'Рейтинговая: присоединяет к ждущему игроку с этим контролем или ждёт соперника.', quick_casual: 'Товарищеская (войдите для рейтинговых): присоединяет к ждущему игроку с этим контролем или ждёт соперника.',
  play_as_guest: 'Играть как гость (только имя)', guest_explained: 'Гость хранит партии под своим именем и играет товарищеские партии; задайте пароль позже, чтобы сохранить аккаунт и играть рейтинговые партии.', guest_claim: 'Вы играете как гость: задайте пароль, чтобы сохранить это имя и партии', guest_claim_button: 'Задать пароль', claimed: 'Аккаунт ваш: входите с паролем откуда угодно.',
  rating_range: 'Рейтинг соперника', rating_from: 'наименьший рейтинг', rating_to: 'наибольший рейтинг',
  nav_analysis: 'Доска анализа', an_title: 'Доска анализа', an_analyse: 'Анализ', an_win_in: 'выигрыш в {n}',
  an_loss_in: 'проигрыш в {n}', an_engine_off: 'Движок выключен.', an_game_over: 'В этой позиции партия окончена.', an_queued: 'Ожидание движка…',
  an_thinking: 'Движок думает…', an_eval: 'Оценка', an_depth: 'глубина {d}, {n} тыс. позиций', an_done: 'готово',
  an_play_line: 'Сыграть первый ход этой линии', an_wins: 'выигрывают {side}', an_to_move: 'ход: {side}', an_no_moves: 'Ходов пока нет: сделайте ход на доске.',
  an_setup: 'Расставить позицию', an_palette: 'Фигуры для расстановки', an_tool_wm: 'Белая шашка', an_tool_wk: 'Белая дамка',
  an_tool_bm: 'Чёрная шашка', an_tool_bk: 'Чёрная дамка', an_tool_erase: 'Убрать шашку', an_side_to_move: 'Очередь хода',
  an_start_position: 'Начальная позиция', an_clear: 'Пустая доска', an_done_setup: 'Готово', an_cancel: 'Отмена',
  an_engine: 'Движок', an_lines: 'Линии', an_delete: 'Удалить отсюда', an_promote: 'Сделать главной линией',
  an_comment: 'Комментарий к ходу', an_export: 'Экспорт PDN', an_import: 'Импорт PDN', an_paste_pdn: 'Вставьте партию в PDN (варианты сохраняются):',
  rp_title: 'Компьютерный анализ', rp_explain: 'Движок разбирает каждый ход и показывает, где решилась партия.', rp_request: 'Запросить компьютерный анализ',
  rp_queued: 'Ожидание движка…', rp_running: 'Движок разбирает партию: {pct}%', rp_failed: 'Анализ не удался. Попробуйте ещё раз.',
  rp_graph: 'Оценка по ходу партии (белые выше линии); нажмите, чтобы увидеть ход', rp_accuracy: 'точность {n}%', rp_counts: 'неточностей: {i} · ошибок: {m} · грубых ошибок: {b}',
  rp_better: 'Лучше: {move}',
  ex_title: 'Дебютный справочник', ex_source: 'Партии', ex_masters: 'Мастера', ex_players: 'Игроки сайта',
  ex_rating: 'Рейтинг', ex_rating_max: 'наибольший рейтинг', ex_none: 'Ни одна партия не дошла до этой позиции.', ex_move: 'Ход',
  ex_games: 'Партии', ex_results: 'Белые · ничьи · чёрные', ex_draws: 'ничьи',
  nav_puzzles: 'Задачи', pz_title: 'Задачи', pz_none: 'Для этого варианта задач пока нет: они находятся в партиях по мере того, как движок их разбирает.',
  pz_find: 'Ход: {side}. Найдите выигрывающий ход.', pz_good: 'Верно. Дальше.', pz_solved: 'Решено!',
  pz_wrong: 'Не этот ход.', pz_solution: 'Выигрывающая линия:', pz_next: 'Следующая задача',
  pz_rating: 'Ваш рейтинг в задачах: {n}', pz_puzzle_rating: 'Рейтинг задачи {n}',
  pz_other: 'Другой выигрывающий ход: принят.',
};

const DICTS = { en, es, pt, tr, ru };

let current = null;

/** The chosen language: saved, else the browser's first we speak, else English. */
export function lang() {
  if (current) return current;
  const saved = localStorage.getItem('dama.lang');
  if (saved && DICTS[saved]) current = saved;
  else {
    const prefs = navigator.languages?.length ? navigator.languages : [navigator.language || 'en'];
    current = prefs.map((l) => l.slice(0, 2).toLowerCase()).find((l) => DICTS[l]) || 'en';
  }
  document.documentElement.lang = current;
  return current;
}

export function setLang(l) {
  if (!DICTS[l]) return;
  current = l;
  localStorage.setItem('dama.lang', l);
  document.documentElement.lang = l;
}

/** The text of `key` with `{name}` replaced from `params`. */
export function t(key, params = {}) {
  const s = DICTS[lang()][key] ?? en[key];
  if (s === undefined) return `⟦${key}⟧`;
  return s.replace(/\{(\w+)\}/g, (_, k) => (params[k] === undefined ? '' : String(params[k])));
}

// Seed 001 names the sides Red (moving first) and Black; every other game, White and
// Black (light and dark). The side that moves first in English is the one the rules
// call black, so under seed 001 `black` reads Red and `white` reads Black.
let redBlack = false;

/** Whether a game of `variant` under `rules` names its sides Red and Black (English
 *  under seed 001). */
export function namesRedBlack(rules, variant) {
  return rules === 'seed001' && variant === 'english';
}

/** Names the sides as a game of `variant` under `rules` does. */
export function setSideNames(rules, variant) {
  redBlack = namesRedBlack(rules, variant);
}

/** Whether the sides are named Red and Black now. */
export function sidesRedBlack() {
  return redBlack;
}

/** The colour the game calls the side playing `color` ('white' or 'black'). */
function sideColour(color) {
  if (!redBlack) return color;
  return color === 'black' ? 'red' : 'black';
}

/** The name of the side playing `color` in the chosen language. */
export function side(color) {
  return t(sideColour(color));
}

/** The name of a piece of `color`: a man or a king. */
export function pieceName(color, king) {
  return t(sideColour(color) + (king ? '_king' : '_man'));
}

/** The sides in the order of a series score (the players now White and Black). */
export function sidesNow() {
  return t('sides_now', { a: side('white'), b: side('black') });
}

/** Fills the elements of the page shell marked `data-t`. */
export function applyStatic() {
  for (const e of document.querySelectorAll('[data-t]')) e.textContent = t(e.dataset.t);
}

const REASONS = [
  [/^no legal move left$/, 'r_no_moves'],
  [/^no pieces left$/, 'r_no_pieces'],
  [/^the same position occurred (\d+) times$/, 'r_repetition'],
  [/^(\d+) moves each without a capture or a crowning$/, 'r_no_progress'],
  [/^(\d+) moves were played without a winner$/, 'r_move_cap'],
  [/^(\d+) moves each with only kings moving and no capture$/, 'r_kings_only'],
  [/^the lone king was not caught in (\d+) moves$/, 'r_lone_king'],
  [/^3 kings could not catch the lone king in (\d+) moves$/, 'r_many_kings'],
  [/^one king against one king cannot win$/, 'r_king_vs_king'],
  [/^several pieces against a lone man$/, 'r_lone_man'],
  [/^one piece each$/, 'r_one_each'],
  [/^agreement$/, 'r_agreement'],
  [/^resignation$/, 'r_resignation'],
  [/^time$/, 'r_time'],
  [/^adjudication$/, 'r_adjudication'],
  [/^abandonment$/, 'r_abandonment'],
];

/** An error from the server in the chosen language: the words of its `code`
 *  (`err_<code>`, with its `arg`: a side, a square, a number), or the server's own words
 *  where there are none (English reads the rules' words for an illegal move, which say
 *  why). */
export function errorText(e) {
  const key = 'err_' + (e && e.code);
  // The rules' own words say why a move is illegal: English keeps them.
  const words = e && e.code === 'illegal_move' && lang() === 'en' ? undefined : (DICTS[lang()][key] ?? en[key]);
  if (!e || !e.code || words === undefined) return (e && (e.error || e.message)) || '';
  const arg = e.arg;
  const params = { arg, square: arg, n: arg, side: arg === 'white' || arg === 'black' ? side(arg) : arg };
  return words.replace(/\{(\w+)\}/g, (_, k) => (params[k] === undefined ? '' : String(params[k])));
}

/** A result in the chosen language: a result from the server (`{winner, text, reason:
 *  {code, n, side}}`) by its code, or a text alone ("White wins: time", as a PDN file's
 *  Termination tag holds it) by its words. */
export function resultText(result) {
  if (result && typeof result === 'object') {
    const r = result.reason;
    if (!r || r.code === 'other') return resultText(result.text);
    if (r.code === 'aborted') return t('aborted');
    if (r.code === 'abandoned') return t('abandoned');
    if (r.code === 'no_first_move') return t('aborted_no_move', { side: side(r.side) });
    const why = t('r_' + r.code, { n: r.n });
    return result.winner ? t('res_win', { side: side(result.winner), why }) : t('res_draw', { why });
  }
  const text = result;
  if (text === 'Aborted') return t('aborted');
  if (text === 'Abandoned') return t('abandoned');
  const none = /^Aborted: (white|black) made no first move$/.exec(text || '');
  if (none) return t('aborted_no_move', { side: side(none[1]) });
  const m = /^(?:(White|Black) wins|Draw): (.*)$/.exec(text || '');
  if (!m) return text || '';
  let why = m[2];
  for (const [re, key] of REASONS) {
    const r = re.exec(m[2]);
    if (r) {
      why = t(key, { n: r[1] });
      break;
    }
  }
  return m[1] ? t('res_win', { side: side(m[1].toLowerCase()), why }) : t('res_draw', { why });
}

/** The full rules of a variant in the chosen language (English with a note where we
 *  have no translation). */
export function ruleList(key) {
  const r = rulesOf(key, lang());
  return r.translated ? r.list : [t('rules_note'), ...r.list];
}

/** The sentence keys of a variant's rules, in the order of [`ruleList`] (without its note). */
export function ruleKeys(key) {
  return rulesOf(key, lang()).keys;
}
