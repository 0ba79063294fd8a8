-- Issue 16: a persona's generated animations (seed 002 §3: idle, talk, enter, leave), one a kind. A provider's job
-- is asynchronous (D-ID talks): `pending` with the provider's id (`ref`) until its result URL is read (`done`,
-- `url`) or it fails (`failed`, `error`: the paid operation was refunded). `operation_id` is the paid operation
-- (ai_operation) that paid for it. New table only: existing realms have no generated animations to fix up.
CREATE TABLE persona_animation (
  realm TEXT NOT NULL REFERENCES realm(code) ON DELETE CASCADE,
  persona_id TEXT NOT NULL REFERENCES persona(id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('idle', 'talk', 'enter', 'leave')),
  provider TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'done', 'failed')),
  ref TEXT NOT NULL DEFAULT '',
  url TEXT NOT NULL DEFAULT '',
  error TEXT,
  operation_id TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  updated_by TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (persona_id, kind)
);
CREATE INDEX persona_animation_realm ON persona_animation(realm, persona_id);
