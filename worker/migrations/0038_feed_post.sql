-- Issue 13 "Shared link and mobile-web": the feed of rooms (seed 002 §3 "Feed post") and the realm's app scheme
-- (the deep-link page's "open in the app").

-- The mobile app's URL scheme (`demoapp` opens `demoapp://channel/{id}?realm={code}`); '' = the realm has no app link.
ALTER TABLE realm ADD COLUMN app_scheme TEXT NOT NULL DEFAULT '';

CREATE TABLE feed_post (
  id TEXT PRIMARY KEY,
  realm TEXT NOT NULL REFERENCES realm(code) ON DELETE CASCADE,
  room_id TEXT NOT NULL REFERENCES room(id) ON DELETE CASCADE,
  -- The text as stored: the realm's word filter already applied (masked).
  message TEXT NOT NULL DEFAULT '',
  media_type TEXT NOT NULL DEFAULT 'none' CHECK (media_type IN ('none', 'image', 'video', 'link')),
  media_url TEXT NOT NULL DEFAULT '',
  -- JSON: the web addresses found in the message.
  urls TEXT NOT NULL DEFAULT '[]',
  author TEXT NOT NULL,
  author_name TEXT NOT NULL DEFAULT '',
  -- published, or pending: held for a staff member's approval in a realm with feed_moderated.
  status TEXT NOT NULL DEFAULT 'published' CHECK (status IN ('published', 'pending')),
  pinned INTEGER NOT NULL DEFAULT 0,
  pinned_at TEXT,
  pinned_by TEXT,
  approved_at TEXT,
  approved_by TEXT,
  created_at TEXT NOT NULL,
  -- The post's place in its realm's feed, 1, 2, 3… in order of posting (pages are read by it: stamps can tie).
  seq INTEGER NOT NULL,
  UNIQUE (realm, seq)
);

-- A room's feed: published (or pending) posts newest first, pinned ones read apart (at most feed_max_pinned).
CREATE INDEX feed_post_room ON feed_post (realm, room_id, status, seq DESC);
CREATE INDEX feed_post_pinned ON feed_post (realm, room_id, pinned_at DESC) WHERE pinned = 1;
CREATE INDEX feed_post_author ON feed_post (realm, author, seq DESC);
