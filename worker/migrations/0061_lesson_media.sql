-- Issue 18 (lesson narration and persona videos): a lesson's generated media, one audio and one video a slide.
-- `lesson_id` is a lesson model's id (generated in its editor) or a published lesson's (copied at publication).
-- `hash` is what made it (audio: the narration text and the persona's voice; video: the audio's hash and the
-- persona's image): a slide whose text, voice or image changed since is stale. Audio and video are stored files
-- (`file`, content-addressed keys `<realm>/lesson-media/<hash>.<ext>`, served under /files/ like every upload).
-- A video is a provider job: `pending` with the provider's id (`ref`) until its result is stored (`done`, `file_id`)
-- or it fails (`failed`, `error`: its paid operation refunded). New table only: nothing existing to fix up.
CREATE TABLE lesson_media (
  realm TEXT NOT NULL REFERENCES realm(code) ON DELETE CASCADE,
  lesson_id TEXT NOT NULL,
  slide_id TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('audio', 'video')),
  hash TEXT NOT NULL,
  provider TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'done', 'failed')),
  ref TEXT NOT NULL DEFAULT '',
  file_id TEXT,
  error TEXT,
  operation_id TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  updated_by TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (realm, lesson_id, slide_id, kind)
);
CREATE INDEX lesson_media_file ON lesson_media(realm, file_id);
