-- Session lifecycle (issue 15): the realm's storage quota for recordings (seed 002 §8 "No space to store the videos").
-- Megabytes; 0 = no quota. A new recording (a live recorder's start, a session/create upload) is refused with
-- `storage_full` when the realm's stored recordings plus the declared size would pass it.
ALTER TABLE realm ADD COLUMN csm_storage_quota_mb INTEGER NOT NULL DEFAULT 0;
-- What the realm stores is summed over its recordings by status (worker/db/csm-session.ts `storedRecordingBytes`).
CREATE INDEX csm_recording_realm_status ON csm_recording(realm, status);
