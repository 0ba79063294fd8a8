-- Recordings of live sessions (issue 20 "Recording"): the recorder's browser uploads the mixed call in parts to an R2
-- multipart upload through the realm API (/api/csm/recording); on completion the file is validated on its own
-- container metadata and the session (`csm_session`, created when recording starts) receives the video.
-- Kept in its own tables because this migration runs before `csm_session` exists on a fresh database (0034): the
-- session's video columns (key, size, duration, codecs) are the recording's, joined by `session_id`.
CREATE TABLE csm_recording (
  id TEXT PRIMARY KEY,
  realm TEXT NOT NULL REFERENCES realm(code) ON DELETE CASCADE,
  -- What was recorded: a channel's live session or a console room's.
  target TEXT NOT NULL CHECK (target IN ('channel', 'room')),
  target_id TEXT NOT NULL,
  -- The csm_session this recording feeds (created with the recording, status 'started').
  session_id TEXT NOT NULL,
  recorder TEXT NOT NULL,
  -- The R2 object and its multipart upload; every part but the last is `part_size` bytes (an R2 rule).
  r2_key TEXT NOT NULL,
  upload_id TEXT NOT NULL,
  part_size INTEGER NOT NULL,
  mime TEXT NOT NULL,
  -- recording (parts arriving) → assembling (one completion claimed it) → complete | refused (validation failed, the
  -- object removed) | aborted (the recorder gave up, or it was left unfinished).
  status TEXT NOT NULL DEFAULT 'recording' CHECK (status IN ('recording', 'assembling', 'complete', 'refused', 'aborted')),
  -- Why it was refused: the error cause (too_large, too_long, video_codec, audio_codec, not_webm, unreadable, …).
  reason TEXT NOT NULL DEFAULT '',
  size INTEGER NOT NULL DEFAULT 0,
  duration_seconds REAL NOT NULL DEFAULT 0,
  video_codec TEXT NOT NULL DEFAULT '',
  audio_codec TEXT NOT NULL DEFAULT '',
  -- The live party's session id whose metrics this recording's session received ('' until the party handed it over).
  live_session_id TEXT NOT NULL DEFAULT '',
  started_at TEXT NOT NULL,
  completed_at TEXT
);
CREATE INDEX csm_recording_target ON csm_recording(realm, target, target_id, started_at);
CREATE INDEX csm_recording_session ON csm_recording(session_id);
CREATE INDEX csm_recording_live ON csm_recording(realm, live_session_id);
CREATE INDEX csm_recording_status ON csm_recording(status, started_at);

-- The parts received, one row per index: a part sent again is stored once (its first etag kept).
CREATE TABLE csm_recording_part (
  recording_id TEXT NOT NULL REFERENCES csm_recording(id) ON DELETE CASCADE,
  idx INTEGER NOT NULL,
  etag TEXT NOT NULL,
  size INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (recording_id, idx)
);
