-- Issue 13 "Live: the channel party": the chat history of channels and the ended live sessions with their metrics.

-- Chat messages of a channel's live sessions, written by the channel party in batches through the realm API
-- (POST /api/channel/live/{id}/messages). (channel_id, seq) is the idempotency key: a resent batch counts once.
CREATE TABLE channel_message (
  realm TEXT NOT NULL REFERENCES realm(code) ON DELETE CASCADE,
  channel_id TEXT NOT NULL REFERENCES channel(id) ON DELETE CASCADE,
  -- The party's per-channel sequence number (continues across sessions).
  seq INTEGER NOT NULL,
  -- The sender's client id (a resend of the same id was acknowledged with the same seq, never stored twice).
  client_id TEXT NOT NULL,
  nick TEXT NOT NULL,
  name TEXT NOT NULL DEFAULT '',
  role TEXT NOT NULL DEFAULT '',
  -- Stored as sent after the channel's word filter (masked).
  text TEXT NOT NULL DEFAULT '',
  -- JSON { url, name, mime, size } or NULL.
  attachment TEXT,
  -- The live session it was said in (csm_session.id once that session ended).
  session_id TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL,
  PRIMARY KEY (channel_id, seq)
);
CREATE INDEX channel_message_realm ON channel_message(realm, channel_id, seq);

-- Sessions (seed 002 §3 "Session (recording)"), as far as the live party needs them: one row per ended live session
-- of a channel, with the seed's metrics. Issue 15 (sessions and recordings) extends this table: title, category_ids,
-- reference_date, recorded_in, extras and the status columns are the seed's; video columns come with it.
CREATE TABLE csm_session (
  -- The party's idempotency key for the session (a retried hand-over stores it once).
  id TEXT PRIMARY KEY,
  realm TEXT NOT NULL REFERENCES realm(code) ON DELETE CASCADE,
  title TEXT NOT NULL DEFAULT '',
  owner TEXT NOT NULL DEFAULT '',
  channel_id TEXT NOT NULL,
  channel_topic TEXT NOT NULL DEFAULT '',
  -- JSON array of channel category ids.
  category_ids TEXT NOT NULL DEFAULT '[]',
  reference_date TEXT NOT NULL,
  -- Where it happened: 'live' (the channel party); issue 15 adds recorded sessions.
  recorded_in TEXT NOT NULL DEFAULT 'live',
  extras TEXT NOT NULL DEFAULT '{}',
  -- Seed 002 §3 statuses: created, started, pending, published, finished, rerecord, unpublished.
  status TEXT NOT NULL DEFAULT 'finished' CHECK (status IN ('created', 'started', 'pending', 'published', 'finished', 'rerecord', 'unpublished')),
  -- Seed 002 §3 video statuses; a live session without a recording has none.
  video_status TEXT NOT NULL DEFAULT 'no_video' CHECK (video_status IN ('processed', 'complete', 'partial', 'no_video', 'unavailable')),
  started_at TEXT NOT NULL,
  ended_at TEXT NOT NULL,
  ended_by TEXT NOT NULL DEFAULT '',
  -- Metrics (seed 002 §3): live duration of the session, each participant's seconds (JSON nick → seconds), counts.
  live_seconds INTEGER NOT NULL DEFAULT 0,
  live_durations TEXT NOT NULL DEFAULT '{}',
  peak_participants INTEGER NOT NULL DEFAULT 0,
  chat_count INTEGER NOT NULL DEFAULT 0,
  attachment_count INTEGER NOT NULL DEFAULT 0,
  hand_raise_count INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL
);
CREATE INDEX csm_session_channel ON csm_session(realm, channel_id, started_at);
CREATE INDEX csm_session_reference ON csm_session(realm, reference_date, id);
