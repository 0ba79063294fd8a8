-- Analytics speed (issue 19 follow-up): a year is read from monthly rollups, today from a short-lived cache.
-- `analytics_monthly`: the sum of a month's day rows of `analytics_daily` (same room/metric/dim keys; `month` is
-- YYYY-MM), written by `rollupDay` in the same batch as the day (the month is deleted and summed again), so it
-- always equals the sum of its days. A range reads whole past months here and the days at its edges by day.
CREATE TABLE analytics_monthly (
  realm TEXT NOT NULL REFERENCES realm(code) ON DELETE CASCADE,
  room_id TEXT NOT NULL,
  month TEXT NOT NULL,
  metric TEXT NOT NULL,
  dim TEXT NOT NULL DEFAULT '',
  value REAL NOT NULL DEFAULT 0,
  PRIMARY KEY (realm, room_id, month, metric, dim)
) WITHOUT ROWID;
CREATE INDEX analytics_monthly_month ON analytics_monthly(realm, month);
-- "Today so far" of a realm: its rows as `computeDay` gives them, recomputed from the base tables when older than a
-- few minutes (or of another day); `analytics_today_at` says of which day and when. Never read as a rolled-up day.
CREATE TABLE analytics_today (
  realm TEXT NOT NULL REFERENCES realm(code) ON DELETE CASCADE,
  room_id TEXT NOT NULL,
  metric TEXT NOT NULL,
  dim TEXT NOT NULL DEFAULT '',
  value REAL NOT NULL DEFAULT 0,
  PRIMARY KEY (realm, metric, room_id, dim)
) WITHOUT ROWID;
CREATE TABLE analytics_today_at (
  realm TEXT PRIMARY KEY REFERENCES realm(code) ON DELETE CASCADE,
  day TEXT NOT NULL,
  computed_at TEXT NOT NULL
) WITHOUT ROWID;
