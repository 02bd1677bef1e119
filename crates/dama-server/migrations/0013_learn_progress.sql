-- The Learn section: the lessons and practice positions an account has completed,
-- per rulebook (the browser keeps its own copy and sends it on logging in).
CREATE TABLE IF NOT EXISTS learn_progress (
    account_id TEXT NOT NULL,
    variant TEXT NOT NULL,
    item TEXT NOT NULL,
    done_ms BIGINT NOT NULL,
    PRIMARY KEY (account_id, variant, item)
);
