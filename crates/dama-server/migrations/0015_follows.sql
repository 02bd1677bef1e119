-- Players follow players: a follower's home page shows the games the players they
-- follow are playing and have just finished.
CREATE TABLE IF NOT EXISTS follows (
    follower TEXT NOT NULL,
    followed TEXT NOT NULL,
    created_ms BIGINT NOT NULL,
    PRIMARY KEY (follower, followed)
);
