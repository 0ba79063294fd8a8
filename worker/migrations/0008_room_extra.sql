-- Extra fields of rooms (seed 002 §3 "extra field"): the values of the realm's declared room fields, as a JSON
-- object keyed by the field's identification key. Required active fields are enforced when a room is saved.
ALTER TABLE room ADD COLUMN extra TEXT NOT NULL DEFAULT '{}';
