-- Issue 14: quizzes and polls (seed 002 §3 "Quiz", "Poll", §4, §5, §8, §9), their questions, and the results the
-- quiz party writes when each question finishes (answers, players with score and lives, votes), and the rewards paid.

-- The realm's maximum prize of one quiz, in credits (-1: no maximum). Seed 002 §8 "finish error (maximum prize
-- exceeded)"; the quiz's own `reward_value` is its other maximum.
ALTER TABLE realm ADD COLUMN quiz_max_prize INTEGER NOT NULL DEFAULT -1;

CREATE TABLE quiz (
  id TEXT PRIMARY KEY,
  realm TEXT NOT NULL REFERENCES realm(code) ON DELETE CASCADE,
  name TEXT NOT NULL,
  channel_id TEXT NOT NULL,
  reward_type TEXT NOT NULL CHECK (reward_type IN ('realm', 'channel_owner')),
  reward TEXT NOT NULL DEFAULT '',
  reward_value INTEGER NOT NULL CHECK (reward_value >= 0),
  reward_per_player INTEGER NOT NULL CHECK (reward_per_player >= 0),
  reward_currency TEXT NOT NULL DEFAULT 'BRL' CHECK (reward_currency IN ('BRL', 'USD', 'EUR')),
  question_duration INTEGER NOT NULL CHECK (question_duration > 8),
  lifes_timeout INTEGER NOT NULL CHECK (lifes_timeout > 8),
  lives INTEGER NOT NULL DEFAULT 1,
  status TEXT NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'active', 'canceled', 'finished')),
  question_count INTEGER NOT NULL DEFAULT 0,
  started_at TEXT,
  finished_at TEXT,
  created_at TEXT NOT NULL,
  created_by TEXT NOT NULL DEFAULT '',
  updated_at TEXT NOT NULL,
  updated_by TEXT NOT NULL DEFAULT ''
);

CREATE TABLE quiz_question (
  id TEXT PRIMARY KEY,
  realm TEXT NOT NULL,
  quiz_id TEXT NOT NULL REFERENCES quiz(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  text TEXT NOT NULL,
  option_a TEXT NOT NULL,
  option_b TEXT NOT NULL,
  option_c TEXT NOT NULL,
  correct TEXT NOT NULL CHECK (correct IN ('A', 'B', 'C')),
  lifes_disallowed INTEGER NOT NULL DEFAULT 0,
  state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'published', 'result', 'finished', 'hidden')),
  published_at TEXT,
  deadline TEXT
);
CREATE INDEX quiz_question_quiz ON quiz_question(quiz_id, position);
-- At most one question of a quiz open or showing its result at a time.
CREATE UNIQUE INDEX quiz_question_live ON quiz_question(quiz_id) WHERE state IN ('published', 'result');

CREATE TRIGGER quiz_question_added AFTER INSERT ON quiz_question BEGIN
  UPDATE quiz SET question_count = question_count + 1 WHERE id = NEW.quiz_id;
END;
CREATE TRIGGER quiz_question_removed AFTER DELETE ON quiz_question BEGIN
  UPDATE quiz SET question_count = question_count - 1 WHERE id = OLD.quiz_id;
END;

-- One answer per player and question (the party's idempotency: the same answer written again changes nothing).
CREATE TABLE quiz_answer (
  realm TEXT NOT NULL,
  quiz_id TEXT NOT NULL REFERENCES quiz(id) ON DELETE CASCADE,
  question_id TEXT NOT NULL,
  nick TEXT NOT NULL,
  option TEXT NOT NULL CHECK (option IN ('A', 'B', 'C')),
  correct INTEGER NOT NULL,
  ms INTEGER NOT NULL,
  score INTEGER NOT NULL,
  PRIMARY KEY (quiz_id, question_id, nick)
);

-- A player's standing after the last finished question (written whole by the party each time).
CREATE TABLE quiz_player (
  realm TEXT NOT NULL,
  quiz_id TEXT NOT NULL REFERENCES quiz(id) ON DELETE CASCADE,
  nick TEXT NOT NULL,
  name TEXT NOT NULL DEFAULT '',
  guest INTEGER NOT NULL DEFAULT 0,
  score INTEGER NOT NULL DEFAULT 0,
  total_ms INTEGER NOT NULL DEFAULT 0,
  correct_count INTEGER NOT NULL DEFAULT 0,
  lives_left INTEGER NOT NULL DEFAULT 0,
  lives_used INTEGER NOT NULL DEFAULT 0,
  eliminated INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (quiz_id, nick)
);
CREATE INDEX quiz_player_rank ON quiz_player(quiz_id, eliminated, score DESC, total_ms);

-- The rewards a finish paid: one ledger transaction per quiz and player.
CREATE TABLE quiz_payout (
  realm TEXT NOT NULL,
  quiz_id TEXT NOT NULL REFERENCES quiz(id) ON DELETE CASCADE,
  nick TEXT NOT NULL,
  rank INTEGER NOT NULL,
  points INTEGER NOT NULL,
  transaction_id TEXT NOT NULL,
  paid_at TEXT NOT NULL,
  PRIMARY KEY (quiz_id, nick)
);

CREATE TABLE poll (
  id TEXT PRIMARY KEY,
  realm TEXT NOT NULL REFERENCES realm(code) ON DELETE CASCADE,
  type TEXT NOT NULL CHECK (type IN ('open', 'secret')),
  name TEXT NOT NULL,
  channel_id TEXT NOT NULL,
  question_duration INTEGER NOT NULL CHECK (question_duration > 8),
  requires TEXT NOT NULL DEFAULT '{}',
  status TEXT NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'active', 'canceled', 'finished')),
  question_count INTEGER NOT NULL DEFAULT 0,
  started_at TEXT,
  finished_at TEXT,
  created_at TEXT NOT NULL,
  created_by TEXT NOT NULL DEFAULT '',
  updated_at TEXT NOT NULL,
  updated_by TEXT NOT NULL DEFAULT ''
);
-- Seed 002 §5: only one active poll per channel (the API answers the seed's message; this makes it hold under races).
CREATE UNIQUE INDEX poll_one_active ON poll(channel_id) WHERE status = 'active';

CREATE TABLE poll_question (
  id TEXT PRIMARY KEY,
  realm TEXT NOT NULL,
  poll_id TEXT NOT NULL REFERENCES poll(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  text TEXT NOT NULL,
  type TEXT NOT NULL CHECK (type IN ('single', 'multiple', 'rating')),
  options TEXT NOT NULL DEFAULT '[]',
  params TEXT NOT NULL DEFAULT '{}',
  state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'published', 'result', 'finished', 'hidden')),
  published_at TEXT,
  deadline TEXT
);
CREATE INDEX poll_question_poll ON poll_question(poll_id, position);
CREATE UNIQUE INDEX poll_question_live ON poll_question(poll_id) WHERE state IN ('published', 'result');

CREATE TRIGGER poll_question_added AFTER INSERT ON poll_question BEGIN
  UPDATE poll SET question_count = question_count + 1 WHERE id = NEW.poll_id;
END;
CREATE TRIGGER poll_question_removed AFTER DELETE ON poll_question BEGIN
  UPDATE poll SET question_count = question_count - 1 WHERE id = OLD.poll_id;
END;

-- One vote per player and question: the chosen options (indexes) or the rating, and the requirements' answers.
CREATE TABLE poll_vote (
  realm TEXT NOT NULL,
  poll_id TEXT NOT NULL REFERENCES poll(id) ON DELETE CASCADE,
  question_id TEXT NOT NULL,
  nick TEXT NOT NULL,
  choices TEXT NOT NULL DEFAULT '[]',
  profile TEXT NOT NULL DEFAULT '{}',
  PRIMARY KEY (poll_id, question_id, nick)
);

-- List indexes (as worker/scripts/list-schema.ts generates them from the descriptors).
CREATE INDEX IF NOT EXISTS "list_quiz_name" ON "quiz" ("realm", "name", "id");
CREATE INDEX IF NOT EXISTS "list_quiz_channel_id" ON "quiz" ("realm", "channel_id", "id");
CREATE INDEX IF NOT EXISTS "list_quiz_status" ON "quiz" ("realm", "status", "id");
CREATE INDEX IF NOT EXISTS "list_quiz_created_at" ON "quiz" ("realm", "created_at", "id");
CREATE INDEX IF NOT EXISTS "list_quiz_updated_at" ON "quiz" ("realm", "updated_at", "id");
CREATE INDEX IF NOT EXISTS "list_poll_type" ON "poll" ("realm", "type", "id");
CREATE INDEX IF NOT EXISTS "list_poll_name" ON "poll" ("realm", "name", "id");
CREATE INDEX IF NOT EXISTS "list_poll_channel_id" ON "poll" ("realm", "channel_id", "id");
CREATE INDEX IF NOT EXISTS "list_poll_status" ON "poll" ("realm", "status", "id");
CREATE INDEX IF NOT EXISTS "list_poll_created_at" ON "poll" ("realm", "created_at", "id");
CREATE INDEX IF NOT EXISTS "list_poll_updated_at" ON "poll" ("realm", "updated_at", "id");
