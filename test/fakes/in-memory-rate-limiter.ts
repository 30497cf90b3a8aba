import type { RateLimitDecision, RateLimiter, RateLimits } from '../../src/application/ports.ts';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

interface Window {
  start: number;
  count: number;
}

/** Same rules as PgRateLimiter: both tiers must have room; a refusal counts nowhere. */
export class InMemoryRateLimiter implements RateLimiter {
  private readonly buckets = new Map<string, { short: Window; long: Window }>();

  async consume(bucket: string, limits: RateLimits, now: Date): Promise<RateLimitDecision> {
    const stored = this.buckets.get(bucket);
    // A window only moves forward: a caller with an older clock counts in the newer one.
    const current = (window: Window | undefined, start: number): Window =>
      window && window.start >= start ? { ...window } : { start, count: 0 };
    const short = current(stored?.short, Math.floor(now.getTime() / MINUTE_MS) * MINUTE_MS);
    const long = current(stored?.long, Math.floor(now.getTime() / DAY_MS) * DAY_MS);
    if (long.count >= limits.perDay) return { allowed: false, scope: 'long', resetAt: long.start + DAY_MS };
    if (short.count >= limits.perMinute) return { allowed: false, scope: 'short', resetAt: short.start + MINUTE_MS };
    this.buckets.set(bucket, { short: { ...short, count: short.count + 1 }, long: { ...long, count: long.count + 1 } });
    return { allowed: true };
  }
}
