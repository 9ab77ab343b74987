-- Request counts are written on every rate-limited request: unlogged, their commit waits for no
-- WAL flush (measured: insert p50 0.66 -> 0.31 ms, p90 1.8 -> 0.6 ms). What that costs: after a
-- crash Postgres empties the table, so every key starts a fresh one-minute window, and standbys
-- hold no counts (a promoted standby starts empty too).
ALTER TABLE "rate_limit_windows" SET UNLOGGED;
