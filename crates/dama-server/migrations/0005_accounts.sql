-- Accounts (optional: anonymous play needs none), their log-in sessions (the cookie's
-- token stored hashed, like seat tokens), and ratings per variant and speed class with
-- each rated game's result kept for the history plot.
CREATE TABLE IF NOT EXISTS accounts (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    created_ms BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS account_sessions (
    token_hash TEXT PRIMARY KEY,
    account_id TEXT NOT NULL,
    created_ms BIGINT NOT NULL,
    expires_ms BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS ratings (
    account_id TEXT NOT NULL,
    variant TEXT NOT NULL,
    speed TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    rd DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games BIGINT NOT NULL,
    updated_ms BIGINT NOT NULL,
    PRIMARY KEY (account_id, variant, speed)
);
CREATE TABLE IF NOT EXISTS rating_history (
    account_id TEXT NOT NULL,
    game_id TEXT NOT NULL,
    variant TEXT NOT NULL,
    speed TEXT NOT NULL,
    rating_before DOUBLE PRECISION NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    rd DOUBLE PRECISION NOT NULL,
    at_ms BIGINT NOT NULL,
    PRIMARY KEY (account_id, game_id)
);
-- The accounts at a game's seats (none for anonymous players).
ALTER TABLE games ADD COLUMN white_account TEXT;
ALTER TABLE games ADD COLUMN black_account TEXT;
CREATE INDEX IF NOT EXISTS games_white_account ON games (white_account);
CREATE INDEX IF NOT EXISTS games_black_account ON games (black_account);
CREATE INDEX IF NOT EXISTS rating_history_game ON rating_history (game_id);
