-- Issue: messages per day count each message on the UTC day it was written, not the messages
-- of the conversations that started that day. Reading every message of a 90-day period is too
-- slow at 100,000 conversations, so a counter per bot and UTC day is kept as messages are
-- written, and the insights read it.
--
-- Like the bot's totals, the counters keep their totals: retention deleting old conversations
-- (and their messages) does not lower them; deleting the bot deletes them.
CREATE TABLE bot_messages_daily (
  bot_id uuid NOT NULL REFERENCES bots (id) ON DELETE CASCADE,
  day date NOT NULL,
  count integer NOT NULL,
  PRIMARY KEY (bot_id, day)
);

-- Once per INSERT statement, not per row: a save writes all its messages in one statement, so
-- it adds to its (bot, day) row once. Rows are upserted in (bot, day) order, so two statements
-- that touch the same rows lock them in the same order.
CREATE FUNCTION conversation_messages_count_daily() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  INSERT INTO bot_messages_daily AS d (bot_id, day, count)
  SELECT c.bot_id, (m.created_at AT TIME ZONE 'UTC')::date, count(*)::integer
  FROM inserted_messages m JOIN conversations c ON c.id = m.conversation_id
  GROUP BY 1, 2 ORDER BY 1, 2
  ON CONFLICT (bot_id, day) DO UPDATE SET count = d.count + excluded.count;
  RETURN NULL;
END
$$;

CREATE TRIGGER conversation_messages_count_daily AFTER INSERT ON conversation_messages
  REFERENCING NEW TABLE AS inserted_messages
  FOR EACH STATEMENT EXECUTE FUNCTION conversation_messages_count_daily();

-- The messages written before this migration. It runs in one transaction and the trigger above
-- already locked conversation_messages against inserts, so no message is counted twice or missed.
INSERT INTO bot_messages_daily (bot_id, day, count)
SELECT c.bot_id, (m.created_at AT TIME ZONE 'UTC')::date, count(*)::integer
FROM conversation_messages m JOIN conversations c ON c.id = m.conversation_id
GROUP BY 1, 2;

-- One lock order for every save: the bot's totals row, then its daily counter row. An append
-- (pg-conversation-repository.ts) updates the totals in its statement and counts its messages
-- when the statement ends; conversation_start (sql/007) inserted the messages, and so took the
-- counter, before the totals, and the two could deadlock. The same function, with the totals
-- moved before the messages.
CREATE OR REPLACE FUNCTION conversation_start(
  ids uuid[],
  bot_ids uuid[],
  session_ids uuid[],
  nows timestamptz[],
  message_counts integer[],
  add_conversations integer[],
  add_messages integer[],
  notify_users uuid[],
  notify_kinds text[],
  notify_payloads jsonb[],
  message_requests integer[],
  message_positions integer[],
  message_roles text[],
  message_contents text[]
) RETURNS TABLE (started boolean)
LANGUAGE plpgsql STRICT AS $$
DECLARE
  n integer := cardinality(ids);
  begun boolean[] := array_fill(false, ARRAY[n]);
  live uuid[];
  total record;
  k integer;
BEGIN
  SELECT coalesce(array_agg(b.id), '{}') INTO live FROM (
    SELECT id FROM bots WHERE id = ANY (bot_ids) ORDER BY id FOR KEY SHARE
  ) AS b;

  FOR k IN SELECT r.ord FROM unnest(bot_ids, session_ids) WITH ORDINALITY AS r(bot_id, session_id, ord)
    WHERE r.bot_id = ANY (live) ORDER BY r.bot_id, r.session_id, r.ord LOOP
    INSERT INTO conversations (id, bot_id, session_id, message_count, started_at, last_message_at)
    VALUES (ids[k], bot_ids[k], session_ids[k], message_counts[k], nows[k], nows[k])
    ON CONFLICT (bot_id, session_id) DO NOTHING;
    begun[k] := FOUND;
  END LOOP;

  FOR total IN SELECT bot_ids[r.k] AS bot_id, sum(add_conversations[r.k]) AS conversations, sum(add_messages[r.k]) AS messages
    FROM generate_subscripts(ids, 1) AS r(k) WHERE begun[r.k]
    GROUP BY bot_ids[r.k] ORDER BY bot_ids[r.k] LOOP
    CONTINUE WHEN total.conversations = 0 AND total.messages = 0;
    UPDATE bots SET
      total_conversations = total_conversations + total.conversations,
      total_messages = total_messages + total.messages
    WHERE id = total.bot_id;
  END LOOP;

  INSERT INTO conversation_messages (conversation_id, position, role, content, created_at)
  SELECT ids[m.req], m.position, m.role, m.content, nows[m.req]
  FROM unnest(message_requests, message_positions, message_roles, message_contents) AS m(req, position, role, content)
  WHERE begun[m.req];

  INSERT INTO notifications (user_id, kind, payload, created_at)
  SELECT notify_users[r.k], notify_kinds[r.k], notify_payloads[r.k], nows[r.k]
  FROM generate_subscripts(ids, 1) AS r(k) WHERE begun[r.k] AND notify_users[r.k] IS NOT NULL
  ORDER BY r.k;

  RETURN QUERY SELECT * FROM unnest(begun);
END
$$;
