-- Task authoring (issue 7): plain rooms with members and groups (the rooms issue completes them), task
-- categories, assessed skills, genres, task models and their published versions, published tasks and their
-- targets, the question bank and task tokens. Booleans are 0/1, lists JSON text, times ISO-8601 UTC text.

CREATE TABLE room (
  id TEXT PRIMARY KEY,
  realm TEXT NOT NULL REFERENCES realm(code) ON DELETE CASCADE,
  name TEXT NOT NULL,
  topic TEXT NOT NULL DEFAULT '',
  type TEXT NOT NULL DEFAULT 'lecture',
  enable_at TEXT,
  disable_at TEXT,
  -- Kept by the triggers below.
  member_count INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  created_by TEXT NOT NULL DEFAULT '',
  updated_at TEXT NOT NULL,
  updated_by TEXT NOT NULL DEFAULT '',
  UNIQUE (realm, name)
);

CREATE TABLE room_member (
  realm TEXT NOT NULL,
  room_id TEXT NOT NULL REFERENCES room(id) ON DELETE CASCADE,
  nick TEXT NOT NULL,
  added_at TEXT NOT NULL,
  added_by TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (room_id, nick),
  FOREIGN KEY (realm, nick) REFERENCES user(realm, nick) ON DELETE CASCADE
);
CREATE INDEX room_member_user ON room_member(realm, nick);
CREATE TRIGGER room_member_added AFTER INSERT ON room_member BEGIN
  UPDATE room SET member_count = member_count + 1 WHERE id = NEW.room_id;
END;
CREATE TRIGGER room_member_removed AFTER DELETE ON room_member BEGIN
  UPDATE room SET member_count = member_count - 1 WHERE id = OLD.room_id;
END;

CREATE TABLE room_group (
  id TEXT PRIMARY KEY,
  realm TEXT NOT NULL REFERENCES realm(code) ON DELETE CASCADE,
  name TEXT NOT NULL,
  -- JSON list of room ids.
  rooms TEXT NOT NULL DEFAULT '[]',
  created_at TEXT NOT NULL,
  created_by TEXT NOT NULL DEFAULT '',
  updated_at TEXT NOT NULL,
  updated_by TEXT NOT NULL DEFAULT '',
  UNIQUE (realm, name)
);

CREATE TABLE tms_category (
  id TEXT PRIMARY KEY,
  realm TEXT NOT NULL REFERENCES realm(code) ON DELETE CASCADE,
  name TEXT NOT NULL,
  parent_id TEXT REFERENCES tms_category(id),
  selectable INTEGER NOT NULL DEFAULT 1,
  enabled INTEGER NOT NULL DEFAULT 1,
  required INTEGER NOT NULL DEFAULT 0,
  multi_selection INTEGER NOT NULL DEFAULT 1,
  embed INTEGER NOT NULL DEFAULT 0,
  show_in_navigation INTEGER NOT NULL DEFAULT 0,
  show_in_filter INTEGER NOT NULL DEFAULT 1,
  show_in_list INTEGER NOT NULL DEFAULT 1,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  updated_by TEXT NOT NULL DEFAULT ''
);
CREATE INDEX tms_category_realm ON tms_category(realm, parent_id);

CREATE TABLE tms_assessed_skill (
  id TEXT PRIMARY KEY,
  realm TEXT NOT NULL REFERENCES realm(code) ON DELETE CASCADE,
  name TEXT NOT NULL,
  type TEXT NOT NULL DEFAULT 'skill',
  weight REAL NOT NULL DEFAULT 1,
  group_id TEXT REFERENCES tms_assessed_skill(id),
  description TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  updated_by TEXT NOT NULL DEFAULT ''
);
CREATE INDEX tms_assessed_skill_realm ON tms_assessed_skill(realm, group_id);

CREATE TABLE tms_genre (
  id TEXT PRIMARY KEY,
  realm TEXT NOT NULL REFERENCES realm(code) ON DELETE CASCADE,
  name TEXT NOT NULL,
  min_words INTEGER NOT NULL,
  max_words INTEGER NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  updated_by TEXT NOT NULL DEFAULT ''
);
CREATE INDEX tms_genre_realm ON tms_genre(realm);

CREATE TABLE tms_model (
  id TEXT PRIMARY KEY,
  realm TEXT NOT NULL REFERENCES realm(code) ON DELETE CASCADE,
  title TEXT NOT NULL,
  type TEXT NOT NULL DEFAULT 'model',
  kind TEXT NOT NULL DEFAULT 'activity',
  description TEXT NOT NULL DEFAULT '',
  tags TEXT NOT NULL DEFAULT '[]',
  categories TEXT NOT NULL DEFAULT '[]',
  questions TEXT NOT NULL DEFAULT '[]',
  style TEXT NOT NULL DEFAULT '{}',
  parent_id TEXT,
  min_execution_time INTEGER NOT NULL DEFAULT 0,
  max_execution_time INTEGER NOT NULL DEFAULT 0,
  token INTEGER NOT NULL DEFAULT 0,
  audio_question INTEGER NOT NULL DEFAULT 0,
  essay_transcription INTEGER NOT NULL DEFAULT 0,
  verify_answers INTEGER NOT NULL DEFAULT 0,
  disable_answer_review INTEGER NOT NULL DEFAULT 0,
  auto_draft INTEGER NOT NULL DEFAULT 0,
  -- Raised when a model whose current version is published is edited (published tasks keep theirs).
  version INTEGER NOT NULL DEFAULT 1,
  question_count INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  created_by TEXT NOT NULL DEFAULT '',
  updated_at TEXT NOT NULL,
  updated_by TEXT NOT NULL DEFAULT ''
);
CREATE INDEX tms_model_realm ON tms_model(realm, updated_at);

-- The content of a model at a version some task was published with.
CREATE TABLE tms_model_version (
  model_id TEXT NOT NULL REFERENCES tms_model(id) ON DELETE CASCADE,
  version INTEGER NOT NULL,
  realm TEXT NOT NULL,
  content TEXT NOT NULL,
  created_at TEXT NOT NULL,
  created_by TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (model_id, version)
);

CREATE TABLE tms_task (
  id TEXT PRIMARY KEY,
  realm TEXT NOT NULL REFERENCES realm(code) ON DELETE CASCADE,
  -- No cascade: a model with published tasks cannot be removed.
  model_id TEXT NOT NULL REFERENCES tms_model(id),
  model_version INTEGER NOT NULL,
  title TEXT NOT NULL,
  kind TEXT NOT NULL DEFAULT 'activity',
  publication_type TEXT NOT NULL DEFAULT 'all',
  publish_at TEXT NOT NULL,
  expire_at TEXT NOT NULL,
  display_answer_at TEXT,
  correct_at TEXT,
  show_timer INTEGER NOT NULL DEFAULT 0,
  scheduling_enabled INTEGER NOT NULL DEFAULT 1,
  token INTEGER NOT NULL DEFAULT 0,
  categories TEXT NOT NULL DEFAULT '[]',
  created_at TEXT NOT NULL,
  created_by TEXT NOT NULL DEFAULT '',
  updated_at TEXT NOT NULL,
  updated_by TEXT NOT NULL DEFAULT ''
);
CREATE INDEX tms_task_realm ON tms_task(realm, publish_at);
CREATE INDEX tms_task_model ON tms_task(model_id);

-- Whom a task is published to: a room (all its members), one member of a room, or a room group.
CREATE TABLE tms_task_target (
  task_id TEXT NOT NULL REFERENCES tms_task(id) ON DELETE CASCADE,
  realm TEXT NOT NULL,
  room_id TEXT REFERENCES room(id),
  nick TEXT,
  group_id TEXT REFERENCES room_group(id)
);
CREATE INDEX tms_task_target_task ON tms_task_target(task_id);
CREATE INDEX tms_task_target_room ON tms_task_target(room_id);
CREATE INDEX tms_task_target_group ON tms_task_target(group_id);

-- Tasks as lists show them: date status by the clock (seed 001 §4), the model's newest version, target names.
CREATE VIEW tms_task_view AS
SELECT
  t.*,
  m.version AS latest_version,
  (m.version > t.model_version) AS newer_version,
  CASE
    WHEN t.scheduling_enabled = 0 THEN 'paused'
    WHEN t.expire_at <= strftime('%Y-%m-%dT%H:%M:%fZ', 'now') THEN 'expired'
    WHEN t.publish_at > strftime('%Y-%m-%dT%H:%M:%fZ', 'now') THEN 'scheduled'
    ELSE 'published'
  END AS status,
  COALESCE(
    (SELECT group_concat(r.name, ', ') FROM room r WHERE r.id IN (SELECT x.room_id FROM tms_task_target x WHERE x.task_id = t.id)),
    (SELECT group_concat(g.name, ', ') FROM room_group g WHERE g.id IN (SELECT x.group_id FROM tms_task_target x WHERE x.task_id = t.id)),
    ''
  ) AS rooms
FROM tms_task t JOIN tms_model m ON m.id = t.model_id;

CREATE TABLE tms_question_bank (
  id TEXT PRIMARY KEY,
  realm TEXT NOT NULL REFERENCES realm(code) ON DELETE CASCADE,
  type TEXT NOT NULL DEFAULT 'text',
  statement TEXT NOT NULL,
  statement_text TEXT NOT NULL DEFAULT '',
  comment TEXT NOT NULL DEFAULT '',
  score REAL NOT NULL DEFAULT 0,
  required INTEGER NOT NULL DEFAULT 1,
  shuffle INTEGER NOT NULL DEFAULT 0,
  partial_score INTEGER NOT NULL DEFAULT 0,
  categories TEXT NOT NULL DEFAULT '[]',
  media_type TEXT NOT NULL DEFAULT '',
  media_url TEXT NOT NULL DEFAULT '',
  options TEXT NOT NULL DEFAULT '{}',
  extra_fields TEXT NOT NULL DEFAULT '{}',
  difficulty TEXT NOT NULL DEFAULT 'easy',
  tags TEXT NOT NULL DEFAULT '[]',
  grade_id INTEGER,
  subject_id TEXT NOT NULL DEFAULT '',
  standard_id TEXT NOT NULL DEFAULT '',
  descriptor_id TEXT NOT NULL DEFAULT '',
  batch_id TEXT NOT NULL DEFAULT '',
  curriculum TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL,
  created_by TEXT NOT NULL DEFAULT '',
  updated_at TEXT NOT NULL,
  updated_by TEXT NOT NULL DEFAULT ''
);
CREATE INDEX tms_question_bank_realm ON tms_question_bank(realm, updated_at);
CREATE INDEX tms_question_bank_batch ON tms_question_bank(realm, batch_id);

CREATE TABLE tms_token (
  id TEXT PRIMARY KEY,
  realm TEXT NOT NULL REFERENCES realm(code) ON DELETE CASCADE,
  task_id TEXT NOT NULL REFERENCES tms_task(id) ON DELETE CASCADE,
  room_id TEXT NOT NULL REFERENCES room(id) ON DELETE CASCADE,
  code TEXT NOT NULL,
  created_by TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL,
  revoked_at TEXT,
  UNIQUE (realm, code)
);
CREATE INDEX tms_token_task ON tms_token(task_id, room_id);

CREATE VIEW tms_token_view AS
SELECT k.*, r.name AS room_name, t.title AS task_title
FROM tms_token k JOIN room r ON r.id = k.room_id JOIN tms_task t ON t.id = k.task_id;
