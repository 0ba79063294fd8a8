-- Issue 11, accounts: recovery and sign-in that cannot be turned against a user.

-- A captcha verification token remembers the kind of challenge that earned it: a sign-in accepts only a token of
-- the kind the realm asks for now. Tokens issued before this column live ten minutes; an empty kind matches none.
ALTER TABLE captcha_token ADD COLUMN type TEXT NOT NULL DEFAULT '';
