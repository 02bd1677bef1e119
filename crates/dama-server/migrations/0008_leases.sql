-- Cluster mode. Each node says it is alive until a time it keeps pushing forward; each
-- live game is owned by one node, with a fencing token that grows with every new owner
-- and that every write of the owner's must still match. A game is free to take when it
-- was handed over (free = 1) or when its owner has stopped saying it is alive.
CREATE TABLE IF NOT EXISTS cluster_nodes (
    node TEXT PRIMARY KEY,
    alive_until_ms BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS game_leases (
    game_id TEXT PRIMARY KEY,
    node TEXT NOT NULL,
    token BIGINT NOT NULL,
    free INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS game_leases_node ON game_leases (node);
CREATE INDEX IF NOT EXISTS game_leases_free ON game_leases (free) WHERE free = 1;
