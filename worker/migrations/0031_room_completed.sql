-- Rooms, completed (issue 13, seed 002 §3 "Room", "Card"): session recording, the room's category, breakout rooms
-- (one level under a parent room), a closed state (closing a parent closes its breakouts), the room's cards (a JSON
-- list of card ids, in the order shown) and the cards themselves. Existing rooms become open top-level rooms
-- without recording, category or cards (the column defaults).
ALTER TABLE room ADD COLUMN recording INTEGER NOT NULL DEFAULT 0;
ALTER TABLE room ADD COLUMN category_id TEXT REFERENCES room_category(id);
ALTER TABLE room ADD COLUMN parent_id TEXT REFERENCES room(id);
ALTER TABLE room ADD COLUMN closed_at TEXT;
ALTER TABLE room ADD COLUMN cards TEXT NOT NULL DEFAULT '[]';


CREATE TABLE room_card (
  id TEXT PRIMARY KEY,
  realm TEXT NOT NULL REFERENCES realm(code) ON DELETE CASCADE,
  type TEXT NOT NULL DEFAULT 'link',
  label TEXT NOT NULL,
  label_id TEXT NOT NULL DEFAULT '',
  icon TEXT NOT NULL DEFAULT '',
  icon_id TEXT NOT NULL DEFAULT '',
  dark_icon TEXT NOT NULL DEFAULT '',
  dark_icon_id TEXT NOT NULL DEFAULT '',
  url TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  updated_by TEXT NOT NULL DEFAULT ''
);

-- List indexes (generated: tsx worker/scripts/list-schema.ts): the room list's category and parent filters (also the
-- room count per category and a parent's breakouts), and the card list.
CREATE INDEX IF NOT EXISTS "list_room_category_id" ON "room" ("realm", "category_id", "id");
CREATE INDEX IF NOT EXISTS "list_room_parent_id" ON "room" ("realm", "parent_id", "id");
CREATE INDEX IF NOT EXISTS "list_room_card_label" ON "room_card" ("realm", "label", "id");
CREATE INDEX IF NOT EXISTS "list_room_card_type" ON "room_card" ("realm", "type", "id");
CREATE INDEX IF NOT EXISTS "list_room_card_created_at" ON "room_card" ("realm", "created_at", "id");
CREATE INDEX IF NOT EXISTS "list_room_card_updated_at" ON "room_card" ("realm", "updated_at", "id");
