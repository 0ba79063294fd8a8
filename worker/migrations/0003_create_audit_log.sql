-- Audit trail: one row per state-changing API call, written in the same batch as the change.
CREATE TABLE audit_log (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  realm TEXT NOT NULL,
  at TEXT NOT NULL,
  actor TEXT NOT NULL,
  actor_realm TEXT NOT NULL DEFAULT '',
  action TEXT NOT NULL,
  entity TEXT NOT NULL,
  entity_id TEXT NOT NULL,
  -- JSON object: field -> [before, after]; secrets masked.
  changes TEXT NOT NULL DEFAULT '{}',
  request_id TEXT NOT NULL DEFAULT ''
);
CREATE INDEX audit_log_realm_at ON audit_log(realm, at);
CREATE INDEX audit_log_entity ON audit_log(realm, entity, entity_id);
