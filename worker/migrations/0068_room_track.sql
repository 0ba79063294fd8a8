-- A room follows at most one track (issue 19, "a learning path a room can follow"): the track's id on the room, or
-- null. The track screen lists the rooms following it through (realm, track_id); a followed track is not deleted.
ALTER TABLE room ADD COLUMN track_id TEXT;
CREATE INDEX room_track ON room(realm, track_id);

-- When a student first opened a published lesson (GET /lesson/student/{id}): a track counts a lesson as done by the
-- student once opened (lessons have no answer). Reopening keeps the first time.
CREATE TABLE lesson_open (
  realm TEXT NOT NULL REFERENCES realm(code) ON DELETE CASCADE,
  lesson_id TEXT NOT NULL REFERENCES lesson_lesson(id) ON DELETE CASCADE,
  nick TEXT NOT NULL,
  opened_at TEXT NOT NULL,
  PRIMARY KEY (realm, lesson_id, nick)
);
