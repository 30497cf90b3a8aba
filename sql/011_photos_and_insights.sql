-- Issue 25: the owner's photo as the bot's avatar. The bytes are the re-encoded WebP (never the
-- upload); bots.photo_sha256 names it, so the config view's image URL changes with the photo.
ALTER TABLE bots ADD COLUMN photo_sha256 text;

CREATE TABLE bot_photos (
  bot_id uuid PRIMARY KEY REFERENCES bots (id) ON DELETE CASCADE,
  sha256 text NOT NULL,
  image bytea NOT NULL,
  created_at timestamptz NOT NULL
);

-- Insights: the first question of each conversation, kept on the conversation with a key that
-- groups the same question written differently (case, punctuation, spaces), so the top
-- questions are one index scan of the bot's conversations, not a join to every message.
CREATE FUNCTION careerbot_question_key(question text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT nullif(left(trim(regexp_replace(lower(question), '[^[:alnum:]]+', ' ', 'g')), 200), '') $$;

ALTER TABLE conversations ADD COLUMN first_question text, ADD COLUMN first_question_key text;

UPDATE conversations c SET first_question = left(f.content, 500), first_question_key = careerbot_question_key(f.content)
FROM (SELECT DISTINCT ON (conversation_id) conversation_id, content FROM conversation_messages WHERE role = 'user' ORDER BY conversation_id, position) f
WHERE f.conversation_id = c.id;

CREATE FUNCTION conversations_note_first_question() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  UPDATE conversations SET first_question = left(NEW.content, 500), first_question_key = careerbot_question_key(NEW.content)
  WHERE id = NEW.conversation_id AND first_question IS NULL;
  RETURN NULL;
END
$$;

-- Only a conversation's opening messages can hold its first question.
CREATE TRIGGER conversation_messages_first_question AFTER INSERT ON conversation_messages
  FOR EACH ROW WHEN (NEW.role = 'user' AND NEW.position < 2)
  EXECUTE FUNCTION conversations_note_first_question();

-- Per day and the counts of the top questions read only this index (an index-only scan of the
-- period); the latest conversations of each top question, and its wording, the second one.
CREATE INDEX conversations_bot_insights_idx ON conversations (bot_id, started_at) INCLUDE (message_count, first_question_key);
CREATE INDEX conversations_bot_question_idx ON conversations (bot_id, first_question_key, started_at DESC) WHERE first_question_key IS NOT NULL;

-- Messages the filter refused, per bot, UTC day and reason (the metrics only count them per process).
CREATE TABLE bot_refusals_daily (
  bot_id uuid NOT NULL REFERENCES bots (id) ON DELETE CASCADE,
  day date NOT NULL,
  reason text NOT NULL,
  count integer NOT NULL,
  PRIMARY KEY (bot_id, day, reason)
);
