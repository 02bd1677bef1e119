-- Games and their moves; portable between SQLite and PostgreSQL.
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    variant TEXT NOT NULL,
    mode TEXT NOT NULL,
    start_fen TEXT NOT NULL,
    options TEXT NOT NULL,
    white_token TEXT,
    black_token TEXT,
    status TEXT NOT NULL,
    result TEXT,
    reason TEXT,
    created_ms BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS moves (
    game_id TEXT NOT NULL,
    ply INTEGER NOT NULL,
    notation TEXT NOT NULL,
    clock_ms BIGINT,
    at_ms BIGINT NOT NULL,
    PRIMARY KEY (game_id, ply)
);
