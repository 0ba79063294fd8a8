-- Issue 16: the AI and speech layer shared by personas, lessons, correction and generation (docs ai.md).
-- Per-realm provider choice and secrets (write-only, masked like the realm's other secrets) and a monthly cap of AI
-- credits. Existing realms keep the offline engine and no cap (-1).
-- D1 allows 100 columns a table and `realm` has 95, so the AI settings are a table of their own (one row per realm;
-- a realm without a row has the defaults). The OpenAI-compatible endpoint, model and key stay where they were
-- (realm.agent_endpoint_url, agent_model, agent_api_key: the settings' "agents" tab).
CREATE TABLE realm_ai (
  realm TEXT PRIMARY KEY,
  text_provider TEXT NOT NULL DEFAULT 'local' CHECK (text_provider IN ('local', 'openai', 'workers_ai')),
  monthly_credit_cap INTEGER NOT NULL DEFAULT -1 CHECK (monthly_credit_cap >= -1),
  minimax_api_key TEXT NOT NULL DEFAULT '',
  minimax_group_id TEXT NOT NULL DEFAULT '',
  google_api_key TEXT NOT NULL DEFAULT '',
  elevenlabs_api_key TEXT NOT NULL DEFAULT '',
  did_api_key TEXT NOT NULL DEFAULT '',
  updated_at TEXT,
  updated_by TEXT
);

-- A realm whose agent endpoint was already filled in asked for that endpoint: it becomes its provider.
INSERT INTO realm_ai (realm, text_provider) SELECT code, 'openai' FROM realm WHERE agent_endpoint_url <> '';

-- AI credits used per realm and month (the realm's calendar month, 'YYYY-MM'). A reservation is one conditional
-- upsert (refused when it would pass the realm's cap); a provider that fails gives its reservation back.
CREATE TABLE ai_usage (
  realm TEXT NOT NULL,
  month TEXT NOT NULL,
  credits INTEGER NOT NULL DEFAULT 0 CHECK (credits >= 0),
  updated_at TEXT NOT NULL,
  PRIMARY KEY (realm, month)
);

-- Paid AI operations (animation, voice clone): one row per (realm, idempotency key), written in the same batch as
-- the debit; a provider failure writes the reversal and the refund in one batch. Never deleted (the ledger keeps
-- the movements; this keeps what they paid for).
CREATE TABLE ai_operation (
  id TEXT PRIMARY KEY,
  realm TEXT NOT NULL,
  actor TEXT NOT NULL,
  kind TEXT NOT NULL,
  content_key TEXT NOT NULL,
  idempotency_key TEXT NOT NULL,
  request_hash TEXT NOT NULL,
  points INTEGER NOT NULL CHECK (points >= 0),
  month TEXT NOT NULL,
  provider TEXT NOT NULL,
  debit_transaction TEXT,
  reversal_transaction TEXT,
  status TEXT NOT NULL CHECK (status IN ('running', 'succeeded', 'refunded')),
  result TEXT NOT NULL DEFAULT '{}',
  error TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (realm, idempotency_key)
);
CREATE INDEX ai_operation_realm_at ON ai_operation(realm, created_at);
