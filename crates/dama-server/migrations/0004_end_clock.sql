-- A finished game's clock of the side that was to move, frozen at the end (a
-- resignation, agreement or adjudication in the middle of a turn), so the clocks
-- show the end time after a restart too.
ALTER TABLE games ADD COLUMN end_clock_ms BIGINT;
