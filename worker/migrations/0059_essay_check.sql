-- Issue 17: the essay checker ("Online Check"), teachers' skill grades and marks.
-- The realm's LanguageTool-compatible server (address, optional premium user name and key: a write-only secret) and
-- the number of checks a student may run per essay of an answer (default 5; 0 turns the Online Check off). They join
-- the realm's AI settings (realm_ai): the realm table is at D1's column limit.
ALTER TABLE realm_ai ADD COLUMN languagetool_url TEXT NOT NULL DEFAULT '';
ALTER TABLE realm_ai ADD COLUMN languagetool_username TEXT NOT NULL DEFAULT '';
ALTER TABLE realm_ai ADD COLUMN languagetool_api_key TEXT NOT NULL DEFAULT '';
ALTER TABLE realm_ai ADD COLUMN essay_check_limit INTEGER NOT NULL DEFAULT 5 CHECK (essay_check_limit >= 0 AND essay_check_limit <= 100);

-- Checks run per student, task and essay question (one conditional upsert reserves a check within the limit; a
-- checker that fails gives it back).
CREATE TABLE tms_essay_check (
  realm TEXT NOT NULL,
  task_id TEXT NOT NULL,
  nick TEXT NOT NULL,
  question_id TEXT NOT NULL,
  checks INTEGER NOT NULL DEFAULT 0 CHECK (checks >= 0),
  last_at TEXT NOT NULL,
  PRIMARY KEY (realm, task_id, nick, question_id)
);

-- The teacher's grades of each essay's assessed skills (per question id: skill id -> grade out of 10) and the marks
-- they add by hand (per question id: category, excerpt, explanation), on the answer and in each correction step.
ALTER TABLE tms_answer ADD COLUMN skill_grades TEXT NOT NULL DEFAULT '{}';
ALTER TABLE tms_answer ADD COLUMN marks TEXT NOT NULL DEFAULT '{}';
ALTER TABLE tms_answer_correction ADD COLUMN skill_grades TEXT NOT NULL DEFAULT '{}';
ALTER TABLE tms_answer_correction ADD COLUMN marks TEXT NOT NULL DEFAULT '{}';
