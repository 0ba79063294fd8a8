-- Issue 12: the movements list read every movement of the database. A movement is listed in the realm it was
-- posted in and in every realm one of its accounts belongs to (`realm = ? OR id IN (entries of the realm)`: an OR
-- no index serves), and the view's correlated subqueries ran for every row before the sort. Now each movement has
-- one row per realm that sees it, written by a trigger when it is posted (its entries are written before it), and
-- the view starts from those rows: `seen_in = ?` with the order by time reads 25 index entries, and the
-- subqueries run for the rows of the page only.
CREATE TABLE ledger_movement_realm (
  realm TEXT NOT NULL,
  transaction_id TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (realm, transaction_id)
);
CREATE INDEX ledger_movement_realm_at ON ledger_movement_realm(realm, created_at, transaction_id);

CREATE TRIGGER ledger_movement_realm_posted AFTER INSERT ON ledger_transaction
BEGIN
  INSERT OR IGNORE INTO ledger_movement_realm (realm, transaction_id, created_at)
  SELECT NEW.realm, NEW.id, NEW.created_at
  UNION SELECT e.realm, NEW.id, NEW.created_at FROM ledger_entry e WHERE e.transaction_id = NEW.id;
END;

-- The movements already stored.
INSERT OR IGNORE INTO ledger_movement_realm (realm, transaction_id, created_at)
SELECT realm, id, created_at FROM ledger_transaction
UNION SELECT e.realm, t.id, t.created_at FROM ledger_entry e JOIN ledger_transaction t ON t.id = e.transaction_id;

DROP VIEW ledger_movement;
CREATE VIEW ledger_movement AS
SELECT v.realm AS seen_in, v.transaction_id AS id, t.realm, t.type, t.actor, t.description, t.billing_key, t.points, t.reverses,
  v.created_at AS created_at,
  (SELECT r.id FROM ledger_transaction r WHERE r.reverses = t.id) AS reversed_by,
  (SELECT json_group_array(a.kind || ':' || a.owner) FROM ledger_entry e JOIN ledger_account a ON a.id = e.account_id WHERE e.transaction_id = t.id AND e.amount < 0) AS sources,
  (SELECT json_group_array(a.kind || ':' || a.owner) FROM ledger_entry e JOIN ledger_account a ON a.id = e.account_id WHERE e.transaction_id = t.id AND e.amount > 0) AS targets
FROM ledger_movement_realm v JOIN ledger_transaction t ON t.id = v.transaction_id;
