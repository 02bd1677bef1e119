-- The leaderboards read the best ratings of a pool and speed class: an index in that
-- order, so the top 100 are read without sorting every rating.
CREATE INDEX IF NOT EXISTS ratings_board ON ratings (variant, speed, rating);
