-- Spectators' suggestions kept with the game record, and series of games.
CREATE TABLE IF NOT EXISTS suggestions (
    game_id TEXT NOT NULL,
    ply INTEGER NOT NULL,
    notation TEXT NOT NULL,
    count INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply, notation)
);
