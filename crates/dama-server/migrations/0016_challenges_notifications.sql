-- Challenges to a named player: pending until accepted (then the game's id),
-- declined (with a reason), cancelled by the challenger, or expired.
CREATE TABLE IF NOT EXISTS challenges (
    id TEXT PRIMARY KEY,
    challenger TEXT NOT NULL,
    challenged TEXT NOT NULL,
    options TEXT NOT NULL,
    status TEXT NOT NULL,
    reason TEXT,
    game_id TEXT,
    created_ms BIGINT NOT NULL,
    expires_ms BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS challenges_to ON challenges (challenged, status);
CREATE INDEX IF NOT EXISTS challenges_from ON challenges (challenger, created_ms);
-- Blocks: no challenges, no chat and no pairing between the two players.
CREATE TABLE IF NOT EXISTS blocks (
    blocker TEXT NOT NULL,
    blocked TEXT NOT NULL,
    created_ms BIGINT NOT NULL,
    PRIMARY KEY (blocker, blocked)
);
-- The followers of a player, for the news of their games.
CREATE INDEX IF NOT EXISTS follows_followed ON follows (followed);
-- Each account's inbox: what happened (its kind and details as JSON), read or not.
CREATE TABLE IF NOT EXISTS notifications (
    id TEXT PRIMARY KEY,
    account TEXT NOT NULL,
    kind TEXT NOT NULL,
    data TEXT NOT NULL,
    created_ms BIGINT NOT NULL,
    read_ms BIGINT
);
CREATE INDEX IF NOT EXISTS notifications_of ON notifications (account, created_ms);
-- Reminders already sent: one per game, side and move ("a day left").
CREATE TABLE IF NOT EXISTS reminders (
    game_id TEXT NOT NULL,
    ply BIGINT NOT NULL,
    sent_ms BIGINT NOT NULL,
    PRIMARY KEY (game_id, ply)
);
-- Who may challenge the account (all, friends: the players it follows, none), and when
-- it was last seen with a page open ("online now").
ALTER TABLE accounts ADD COLUMN challenges TEXT NOT NULL DEFAULT 'all';
ALTER TABLE accounts ADD COLUMN seen_ms BIGINT NOT NULL DEFAULT 0;
-- Who reported a chat line (an account, when logged in): told when it is handled.
ALTER TABLE chat_reports ADD COLUMN reporter TEXT;
