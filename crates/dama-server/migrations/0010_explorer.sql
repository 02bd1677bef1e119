-- The opening explorer: for each position of the first 30 plies of the indexed games
-- (by its Zobrist key), the moves played from it, counted by source ("masters": the
-- bundled collections, "players": the games finished here), rating band (average
-- rating / 100 of a rated game, -1 otherwise) and result.
CREATE TABLE IF NOT EXISTS explorer (
    variant TEXT NOT NULL,
    source TEXT NOT NULL,
    pos_key BIGINT NOT NULL,
    band INTEGER NOT NULL,
    mv TEXT NOT NULL,
    games BIGINT NOT NULL,
    white BIGINT NOT NULL,
    draws BIGINT NOT NULL,
    black BIGINT NOT NULL,
    PRIMARY KEY (variant, source, pos_key, band, mv)
);
-- What has been counted: finished games by id, bundled collections by name.
CREATE TABLE IF NOT EXISTS explorer_counted (
    name TEXT PRIMARY KEY
);
