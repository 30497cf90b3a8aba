-- Sessions' first saves in batches: one statement starts many conversations, in one round trip.
--
-- conversation_start applies, to each request, what a first save does alone: insert the
-- conversation with all its messages, count them in the bot's totals and notify the owner,
-- or do nothing at all when the session has a conversation already (the caller then locks
-- it and appends). Arrays, one element per request unless said otherwise: ids, bots,
-- sessions, the times, how many messages each starts with, how many conversations and messages to add to the bot's totals, and
-- the notification (user, kind, payload; a null user for none). The messages come flattened,
-- one element per message: the request's ordinal (from 1), the position, role and content.
--
-- Locks are taken in one order by every batch, so two batches cannot deadlock each other:
-- first the bots, in id order, for key share (a bot deleted meanwhile starts nothing, and a
-- deletion waits for the batch); then the conversations, in (bot, session) order; then the
-- bots' totals, in id order.
--
-- One row per request, in the order given: whether it started a conversation.
CREATE FUNCTION conversation_start(
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

  INSERT INTO conversation_messages (conversation_id, position, role, content, created_at)
  SELECT ids[m.req], m.position, m.role, m.content, nows[m.req]
  FROM unnest(message_requests, message_positions, message_roles, message_contents) AS m(req, position, role, content)
  WHERE begun[m.req];

  FOR total IN SELECT bot_ids[r.k] AS bot_id, sum(add_conversations[r.k]) AS conversations, sum(add_messages[r.k]) AS messages
    FROM generate_subscripts(ids, 1) AS r(k) WHERE begun[r.k]
    GROUP BY bot_ids[r.k] ORDER BY bot_ids[r.k] LOOP
    CONTINUE WHEN total.conversations = 0 AND total.messages = 0;
    UPDATE bots SET
      total_conversations = total_conversations + total.conversations,
      total_messages = total_messages + total.messages
    WHERE id = total.bot_id;
  END LOOP;

  INSERT INTO notifications (user_id, kind, payload, created_at)
  SELECT notify_users[r.k], notify_kinds[r.k], notify_payloads[r.k], nows[r.k]
  FROM generate_subscripts(ids, 1) AS r(k) WHERE begun[r.k] AND notify_users[r.k] IS NOT NULL
  ORDER BY r.k;

  RETURN QUERY SELECT * FROM unnest(begun);
END
$$;
