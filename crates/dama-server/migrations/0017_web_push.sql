-- Web Push: the server's VAPID key pair (made at the first start), and the push
-- subscriptions of the accounts' browsers (the push service's address and the keys
-- the payloads are encrypted to), with the language their notifications are worded in.
CREATE TABLE IF NOT EXISTS server_keys (
    name TEXT PRIMARY KEY,
    private_key TEXT NOT NULL,
    public_key TEXT NOT NULL,
    created_ms BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS push_subscriptions (
    endpoint TEXT PRIMARY KEY,
    account TEXT NOT NULL,
    p256dh TEXT NOT NULL,
    auth TEXT NOT NULL,
    lang TEXT NOT NULL,
    created_ms BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS push_subscriptions_of ON push_subscriptions (account);
