-- Realm administration (issue 5): realm limits and settings of seed 002 §3, the word filter and exemption domains,
-- global configuration, room categories, complaint reports, extra fields, user supervisees, metaverse rooms,
-- assets and persisted server errors. Defaults of limits the specification does not give are documented in README.

-- Realm limits (seed 002 §3). -1 means unlimited where a limit is a count or a duration.
ALTER TABLE realm ADD COLUMN msg_per_second INTEGER NOT NULL DEFAULT 5;
ALTER TABLE realm ADD COLUMN msg_min_interval_seconds INTEGER NOT NULL DEFAULT 0;
ALTER TABLE realm ADD COLUMN room_tx_weekly_seconds INTEGER NOT NULL DEFAULT -1;
ALTER TABLE realm ADD COLUMN room_tx_renewal_days INTEGER NOT NULL DEFAULT 7;
ALTER TABLE realm ADD COLUMN ledger_new_user_credits INTEGER NOT NULL DEFAULT 0;
ALTER TABLE realm ADD COLUMN metaverse_max_session_minutes INTEGER NOT NULL DEFAULT 120;
ALTER TABLE realm ADD COLUMN max_rooms INTEGER NOT NULL DEFAULT -1;
ALTER TABLE realm ADD COLUMN max_users_per_room INTEGER NOT NULL DEFAULT 300;
ALTER TABLE realm ADD COLUMN max_users_per_environment INTEGER NOT NULL DEFAULT -1;
ALTER TABLE realm ADD COLUMN max_bitrate_kbps INTEGER NOT NULL DEFAULT 2500;
-- Task publication: default deadline and farthest schedule date, in days from publication (read by the task issue).
ALTER TABLE realm ADD COLUMN tms_default_deadline_days INTEGER NOT NULL DEFAULT 3;
ALTER TABLE realm ADD COLUMN tms_max_schedule_days INTEGER NOT NULL DEFAULT 365;
-- Settings tabs without fields in seed 000 §3: feed, agents, word filter links, complaint reports.
ALTER TABLE realm ADD COLUMN feed_enabled INTEGER NOT NULL DEFAULT 0;
ALTER TABLE realm ADD COLUMN feed_moderated INTEGER NOT NULL DEFAULT 0;
ALTER TABLE realm ADD COLUMN feed_max_pinned INTEGER NOT NULL DEFAULT 3;
ALTER TABLE realm ADD COLUMN agent_endpoint_url TEXT NOT NULL DEFAULT '';
ALTER TABLE realm ADD COLUMN agent_model TEXT NOT NULL DEFAULT '';
ALTER TABLE realm ADD COLUMN agent_api_key TEXT NOT NULL DEFAULT '';
ALTER TABLE realm ADD COLUMN word_filter_links INTEGER NOT NULL DEFAULT 0;
ALTER TABLE realm ADD COLUMN report_enabled INTEGER NOT NULL DEFAULT 1;
ALTER TABLE realm ADD COLUMN report_reasons TEXT NOT NULL DEFAULT '["spam","harassment","inappropriate","other"]';
-- Metaverse rooms move to their own table (below); the realm answer still carries them as `metaverse_rooms`.
ALTER TABLE realm DROP COLUMN metaverse_rooms;

-- The realm word filter (seed 002 §3): sentences masked in users' text.
CREATE TABLE realm_word_filter (
  realm TEXT NOT NULL REFERENCES realm(code) ON DELETE CASCADE,
  sentence TEXT NOT NULL,
  PRIMARY KEY (realm, sentence)
);

-- Exemption domains: links to these domains (and their subdomains) pass the word filter's link rule.
CREATE TABLE realm_exemption_domain (
  realm TEXT NOT NULL REFERENCES realm(code) ON DELETE CASCADE,
  domain TEXT NOT NULL,
  PRIMARY KEY (realm, domain)
);

-- Platform-wide configuration (GET/PUT /mas/config): one JSON document.
CREATE TABLE global_config (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  value TEXT NOT NULL DEFAULT '{}',
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_by TEXT NOT NULL DEFAULT ''
);

-- Room category tree (seed 000 §3, seed 002 §3).
CREATE TABLE room_category (
  id TEXT PRIMARY KEY,
  realm TEXT NOT NULL REFERENCES realm(code) ON DELETE CASCADE,
  name TEXT NOT NULL,
  parent TEXT REFERENCES room_category(id) ON DELETE RESTRICT,
  priority INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  updated_by TEXT NOT NULL DEFAULT ''
);
CREATE INDEX room_category_parent ON room_category(realm, parent);

-- Complaint reports filed by users about content or other users.
CREATE TABLE complaint_report (
  id TEXT PRIMARY KEY,
  realm TEXT NOT NULL REFERENCES realm(code) ON DELETE CASCADE,
  target_type TEXT NOT NULL,
  target_id TEXT NOT NULL,
  reason TEXT NOT NULL,
  message TEXT NOT NULL DEFAULT '',
  status TEXT NOT NULL DEFAULT 'open',
  reporter TEXT NOT NULL,
  resolution TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  updated_by TEXT NOT NULL DEFAULT ''
);
CREATE INDEX complaint_report_realm ON complaint_report(realm, status, created_at);

-- Extra fields per entity (seed 002 §3): values live in the entity's `extra` JSON column.
CREATE TABLE extra_field (
  id TEXT PRIMARY KEY,
  realm TEXT NOT NULL REFERENCES realm(code) ON DELETE CASCADE,
  entity TEXT NOT NULL,
  key TEXT NOT NULL,
  label TEXT NOT NULL,
  required INTEGER NOT NULL DEFAULT 0,
  active INTEGER NOT NULL DEFAULT 1,
  external_preview INTEGER NOT NULL DEFAULT 0,
  position INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (realm, entity, key)
);
ALTER TABLE user ADD COLUMN extra TEXT NOT NULL DEFAULT '{}';

-- A supervisor and the users they supervise (seed 002 §3 "supervisees").
CREATE TABLE user_supervisee (
  realm TEXT NOT NULL,
  nick TEXT NOT NULL,
  supervisee TEXT NOT NULL,
  PRIMARY KEY (realm, nick, supervisee),
  FOREIGN KEY (realm, nick) REFERENCES user(realm, nick) ON DELETE CASCADE,
  FOREIGN KEY (realm, supervisee) REFERENCES user(realm, nick) ON DELETE CASCADE
);
CREATE INDEX user_supervisee_of ON user_supervisee(realm, supervisee);

-- Metaverse rooms of a realm (seed 002 §3: edited inside the realm).
CREATE TABLE metaverse_room (
  id TEXT PRIMARY KEY,
  realm TEXT NOT NULL REFERENCES realm(code) ON DELETE CASCADE,
  name TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  host TEXT NOT NULL DEFAULT '',
  scene_url TEXT NOT NULL DEFAULT '',
  capacity INTEGER NOT NULL DEFAULT 50,
  enabled INTEGER NOT NULL DEFAULT 1,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX metaverse_room_realm ON metaverse_room(realm, name);

-- Assets: a media item of the realm, an uploaded file or a link (seed 000 §9: default type video).
CREATE TABLE asset (
  id TEXT PRIMARY KEY,
  realm TEXT NOT NULL REFERENCES realm(code) ON DELETE CASCADE,
  name TEXT NOT NULL,
  type TEXT NOT NULL DEFAULT 'video',
  provider TEXT NOT NULL DEFAULT 'upload',
  infra TEXT NOT NULL DEFAULT 'cdn',
  file_id TEXT REFERENCES file(id) ON DELETE SET NULL,
  url TEXT NOT NULL DEFAULT '',
  size INTEGER,
  content_type TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  updated_by TEXT NOT NULL DEFAULT ''
);
CREATE INDEX asset_realm ON asset(realm, created_at);

-- Unexpected server errors of the API, by request id (technical/logs).
CREATE TABLE error_log (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  realm TEXT NOT NULL DEFAULT '',
  at TEXT NOT NULL,
  request_id TEXT NOT NULL,
  method TEXT NOT NULL,
  path TEXT NOT NULL,
  actor TEXT NOT NULL DEFAULT '',
  message TEXT NOT NULL,
  stack TEXT NOT NULL DEFAULT ''
);
CREATE INDEX error_log_realm_at ON error_log(realm, at);
