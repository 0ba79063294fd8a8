-- Extra fields of tasks (seed 002 §3 "extra field"): the values of the realm's declared task fields, given when a
-- model is published, as a JSON object keyed by the field's identification key.
ALTER TABLE tms_task ADD COLUMN extra TEXT NOT NULL DEFAULT '{}';
