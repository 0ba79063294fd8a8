-- Issue 3: every way to sign in, captcha, throttling, recovery, OAuth2 consent, session lifetime and realm switch.
-- Times are ISO-8601 UTC text; secrets, keys, codes and tokens are stored only as SHA-256 hex of their value.

-- Realm settings (declared in app/schemas/realm.ts `realmFields`).
ALTER TABLE realm ADD COLUMN session_idle_minutes INTEGER NOT NULL DEFAULT 30;
ALTER TABLE realm ADD COLUMN session_lifetime_minutes INTEGER NOT NULL DEFAULT 720;
ALTER TABLE realm ADD COLUMN captcha_type TEXT NOT NULL DEFAULT 'pow';
ALTER TABLE realm ADD COLUMN captcha_pow_difficulty INTEGER NOT NULL DEFAULT 16;
ALTER TABLE realm ADD COLUMN employee_token_secret TEXT NOT NULL DEFAULT '';

-- A session acts in `active_realm` after a realm switch; `realm` and `nick` stay the user's own (home) account.
ALTER TABLE session ADD COLUMN active_realm TEXT REFERENCES realm(code) ON DELETE CASCADE;

-- Server-side signing keys, created on first use (HMAC of proof-of-work challenges).
CREATE TABLE signing_key (
  purpose TEXT PRIMARY KEY,
  secret TEXT NOT NULL,
  created_at TEXT NOT NULL
);

-- Captcha challenges: text and image challenges are stored when issued (hash of the answer); proof-of-work
-- challenges are stateless and signed, and are recorded here when verified so that each is used once.
CREATE TABLE captcha_challenge (
  id_hash TEXT PRIMARY KEY,
  realm TEXT NOT NULL REFERENCES realm(code) ON DELETE CASCADE,
  type TEXT NOT NULL,
  session_key_hash TEXT NOT NULL,
  answer_hash TEXT NOT NULL DEFAULT '',
  expires_at TEXT NOT NULL,
  used_at TEXT
);
CREATE INDEX captcha_challenge_expiry ON captcha_challenge(expires_at);

-- Verification tokens answered by POST /captcha/verify; a sign-in consumes one.
CREATE TABLE captcha_token (
  token_hash TEXT PRIMARY KEY,
  realm TEXT NOT NULL REFERENCES realm(code) ON DELETE CASCADE,
  session_key_hash TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  used_at TEXT
);
CREATE INDEX captcha_token_expiry ON captcha_token(expires_at);

-- Failed sign-ins per account and per client address (kind 'account' or 'client'), for the rising delay.
CREATE TABLE signin_throttle (
  realm TEXT NOT NULL REFERENCES realm(code) ON DELETE CASCADE,
  kind TEXT NOT NULL,
  key TEXT NOT NULL,
  failures INTEGER NOT NULL DEFAULT 0,
  last_failure_at TEXT NOT NULL,
  PRIMARY KEY (realm, kind, key)
);

-- Single-use tokens of the state portal already spent (employee-token sign-in), kept until they expire.
CREATE TABLE portal_token_use (
  jti_hash TEXT PRIMARY KEY,
  realm TEXT NOT NULL REFERENCES realm(code) ON DELETE CASCADE,
  expires_at TEXT NOT NULL
);

-- Password reset keys: random, single use, short-lived.
CREATE TABLE password_reset (
  key_hash TEXT PRIMARY KEY,
  realm TEXT NOT NULL,
  nick TEXT NOT NULL,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  used_at TEXT,
  FOREIGN KEY (realm, nick) REFERENCES user(realm, nick) ON DELETE CASCADE
);
CREATE INDEX password_reset_user ON password_reset(realm, nick);

-- Local e-mail outbox (the default EmailSender); readable in development realms at /authentication/outbox.
CREATE TABLE outbox (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  realm TEXT NOT NULL REFERENCES realm(code) ON DELETE CASCADE,
  to_address TEXT NOT NULL,
  subject TEXT NOT NULL,
  text TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX outbox_realm ON outbox(realm, id);

-- OAuth2 client applications registered per realm (public clients with PKCE S256).
CREATE TABLE oauth_client (
  realm TEXT NOT NULL REFERENCES realm(code) ON DELETE CASCADE,
  client_id TEXT NOT NULL,
  name TEXT NOT NULL,
  redirect_uris TEXT NOT NULL DEFAULT '[]',
  scopes TEXT NOT NULL DEFAULT '[]',
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  PRIMARY KEY (realm, client_id)
);

-- Authorization codes (single use, short-lived) and the access tokens exchanged for them.
CREATE TABLE oauth_code (
  code_hash TEXT PRIMARY KEY,
  realm TEXT NOT NULL,
  client_id TEXT NOT NULL,
  user_realm TEXT NOT NULL,
  nick TEXT NOT NULL,
  redirect_uri TEXT NOT NULL,
  scope TEXT NOT NULL,
  code_challenge TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  used_at TEXT,
  FOREIGN KEY (realm, client_id) REFERENCES oauth_client(realm, client_id) ON DELETE CASCADE,
  FOREIGN KEY (user_realm, nick) REFERENCES user(realm, nick) ON DELETE CASCADE
);

CREATE TABLE oauth_token (
  token_hash TEXT PRIMARY KEY,
  code_hash TEXT NOT NULL,
  realm TEXT NOT NULL,
  client_id TEXT NOT NULL,
  user_realm TEXT NOT NULL,
  nick TEXT NOT NULL,
  scope TEXT NOT NULL,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  revoked_at TEXT,
  FOREIGN KEY (realm, client_id) REFERENCES oauth_client(realm, client_id) ON DELETE CASCADE,
  FOREIGN KEY (user_realm, nick) REFERENCES user(realm, nick) ON DELETE CASCADE
);
CREATE INDEX oauth_token_code ON oauth_token(code_hash);

-- One-time codes handing a session over to another host of the console (realm switch across hosts).
CREATE TABLE session_handover (
  code_hash TEXT PRIMARY KEY,
  token_hash TEXT NOT NULL REFERENCES session(token_hash) ON DELETE CASCADE,
  realm TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  used_at TEXT
);

-- Employee sign-in finds the account by its normalised document id (e.g. RG123456789SP).
CREATE INDEX user_external_id ON user(realm, external_id);
