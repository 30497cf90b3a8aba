import type { RateLimitDecision, RateLimiter, RateLimits } from '../../application/ports.ts';
import { prepared, type Queryable } from './db.ts';
import { StatementBatcher, type Batching } from './statement-batcher.ts';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

export interface Windows {
  shortStart: Date;
  longStart: Date;
}

/** The two windows `now` falls in. */
export const windowsAt = (now: Date): Windows => ({
  shortStart: new Date(Math.floor(now.getTime() / MINUTE_MS) * MINUTE_MS),
  longStart: new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS),
});

/** One request's row from rate_limit_admit: the bucket as a refusal found it (null when admitted or absent). */
export interface AdmissionRow {
  admitted: boolean;
  state_short_start: Date | null;
  state_short_count: number | null;
  state_long_start: Date | null;
  state_long_count: number | null;
}

/**
 * Admits and counts in both tiers, or changes nothing: `rate_limit_admit` (sql/006) holds
 * the rule, for a batch of requests, and answers one row per request in order. Arrays, one
 * element per request: $1 buckets, $2 minute window starts, $3 day window starts, $4 per-minute
 * limits, $5 per-day limits.
 */
const CONSUME_BATCH = prepared(
  'rate-limit-consume-batch',
  `SELECT * FROM rate_limit_admit($1::text[], $2::timestamptz[], $3::timestamptz[], $4::int[], $5::int[])`,
);

interface Tier {
  start: number;
  count: number;
}

/** A tier's usage as seen at `windowStart`: a stored window older than that has expired. */
const tierAt = (windowStart: number, start: Date | null, count: number | null): Tier =>
  start !== null && count !== null && start.getTime() >= windowStart
    ? { start: start.getTime(), count }
    : { start: windowStart, count: 0 };

/**
 * The decision for one request in `windows` from its rate_limit_admit row. A refusal names the
 * tier that refuses: `short` when only the minute is full, else `long` (when both are full,
 * the day reopens last).
 */
export const admissionDecision = (row: AdmissionRow | undefined, limits: RateLimits, windows: Windows): RateLimitDecision => {
  if (row?.admitted) return { allowed: true };
  const short = tierAt(windows.shortStart.getTime(), row?.state_short_start ?? null, row?.state_short_count ?? null);
  const long = tierAt(windows.longStart.getTime(), row?.state_long_start ?? null, row?.state_long_count ?? null);
  if (short.count >= limits.perMinute && long.count < limits.perDay) return { allowed: false, scope: 'short', resetAt: short.start + MINUTE_MS };
  return { allowed: false, scope: 'long', resetAt: long.start + DAY_MS };
};

interface Spend {
  bucket: string;
  limits: RateLimits;
  windows: Windows;
}

/**
 * Spends rate limits through a StatementBatcher, as chat admissions do: the spends that arrive
 * together (saves, leads, knowledge reads of many widgets) share one statement, and each gets
 * the decision it would get alone.
 */
export class PgRateLimiter implements RateLimiter {
  private readonly batcher: StatementBatcher<Spend, RateLimitDecision>;

  constructor(
    private readonly q: Queryable,
    batching: Partial<Batching> = {},
  ) {
    this.batcher = new StatementBatcher('rate limit', (batch) => this.run(batch), batching);
  }

  consume(bucket: string, limits: RateLimits, now: Date): Promise<RateLimitDecision> {
    return this.batcher.submit({ bucket, limits, windows: windowsAt(now) });
  }

  private async run(batch: Spend[]): Promise<RateLimitDecision[]> {
    const { rows } = await this.q.query<AdmissionRow>(CONSUME_BATCH, [
      batch.map((spend) => spend.bucket),
      batch.map((spend) => spend.windows.shortStart),
      batch.map((spend) => spend.windows.longStart),
      batch.map((spend) => spend.limits.perMinute),
      batch.map((spend) => spend.limits.perDay),
    ]);
    return batch.map((spend, index) => admissionDecision(rows[index], spend.limits, spend.windows));
  }
}
