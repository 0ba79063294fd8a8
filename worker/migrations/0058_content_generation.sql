-- Content generation (issue 18, seed 001 §3 "Content config", "Agent", "Realm content-generation settings").

-- Agents shape the generation prompt (name, tags, public flag, target audience). A plain entity (cgs/agent).
CREATE TABLE cgs_agent (
  id TEXT PRIMARY KEY,
  realm TEXT NOT NULL REFERENCES realm(code) ON DELETE CASCADE,
  name TEXT NOT NULL,
  tags TEXT NOT NULL DEFAULT '[]',
  is_public INTEGER NOT NULL DEFAULT 0,
  target_audience TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  updated_by TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS "list_cgs_agent_name" ON "cgs_agent" ("realm", "name", "id");
CREATE INDEX IF NOT EXISTS "list_cgs_agent_is_public" ON "cgs_agent" ("realm", "is_public", "id");
CREATE INDEX IF NOT EXISTS "list_cgs_agent_created_at" ON "cgs_agent" ("realm", "created_at", "id");
CREATE INDEX IF NOT EXISTS "list_cgs_agent_updated_at" ON "cgs_agent" ("realm", "updated_at", "id");

-- Content configurations: one type per generated content, its options as JSON (checked by the type's schema).
-- At most one default-selected configuration per realm and type (the save clears the others in its batch).
CREATE TABLE cgs_content_config (
  id TEXT PRIMARY KEY,
  realm TEXT NOT NULL REFERENCES realm(code) ON DELETE CASCADE,
  type TEXT NOT NULL CHECK (type IN ('summary', 'class_plan', 'handout', 'slide', 'narrative', 'task', 'question_pairs')),
  title TEXT NOT NULL,
  tags TEXT NOT NULL DEFAULT '[]',
  options TEXT NOT NULL DEFAULT '{}',
  guideline TEXT NOT NULL DEFAULT '',
  is_public INTEGER NOT NULL DEFAULT 0,
  default_selected INTEGER NOT NULL DEFAULT 0,
  agent_id TEXT REFERENCES cgs_agent(id) ON DELETE SET NULL,
  created_by TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  updated_by TEXT NOT NULL DEFAULT ''
);
CREATE INDEX cgs_content_config_default ON cgs_content_config (realm, type, default_selected);
CREATE INDEX IF NOT EXISTS "list_cgs_content_config_title" ON "cgs_content_config" ("realm", "title", "id");
CREATE INDEX IF NOT EXISTS "list_cgs_content_config_type" ON "cgs_content_config" ("realm", "type", "id");
CREATE INDEX IF NOT EXISTS "list_cgs_content_config_updated_at" ON "cgs_content_config" ("realm", "updated_at", "id");
CREATE INDEX cgs_content_config_agent ON cgs_content_config (realm, agent_id);

-- The realm's content-generation settings: activate_*, allow_custom_*, default_*_config_id and the intro video
-- limits, as one JSON document (realm has 95 of D1's 100 columns; realm_ai set the precedent of a side table).
CREATE TABLE realm_genesis (
  realm TEXT PRIMARY KEY REFERENCES realm(code) ON DELETE CASCADE,
  settings TEXT NOT NULL DEFAULT '{}',
  updated_at TEXT NOT NULL,
  updated_by TEXT NOT NULL DEFAULT ''
);

-- A generation job (lesson) and its contents, one row each, advanced one content at a time by the client's polls.
CREATE TABLE genesis_job (
  id TEXT PRIMARY KEY,
  realm TEXT NOT NULL REFERENCES realm(code) ON DELETE CASCADE,
  kind TEXT NOT NULL DEFAULT 'lesson',
  title TEXT NOT NULL DEFAULT '',
  language TEXT NOT NULL DEFAULT 'pt-BR',
  agent_id TEXT,
  status TEXT NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'done', 'failed', 'canceled')),
  engine TEXT NOT NULL DEFAULT 'local',
  idempotency_key TEXT NOT NULL,
  request_hash TEXT NOT NULL,
  -- The sources' text (sections), read once when the job starts.
  sources TEXT NOT NULL DEFAULT '[]',
  result TEXT NOT NULL DEFAULT '{}',
  created_by TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (realm, idempotency_key)
);
CREATE INDEX genesis_job_owner ON genesis_job (realm, created_by, created_at);

CREATE TABLE genesis_job_content (
  job_id TEXT NOT NULL REFERENCES genesis_job(id) ON DELETE CASCADE,
  realm TEXT NOT NULL,
  position INTEGER NOT NULL,
  kind TEXT NOT NULL,
  config_id TEXT,
  options TEXT NOT NULL DEFAULT '{}',
  guideline TEXT NOT NULL DEFAULT '',
  status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'running', 'done', 'failed', 'canceled')),
  points INTEGER NOT NULL DEFAULT 0,
  operation TEXT,
  error TEXT,
  refunded INTEGER NOT NULL DEFAULT 0,
  engine TEXT,
  output TEXT NOT NULL DEFAULT 'null',
  started_at TEXT,
  finished_at TEXT,
  PRIMARY KEY (job_id, kind)
);
CREATE INDEX genesis_job_content_config ON genesis_job_content (realm, config_id);
