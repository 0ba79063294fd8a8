-- Issue 11, accounts: recovery and sign-in that cannot be turned against a user.

-- A captcha verification token remembers the kind of challenge that earned it: a sign-in accepts only a token of
-- the kind the realm asks for now. Tokens issued before this column live ten minutes; an empty kind matches none.
ALTER TABLE captcha_token ADD COLUMN type TEXT NOT NULL DEFAULT '';

-- signin_throttle gains a third kind of bucket, 'pair' (key: SHA-256 of the client address, ':', the account), which
-- slows down and then asks for a captcha; 'account' buckets now only ask for a captcha. Existing rows keep their
-- meaning under the new policy, so nothing needs rewriting.
