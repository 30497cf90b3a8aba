import type { RateLimitDecision, RateLimiter, RateLimits } from '../../application/ports.ts';
import { prepared, type Queryable } from './db.ts';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** The two windows `now` falls in. */
export const windowsAt = (now: Date) => ({
  shortStart: new Date(Math.floor(now.getTime() / MINUTE_MS) * MINUTE_MS),
  longStart: new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS),
});

interface BucketRow {
  short_start: Date;
  short_count: number;
  long_start: Date;
  long_count: number;
}

/**
 * Admits and counts in both tiers, or changes nothing: `rate_limit_admit` (sql/006) holds
 * the rule, for one request or a batch. $1 bucket, $2 minute window start, $3 day window
 * start, $4 per-minute limit, $5 per-day limit.
 */
const CONSUME = prepared(
  'rate-limit-consume',
  `SELECT (rate_limit_admit(ARRAY[$1::text], ARRAY[$2::timestamptz], ARRAY[$3::timestamptz], ARRAY[$4::int], ARRAY[$5::int]))[1] AS admitted`,
);

const FIND_BUCKET = 'SELECT short_start, short_count, long_start, long_count FROM rate_limit_buckets WHERE bucket = $1';

interface Tier {
  start: number;
  count: number;
}

/** A tier's usage as seen at `windowStart`: a stored window older than that has expired. */
const tierAt = (windowStart: number, stored: { start: Date; count: number } | null): Tier =>
  stored && stored.start.getTime() >= windowStart ? { start: stored.start.getTime(), count: stored.count } : { start: windowStart, count: 0 };

/** The tier that refuses the next request; `long` when both do, as it reopens last. */
const rejection = (short: Tier, long: Tier, limits: RateLimits): RateLimitDecision | null => {
  if (long.count >= limits.perDay) return { allowed: false, scope: 'long', resetAt: long.start + DAY_MS };
  if (short.count >= limits.perMinute) return { allowed: false, scope: 'short', resetAt: short.start + MINUTE_MS };
  return null;
};

export class PgRateLimiter implements RateLimiter {
  constructor(private readonly q: Queryable) {}

  async consume(bucket: string, limits: RateLimits, now: Date): Promise<RateLimitDecision> {
    const windows = windowsAt(now);
    const shortStart = windows.shortStart.getTime();
    const longStart = windows.longStart.getTime();
    const params = [bucket, windows.shortStart, windows.longStart, limits.perMinute, limits.perDay];
    // Refused: the row tells which tier is full. Should a caller with a later clock roll a
    // window over between the two statements, neither is full any more: try again.
    for (let attempt = 0; attempt < 3; attempt += 1) {
      if ((await this.q.query<{ admitted: boolean }>(CONSUME, params)).rows[0]?.admitted) return { allowed: true };
      const row = (await this.q.query<BucketRow>(FIND_BUCKET, [bucket])).rows[0];
      const decision = rejection(
        tierAt(shortStart, row ? { start: row.short_start, count: row.short_count } : null),
        tierAt(longStart, row ? { start: row.long_start, count: row.long_count } : null),
        limits,
      );
      if (decision) return decision;
    }
    throw new Error(`rate limit bucket ${bucket} kept changing windows`);
  }
}
