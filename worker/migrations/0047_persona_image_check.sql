-- Issue 16: the server's check of a persona image (a face must be found; a celebrity is refused) by the realm's
-- vision provider, when one is configured.
-- The realm's choice: `none` (default: the check does not run, and the console says so), the OpenAI-compatible
-- endpoint of its agent settings (realm.agent_endpoint_url / agent_api_key), or Workers AI; `vision_model` empty
-- uses the agent model (openai) or the default Workers AI vision model (worker/ai/vision.ts).
ALTER TABLE realm_ai ADD COLUMN vision_provider TEXT NOT NULL DEFAULT 'none' CHECK (vision_provider IN ('none', 'openai', 'workers_ai'));
ALTER TABLE realm_ai ADD COLUMN vision_model TEXT NOT NULL DEFAULT '';

-- What the persona keeps of its image's check (JSON, ImageCheck of app/shared/schemas/ai.ts): checked by which
-- provider and when, or not run and why. '{}' for a persona without an image.
ALTER TABLE persona ADD COLUMN image_check TEXT NOT NULL DEFAULT '{}';
-- Existing personas' images were saved before the server check existed: recorded as not run, and why.
UPDATE persona SET image_check = '{"status":"not_run","provider":"none","reason":"before_check","at":null}' WHERE image_file_id <> '';

-- Definitive checks of uploaded images (a face found, no face, a celebrity), one an image, so the persona's save
-- reuses the photo step's check instead of calling the provider again. A check that did not run is not kept (the
-- save tries again). Rows go with their realm; the image file's own lifetime is the file table's.
CREATE TABLE persona_image_check (
  realm TEXT NOT NULL REFERENCES realm(code) ON DELETE CASCADE,
  file_id TEXT NOT NULL,
  outcome TEXT NOT NULL CHECK (outcome IN ('checked', 'no_face', 'celebrity')),
  provider TEXT NOT NULL,
  model TEXT NOT NULL DEFAULT '',
  faces INTEGER NOT NULL DEFAULT 0,
  celebrity TEXT,
  confidence REAL,
  checked_at TEXT NOT NULL,
  checked_by TEXT NOT NULL,
  PRIMARY KEY (realm, file_id)
);
