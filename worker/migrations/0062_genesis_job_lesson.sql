-- The lesson model a finished generation job was opened as (issue 18): opening it again answers the same lesson.
ALTER TABLE genesis_job ADD COLUMN lesson_id TEXT;
