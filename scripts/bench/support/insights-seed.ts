// 100,000 conversations for one bot over the last 90 days, with their opening messages
// (through the trigger that notes each first question), and a lead for one in twenty.
import type { Queryable } from '../../../src/adapters/persistence/db.ts';

const QUESTIONS = [
  'What did you build?',
  'Are you open to remote roles?',
  'What is your notice period?',
  'Which languages do you know?',
  'Tell me about your last job',
  'What are your salary expectations?',
  'Why did you leave your last role?',
  'Do you have leadership experience?',
];

export const seedInsights = async (db: Queryable, botId: string, conversations = 100_000) => {
  await db.query(
    `WITH c AS (
       INSERT INTO conversations (bot_id, session_id, message_count, started_at, last_message_at)
       SELECT $1, gen_random_uuid(), 2 + (i % 5), now() - (i % 90) * interval '1 day' - (i % 1440) * interval '1 minute',
              now() - (i % 90) * interval '1 day'
       FROM generate_series(1, $2::integer) AS i
       RETURNING id, started_at
     ), numbered AS (SELECT id, started_at, row_number() OVER () AS n FROM c),
     m AS (
       INSERT INTO conversation_messages (conversation_id, position, role, content, created_at)
       SELECT id, 0, 'user', CASE WHEN n % 3 = 0 THEN lower(($3::text[])[1 + n % 8]) ELSE ($3::text[])[1 + n % 8] END, started_at FROM numbered
     )
     INSERT INTO leads (bot_id, conversation_id, email, captured_at)
     SELECT $1, id, 'lead' || n || '@example.com', started_at FROM numbered WHERE n % 20 = 0`,
    [botId, conversations, QUESTIONS],
  );
  await db.query(`INSERT INTO bot_refusals_daily (bot_id, day, reason, count) SELECT $1, current_date - d, 'prompt_injection', 3 FROM generate_series(0, 89) d`, [botId]);
  // As autovacuum would by then: the visibility map lets the insights scan the index alone.
  await db.query('VACUUM ANALYZE conversations');
  await db.query('VACUUM ANALYZE leads');
};
