-- Tokens with which programs act for an account (the bot API), stored hashed.
CREATE TABLE IF NOT EXISTS api_tokens (
    token_hash TEXT PRIMARY KEY,
    account_id TEXT NOT NULL,
    scopes TEXT NOT NULL,
    created_ms BIGINT NOT NULL
);
