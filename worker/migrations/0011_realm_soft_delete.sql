-- Soft delete of realms (issue 11): DELETE /mas/realm/{code} marks the realm instead of removing rows. A deleted
-- realm is hidden everywhere (lists, realm switch, hosts, public configuration, sign-in, sessions) but keeps its rows
-- for 30 days, when it can be restored; the scheduled purge then removes its rows table by table, the realm last.
-- Existing realms are live: the new columns start NULL.
ALTER TABLE realm ADD COLUMN deleted_at TEXT;
-- Who deleted it (nick with suffix) and the realm whose audit trail holds the delete record (the purge writes there too).
ALTER TABLE realm ADD COLUMN deleted_by TEXT;
ALTER TABLE realm ADD COLUMN deleted_by_realm TEXT;
CREATE INDEX realm_deleted ON realm(deleted_at) WHERE deleted_at IS NOT NULL;
