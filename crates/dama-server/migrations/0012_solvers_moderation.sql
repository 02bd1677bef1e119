-- Puzzle solvers' ratings, kept by the server (an account, or a visitor known by the
-- hash of its visitor cookie), and each solver's first attempt at each puzzle: only
-- that one moves the ratings.
CREATE TABLE IF NOT EXISTS puzzle_solvers (
    solver TEXT NOT NULL,
    variant TEXT NOT NULL,
    rating BIGINT NOT NULL,
    attempts BIGINT NOT NULL,
    PRIMARY KEY (solver, variant)
);
CREATE TABLE IF NOT EXISTS puzzle_attempts (
    solver TEXT NOT NULL,
    puzzle_id TEXT NOT NULL,
    solved BIGINT NOT NULL,
    at_ms BIGINT NOT NULL,
    PRIMARY KEY (solver, puzzle_id)
);
-- Moderation: roles given by the operator (`dama accounts grant NAME moderator`),
-- chat lines hidden by a moderator, accounts whose chat is muted, and who wrote a line
-- (the account, when a logged-in player or spectator wrote it).
CREATE TABLE IF NOT EXISTS account_roles (
    account_id TEXT NOT NULL,
    role TEXT NOT NULL,
    PRIMARY KEY (account_id, role)
);
ALTER TABLE chat_lines ADD COLUMN account_id TEXT;
ALTER TABLE chat_lines ADD COLUMN hidden_ms BIGINT;
ALTER TABLE chat_reports ADD COLUMN handled_ms BIGINT;
ALTER TABLE chat_reports ADD COLUMN handled_by TEXT;
ALTER TABLE chat_reports ADD COLUMN action TEXT;
ALTER TABLE accounts ADD COLUMN chat_muted_ms BIGINT;
