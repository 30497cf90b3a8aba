import type { ChatAdmission, RateLimits } from '../../application/ports.ts';
import { effectiveRateLimits } from '../../domain/bot-rules.ts';
import { isUuid } from '../../domain/pagination.ts';
import type { LlmProvider } from '../../domain/types.ts';
import { prepared, type Queryable } from './db.ts';
import { FIND_CHAT_TARGET, rowToBot, type BotRow } from './pg-bot-repository.ts';
import { admissionUpsert, PgRateLimiter, windowsAt } from './pg-rate-limiter.ts';

/**
 * The chat target and its admission in one statement (one round trip on the hot path):
 * the bucket row is only touched when the target exists. The limits are the bot's
 * overrides over the defaults, read from the same row.
 * $1 bot id, $2 bucket, $3 minute window start, $4 day window start, $5/$6 default limits.
 */
const ADMIT = prepared(
  'chat-admission',
  `
  WITH target AS (${FIND_CHAT_TARGET}),
  limits AS (
    SELECT COALESCE(rate_limit_per_minute, $5::int) AS per_minute, COALESCE(rate_limit_per_day, $6::int) AS per_day
    FROM target
  ),
  admitted AS (${admissionUpsert(
    'SELECT $2, $3, 1, $4, 1 FROM target, limits WHERE limits.per_minute >= 1 AND limits.per_day >= 1',
    '(SELECT per_minute FROM limits)',
    '(SELECT per_day FROM limits)',
  )})
  SELECT target.*, EXISTS (SELECT 1 FROM admitted) AS admitted FROM target`,
);

export class PgChatAdmission implements ChatAdmission {
  constructor(private readonly q: Queryable) {}

  async admit(botId: string, bucket: string, defaults: RateLimits, now: Date) {
    if (!isUuid(botId)) return { target: null };
    const { shortStart, longStart } = windowsAt(now);
    const { rows } = await this.q.query<BotRow & { llm_provider: LlmProvider; llm_model: string; admitted: boolean }>(
      ADMIT,
      [botId, bucket, shortStart, longStart, defaults.perMinute, defaults.perDay],
    );
    const row = rows[0];
    if (!row) return { target: null };
    const bot = rowToBot(row);
    const target = { bot, provider: row.llm_provider, model: row.llm_model };
    if (row.admitted) return { target, decision: { allowed: true as const } };
    // Refused (the rare path): the limiter reads the bucket to say which tier and until when.
    return { target, decision: await new PgRateLimiter(this.q).consume(bucket, effectiveRateLimits(bot, defaults), now) };
  }
}
