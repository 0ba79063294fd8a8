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
-- `analytics_yearly`: the sum of a year's month rows (`year` is YYYY), written by `rollupDay` in the same batch as the
-- day and its month (the year is deleted and summed again from its months), so it always equals the sum of its days.
-- The per-room reads take a year row minus the months and days outside the range when that reads fewer rows.
CREATE TABLE analytics_yearly (
  realm TEXT NOT NULL REFERENCES realm(code) ON DELETE CASCADE,
  room_id TEXT NOT NULL,
  year TEXT NOT NULL,
  metric TEXT NOT NULL,
  dim TEXT NOT NULL DEFAULT '',
  value REAL NOT NULL DEFAULT 0,
  PRIMARY KEY (realm, room_id, year, metric, dim)
) WITHOUT ROWID;
CREATE INDEX analytics_yearly_year ON analytics_yearly(realm, year);
CREATE INDEX analytics_yearly_metric ON analytics_yearly(realm, metric, year, room_id, dim, value);
INSERT INTO analytics_yearly (realm, room_id, year, metric, dim, value)
SELECT realm, room_id, substr(month, 1, 4), metric, dim, SUM(value) FROM analytics_monthly GROUP BY realm, room_id, substr(month, 1, 4), metric, dim;
