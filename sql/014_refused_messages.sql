-- Issue 23, item 5: the owner sees what the filter refused. Each refused chat message is kept
-- for the owner as a visitor's message is kept in conversation_messages (plain text, under the
-- bot, deleted with it), with the filter's reason and its time, for 30 days: the retention job
-- deletes older rows (pg-retention-sweeper.ts). The chat path has no session, so there is no
-- conversation to name. bot_refusals_daily (sql/011) still counts them per UTC day and reason,
-- and keeps its totals past the 30 days, as the other counters do.
CREATE TABLE refused_messages (
  id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  bot_id     uuid NOT NULL REFERENCES bots (id) ON DELETE CASCADE,
  reason     text NOT NULL,
  content    text NOT NULL,
  created_at timestamptz NOT NULL
);
-- The owner's list, newest first (keyset), and the export.
CREATE INDEX refused_messages_bot_page_idx ON refused_messages (bot_id, created_at DESC, id DESC);
-- The retention job's oldest-first batches.
CREATE INDEX refused_messages_created_idx ON refused_messages (created_at);
