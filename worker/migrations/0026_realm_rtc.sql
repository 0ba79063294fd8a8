-- STUN and TURN servers of a realm's conferences (issue 20), a side table of the realm (the realm table is near
-- SQLite's column limit): the browsers' RTCPeerConnections use them to connect across networks. One row per realm at
-- most; no row means no server (host candidates only, which is all `npm start` needs on one machine or network).
-- `turn_credential` is a secret: the realm API answers it masked and keeps it when the mask comes back. Nothing to
-- fix up in an existing state: no realm had servers before.
CREATE TABLE realm_rtc (
  realm TEXT PRIMARY KEY REFERENCES realm(code) ON DELETE CASCADE,
  stun_urls TEXT NOT NULL DEFAULT '[]',
  turn_urls TEXT NOT NULL DEFAULT '[]',
  turn_username TEXT NOT NULL DEFAULT '',
  turn_credential TEXT NOT NULL DEFAULT '',
  updated_at TEXT NOT NULL,
  updated_by TEXT NOT NULL DEFAULT ''
);
