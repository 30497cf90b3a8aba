import type { RateLimitDecision, RateLimiter, RateLimits } from '../../application/ports.ts';
import { prepared, type Queryable } from './db.ts';

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
 * the rule, for one request or a batch. $1 bucket, $2 minute window start, $3 day window
 * start, $4 per-minute limit, $5 per-day limit.
 */
const CONSUME = prepared(
  'rate-limit-consume',
  `SELECT * FROM rate_limit_admit(ARRAY[$1::text], ARRAY[$2::timestamptz], ARRAY[$3::timestamptz], ARRAY[$4::int], ARRAY[$5::int])`,
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

export class PgRateLimiter implements RateLimiter {
  constructor(private readonly q: Queryable) {}

  async consume(bucket: string, limits: RateLimits, now: Date): Promise<RateLimitDecision> {
    const windows = windowsAt(now);
    const params = [bucket, windows.shortStart, windows.longStart, limits.perMinute, limits.perDay];
    return admissionDecision((await this.q.query<AdmissionRow>(CONSUME, params)).rows[0], limits, windows);
  }
}
