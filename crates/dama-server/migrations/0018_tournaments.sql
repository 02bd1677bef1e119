-- Tournaments: arenas, Swiss and round-robin events. An event's settings (variant,
-- rulebook, clock, rated, ballot, games per pairing, berserk, entry conditions) are
-- JSON; `schedule` names the server's schedule slot that made it (one event a slot).
CREATE TABLE IF NOT EXISTS tournaments (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    format TEXT NOT NULL,
    settings TEXT NOT NULL,
    password_hash TEXT,
    created_by TEXT,
    schedule TEXT,
    starts_ms BIGINT NOT NULL,
    ends_ms BIGINT,
    rounds BIGINT NOT NULL DEFAULT 0,
    status TEXT NOT NULL,
    round BIGINT NOT NULL DEFAULT 0,
    created_ms BIGINT NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS tournaments_schedule ON tournaments (schedule);
CREATE INDEX IF NOT EXISTS tournaments_status ON tournaments (status, starts_ms);
-- Who plays in an event: `active` 0 once withdrawn (or paused, in an arena);
-- `rating` is their rating in the event's pool when they joined (the initial order).
CREATE TABLE IF NOT EXISTS tournament_players (
    tournament TEXT NOT NULL,
    account TEXT NOT NULL,
    rating BIGINT NOT NULL,
    joined_ms BIGINT NOT NULL,
    active BIGINT NOT NULL DEFAULT 1,
    PRIMARY KEY (tournament, account)
);
-- Every game and bye of an event: its round (an arena's pairings are numbered in
-- order), board and leg (the second game of a micro-match or a ballot's other colour);
-- `kind` is `game`, `bye` (a pairing-allocated bye), `late` (a round missed by a late
-- joiner), `absent` (a round missed by a withdrawn or absent player). Points are
-- doubled (2 a win, 1 a draw), none while the game is played.
CREATE TABLE IF NOT EXISTS tournament_games (
    tournament TEXT NOT NULL,
    round BIGINT NOT NULL,
    board BIGINT NOT NULL,
    leg BIGINT NOT NULL DEFAULT 1,
    kind TEXT NOT NULL,
    game_id TEXT,
    white TEXT NOT NULL,
    black TEXT,
    ballot BIGINT,
    white_points BIGINT,
    black_points BIGINT,
    berserk BIGINT NOT NULL DEFAULT 0,
    plies BIGINT NOT NULL DEFAULT 0,
    created_ms BIGINT NOT NULL,
    ended_ms BIGINT,
    PRIMARY KEY (tournament, round, board, leg)
);
CREATE INDEX IF NOT EXISTS tournament_games_game ON tournament_games (game_id);
CREATE INDEX IF NOT EXISTS tournament_games_open ON tournament_games (tournament, white_points);
-- Who went berserk in a game (1 White, 2 Black): half the time, no increment.
ALTER TABLE games ADD COLUMN berserk BIGINT NOT NULL DEFAULT 0;
