-- Game reports: the engine's review of a finished game (JSON), kept with the game.
CREATE TABLE IF NOT EXISTS game_reports (
    game_id TEXT PRIMARY KEY,
    report TEXT NOT NULL,
    created_ms BIGINT NOT NULL
);
