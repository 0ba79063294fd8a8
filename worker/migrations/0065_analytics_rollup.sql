-- Analytics (issue 19, seed 002 §2 analytics general/task/session, §5 "Metrics"): daily rollups per realm, day (the
-- realm's calendar), room and metric, written by the Worker's scheduled() (and on demand for a few missing days).
-- `room_id` is a room id, '' for what has no room, or '*' for the realm's total (what unfiltered charts read);
-- `dim` a second key (a task category, an assessed skill, an essay error category), '' when none. `day` is
-- YYYY-MM-DD, or YYYY-MM / YYYY for the distinct active users of a month or a year. A day is recomputed whole
-- (delete, then insert, in one batch), so running the job twice leaves the same rows.
CREATE TABLE analytics_daily (
  realm TEXT NOT NULL REFERENCES realm(code) ON DELETE CASCADE,
  room_id TEXT NOT NULL,
  day TEXT NOT NULL,
  metric TEXT NOT NULL,
  dim TEXT NOT NULL DEFAULT '',
  value REAL NOT NULL DEFAULT 0,
  PRIMARY KEY (realm, room_id, day, metric, dim)
) WITHOUT ROWID;
CREATE INDEX analytics_daily_day ON analytics_daily(realm, day);
-- Which days of a realm have been rolled up (and when): a past day without a row is "data unavailable".
CREATE TABLE analytics_rollup (
  realm TEXT NOT NULL REFERENCES realm(code) ON DELETE CASCADE,
  day TEXT NOT NULL,
  computed_at TEXT NOT NULL,
  PRIMARY KEY (realm, day)
) WITHOUT ROWID;
-- The base-table reads of a day (the rollup job and the current day) and of the session reports, each by index.
CREATE INDEX session_signin ON session(realm, created_at, nick);
CREATE INDEX tms_answer_corrected ON tms_answer(realm, corrected_at);
CREATE INDEX tms_answer_start_opened ON tms_answer_start(realm, opened_at);
CREATE INDEX csm_watch_realm ON csm_watch(realm, watched_at);
