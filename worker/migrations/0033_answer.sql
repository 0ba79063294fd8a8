-- Issue 17: students' answers to published tasks, the start receipts of timed/offline work, and corrections.

-- When a student first opened a task (the signed start receipt carries it): reopening keeps the first time, so
-- opening again cannot restart a timed task. The room is the one the task reached the student through (the room of
-- the token entered for a token-protected task).
CREATE TABLE tms_answer_start (
  realm TEXT NOT NULL REFERENCES realm(code) ON DELETE CASCADE,
  task_id TEXT NOT NULL REFERENCES tms_task(id) ON DELETE CASCADE,
  nick TEXT NOT NULL,
  room_id TEXT,
  opened_at TEXT NOT NULL,
  PRIMARY KEY (realm, task_id, nick)
);

-- One answer per student and task (seed 001 §3 "Answer and delivered task"; §4 student task states).
CREATE TABLE tms_answer (
  id TEXT PRIMARY KEY,
  realm TEXT NOT NULL REFERENCES realm(code) ON DELETE CASCADE,
  task_id TEXT NOT NULL REFERENCES tms_task(id) ON DELETE CASCADE,
  nick TEXT NOT NULL,
  room_id TEXT,
  -- The id the student's device gave the answer: a delivery sent again with it is counted once.
  client_id TEXT NOT NULL,
  -- draft, submitted, review, pending, pending_agreement, finished
  status TEXT NOT NULL DEFAULT 'draft',
  -- Per question id: what the student answered.
  answers TEXT NOT NULL DEFAULT '{}',
  answered_count INTEGER NOT NULL DEFAULT 0,
  opened_at TEXT NOT NULL,
  -- When the student finished (the server's clock online; the signed open time plus the device's elapsed time offline).
  finished_at TEXT,
  delivered_at TEXT,
  duration_seconds INTEGER,
  -- on_time or delayed (an offline answer finished within the window that arrived after it closed)
  delivery TEXT,
  offline INTEGER NOT NULL DEFAULT 0,
  -- Per question id: the automatic score of objective questions, then the teacher's scores.
  auto_scores TEXT NOT NULL DEFAULT '{}',
  scores TEXT NOT NULL DEFAULT '{}',
  comments TEXT NOT NULL DEFAULT '{}',
  final_considerations TEXT NOT NULL DEFAULT '',
  score REAL,
  max_score REAL NOT NULL DEFAULT 0,
  ai_revision TEXT,
  ai_comment TEXT NOT NULL DEFAULT '',
  opinion TEXT,
  opinion_comment TEXT NOT NULL DEFAULT '',
  opinion_at TEXT,
  corrected_by TEXT,
  corrected_at TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (realm, task_id, nick)
);
CREATE INDEX tms_answer_task ON tms_answer(realm, task_id, delivered_at, id);
CREATE INDEX tms_answer_nick ON tms_answer(realm, nick, delivered_at, id);
CREATE INDEX tms_answer_room ON tms_answer(realm, room_id, delivered_at, id);
CREATE INDEX tms_answer_status ON tms_answer(realm, status, delivered_at, id);
CREATE INDEX tms_answer_by_delivery ON tms_answer(realm, delivery, delivered_at, id);
CREATE INDEX tms_answer_delivered ON tms_answer(realm, delivered_at, id);

-- The teachers' answer list: the answer with its task's title, the room's and the student's names.
CREATE VIEW tms_answer_view AS
SELECT a.id, a.realm, a.task_id, t.title AS task_title, a.nick, COALESCE(u.name, a.nick) AS student_name, a.room_id,
  COALESCE(r.name, '') AS room_name, a.status, a.delivery, a.offline, a.opened_at, a.finished_at, a.delivered_at,
  a.duration_seconds, a.score, a.max_score, a.ai_revision, a.corrected_by, a.corrected_at, a.created_at, a.updated_at
FROM tms_answer a
JOIN tms_task t ON t.id = a.task_id
LEFT JOIN user u ON u.realm = a.realm AND u.nick = a.nick
LEFT JOIN room r ON r.id = a.room_id;

-- Every correction step of an answer (seed 001 §3 Correction "history"): saved, finalized, adjustments requested.
CREATE TABLE tms_answer_correction (
  id TEXT PRIMARY KEY,
  realm TEXT NOT NULL REFERENCES realm(code) ON DELETE CASCADE,
  answer_id TEXT NOT NULL REFERENCES tms_answer(id) ON DELETE CASCADE,
  action TEXT NOT NULL,
  status_before TEXT NOT NULL,
  status_after TEXT NOT NULL,
  scores TEXT NOT NULL DEFAULT '{}',
  comments TEXT NOT NULL DEFAULT '{}',
  final_considerations TEXT NOT NULL DEFAULT '',
  comment TEXT NOT NULL DEFAULT '',
  score REAL,
  created_by TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX tms_answer_correction_answer ON tms_answer_correction(answer_id, created_at);

-- Every answer id a student's device delivered (seed 001 §8 "answer already registered (current answer not
-- considered)"): a delivery sent again with the same id (an offline sync repeated) is counted once.
CREATE TABLE tms_answer_delivery (
  realm TEXT NOT NULL REFERENCES realm(code) ON DELETE CASCADE,
  nick TEXT NOT NULL,
  client_id TEXT NOT NULL,
  answer_id TEXT NOT NULL REFERENCES tms_answer(id) ON DELETE CASCADE,
  delivered_at TEXT NOT NULL,
  PRIMARY KEY (realm, nick, client_id)
);
CREATE INDEX tms_answer_delivery_answer ON tms_answer_delivery(answer_id);
