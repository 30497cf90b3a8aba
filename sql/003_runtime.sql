-- The bot runtime API: tokens, transcripts, leads, notifications, embedding cache.

CREATE TABLE bot_tokens (
  id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  bot_id       uuid NOT NULL REFERENCES bots (id) ON DELETE CASCADE,
  name         text NOT NULL,
  token_hash   text NOT NULL UNIQUE, -- hex SHA-256; the token itself is never stored
  last_four    text NOT NULL,
  created_at   timestamptz NOT NULL,
  expires_at   timestamptz,
  last_used_at timestamptz,
  revoked_at   timestamptz
);
CREATE INDEX bot_tokens_bot_idx ON bot_tokens (bot_id, created_at DESC);

CREATE TABLE conversations (
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  bot_id          uuid NOT NULL REFERENCES bots (id) ON DELETE CASCADE,
  session_id      uuid NOT NULL,
  message_count   integer NOT NULL DEFAULT 0,
  started_at      timestamptz NOT NULL,
  last_message_at timestamptz NOT NULL,
  CONSTRAINT conversations_bot_session_key UNIQUE (bot_id, session_id)
);
CREATE INDEX conversations_bot_page_idx ON conversations (bot_id, started_at DESC, id DESC);

CREATE TABLE conversation_messages (
  conversation_id uuid NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
  position        integer NOT NULL,
  role            text NOT NULL CHECK (role IN ('user', 'assistant')),
  content         text NOT NULL,
  created_at      timestamptz NOT NULL,
  PRIMARY KEY (conversation_id, position)
);

CREATE TABLE leads (
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  bot_id          uuid NOT NULL REFERENCES bots (id) ON DELETE CASCADE,
  conversation_id uuid REFERENCES conversations (id) ON DELETE SET NULL,
  email           text NOT NULL,
  context_summary text,
  captured_at     timestamptz NOT NULL
);
-- A missing conversation counts as one value, so "no conversation + same email" dedupes too.
CREATE UNIQUE INDEX leads_dedupe_key ON leads (bot_id, conversation_id, email) NULLS NOT DISTINCT;
CREATE INDEX leads_bot_page_idx ON leads (bot_id, captured_at DESC, id DESC);

CREATE TABLE notifications (
  id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind       text NOT NULL,
  payload    jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL,
  read_at    timestamptz
);
CREATE INDEX notifications_user_page_idx ON notifications (user_id, created_at DESC, id DESC);
CREATE INDEX notifications_user_unread_idx ON notifications (user_id) WHERE read_at IS NULL;

CREATE TABLE embedding_cache (
  bot_id     uuid NOT NULL REFERENCES bots (id) ON DELETE CASCADE,
  model      text NOT NULL,
  chunk_hash text NOT NULL,
  embedding  real[] NOT NULL,
  PRIMARY KEY (bot_id, model, chunk_hash)
);
