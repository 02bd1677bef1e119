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
  board: 'Board', board_label: 'Board, {side} to move', 
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
  name_rule: "2 to 20 characters: letters a–z, digits, _ or -, beginning with a letter or a digit.", err_name_length: "A name has 2 to 20 characters; this one has {n}.", err_name_chars: "A name has only letters a–z, digits, _ and -; “{arg}” is not allowed.", err_name_start: "A name begins with a letter or a digit.", err_password_length: "A password has 8 to 128 characters.",
  remember_options: "Keep these options for my next games",
  series_final: "Series over: {score} ({sides}).", series_you_won: "You won the series.", series_you_lost: "You lost the series.", series_drawn: "The series is drawn.", series_won_by: "The player now {side} won the series.",
  chat_spectator: "spectator {n}", vs_computer: "the computer (level {n})", waiting_lobby: "Waiting for an opponent: your game is listed in the open games.",
  rp_instead: "Instead of {played}, better was {best} (the arrow).", rp_line: "The engine's line: {line}",
  err_fen_empty: "The FEN is empty.", err_fen_side: "A FEN begins with the side to move, W or B; found “{text}”.", err_fen_list: "At character {at}: a list of pieces begins with W or B; found “{text}”.", err_fen_square: "At character {at}: “{text}” is not a square of this board.", err_fen_range: "At character {at}: “{text}” is not a range of squares in order.", err_fen_repeated: "The {side} pieces are listed twice.", err_fen_king_runs: "At character {at}: the king-move field “{text}” does not read.", err_fen_out_of_range: "A square of the FEN is not on this board.", err_fen_overlap: "Square {square} holds two pieces.", err_fen_too_many: "{side} has {n} pieces; one side has at most {max} on this board.", err_fen_crowning_row: "{side} man on {square}, its crowning row: it would be a king.", err_fen_no_pieces: "The board has no pieces.", err_fen_king_run: "The king-move count of {side} does not fit the position.",
  held_wait: "The clock starts when both players are here.", err_opponent_not_here: "Your opponent has not opened this game yet: the clock starts when both players are here.",
  pz_other: "Another winning move: accepted.",
  seed_follows: "These rules follow the players' document “{doc}” (seed {n}).", seed_doc_000: "Russian draughts", seed_doc_001: "Damas (checkers with clocks and draw rules)", seed_doc_002: "Turkish draughts", seed_doc_003: "The official rules of English draughts",
  err_pdn_unreadable: "Line {line}, column {col}: this game cannot be read as PDN.", err_pdn_game_type: "The GameType tag “{text}” names no variant played here.", err_pdn_no_game: "There is no game in this text.", err_pdn_no_such_game: "The text has {max} games; there is no game {n}.", err_pdn_too_large: "The PDN text is too large ({n} bytes; the limit is {max}).", err_pdn_setup: "Line {line}, column {col}: the start position “{text}” cannot be read.", err_pdn_illegal_move: "Line {line}, column {col}, move {ply} “{text}”: not a legal move here.", err_pdn_ambiguous_move: "Line {line}, column {col}, move {ply} “{text}”: several moves fit and the game does not tell which.", err_pdn_bad_move_text: "Line {line}, column {col}, move {ply} “{text}”: this is not a move.", err_pdn_result_mismatch: "Line {line}, column {col}: the game does not end as its recorded result “{text}” says.",
  err_illegal_no_legal_move: "You have no legal move.", err_illegal_no_piece: "There is no piece on {square}.", err_illegal_not_your_piece: "The piece on {square} is not yours.", err_illegal_capture_compulsory: "A capture is compulsory: {example}.", err_illegal_must_take_most: "You must take the most pieces: {n} here.", err_illegal_must_take_most_kings: "You must take the most kings: {n} here.", err_illegal_must_take_most_value: "You must take the most valuable pieces: {example}.", err_illegal_must_capture_with_king: "The king must capture: {example}.", err_illegal_must_take_king_first: "You must take a king as early as possible: {example}.", err_illegal_incomplete_capture: "The capture goes on while a piece can be taken.", err_illegal_man_backwards: "A man cannot move backwards.", err_illegal_man_cannot_take_king: "A man cannot take a king.", err_illegal_king_must_stop_after_capture: "The king must stop right after the last captured piece.", err_illegal_one_square_only: "This piece moves one square at a time.", err_illegal_occupied: "The square {square} is not empty.", err_illegal_blocked: "A piece is in the way.", err_illegal_king_move_limit: "A king may not make more than {n} moves in a row while you have men.", err_illegal_no_piece_on_file: "No piece on the {file}-file can go to {square}.", err_illegal_unreadable: "That is not a move.", err_illegal_ambiguous: "Several moves fit: {candidates}.", err_illegal_game_over: "The game is over.", err_illegal_not_a_move: "Pieces do not move that way.",
  err_pdnw_comment_not_closed: "Line {line}, column {col}: a comment is never closed with “}”; this game cannot be read.", err_pdnw_setup_not_closed: "Line {line}, column {col}: a position “/FEN/” is never closed; this game cannot be read.", err_pdnw_tag_without_name: "Line {line}, column {col}: a tag has no name; this game cannot be read.", err_pdnw_tag_not_quoted: "Line {line}, column {col}: the value of the tag {text} must be in quotes; this game cannot be read.", err_pdnw_tag_string_not_closed: "Line {line}, column {col}: the value of the tag {text} is never closed with a quote; this game cannot be read.", err_pdnw_tag_not_ended: "Line {line}, column {col}: the tag {text} is not closed with “]”; this game cannot be read.", err_pdnw_game_too_large: "Line {line}, column {col}: the game that starts at line {n} is too large to read.", err_pdnw_nested_comment: "Line {line}, column {col}: “{” inside a comment (comments do not nest); kept as text.", err_pdnw_stray_close_brace: "Line {line}, column {col}: “}” without an opening “{”; skipped.", err_pdnw_aside_in_parentheses: "Line {line}, column {col}: text in parentheses that is not moves; kept as a comment.", err_pdnw_unexpected_char: "Line {line}, column {col}: unexpected “{text}”; skipped.", err_pdnw_tag_without_quotes: "Line {line}, column {col}: the tag {text} has a value without quotes.", err_pdnw_tag_string_read_to_bracket: "Line {line}, column {col}: the value of the tag {text} is never closed; read up to “]”.", err_pdnw_no_result: "Line {line}: the game has no result at its end.", err_pdnw_no_result_before_tags: "Line {line}: the game has no result before the next game's tags.", err_pdnw_variation_not_closed: "Line {line}: a variation is never closed with “)”.", err_pdnw_variations_too_deep: "Line {line}, column {col}: variations nested more than {n} levels deep are skipped.", err_pdnw_variation_before_move: "Line {line}, column {col}: a variation before any move.", err_pdnw_stray_close_paren: "Line {line}, column {col}: “)” without an opening “(”; skipped.", err_pdnw_result_in_variation: "Line {line}, column {col}: a result inside a variation ends the game.", err_pdnw_more_warnings: "{n} more warnings are not shown.", err_pdnw_stray_tags: "Line {line}: tags without a game ({text}); skipped.", err_pdnw_stray_text: "Line {line}: text that is not a game; skipped: “{text}”.", err_pdnw_stray_tags_and_text: "Line {line}: tags ({tags}) and text that is not a game; skipped: “{text}”.", err_pdnw_ambiguous: "Line {line}, column {col}: “{text}” could be {moves}; the game does not tell which, so it is read as the first.", err_pdnw_setup_in_moves: "Line {line}, column {col}: a position set up inside the moves ends the variation there.", err_pdnw_variation_setup: "Line {line}, column {col}: the variation stops at “{text}”: its position cannot be read.", err_pdnw_variation_illegal_move: "Line {line}, column {col}: the variation stops at “{text}”: it is not a legal move there.", err_pdnw_variation_ambiguous_move: "Line {line}, column {col}: the variation stops at “{text}”: several moves fit and the moves after it do not tell which.", err_pdnw_variation_bad_move_text: "Line {line}, column {col}: the variation stops at “{text}”: this is not a move.", err_pdnw_variation_result_mismatch: "Line {line}, column {col}: the variation stops at “{text}”: it does not end as its result says.", err_pdnw_too_many_moves: "Line {line}: only the first {n} moves are kept.",
  pool_seed: "{v} (rulebook of seed {n})", rated_game_seed: "Rated game, in the rating pool of the seed {n} rulebook (apart from the official rules)",
  "theme-rb": "Red / black",
  announce_move: "{side} played {move}.",
  nav_leaders: "Leaderboard", lb_title: "Leaderboard", lb_pool: "Rating pool", lb_speed: "Speed", lb_rank: "Rank", lb_player: "Player", lb_rating: "Rating", lb_games: "Rated games", lb_note: "The best established ratings (not provisional) of players who played a rated game here in the last {days} days.", lb_empty: "Nobody here yet: a rating is listed once it is established (after some twenty rated games) and while its player has played here in the last {days} days.", rank_n: "No. {n} on the leaderboard",
  mg_title: "My games", mg_empty: "You have no game in progress.", mg_your_move_n: "Your move in {n} of them.", mg_waiting: "Waiting for an opponent", mg_opponent: "Opponent", mg_variant: "Variant", mg_where: "Turn", mg_time_left: "Time left", days_hours_left: "{d} d {h} h",
  nav_learn: "Learn", learn_title: "Learn to play", learn_intro: "Short lessons on a real board for each rulebook: how the pieces move and capture, crowning, kings, the capture rules and the draws; then ten positions to practise. Choose a rulebook.",
  learn_seed: "also the moves of “{doc}” (seed {n})", learn_done_count: "{n} of {of} completed", learn_all: "All rulebooks", learn_lessons: "Lessons",
  learn_practice: "Practice", learn_practice_n: "Practice {n}", learn_practice_text: "A position from play: one move wins material or the game.",
  learn_practice_hint: "Look for a move that gives a piece away to open a capture of several pieces.", learn_goal_reach: "Goal: bring a piece to {square} (at most {moves} moves).", learn_goal_crown: "Goal: crown a man (at most {moves} moves).",
  learn_goal_capture_all: "Goal: capture every piece of your opponent.", learn_goal_capture_one: "Goal: make a capture.", learn_goal_capture: "Goal: make a capture that takes {n} or more.", learn_goal_draw: "Goal: reach a draw by the rules (at most {moves} moves).",
  learn_goal_line: "Goal: find the winning shot.", learn_hint: "Hint", learn_retry: "Try again",
  learn_next: "Next", learn_refused: "Refused: {why}", learn_well_done: "Well done!",
  learn_go_on: "Good. Go on.", learn_failed_missed: "That move does not reach the goal. Try again.", learn_failed_out_of_moves: "The goal was not reached in time. Try again.",
  learn_failed_not_the_shot: "That is not the winning move. Try again.", learn_men_move_title: "How men move", learn_men_move_text: "A man moves one square diagonally forward, onto an empty square. It never moves backwards.",
  learn_men_move_hint: "Move up and to the right, twice.", learn_capture_title: "Capturing", learn_capture_text: "A piece captures by jumping over an enemy piece next to it onto the empty square just behind; the piece jumped leaves the board.",
  learn_capture_hint: "Jump over the enemy man.", learn_compulsory_title: "Capturing is compulsory", learn_compulsory_text: "When you can capture, you must: a move that takes nothing is refused.",
  learn_compulsory_hint: "Only one of your men can capture: play that capture.", learn_multi_jump_title: "Several captures in a row", learn_multi_jump_text: "After a jump, if the piece can jump again, it goes on in the same move and takes all it can.",
  learn_multi_jump_hint: "Jump, then jump again and again until nothing is left.", learn_crown_title: "Crowning", learn_crown_text: "A man that reaches the far row is crowned: it becomes a king.",
  learn_crown_hint: "Walk your man forward to the last row.", learn_king_short_title: "How the king moves", learn_king_short_text: "A king moves one square diagonally, forwards or backwards.",
  learn_king_short_hint: "Step down and to the left, one square at a time.", learn_king_short_capture_title: "The king captures backwards", learn_king_short_capture_text: "A king captures like a man, over an adjacent piece, but in all four directions.",
  learn_king_short_capture_hint: "Jump over the man diagonally behind your king.", learn_king_flying_title: "The flying king", learn_king_flying_text: "A king moves any distance along a diagonal, forwards or backwards, while the squares are empty.",
  learn_king_flying_hint: "Go along the long diagonal to the far corner in one move.", learn_king_flying_capture_title: "The flying king captures", learn_king_flying_capture_text: "A king captures from a distance and may land on any empty square beyond the piece; but if from one of them it can capture again, it must land there and go on.",
  learn_king_flying_capture_hint: "Take the first man and stop where you can take the second.", learn_king_land_behind_title: "The king stops behind the piece", learn_king_land_behind_text: "A king moves any distance, but when it captures it lands on the square right after the piece it takes.",
  learn_king_land_behind_hint: "Take the man and stop on the square just behind it.", learn_men_capture_back_title: "Men capture backwards", learn_men_capture_back_text: "A man moves only forwards, but it captures forwards and backwards.",
  learn_men_capture_back_hint: "Jump backwards over the man behind yours.", learn_men_capture_forward_title: "Men capture forwards only", learn_men_capture_forward_text: "Under these rules a man captures only forwards; a jump backwards is refused.",
  learn_men_capture_forward_hint: "The man behind you cannot be taken: take the one in front.", learn_majority_title: "Take the most", learn_majority_text: "When several captures are possible, you must choose one that takes the most pieces.",
  learn_majority_hint: "One capture takes one man, another takes two: take two.", learn_free_choice_title: "Any capture will do", learn_free_choice_text: "Under these rules you must capture, but when several captures are possible you may choose any of them, even the smaller one.",
  learn_free_choice_hint: "Either capture is allowed: take the single man, for example.", learn_king_first_title: "The king captures first", learn_king_first_text: "When both a king and a man can capture, the king must capture.",
  learn_king_first_hint: "Capture with your king, not with the man.", learn_man_cannot_take_king_title: "A man cannot take a king", learn_man_cannot_take_king_text: "Under these rules a man may not capture a king; only a king can.",
  learn_man_cannot_take_king_hint: "Leave the king alone and take the man.", learn_crown_mid_capture_title: "Crowned during a capture", learn_crown_mid_capture_text: "A man that reaches the far row during a capture is crowned at once and goes on capturing as a king in the same move.",
  learn_crown_mid_capture_hint: "Jump onto the last row, then go on as a king along the diagonal.", learn_crown_at_end_title: "Crowned only at the end", learn_crown_at_end_text: "A man that reaches the far row during a capture and can jump on goes on as a man and is not crowned; it is crowned only if the capture ends there.",
  learn_crown_at_end_hint: "Jump onto the last row, then back over the other man.", learn_draw_title: "Draws", learn_draw_text: "A game is drawn when the same position comes up for the third time with the same side to move; the full rules list the other draws of this rulebook.",
  learn_draw_hint: "Move your king back and forth: your opponent does the same.", learn_tr_men_move_title: "How men move", learn_tr_men_move_text: "In Turkish draughts the pieces stand on all 64 squares. A man moves one square straight forward or sideways, never diagonally or backwards.",
  learn_tr_men_move_hint: "Move sideways, twice.", learn_tr_capture_title: "Capturing", learn_tr_capture_text: "A man captures by jumping over an enemy piece straight in front of it or beside it onto the empty square behind. Capturing is compulsory.",
  learn_tr_capture_hint: "Jump sideways over the enemy man.", learn_tr_multi_jump_title: "Several captures in a row", learn_tr_multi_jump_text: "After a jump the piece goes on jumping while it can; each piece taken leaves the board at once.",
  learn_tr_multi_jump_hint: "Jump forwards, then sideways, then forwards again.", learn_tr_majority_title: "Take the most", learn_tr_majority_text: "When several captures are possible, you must choose one that takes the most pieces.",
  learn_tr_majority_hint: "One capture takes one man, another takes two: take two.", learn_tr_crown_title: "Crowning", learn_tr_crown_text: "A man that reaches the far row becomes a king.",
  learn_tr_crown_hint: "Go straight forward to the last row.", learn_tr_king_title: "The king", learn_tr_king_text: "A king moves any distance straight along a row or a column: forwards, backwards or sideways.",
  learn_tr_king_hint: "Go straight up the column to the far corner.", learn_tr_king_capture_title: "The king captures", learn_tr_king_capture_text: "A king captures from a distance along a row or a column and lands on any empty square beyond; if it can capture again it must, turning to the side but never back.",
  learn_tr_king_capture_hint: "Stop where you can turn and take the second man.", learn_tr_draw_title: "Draws", learn_tr_draw_text: "A game is drawn when the same position comes up for the third time with the same side to move, or when each side has a single piece left.",
  learn_tr_draw_hint: "Move your king back and forth: your opponent does the same.",
  mg_login: "Your games in progress are listed here once you are logged in.",
  follow: "Follow", unfollow: "Following · stop", following_title: "Players you follow", following_watch: "Playing now: watch", following_last: "Last game ({v})",
  ntf_challenge: "{name} challenges you: {game}", ntf_accepted: "{name} accepted your challenge", ntf_declined: "{name} declined your challenge: {reason}", ntf_gone_cancelled: "{name} withdrew the challenge", ntf_gone_expired: "The challenge of {name} expired", ntf_gone_blocked: "The challenge of {name} was withdrawn (blocked)", ntf_your_move: "Your move against {name} ({left} left)", ntf_time_running_out: "Only {left} left for your move against {name}", ntf_game_over_win: "You won against {name}", ntf_game_over_loss: "You lost against {name}", ntf_game_over_draw: "Your game against {name} was drawn", ntf_game_over_void: "Your game against {name} was called off", ntf_report_handled: "A moderator dealt with your report", ntf_following_playing: "{name} is playing now", days_n: "{n} days", hours_n: "{n} h", days_per_move: "{n} days per move", notifications: "Notifications", notifications_n: "Notifications: {n} unread", notifications_none: "Nothing new.", challenge_waiting: "Your challenge to {name}: {game}, waiting", cancel: "Cancel", decline_reason: "Why I decline", decline_generic: "No, thank you", decline_later: "Not now", decline_too_fast: "Too fast for me", decline_too_slow: "Too slow for me", decline_casual: "Rated games only", decline_rated: "Casual games only", decline_variant: "Not this variant", challenge_sent: "Challenge sent to {name}", challenge_title: "Challenge {name}", challenge_send: "Send the challenge", saved: "Saved", challenges_from: "Who may challenge me:", challenges_from_all: "Everyone", challenges_from_friends: "Players I follow", challenges_from_none: "Nobody", online_now: "Online now", challenge: "Challenge", block: "Block", unblock: "Blocked · undo", err_challenge_yourself: "You cannot challenge yourself.", err_blocked: "You cannot play this player: one of you has blocked the other.", err_challenge_closed: "This player takes no challenges.", err_challenge_friends_only: "This player takes challenges only from the players they follow.", err_challenge_flood: "Too many challenges: at most {n} an hour.", err_challenge_too_many_open: "Too many challenges waiting for an answer: at most {n} at once.", err_challenge_gone: "This challenge is no longer open.", err_challenge_not_yours: "This challenge is not yours to answer.", err_challenge_guest: "Guests cannot take part in challenges: set a password first.", err_chat_blocked: "No chat between you: one of you has blocked the other.",
  conn_good: "Connection: good ({ms} ms)", conn_fair: "Connection: fair ({ms} ms)", conn_poor: "Connection: poor ({ms} ms)",
  push_enable: "Notify me on this device when the tab is closed", push_on: "This device will be notified of your correspondence moves and challenges.", push_failed: "Notifications could not be turned on: {why}",
  time_correspondence: "Correspondence",
  nav_tournaments: "Tournaments", t_title: "Tournaments", t_under_way: "Under way", t_coming: "Coming", t_finished: "Finished", t_none: "None.", t_name: "Name", t_format: "Format", t_status: "Status", t_starts: "Starts", t_players: "Players", t_private: "Private (password)", t_login_to_create: "Log in to create a tournament.", t_login_to_join: "Log in to take part", tf_arena: "Arena", tf_swiss: "Swiss", tf_robin: "Round robin", ts_created: "Coming", ts_started: "Under way", ts_finished: "Finished", t_clock_fischer: "{m} min + {s} s", t_clock_per_move: "{s} s per move", t_ballot: "Ballot (openings drawn by lot)", t_ballot_none: "No ballot: free openings", t_ballot_english_3move: "Three-move ballot", t_ballot_english_2move: "Two-move ballot", t_ballot_international_3move: "Three-move ballot (international)", t_ballot_n: "opening {n}", t_create_title: "Create a tournament", t_create: "Create the tournament", t_minutes: "Length (minutes)", t_rounds: "Rounds", t_initial: "Clock: minutes", t_increment: "Increment (seconds)", t_starts_in: "Starts in (minutes)", t_password_opt: "Password (optional, for a private tournament)", t_conditions: "Entry conditions", t_min_rating: "Lowest rating", t_max_rating: "Highest rating", t_min_days: "Account at least (days old)", t_min_games: "Rated games at least", t_micro: "Two games per pairing (colours swapped)", t_berserk_allowed: "Berserk allowed (half the clock for a bonus point)", t_berserk: "berserk", t_cond_min_rating: "rating at least {n}", t_cond_max_rating: "rating at most {n}", t_cond_min_days: "account at least {n} days old", t_cond_min_games: "at least {n} rated games", t_arena_minutes: "{n} minutes", t_rounds_n: "{n} rounds", t_starts_at: "Starts {when} (in {left})", t_round_of: "round {n} of {of}", t_ends_in: "ends in {left}", t_my_game: "To my game", t_leave: "Leave", t_join: "Take part", t_rejoin: "Take part again", t_password: "Password", t_points: "Points", t_sheet: "Scores", t_buchholz: "Buchholz", t_sb: "Sonneborn-Berger", t_standings: "Standings", t_no_players: "Nobody has joined yet.", t_withdrawn: "withdrawn", t_on_fire: "On fire: two wins in a row, double points", t_kind_bye: "a bye", t_kind_late: "joined late (no game this round)", t_kind_absent: "absent", t_kind_forfeit: "forfeit", t_leg: "leg {n}", t_board: "Board {n}", t_playing: "playing", t_pairings: "Pairings", t_no_pairings: "No pairing yet.", t_round: "Round {n}", t_crosstable: "Crosstable", t_cross_note: "Each cell: the opponent's place, ○ with white or ● with black, and the score.", t_all: "All tournaments", t_pdn: "Download the games (PDN)", t_game_started: "Your tournament game has started", err_tournament_not_found: "There is no such tournament.", err_tournament_needs_clock: "A tournament's games need a clock.", err_tournament_arena_clock: "An arena needs a real-time clock, not correspondence.", err_tournament_ballot_variant: "This ballot is not played in this variant.", err_tournament_closed: "This tournament takes no more players.", err_tournament_password: "Wrong password for this private tournament.", err_tournament_rating: "Your rating ({n}) is outside this tournament's range.", err_tournament_account_age: "Your account must be at least {n} days old.", err_tournament_rated_games: "You need at least {n} rated games in this variant.", err_tournament_guest: "Guests cannot play in tournaments: set a password first.", err_tournament_not_playing: "You are not playing in this tournament.", err_tournament_flood: "Too many tournaments: at most {n} a day.",
  berserk: "Berserk",
  berserk_title: "Halve your clock (no increment) for a bonus point if you win",
  berserk_done: "{side} went berserk!",
  err_no_berserk: "Berserk is allowed only in an arena that allows it, before your first move.",
  ntf_tournament_started: "The tournament {name} has started: your first game comes at once.",
  level_about: 'Level {n} — about {rating}', engine_level_about: 'Computer (level {n}, about {rating})',
};

/** The English texts by key (a copy: tests compare a page's words with them). */
export function englishTexts() {
  return { ...en };
}

// English is always here (every other language falls back on it); another language's
// texts load when it is chosen (`loadLang`), so a page downloads one language, not five.
const DICTS = { en };
const KNOWN = LANGS.map(([k]) => k);

/** Loads the texts of language `l` (the chosen one by default), once. */
export async function loadLang(l = lang()) {
  if (!DICTS[l] && KNOWN.includes(l)) DICTS[l] = (await import(`./i18n-${l}.js`)).default;
}

let current = null;

/** The chosen language: saved, else the browser's first we speak, else English. */
export function lang() {
  if (current) return current;
  const saved = localStorage.getItem('dama.lang');
  if (saved && KNOWN.includes(saved)) current = saved;
  else {
    const prefs = navigator.languages?.length ? navigator.languages : [navigator.language || 'en'];
    current = prefs.map((l) => l.slice(0, 2).toLowerCase()).find((l) => KNOWN.includes(l)) || 'en';
  }
  document.documentElement.lang = current;
  return current;
}

/** Chooses language `l`; its texts must have been loaded (`loadLang`). */
export function setLang(l) {
  if (!DICTS[l]) return;
  current = l;
  localStorage.setItem('dama.lang', l);
  document.documentElement.lang = l;
}

/** The text of `key` with `{name}` replaced from `params`. */
export function t(key, params = {}) {
  const s = (DICTS[lang()] || en)[key] ?? en[key];
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

/** Points of a series score: whole numbers and halves (`1½`, `½`). */
export function points(x) {
  const whole = Math.floor(x);
  const half = x - whole >= 0.5 ? '½' : '';
  return whole === 0 && half ? half : `${whole}${half}`;
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
 *  where there are none. */
export function errorText(e) {
  const why = e && e.arg && e.arg.why;
  // An illegal move names the rule it breaks, an unreadable PDN game what stopped the
  // reader (`err_pdnw_<why>`, which says where).
  const key = why && e.code === 'illegal_move' ? 'err_illegal_' + why
    : why && e.code === 'pdn_unreadable' ? 'err_pdnw_' + why : 'err_' + (e && e.code);
  const words = (DICTS[lang()] || en)[key] ?? en[key];
  if (!e || !e.code || words === undefined) return (e && (e.error || e.message)) || '';
  const arg = e.arg;
  // An argument is a value (a side, a square, a number) or, for a FEN, its details.
  const params = arg && typeof arg === 'object'
    ? { ...arg, side: arg.side ? side(arg.side) : undefined }
    : { arg, square: arg, n: arg, side: arg === 'white' || arg === 'black' ? side(arg) : arg };
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
