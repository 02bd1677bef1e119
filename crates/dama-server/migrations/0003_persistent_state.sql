-- What a game needs to come back exactly after a restart or an idle unload: its event
-- version, the link to its rematch or next game, pending offers, when the side to
-- move's time started, and the friend invite (stored hashed, like the seat tokens).
ALTER TABLE games ADD COLUMN version BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN next_game TEXT;
ALTER TABLE games ADD COLUMN offers TEXT;
ALTER TABLE games ADD COLUMN turn_started_ms BIGINT;
ALTER TABLE games ADD COLUMN invite_hash TEXT;
ALTER TABLE moves ADD COLUMN v BIGINT;
