-- Credit ledger (issue 6): double entry. Every movement is one ledger_transaction whose ledger_entry rows sum to
-- zero across accounts; ledger_account.balance caches the sum of an account's entries and changes in the same
-- D1 batch (a transaction) as the entries. Transactions and entries are immutable: corrections are reversals.
-- Ledger rows carry `realm` without a foreign key on purpose: deleting a realm must not erase financial records.

-- Accounts: user wallets, realm wallets, and per realm one issuance account (where purchased and issued credits
-- come from; its balance is minus everything issued) and one consumption account (where spent credits go).
CREATE TABLE ledger_account (
  id TEXT PRIMARY KEY, -- '<kind>:<realm>:<owner>'
  realm TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('user', 'realm', 'issuance', 'consumption')),
  owner TEXT NOT NULL, -- nick (user), realm code (realm), '' (issuance, consumption)
  balance INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  -- A debit that would take a wallet below zero fails, and with it the whole batch of its movement.
  CONSTRAINT wallet_not_negative CHECK (kind NOT IN ('user', 'realm') OR balance >= 0),
  UNIQUE (realm, kind, owner)
);
CREATE INDEX ledger_account_kind ON ledger_account(realm, kind, balance);

-- Entries are written before their transaction row; the transaction row's trigger refuses it unless its entries
-- sum to zero, so an unbalanced movement can never be stored.
CREATE TABLE ledger_entry (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  transaction_id TEXT NOT NULL,
  realm TEXT NOT NULL, -- the account's realm
  account_id TEXT NOT NULL REFERENCES ledger_account(id),
  amount INTEGER NOT NULL CHECK (amount <> 0),
  created_at TEXT NOT NULL
);
CREATE INDEX ledger_entry_account ON ledger_entry(account_id, id);
CREATE INDEX ledger_entry_transaction ON ledger_entry(transaction_id);
CREATE INDEX ledger_entry_realm_at ON ledger_entry(realm, created_at);

CREATE TABLE ledger_transaction (
  id TEXT PRIMARY KEY,
  realm TEXT NOT NULL, -- realm where it was posted (the actor's)
  type TEXT NOT NULL CHECK (type IN ('issuance', 'purchase', 'transfer', 'debit', 'sponsor', 'reversal')),
  actor TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  billing_key TEXT NOT NULL UNIQUE,
  points INTEGER NOT NULL CHECK (points > 0), -- sum of the positive entries
  -- The transaction this one reverses; UNIQUE: a transaction is reversed at most once.
  reverses TEXT UNIQUE REFERENCES ledger_transaction(id),
  details TEXT NOT NULL DEFAULT '{}', -- JSON: contents of a debit, package and intent of a purchase, …
  idempotency_key TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX ledger_transaction_realm_at ON ledger_transaction(realm, created_at);
CREATE INDEX ledger_transaction_type ON ledger_transaction(realm, type, created_at);

CREATE TRIGGER ledger_transaction_balanced BEFORE INSERT ON ledger_transaction
WHEN (SELECT COALESCE(SUM(amount), 1) FROM ledger_entry WHERE transaction_id = NEW.id) <> 0
  OR (SELECT COALESCE(SUM(amount), 0) FROM ledger_entry WHERE transaction_id = NEW.id AND amount > 0) <> NEW.points
BEGIN SELECT RAISE(ABORT, 'ledger_unbalanced'); END;
CREATE TRIGGER ledger_entry_sealed BEFORE INSERT ON ledger_entry
WHEN EXISTS (SELECT 1 FROM ledger_transaction WHERE id = NEW.transaction_id)
BEGIN SELECT RAISE(ABORT, 'ledger_sealed'); END;
CREATE TRIGGER ledger_entry_no_update BEFORE UPDATE ON ledger_entry BEGIN SELECT RAISE(ABORT, 'ledger_immutable'); END;
CREATE TRIGGER ledger_entry_no_delete BEFORE DELETE ON ledger_entry BEGIN SELECT RAISE(ABORT, 'ledger_immutable'); END;
CREATE TRIGGER ledger_transaction_no_update BEFORE UPDATE ON ledger_transaction BEGIN SELECT RAISE(ABORT, 'ledger_immutable'); END;
CREATE TRIGGER ledger_transaction_no_delete BEFORE DELETE ON ledger_transaction BEGIN SELECT RAISE(ABORT, 'ledger_immutable'); END;

-- Idempotency keys, unique per realm: the hash of the request they first came with, and the stored answer once
-- the movement is posted (set in the movement's own batch).
CREATE TABLE ledger_idempotency (
  realm TEXT NOT NULL,
  key TEXT NOT NULL,
  request_hash TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'done')),
  response_status INTEGER,
  response TEXT,
  created_at TEXT NOT NULL,
  PRIMARY KEY (realm, key)
);

-- The price list: what consumes credits, per realm.
CREATE TABLE ledger_content (
  realm TEXT NOT NULL REFERENCES realm(code) ON DELETE CASCADE,
  key TEXT NOT NULL,
  name TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  points INTEGER NOT NULL CHECK (points >= 0),
  is_system INTEGER NOT NULL DEFAULT 0,
  updated_at TEXT NOT NULL,
  updated_by TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (realm, key)
);

-- Credit packages on sale. Deleting one only marks it: purchases keep pointing at it.
CREATE TABLE ledger_package (
  id TEXT PRIMARY KEY,
  realm TEXT NOT NULL REFERENCES realm(code) ON DELETE CASCADE,
  name TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  cost REAL NOT NULL CHECK (cost >= 0), -- rounded to 2 decimals
  currency TEXT NOT NULL DEFAULT 'BRL' CHECK (currency IN ('BRL', 'USD', 'EUR')),
  points INTEGER NOT NULL CHECK (points > 0),
  enabled INTEGER NOT NULL DEFAULT 1,
  recommended INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  updated_by TEXT NOT NULL DEFAULT '',
  deleted_at TEXT
);
CREATE INDEX ledger_package_realm ON ledger_package(realm, deleted_at, enabled);

-- A purchase in progress with a payment provider; credits are issued when the provider confirms it.
CREATE TABLE ledger_payment_intent (
  id TEXT PRIMARY KEY,
  realm TEXT NOT NULL,
  nick TEXT NOT NULL, -- buyer; the credits go to their wallet
  provider TEXT NOT NULL,
  package_id TEXT NOT NULL,
  points INTEGER NOT NULL,
  amount REAL NOT NULL,
  currency TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  status TEXT NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
  provider_ref TEXT NOT NULL DEFAULT '',
  client_secret_hash TEXT NOT NULL DEFAULT '',
  checkout_url TEXT NOT NULL DEFAULT '',
  return_url TEXT NOT NULL DEFAULT '',
  transaction_id TEXT,
  failure TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX ledger_payment_intent_buyer ON ledger_payment_intent(realm, nick, created_at);

-- Provider events already handled: a repeated webhook finds its event here and changes nothing.
CREATE TABLE ledger_payment_event (
  provider TEXT NOT NULL,
  event_id TEXT NOT NULL,
  intent_id TEXT NOT NULL,
  type TEXT NOT NULL,
  received_at TEXT NOT NULL,
  PRIMARY KEY (provider, event_id)
);

-- Accounts with the display name of their owner (balance screen).
CREATE VIEW ledger_account_view AS
SELECT a.id, a.realm, a.kind, a.owner, COALESCE(u.name, r.name, '') AS name, a.balance, a.created_at, a.updated_at
FROM ledger_account a
LEFT JOIN user u ON a.kind = 'user' AND u.realm = a.realm AND u.nick = a.owner
LEFT JOIN realm r ON a.kind = 'realm' AND r.code = a.owner;

-- Movements with where the credits came from and where they went (owners of the debited and credited accounts).
CREATE VIEW ledger_movement AS
SELECT t.id, t.realm, t.type, t.actor, t.description, t.billing_key, t.points, t.reverses, t.created_at,
  (SELECT r.id FROM ledger_transaction r WHERE r.reverses = t.id) AS reversed_by,
  (SELECT json_group_array(a.kind || ':' || a.owner) FROM ledger_entry e JOIN ledger_account a ON a.id = e.account_id WHERE e.transaction_id = t.id AND e.amount < 0) AS sources,
  (SELECT json_group_array(a.kind || ':' || a.owner) FROM ledger_entry e JOIN ledger_account a ON a.id = e.account_id WHERE e.transaction_id = t.id AND e.amount > 0) AS targets
FROM ledger_transaction t;

-- An account's statement: its entries with the balance after each one (window over the account's entries).
CREATE VIEW ledger_statement AS
SELECT e.id, e.account_id, e.realm, e.transaction_id, e.amount, e.created_at,
  SUM(e.amount) OVER (PARTITION BY e.account_id ORDER BY e.id) AS balance_after,
  t.type, t.actor, t.description, t.billing_key, t.reverses,
  (SELECT r.id FROM ledger_transaction r WHERE r.reverses = t.id) AS reversed_by,
  (SELECT json_group_array(a.kind || ':' || a.owner) FROM ledger_entry o JOIN ledger_account a ON a.id = o.account_id
    WHERE o.transaction_id = e.transaction_id AND (o.amount > 0) <> (e.amount > 0)) AS counterparts
FROM ledger_entry e JOIN ledger_transaction t ON t.id = e.transaction_id;
