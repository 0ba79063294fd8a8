-- Watching recorded sessions (issue 15, mobile/csm): which slots of a session's video each user watched. A slot is
-- `watch_bucket` seconds of the video (the realm's csm_vod_slot_bucket when the session was first watched); a slot
-- watched again is the same row (INSERT OR IGNORE on the primary key), so watched time counts it once.
CREATE TABLE csm_watch (
  session_id TEXT NOT NULL,
  nick TEXT NOT NULL,
  slot INTEGER NOT NULL CHECK (slot >= 0),
  realm TEXT NOT NULL REFERENCES realm(code) ON DELETE CASCADE,
  watched_at TEXT NOT NULL,
  PRIMARY KEY (session_id, nick, slot)
) WITHOUT ROWID;
-- The slot length a session's watch rows were counted in, fixed at its first report (0: never watched), so changing
-- the realm's csm_vod_slot_bucket later never reinterprets stored slots.
ALTER TABLE csm_session ADD COLUMN watch_bucket INTEGER NOT NULL DEFAULT 0;
