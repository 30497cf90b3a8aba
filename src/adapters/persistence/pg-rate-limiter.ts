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
 * Admits and counts in both tiers, or changes nothing, in one statement: the row lock taken
 * by ON CONFLICT serialises concurrent callers, each seeing the count the previous one left.
 * Only a later window start renews a window, so an instance whose clock lags counts in the
 * current window instead of resetting it. `source` is the SELECT of the new row (bucket,
 * minute window start, 1, day window start, 1); the limits are SQL expressions.
 */
export const admissionUpsert = (source: string, perMinute: string, perDay: string) => `
  INSERT INTO rate_limit_buckets AS b (bucket, short_start, short_count, long_start, long_count)
  ${source}
  ON CONFLICT (bucket) DO UPDATE SET
    short_start = GREATEST(b.short_start, EXCLUDED.short_start),
    short_count = CASE WHEN EXCLUDED.short_start > b.short_start THEN 1 ELSE b.short_count + 1 END,
    long_start  = GREATEST(b.long_start, EXCLUDED.long_start),
    long_count  = CASE WHEN EXCLUDED.long_start > b.long_start THEN 1 ELSE b.long_count + 1 END
  WHERE (EXCLUDED.short_start > b.short_start OR b.short_count < ${perMinute})
    AND (EXCLUDED.long_start > b.long_start OR b.long_count < ${perDay})
  RETURNING bucket`;

/** $1 bucket, $2 minute window start, $3 day window start, $4 per-minute limit, $5 per-day limit. A limit below 1 admits nothing. */
const CONSUME = prepared(
  'rate-limit-consume',
  admissionUpsert('SELECT $1, $2, 1, $3, 1 WHERE $4::int >= 1 AND $5::int >= 1', '$4::int', '$5::int'),
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
      if ((await this.q.query(CONSUME, params)).rowCount! > 0) return { allowed: true };
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
