-- Realms (tenants), the host names that serve them, their roles, users and sign-in sessions.
-- Every tenant table carries `realm`; booleans are 0/1, lists and maps are JSON text, times ISO-8601 UTC text.

CREATE TABLE realm (
  code TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  parent_code TEXT REFERENCES realm(code) ON DELETE RESTRICT,
  canonical_name TEXT NOT NULL DEFAULT '',
  nick_suffix TEXT NOT NULL DEFAULT '',
  allowed_signin TEXT NOT NULL DEFAULT '["iptv"]',
  dashboard_url TEXT NOT NULL DEFAULT '',
  logo_url TEXT NOT NULL DEFAULT '',
  favicon_url TEXT NOT NULL DEFAULT '',
  files_base_url TEXT NOT NULL DEFAULT '',
  signin_domain TEXT NOT NULL DEFAULT '',
  irm_servers TEXT NOT NULL DEFAULT '[]',
  room_servers TEXT NOT NULL DEFAULT '[]',
  storage_bucket TEXT NOT NULL DEFAULT '',
  storage_region TEXT NOT NULL DEFAULT '',
  storage_credential_id TEXT NOT NULL DEFAULT '',
  storage_credential_key TEXT NOT NULL DEFAULT '',
  csm_channel_enable INTEGER NOT NULL DEFAULT 0,
  csm_room_enable INTEGER NOT NULL DEFAULT 0,
  csm_max_duration INTEGER NOT NULL DEFAULT 0,
  csm_max_idle_time INTEGER NOT NULL DEFAULT 0,
  csm_must_record INTEGER NOT NULL DEFAULT 1,
  csm_spa_url TEXT NOT NULL DEFAULT '',
  csm_vod_slot_bucket INTEGER NOT NULL DEFAULT 30,
  tms_enable INTEGER NOT NULL DEFAULT 0,
  tms_spa_url TEXT NOT NULL DEFAULT '',
  tms_task_expire_offset_days INTEGER NOT NULL DEFAULT 0,
  msg_drop_rate INTEGER NOT NULL DEFAULT 200,
  msg_per_day INTEGER NOT NULL DEFAULT -1,
  room_msg_delay INTEGER NOT NULL DEFAULT 0,
  room_msg_per_day INTEGER NOT NULL DEFAULT -1,
  room_tx_duration INTEGER NOT NULL DEFAULT 0,
  room_tx_interval INTEGER NOT NULL DEFAULT 0,
  room_attachment_disabled INTEGER NOT NULL DEFAULT 0,
  enable_pvt_audio_call INTEGER NOT NULL DEFAULT 0,
  datami_tag TEXT NOT NULL DEFAULT '',
  metaverse_rooms TEXT NOT NULL DEFAULT '[]',
  metaverse_api_token TEXT NOT NULL DEFAULT '',
  -- Public configuration fields (seed 000 §3 "Realm configuration").
  development INTEGER NOT NULL DEFAULT 0,
  time_zone TEXT NOT NULL DEFAULT 'America/Sao_Paulo',
  web_client_url TEXT NOT NULL DEFAULT '',
  base_url TEXT NOT NULL DEFAULT '',
  ios_store_url TEXT NOT NULL DEFAULT '',
  android_store_url TEXT NOT NULL DEFAULT '',
  api_endpoint TEXT NOT NULL DEFAULT '',
  br_bot_endpoint TEXT NOT NULL DEFAULT '',
  litmetrix_url TEXT NOT NULL DEFAULT '',
  cognitive_test_results_url TEXT NOT NULL DEFAULT '',
  allowed_roles TEXT NOT NULL DEFAULT '[]',
  auth_type TEXT NOT NULL DEFAULT '{}',
  terms TEXT NOT NULL DEFAULT '',
  privacy TEXT NOT NULL DEFAULT '',
  season_enable INTEGER NOT NULL DEFAULT 0,
  allowed_award TEXT NOT NULL DEFAULT '[]',
  captcha_enabled INTEGER NOT NULL DEFAULT 0,
  ledger_enabled INTEGER NOT NULL DEFAULT 0,
  persona_enabled INTEGER NOT NULL DEFAULT 0,
  tms_url TEXT NOT NULL DEFAULT '',
  tms_question_extra_fields TEXT NOT NULL DEFAULT '[]',
  allow_custom_user_profile_picture INTEGER NOT NULL DEFAULT 0,
  csm_player_controls_list TEXT NOT NULL DEFAULT 'nodownload',
  task_external_preview_url TEXT NOT NULL DEFAULT '',
  token_sso_url TEXT NOT NULL DEFAULT '',
  handtalk_enabled INTEGER NOT NULL DEFAULT 0,
  google_client_id TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_by TEXT NOT NULL DEFAULT ''
);
CREATE INDEX realm_parent ON realm(parent_code);

-- A host name bound to exactly one realm. Hosts not listed here are multi-realm (realm chooser).
CREATE TABLE realm_host (
  host TEXT PRIMARY KEY,
  realm TEXT NOT NULL REFERENCES realm(code) ON DELETE CASCADE
);
CREATE INDEX realm_host_realm ON realm_host(realm);

CREATE TABLE role (
  realm TEXT NOT NULL REFERENCES realm(code) ON DELETE CASCADE,
  role TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_by TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (realm, role)
);

-- Only granted permissions are stored; the API answers the full catalogue with true/false.
CREATE TABLE role_permission (
  realm TEXT NOT NULL,
  role TEXT NOT NULL,
  permission TEXT NOT NULL,
  PRIMARY KEY (realm, role, permission),
  FOREIGN KEY (realm, role) REFERENCES role(realm, role) ON DELETE CASCADE
);

CREATE TABLE user (
  realm TEXT NOT NULL REFERENCES realm(code) ON DELETE CASCADE,
  nick TEXT NOT NULL,
  name TEXT NOT NULL DEFAULT '',
  email TEXT NOT NULL DEFAULT '',
  phone TEXT NOT NULL DEFAULT '',
  external_id TEXT NOT NULL DEFAULT '',
  avatar_url TEXT NOT NULL DEFAULT '',
  password_hash TEXT NOT NULL DEFAULT '',
  origin_realm TEXT NOT NULL,
  disabled INTEGER NOT NULL DEFAULT 0,
  invisible INTEGER NOT NULL DEFAULT 0,
  bot INTEGER NOT NULL DEFAULT 0,
  hd_support INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  PRIMARY KEY (realm, nick)
);
CREATE INDEX user_email ON user(realm, email);

-- A user's roles; position 0 is the primary role reported as `role`.
CREATE TABLE user_role (
  realm TEXT NOT NULL,
  nick TEXT NOT NULL,
  role TEXT NOT NULL,
  position INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (realm, nick, role),
  FOREIGN KEY (realm, nick) REFERENCES user(realm, nick) ON DELETE CASCADE,
  FOREIGN KEY (realm, role) REFERENCES role(realm, role) ON DELETE RESTRICT
);
CREATE INDEX user_role_role ON user_role(realm, role);

-- Sign-in sessions. Only the SHA-256 of the token is stored; a token is bound to one realm.
CREATE TABLE session (
  token_hash TEXT PRIMARY KEY,
  realm TEXT NOT NULL REFERENCES realm(code) ON DELETE CASCADE,
  nick TEXT NOT NULL,
  device_id TEXT NOT NULL,
  platform TEXT NOT NULL DEFAULT 'dashboard',
  created_at TEXT NOT NULL,
  last_seen_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  revoked_at TEXT,
  user_agent TEXT NOT NULL DEFAULT '',
  FOREIGN KEY (realm, nick) REFERENCES user(realm, nick) ON DELETE CASCADE
);
CREATE INDEX session_user ON session(realm, nick);
