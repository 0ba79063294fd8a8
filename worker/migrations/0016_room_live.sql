-- Issue 13 "rooms go live": the chat of console rooms' live sessions (the room party, party/room.ts) and which ended
-- session records a room. Numbered before the channel tables (0030, 0034), so nothing here touches them: a room's
-- recorded session is a `csm_session` row (recorded_in 'room', created by 0034) named by `csm_session_room`.

-- Chat messages of a room's live sessions, written by the room party in batches through the realm API
-- (POST /api/room/live/{id}/messages); the same shape as channel_message. (room_id, seq) is the idempotency key.
CREATE TABLE room_message (
  realm TEXT NOT NULL REFERENCES realm(code) ON DELETE CASCADE,
  room_id TEXT NOT NULL REFERENCES room(id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  client_id TEXT NOT NULL,
  nick TEXT NOT NULL,
  name TEXT NOT NULL DEFAULT '',
  role TEXT NOT NULL DEFAULT '',
  text TEXT NOT NULL DEFAULT '',
  attachment TEXT,
  session_id TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL,
  PRIMARY KEY (room_id, seq)
);
CREATE INDEX room_message_realm ON room_message(realm, room_id, seq);

-- The room a recorded live session happened in (csm_session.id → room), written with the session in one batch.
CREATE TABLE csm_session_room (
  session_id TEXT PRIMARY KEY,
  realm TEXT NOT NULL REFERENCES realm(code) ON DELETE CASCADE,
  room_id TEXT NOT NULL,
  started_at TEXT NOT NULL
);
CREATE INDEX csm_session_room_room ON csm_session_room(realm, room_id, started_at);
