-- Transmission seconds counted by the live parties (issue 20), for the realm's weekly transmission limit
-- (`room_tx_weekly_seconds` per user per renewal period of `room_tx_renewal_days`). One row per user, period and live
-- room (party + room id) holding the absolute seconds the party counted there in that period: the party re-sends its
-- count and the row keeps the highest value, so a retry never counts twice and a restarted party picks up where it
-- was. A user's use in a period is the sum over their rooms. Nothing to fix up in an existing state: nothing was
-- counted before this table exists.
CREATE TABLE live_tx_usage (
  realm TEXT NOT NULL REFERENCES realm(code) ON DELETE CASCADE,
  nick TEXT NOT NULL,
  period_start INTEGER NOT NULL,
  party TEXT NOT NULL,
  room TEXT NOT NULL,
  seconds INTEGER NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (realm, nick, period_start, party, room)
);
