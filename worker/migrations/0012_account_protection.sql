-- Issue 11, accounts: recovery and sign-in that cannot be turned against a user.

-- A captcha verification token remembers the kind of challenge that earned it: a sign-in accepts only a token of
-- the kind the realm asks for now. Tokens issued before this column live ten minutes; an empty kind matches none.
ALTER TABLE captcha_token ADD COLUMN type TEXT NOT NULL DEFAULT '';

-- signin_throttle gains a third kind of bucket, 'pair' (key: SHA-256 of the client address, ':', the account), which
-- slows down and then asks for a captcha; 'account' buckets now only ask for a captcha. Existing rows keep their
-- meaning under the new policy, so nothing needs rewriting.

-- Session handover (realm switch across hosts) bound to the browser that started it, in three legs:
-- the starting host keeps a random state in a cookie and sends its hash (state_hash) with the switch, which also
-- records that host's origin and the target's console address (target_url); the target host binds the hash of a
-- nonce of its own (nonce_hash) at the first arrival; the starting host confirms with the state (confirmed_at);
-- the target host claims with the nonce (used_at). Codes live one minute: rows from before this migration have no
-- state and can no longer be claimed.
ALTER TABLE session_handover ADD COLUMN state_hash TEXT;
ALTER TABLE session_handover ADD COLUMN origin TEXT;
ALTER TABLE session_handover ADD COLUMN target_url TEXT;
ALTER TABLE session_handover ADD COLUMN nonce_hash TEXT;
ALTER TABLE session_handover ADD COLUMN confirmed_at TEXT;
