-- Recordings uploaded by hand (issue 15, session/create): a csm_recording row is either a live session's recording
-- (the browser recorder, issue 20) or a file uploaded to a session made by hand. Existing rows are all live ones
-- (the default). An upload is never matched to a live session's hand-over, and its session is removed when its file
-- is refused or given up (nothing partial stays).
ALTER TABLE csm_recording ADD COLUMN source TEXT NOT NULL DEFAULT 'live' CHECK (source IN ('live', 'upload'));
-- An upload's declared size: completion waits until the parts hold exactly that many bytes (0: a live recording,
-- whose size is known only when it stops).
ALTER TABLE csm_recording ADD COLUMN expected_size INTEGER NOT NULL DEFAULT 0;
UPDATE csm_recording SET source = 'live' WHERE source <> 'live' AND source <> 'upload';
