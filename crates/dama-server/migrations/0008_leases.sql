-- Cluster mode: which node owns each live game, until when, and the fencing token that
-- every write of the owner's must still match.
CREATE TABLE IF NOT EXISTS game_leases (
    game_id TEXT PRIMARY KEY,
    node TEXT NOT NULL,
    token BIGINT NOT NULL,
    expires_ms BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS game_leases_expiry ON game_leases (expires_ms);
CREATE INDEX IF NOT EXISTS game_leases_node ON game_leases (node);
