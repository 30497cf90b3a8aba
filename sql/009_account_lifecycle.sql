-- Issue 24: password resets and e-mail changes by single-use links, sessions per owner,
-- and conversation retention.

-- One row per link sent. Only the SHA-256 of the link's token is kept; the row is deleted
-- when the link is used, so a link works once.
CREATE TABLE account_tokens (
  token_hash text PRIMARY KEY,
  user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  purpose    text NOT NULL CHECK (purpose IN ('password_reset', 'email_change')),
  new_email  text,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  CHECK ((purpose = 'email_change') = (new_email IS NOT NULL))
);
CREATE INDEX account_tokens_user_idx ON account_tokens (user_id);
CREATE INDEX account_tokens_expiry_idx ON account_tokens (expires_at);

-- The sessions of one owner, for the list and for signing out everywhere.
CREATE INDEX session_user_idx ON session ((sess ->> 'userId'));

-- Conversations older than this many days are deleted by the retention job; NULL: never.
ALTER TABLE users ADD COLUMN conversation_retention_days integer
  CHECK (conversation_retention_days BETWEEN 30 AND 730);
CREATE INDEX conversations_last_message_idx ON conversations (last_message_at);
