-- Issue 16 "The public chat": chat sessions with a persona and their transcripts (every message, and for each answer
-- the dialog or the knowledge passages it came from), and each realm's retention of visitors' data. New tables only,
-- so nothing to fix up; a realm without a retention row has the default (90 days).
-- This file's number comes before the persona tables' (0041): it refers to no later table (no foreign key to
-- persona; the persona's delete removes its sessions, worker/api/personai/persona.ts).

-- One row per chat session (one room of the persona-chat party). The visitor is a signed-in user (console or
-- mobile-web session: `visitor_nick`, `visitor_name`) or a guest (''); both are cleared, with the text of the
-- visitor's messages, once the session is older than the realm's persona_chat_retention_days (`redacted_at`).
CREATE TABLE persona_chat_session (
  id TEXT PRIMARY KEY,
  realm TEXT NOT NULL REFERENCES realm(code) ON DELETE CASCADE,
  persona_id TEXT NOT NULL,
  visitor_nick TEXT NOT NULL DEFAULT '',
  visitor_name TEXT NOT NULL DEFAULT '',
  language TEXT NOT NULL,
  started_at TEXT NOT NULL,
  last_at TEXT NOT NULL,
  message_count INTEGER NOT NULL DEFAULT 0,
  -- When the visitor asked for a human (call_helper); staff find these sessions in the transcripts list.
  helper_requested_at TEXT,
  redacted_at TEXT
);
CREATE INDEX persona_chat_session_list ON persona_chat_session(realm, persona_id, started_at, id);
CREATE INDEX persona_chat_session_retention ON persona_chat_session(last_at) WHERE redacted_at IS NULL;

-- The messages of a session, once each (session, seq): the party's sequence numbers, so a retried write counts once.
-- kind: greeting, question, option, helper (the visitor's turns) and dialog, knowledge, unknown, helper_answer.
CREATE TABLE persona_chat_message (
  session_id TEXT NOT NULL REFERENCES persona_chat_session(id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  realm TEXT NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('visitor', 'persona')),
  kind TEXT NOT NULL,
  text TEXT NOT NULL,
  dialog_id TEXT,
  -- JSON: the dialog's answers; the knowledge passages ({ id, source, title, quote }) the answer came from.
  answers TEXT NOT NULL DEFAULT '[]',
  sources TEXT NOT NULL DEFAULT '[]',
  engine TEXT,
  at TEXT NOT NULL,
  PRIMARY KEY (session_id, seq)
);

-- How long a realm's chat sessions keep their visitor's personal data (days after the last message); 0 clears it at
-- the first hourly run after the session went quiet. A table of its own: `realm` has few columns left (D1 allows 100).
CREATE TABLE persona_chat_retention (
  realm TEXT PRIMARY KEY REFERENCES realm(code) ON DELETE CASCADE,
  days INTEGER NOT NULL CHECK (days BETWEEN 0 AND 3650),
  updated_at TEXT NOT NULL,
  updated_by TEXT NOT NULL DEFAULT ''
);
