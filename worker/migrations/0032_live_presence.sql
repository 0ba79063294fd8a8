-- Who is live in a realm's environment (its channels and rooms) right now, for the realm limit "users per
-- environment" (`max_users_per_environment`, seed 002 realm limits) checked when someone joins. One lease per user
-- and live room (party + room id), renewed on each join and ended on leave; a lease past `expires_at` no longer
-- counts (a party that ended without saying so frees its places when the leases run out). Nothing to fix up in an
-- existing state: nobody is live before this table exists.
CREATE TABLE live_presence (
  realm TEXT NOT NULL REFERENCES realm(code) ON DELETE CASCADE,
  party TEXT NOT NULL,
  room TEXT NOT NULL,
  nick TEXT NOT NULL,
  joined_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  PRIMARY KEY (realm, party, room, nick)
);
-- Live users of a realm (the environment count) and of one live room.
CREATE INDEX live_presence_realm ON live_presence(realm, expires_at, nick);
