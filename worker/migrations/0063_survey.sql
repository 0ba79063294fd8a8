-- Surveys (issue 19; seed 001 §3 "Survey", §4, §5 "Surveys"): survey models teachers edit, surveys published from
-- them to rooms, room members or room groups (as tasks), and the students' answers (one per student per survey),
-- which staff may revise (each revision kept with who made it). JSON columns: app/shared/schemas/survey/survey.ts.
CREATE TABLE survey_model (
  id TEXT PRIMARY KEY,
  realm TEXT NOT NULL REFERENCES realm(code) ON DELETE CASCADE,
  type TEXT NOT NULL DEFAULT 'model',
  title TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  questions TEXT NOT NULL DEFAULT '[]',
  question_count INTEGER NOT NULL DEFAULT 0,
  is_required INTEGER NOT NULL DEFAULT 0,
  confirmation_message TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL,
  created_by TEXT NOT NULL DEFAULT '',
  updated_at TEXT NOT NULL,
  updated_by TEXT NOT NULL DEFAULT ''
);

-- A published survey keeps a copy of the model's questions and texts (the model cannot change while it has
-- published surveys, §4; the copy keeps results readable if the model is later deleted after its surveys are).
CREATE TABLE survey_survey (
  id TEXT PRIMARY KEY,
  realm TEXT NOT NULL REFERENCES realm(code) ON DELETE CASCADE,
  model_id TEXT NOT NULL,
  publication_type TEXT NOT NULL DEFAULT 'all',
  publish_at TEXT NOT NULL,
  expire_at TEXT,
  title TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  questions TEXT NOT NULL DEFAULT '[]',
  question_count INTEGER NOT NULL DEFAULT 0,
  is_required INTEGER NOT NULL DEFAULT 0,
  confirmation_message TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL,
  created_by TEXT NOT NULL DEFAULT '',
  updated_at TEXT NOT NULL,
  updated_by TEXT NOT NULL DEFAULT ''
);
CREATE INDEX survey_survey_realm ON survey_survey(realm, publish_at, id);
CREATE INDEX survey_survey_model ON survey_survey(realm, model_id);

CREATE TABLE survey_survey_target (
  survey_id TEXT NOT NULL REFERENCES survey_survey(id) ON DELETE CASCADE,
  realm TEXT NOT NULL,
  room_id TEXT REFERENCES room(id) ON DELETE CASCADE,
  nick TEXT,
  group_id TEXT REFERENCES room_group(id) ON DELETE CASCADE
);
CREATE INDEX survey_survey_target_survey ON survey_survey_target(survey_id);
CREATE INDEX survey_survey_target_room ON survey_survey_target(room_id);
CREATE INDEX survey_survey_target_group ON survey_survey_target(group_id);

-- One answer per student per survey; room_id is the room through which the survey reached them when they answered
-- (the result's room filter). answers: { [question id]: value }.
CREATE TABLE survey_answer (
  id TEXT PRIMARY KEY,
  realm TEXT NOT NULL REFERENCES realm(code) ON DELETE CASCADE,
  survey_id TEXT NOT NULL REFERENCES survey_survey(id) ON DELETE CASCADE,
  nick TEXT NOT NULL,
  room_id TEXT,
  answers TEXT NOT NULL DEFAULT '{}',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  updated_by TEXT NOT NULL DEFAULT '',
  revision_count INTEGER NOT NULL DEFAULT 0,
  UNIQUE (survey_id, nick)
);
CREATE INDEX survey_answer_survey ON survey_answer(realm, survey_id, room_id);

-- Staff revisions of an answer: who, when, and the answers before and after.
CREATE TABLE survey_answer_revision (
  id TEXT PRIMARY KEY,
  realm TEXT NOT NULL,
  answer_id TEXT NOT NULL REFERENCES survey_answer(id) ON DELETE CASCADE,
  revised_by TEXT NOT NULL,
  revised_at TEXT NOT NULL,
  before TEXT NOT NULL,
  after TEXT NOT NULL
);
CREATE INDEX survey_answer_revision_answer ON survey_answer_revision(answer_id, revised_at);

CREATE VIEW survey_survey_view AS
SELECT
  s.*,
  CASE
    WHEN s.expire_at IS NOT NULL AND s.expire_at <= strftime('%Y-%m-%dT%H:%M:%fZ', 'now') THEN 'expired'
    WHEN s.publish_at > strftime('%Y-%m-%dT%H:%M:%fZ', 'now') THEN 'scheduled'
    ELSE 'published'
  END AS status,
  coalesce(
    (SELECT group_concat(r.name, ', ') FROM room r WHERE r.id IN (SELECT x.room_id FROM survey_survey_target x WHERE x.survey_id = s.id)),
    (SELECT group_concat(g.name, ', ') FROM room_group g WHERE g.id IN (SELECT x.group_id FROM survey_survey_target x WHERE x.survey_id = s.id)),
    ''
  ) AS rooms,
  (SELECT COUNT(*) FROM survey_answer a WHERE a.survey_id = s.id) AS answer_count
FROM survey_survey s;
