-- Goals, objectives, awards and tracks (issue 19; seed 001 §3 "Track", "Goal", "Objective", "Award", §4, §5 "Goals").
-- README "Goals, objectives, awards and tracks (issue 19)" says how progress and awards are computed.

-- What a goal measures: an entity (essay, exam, tasks, questions), a criteria (all, at least one), a unit (score or
-- quantity) and the fraction of it to reach (percent, 0..1, shown as 100 × the fraction capped at 100).
CREATE TABLE achievement_objective (
  id TEXT PRIMARY KEY,
  realm TEXT NOT NULL REFERENCES realm(code) ON DELETE CASCADE,
  title TEXT NOT NULL,
  entity TEXT NOT NULL DEFAULT 'tasks',
  criteria TEXT NOT NULL DEFAULT 'all',
  unit TEXT NOT NULL DEFAULT 'score',
  percent REAL NOT NULL DEFAULT 1,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  updated_by TEXT NOT NULL DEFAULT ''
);

-- A goal model (type 'model') or a goal published from one (type 'goal', model_id naming its model; no cascade: a
-- model with published goals cannot be removed). Stored status: planned, active, finished or canceled; the lists
-- show the clock's status (planned before start, finished after end) unless canceled.
CREATE TABLE achievement_goal (
  id TEXT PRIMARY KEY,
  realm TEXT NOT NULL REFERENCES realm(code) ON DELETE CASCADE,
  type TEXT NOT NULL DEFAULT 'model',
  model_id TEXT REFERENCES achievement_goal(id),
  title TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'planned',
  start_date TEXT,
  end_date TEXT,
  recurrent INTEGER NOT NULL DEFAULT 0,
  period TEXT NOT NULL DEFAULT 'weekly',
  -- [{kind: 'room' | 'group', id}]
  targets TEXT NOT NULL DEFAULT '[]',
  activity_categories TEXT NOT NULL DEFAULT '[]',
  question_categories TEXT NOT NULL DEFAULT '[]',
  objective_ids TEXT NOT NULL DEFAULT '[]',
  created_at TEXT NOT NULL,
  created_by TEXT NOT NULL DEFAULT '',
  updated_at TEXT NOT NULL,
  updated_by TEXT NOT NULL DEFAULT ''
);

-- Which objectives a goal uses (the blocked-change check reads it by objective).
CREATE TABLE achievement_goal_objective (
  goal_id TEXT NOT NULL REFERENCES achievement_goal(id) ON DELETE CASCADE,
  realm TEXT NOT NULL,
  objective_id TEXT NOT NULL REFERENCES achievement_objective(id),
  PRIMARY KEY (goal_id, objective_id)
);
CREATE INDEX achievement_goal_objective_by ON achievement_goal_objective(realm, objective_id);

-- A goal's awards: title, description, media, the realm's award kind, and per objective the band of progress
-- (min..max, fractions) that grants it.
CREATE TABLE achievement_award (
  id TEXT PRIMARY KEY,
  realm TEXT NOT NULL,
  goal_id TEXT NOT NULL REFERENCES achievement_goal(id) ON DELETE CASCADE,
  position INTEGER NOT NULL DEFAULT 0,
  title TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  media_url TEXT,
  kind TEXT NOT NULL DEFAULT 'product',
  -- [{objective_id, min, max}]
  progress TEXT NOT NULL DEFAULT '[]'
);
CREATE INDEX achievement_award_goal ON achievement_award(goal_id, position);

-- One row per published goal and period: a recurrent goal publishes itself each period (the scheduled job), a
-- one-off goal has the one period 'once'. The primary key makes the job idempotent.
CREATE TABLE achievement_goal_period (
  goal_id TEXT NOT NULL REFERENCES achievement_goal(id) ON DELETE CASCADE,
  realm TEXT NOT NULL,
  period_key TEXT NOT NULL,
  starts_on TEXT NOT NULL,
  ends_on TEXT NOT NULL,
  published_at TEXT NOT NULL,
  PRIMARY KEY (goal_id, period_key)
);
CREATE INDEX achievement_goal_period_realm ON achievement_goal_period(realm, starts_on);

-- A student's progress on one objective of a goal's period (0..1 of the objective's percent), recomputed from the
-- corrected answers (an upsert: computing again changes nothing).
CREATE TABLE achievement_progress (
  goal_id TEXT NOT NULL REFERENCES achievement_goal(id) ON DELETE CASCADE,
  period_key TEXT NOT NULL,
  objective_id TEXT NOT NULL,
  realm TEXT NOT NULL,
  nick TEXT NOT NULL,
  room_id TEXT,
  progress REAL NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (goal_id, period_key, objective_id, nick)
);
CREATE INDEX achievement_progress_nick ON achievement_progress(realm, nick);

-- An award granted to a student in a goal's period (granted once: the key).
CREATE TABLE achievement_grant (
  award_id TEXT NOT NULL REFERENCES achievement_award(id) ON DELETE CASCADE,
  period_key TEXT NOT NULL,
  nick TEXT NOT NULL,
  realm TEXT NOT NULL,
  goal_id TEXT NOT NULL REFERENCES achievement_goal(id) ON DELETE CASCADE,
  room_id TEXT,
  granted_at TEXT NOT NULL,
  PRIMARY KEY (award_id, period_key, nick)
);
CREATE INDEX achievement_grant_nick ON achievement_grant(realm, nick, granted_at);
CREATE INDEX achievement_grant_goal ON achievement_grant(goal_id, room_id);

-- A learning path: ordered items (task models, lessons, surveys) as [{kind, id}].
CREATE TABLE achievement_track (
  id TEXT PRIMARY KEY,
  realm TEXT NOT NULL REFERENCES realm(code) ON DELETE CASCADE,
  title TEXT NOT NULL,
  type TEXT NOT NULL DEFAULT 'track',
  description TEXT NOT NULL DEFAULT '',
  tags TEXT NOT NULL DEFAULT '[]',
  is_public INTEGER NOT NULL DEFAULT 0,
  items TEXT NOT NULL DEFAULT '[]',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  updated_by TEXT NOT NULL DEFAULT ''
);

-- List indexes (tsx worker/scripts/list-schema.ts).
CREATE INDEX IF NOT EXISTS "list_achievement_goal_type" ON "achievement_goal" ("realm", "type", "id");
CREATE INDEX IF NOT EXISTS "list_achievement_goal_model_id" ON "achievement_goal" ("realm", "model_id", "id");
CREATE INDEX IF NOT EXISTS "list_achievement_goal_title" ON "achievement_goal" ("realm", "title", "id");
CREATE INDEX IF NOT EXISTS "list_achievement_goal_status" ON "achievement_goal" ("realm", "status", "id");
CREATE INDEX IF NOT EXISTS "list_achievement_goal_start_date" ON "achievement_goal" ("realm", "start_date", "id");
CREATE INDEX IF NOT EXISTS "list_achievement_goal_updated_at" ON "achievement_goal" ("realm", "updated_at", "id");
CREATE INDEX IF NOT EXISTS "list_achievement_objective_title" ON "achievement_objective" ("realm", "title", "id");
CREATE INDEX IF NOT EXISTS "list_achievement_objective_entity" ON "achievement_objective" ("realm", "entity", "id");
CREATE INDEX IF NOT EXISTS "list_achievement_objective_percent" ON "achievement_objective" ("realm", "percent", "id");
CREATE INDEX IF NOT EXISTS "list_achievement_objective_created_at" ON "achievement_objective" ("realm", "created_at", "id");
CREATE INDEX IF NOT EXISTS "list_achievement_objective_updated_at" ON "achievement_objective" ("realm", "updated_at", "id");
CREATE INDEX IF NOT EXISTS "list_achievement_track_title" ON "achievement_track" ("realm", "title", "id");
CREATE INDEX IF NOT EXISTS "list_achievement_track_is_public" ON "achievement_track" ("realm", "is_public", "id");
CREATE INDEX IF NOT EXISTS "list_achievement_track_created_at" ON "achievement_track" ("realm", "created_at", "id");
CREATE INDEX IF NOT EXISTS "list_achievement_track_updated_at" ON "achievement_track" ("realm", "updated_at", "id");
