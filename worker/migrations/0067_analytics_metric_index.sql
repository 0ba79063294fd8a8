-- Analytics speed, second pass (issue 19): a range's rows of one metric read in index order, without a lookup per row.
-- The tabs ask for a few metrics (the activity tab's per-room essay errors: one metric of every room); the rollups'
-- keys start (realm, room_id, day) and (realm, day), so a read of one metric over a range visited every metric's rows
-- of those days and looked each value up. These indexes lead with the metric and carry the value (covering).
CREATE INDEX analytics_daily_metric ON analytics_daily(realm, metric, day, room_id, dim, value);
CREATE INDEX analytics_monthly_metric ON analytics_monthly(realm, metric, month, room_id, dim, value);
-- A month row is the sum of its day rows (`rollupDay` writes both in one batch); the per-room reads now also subtract
-- days from a month row, so months rolled up before 0066 (no month row) are summed here once. Idempotent.
INSERT OR REPLACE INTO analytics_monthly (realm, room_id, month, metric, dim, value)
SELECT realm, room_id, substr(day, 1, 7), metric, dim, SUM(value) FROM analytics_daily WHERE length(day) = 10
GROUP BY realm, room_id, substr(day, 1, 7), metric, dim;
