-- Puzzles from real games: a position where exactly one move wins material or the
-- game, its winning line (long notation, space-separated, the solver's moves first
-- and last), where it was found, and its rating from the attempts.
CREATE TABLE IF NOT EXISTS puzzles (
    id TEXT PRIMARY KEY,
    variant TEXT NOT NULL,
    fen TEXT NOT NULL,
    line TEXT NOT NULL,
    source TEXT NOT NULL,
    rating INTEGER NOT NULL,
    attempts BIGINT NOT NULL,
    solved BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS puzzles_by_rating ON puzzles (variant, rating);
