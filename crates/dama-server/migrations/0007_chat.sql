-- Each game's chat, in two rooms (its players', and its spectators'), and the lines
-- players reported for a moderator to read.
CREATE TABLE IF NOT EXISTS chat_lines (
    game_id TEXT NOT NULL,
    n INTEGER NOT NULL,
    room TEXT NOT NULL,
    author TEXT NOT NULL,
    text TEXT NOT NULL,
    at_ms BIGINT NOT NULL,
    PRIMARY KEY (game_id, n)
);
CREATE TABLE IF NOT EXISTS chat_reports (
    game_id TEXT NOT NULL,
    n INTEGER NOT NULL,
    reason TEXT NOT NULL,
    at_ms BIGINT NOT NULL,
    PRIMARY KEY (game_id, n)
);
