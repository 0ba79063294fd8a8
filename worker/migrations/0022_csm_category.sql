-- Issue 15: session categories (seed 002 §2 `session/category`), a plain entity (app/shared/entities/csm-category.ts).
CREATE TABLE csm_category (
  id TEXT PRIMARY KEY,
  realm TEXT NOT NULL REFERENCES realm(code) ON DELETE CASCADE,
  name TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  active INTEGER NOT NULL DEFAULT 1,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  updated_by TEXT NOT NULL DEFAULT ''
);
-- The list's indexes (generated: tsx worker/scripts/list-schema.ts).
CREATE INDEX IF NOT EXISTS "list_csm_category_name" ON "csm_category" ("realm", "name", "id");
CREATE INDEX IF NOT EXISTS "list_csm_category_active" ON "csm_category" ("realm", "active", "id");
CREATE INDEX IF NOT EXISTS "list_csm_category_created_at" ON "csm_category" ("realm", "created_at", "id");
CREATE INDEX IF NOT EXISTS "list_csm_category_updated_at" ON "csm_category" ("realm", "updated_at", "id");
