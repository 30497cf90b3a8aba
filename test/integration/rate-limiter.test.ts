import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { RateLimitDecision, RateLimits } from '../../src/application/ports.ts';
import { PgRateLimiter } from '../../src/adapters/persistence/pg-rate-limiter.ts';
import { counting, failingFirst } from '../support/queryables.ts';
import { useTwoInstanceDatabase } from '../support/test-database.ts';

// Two app instances: two pools on one database.
const shared = useTwoInstanceDatabase();

const NOW = new Date('2025-03-01T13:37:20.250Z');
const MINUTE_END = Date.parse('2025-03-01T13:38:00.000Z');
const DAY_END = Date.parse('2025-03-02T00:00:00.000Z');
const N = 25;

const admitted = (decisions: RateLimitDecision[]) => decisions.filter((decision) => decision.allowed).length;

const burst = (limiters: PgRateLimiter[], bucket: string, limits: RateLimits, count: number) =>
  Promise.all(Array.from({ length: count }, (_, i) => limiters[i % limiters.length]!.consume(bucket, limits, NOW)));

/** Spends `count` admissions one after the other. */
const spend = async (limiter: PgRateLimiter, bucket: string, limits: RateLimits, count: number) => {
  for (let i = 0; i < count; i += 1) expect(await limiter.consume(bucket, limits, NOW)).toEqual({ allowed: true });
};

const storedCounts = async (bucket: string) => {
  const { rows } = await shared.database.db.query<{ short_count: number; long_count: number }>(
    'SELECT short_count, long_count FROM rate_limit_buckets WHERE bucket = $1',
    [bucket],
  );
  return rows[0];
};

describe('PgRateLimiter under concurrency', () => {
  it.each([
    { name: 'one instance', instances: 1 },
    { name: 'two instances', instances: 2 },
  ])('admits exactly min(N, L) of N concurrent calls against a remaining budget L ($name)', async ({ instances }) => {
    const limiters = [new PgRateLimiter(shared.database.db), new PgRateLimiter(shared.secondPool)].slice(0, instances);
    const bucket = `chat:${randomUUID()}`;
    const limits = { perMinute: 10, perDay: 100 };
    await spend(limiters[0]!, bucket, limits, 3);

    const decisions = await burst(limiters, bucket, limits, N);
    expect(admitted(decisions)).toBe(7);
    expect(decisions.filter((decision) => !decision.allowed)).toEqual(
      Array.from({ length: N - 7 }, () => ({ allowed: false, scope: 'short', resetAt: MINUTE_END })),
    );
    expect(await storedCounts(bucket)).toEqual({ short_count: 10, long_count: 10 });
  });

  it('admits all of N concurrent calls when the budget exceeds N', async () => {
    const limiters = [new PgRateLimiter(shared.database.db), new PgRateLimiter(shared.secondPool)];
    const bucket = `chat:${randomUUID()}`;
    const decisions = await burst(limiters, bucket, { perMinute: 100, perDay: 1000 }, N);
    expect(admitted(decisions)).toBe(N);
    expect(await storedCounts(bucket)).toEqual({ short_count: N, long_count: N });
  });

  it('admits exactly the remaining daily budget, refusing the rest on long', async () => {
    const limiters = [new PgRateLimiter(shared.database.db), new PgRateLimiter(shared.secondPool)];
    const bucket = `chat:${randomUUID()}`;
    const limits = { perMinute: 1000, perDay: 50 };
    await spend(limiters[0]!, bucket, limits, 45);

    const decisions = await burst(limiters, bucket, limits, N);
    expect(admitted(decisions)).toBe(5);
    expect(decisions.filter((decision) => !decision.allowed)).toEqual(
      Array.from({ length: N - 5 }, () => ({ allowed: false, scope: 'long', resetAt: DAY_END })),
    );
  });

  it('counts none of the refused calls of a burst: raising the limit admits exactly the extra amount', async () => {
    const limiters = [new PgRateLimiter(shared.database.db), new PgRateLimiter(shared.secondPool)];
    const bucket = `chat:${randomUUID()}`;
    expect(admitted(await burst(limiters, bucket, { perMinute: 4, perDay: 100 }, N))).toBe(4);
    expect(admitted(await burst(limiters, bucket, { perMinute: 7, perDay: 100 }, N))).toBe(3);
    expect(await storedCounts(bucket)).toEqual({ short_count: 7, long_count: 7 });
  });

  it('spends no per-minute budget on calls refused on the long tier', async () => {
    const limiters = [new PgRateLimiter(shared.database.db), new PgRateLimiter(shared.secondPool)];
    const bucket = `chat:${randomUUID()}`;
    expect(admitted(await burst(limiters, bucket, { perMinute: 10, perDay: 4 }, N))).toBe(4);
    expect(await storedCounts(bucket)).toEqual({ short_count: 4, long_count: 4 });
    expect(admitted(await burst(limiters, bucket, { perMinute: 10, perDay: 100 }, N))).toBe(6);
  });

  it('keeps concurrent buckets apart', async () => {
    const limiter = new PgRateLimiter(shared.database.db);
    const [a, b] = [`chat:${randomUUID()}`, `chat:${randomUUID()}`];
    const limits = { perMinute: 5, perDay: 100 };
    const [onA, onB] = await Promise.all([burst([limiter], a, limits, 12), burst([limiter], b, limits, 12)]);
    expect([admitted(onA), admitted(onB)]).toEqual([5, 5]);
  });
});

describe('PgRateLimiter batching', () => {
  it('spends the calls that arrive together in fewer statements, each with the decision it would get alone', async () => {
    const { q, counts } = counting(shared.database.db);
    const limiter = new PgRateLimiter(q, { maxInFlight: 1, maxBatch: 64 });
    const [a, b] = [`leads:${randomUUID()}`, `conversations:${randomUUID()}`];
    const calls = Array.from({ length: 20 }, (_, i) =>
      limiter.consume(i % 2 === 0 ? a : b, i % 2 === 0 ? { perMinute: 3, perDay: 100 } : { perMinute: 100, perDay: 6 }, NOW),
    );
    const decisions = await Promise.all(calls);
    expect(counts.get('rate-limit-consume-batch')).toBeLessThan(20);
    expect(admitted(decisions.filter((_, i) => i % 2 === 0))).toBe(3);
    expect(decisions.filter((_, i) => i % 2 === 0 && !decisions[i]!.allowed)).toEqual(
      Array.from({ length: 7 }, () => ({ allowed: false, scope: 'short', resetAt: MINUTE_END })),
    );
    expect(admitted(decisions.filter((_, i) => i % 2 === 1))).toBe(6);
    expect(decisions.filter((_, i) => i % 2 === 1 && !decisions[i]!.allowed)).toEqual(
      Array.from({ length: 4 }, () => ({ allowed: false, scope: 'long', resetAt: DAY_END })),
    );
    // Arrival order within a bucket: the first calls are the ones admitted.
    expect(decisions.slice(0, 6).every((decision) => decision.allowed)).toBe(true);
  });

  it('fails the calls of a batch whose statement fails, and answers the next batch', async () => {
    const limiter = new PgRateLimiter(failingFirst(shared.database.db));
    const bucket = `leads:${randomUUID()}`;
    const first = await Promise.allSettled([0, 1, 2].map(() => limiter.consume(bucket, { perMinute: 5, perDay: 5 }, NOW)));
    expect(first.map((result) => result.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(await limiter.consume(bucket, { perMinute: 5, perDay: 5 }, NOW)).toEqual({ allowed: true });
  });
});
