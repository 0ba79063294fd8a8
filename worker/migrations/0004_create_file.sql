-- Uploaded files: the bytes live in R2 under `key`; this row says what they are and how long they stay.
CREATE TABLE file (
  id TEXT PRIMARY KEY,
  realm TEXT NOT NULL REFERENCES realm(code) ON DELETE CASCADE,
  key TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  ext TEXT NOT NULL,
  kind TEXT NOT NULL,
  content_type TEXT NOT NULL,
  size INTEGER NOT NULL,
  width INTEGER,
  height INTEGER,
  persist INTEGER NOT NULL DEFAULT 0,
  permanent INTEGER NOT NULL DEFAULT 0,
  uploaded_by TEXT NOT NULL,
  created_at TEXT NOT NULL,
  -- Non-persisted uploads expire (cleaned by the scheduled handler); NULL keeps the file.
  expires_at TEXT
);
CREATE INDEX file_realm ON file(realm, created_at);
CREATE INDEX file_expires ON file(expires_at) WHERE expires_at IS NOT NULL;
