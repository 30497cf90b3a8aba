import type { InsightsDay, InsightsReader, TopQuestion } from '../../application/ports.ts';
import type { Queryable } from './db.ts';

// Each reads conversations_bot_insights_idx (bot, started_at), leads_bot_page_idx or the daily
// message counters (sql/012): fast with 100,000 conversations (bench:pages).
const PER_DAY = `
  WITH c AS (
    SELECT (started_at AT TIME ZONE 'UTC')::date AS day, count(*)::integer AS conversations
    FROM conversations WHERE bot_id = $1 AND started_at >= $2 GROUP BY 1
  ), m AS (
    SELECT day, count AS messages FROM bot_messages_daily
    WHERE bot_id = $1 AND day >= ($2::timestamptz AT TIME ZONE 'UTC')::date
  ), l AS (
    SELECT (captured_at AT TIME ZONE 'UTC')::date AS day, count(*)::integer AS leads
    FROM leads WHERE bot_id = $1 AND captured_at >= $2 GROUP BY 1
  )
  SELECT to_char(coalesce(c.day, m.day, l.day), 'YYYY-MM-DD') AS date, coalesce(c.conversations, 0) AS conversations,
         coalesce(m.messages, 0) AS messages, coalesce(l.leads, 0) AS leads
  FROM c FULL JOIN m ON m.day = c.day FULL JOIN l ON l.day = coalesce(c.day, m.day)`;

/** Leads are captured after their conversation starts, so the period's leads hold every one that counts. */
const WITH_LEAD = `
  SELECT count(DISTINCT l.conversation_id)::integer AS n
  FROM leads l JOIN conversations c ON c.id = l.conversation_id
  WHERE l.bot_id = $1 AND l.captured_at >= $2 AND c.bot_id = $1 AND c.started_at >= $2`;

/** Counted by the normalised key in one pass; then each top key's latest conversations, and its latest wording. */
const TOP_QUESTIONS = `
  WITH top AS (
    SELECT first_question_key AS key, count(*)::integer AS count
    FROM conversations WHERE bot_id = $1 AND started_at >= $2 AND first_question_key IS NOT NULL
    GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT $3
  )
  SELECT top.count, latest.ids, latest.question
  FROM top CROSS JOIN LATERAL (
    SELECT array_agg(r.id::text ORDER BY r.started_at DESC) AS ids, (array_agg(r.first_question ORDER BY r.started_at DESC))[1] AS question
    FROM (
      SELECT id, started_at, first_question FROM conversations
      WHERE bot_id = $1 AND first_question_key = top.key AND started_at >= $2
      ORDER BY started_at DESC LIMIT 5
    ) r
  ) latest
  ORDER BY top.count DESC, top.key`;

const REFUSALS = `
  SELECT reason, sum(count)::integer AS count FROM bot_refusals_daily
  WHERE bot_id = $1 AND day >= ($2::timestamptz AT TIME ZONE 'UTC')::date
  GROUP BY reason ORDER BY 2 DESC, 1`;

export class PgInsights implements InsightsReader {
  constructor(private readonly q: Queryable) {}

  async perDay(botId: string, since: Date): Promise<InsightsDay[]> {
    return (await this.q.query<InsightsDay>(PER_DAY, [botId, since])).rows;
  }

  async conversationsWithLead(botId: string, since: Date): Promise<number> {
    return (await this.q.query<{ n: number }>(WITH_LEAD, [botId, since])).rows[0]!.n;
  }

  async topQuestions(botId: string, since: Date, limit: number): Promise<TopQuestion[]> {
    const { rows } = await this.q.query<{ count: number; ids: string[]; question: string }>(TOP_QUESTIONS, [botId, since, limit]);
    return rows.map((row) => ({ question: row.question, count: row.count, conversationIds: row.ids }));
  }

  async refusals(botId: string, since: Date): Promise<{ reason: string; count: number }[]> {
    return (await this.q.query<{ reason: string; count: number }>(REFUSALS, [botId, since])).rows;
  }
}
