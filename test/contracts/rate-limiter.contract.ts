import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { RateLimitDecision, RateLimiter, RateLimits } from '../../src/application/ports.ts';

export interface RateLimiterFixture {
  subject: RateLimiter;
}

const MINUTE_MS = 60_000;
// 13:37:20.250 UTC, inside the minute 13:37 and the day 2025-03-01.
const NOW = new Date('2025-03-01T13:37:20.250Z');
const MINUTE_END = Date.parse('2025-03-01T13:38:00.000Z');
const DAY_END = Date.parse('2025-03-02T00:00:00.000Z');
const later = (ms: number) => new Date(NOW.getTime() + ms);

const consumeTimes = async (limiter: RateLimiter, bucket: string, limits: RateLimits, times: number, now = NOW) => {
  const decisions: RateLimitDecision[] = [];
  for (let i = 0; i < times; i += 1) decisions.push(await limiter.consume(bucket, limits, now));
  return decisions;
};

const admitted = (decisions: RateLimitDecision[]) => decisions.filter((decision) => decision.allowed).length;

export const rateLimiterContract = (makeSubject: () => Promise<RateLimiterFixture>) => {
  describe('RateLimiter contract', () => {
    const setup = async () => ({ ...(await makeSubject()), bucket: `test:${randomUUID()}` });

    it('admits up to the per-minute limit, then refuses on short until the minute ends', async () => {
      const { subject, bucket } = await setup();
      const decisions = await consumeTimes(subject, bucket, { perMinute: 3, perDay: 100 }, 5);
      expect(decisions).toEqual([
        { allowed: true },
        { allowed: true },
        { allowed: true },
        { allowed: false, scope: 'short', resetAt: MINUTE_END },
        { allowed: false, scope: 'short', resetAt: MINUTE_END },
      ]);
    });

    it('refuses on long once the day is used up, across minutes, until the UTC day ends', async () => {
      const { subject, bucket } = await setup();
      const limits = { perMinute: 2, perDay: 3 };
      expect(admitted(await consumeTimes(subject, bucket, limits, 2))).toBe(2);
      expect(await subject.consume(bucket, limits, later(MINUTE_MS))).toEqual({ allowed: true });
      const refused = await subject.consume(bucket, limits, later(2 * MINUTE_MS));
      expect(refused).toEqual({ allowed: false, scope: 'long', resetAt: DAY_END });
      expect(Number.isInteger((refused as { resetAt: number }).resetAt)).toBe(true);
    });

    it('reports long when both tiers are exhausted', async () => {
      const { subject, bucket } = await setup();
      const limits = { perMinute: 2, perDay: 2 };
      await consumeTimes(subject, bucket, limits, 2);
      expect(await subject.consume(bucket, limits, NOW)).toEqual({ allowed: false, scope: 'long', resetAt: DAY_END });
    });

    it('counts nothing for a refused request: raising the per-minute limit admits exactly the extra amount', async () => {
      const { subject, bucket } = await setup();
      const decisions = await consumeTimes(subject, bucket, { perMinute: 3, perDay: 100 }, 6);
      expect(admitted(decisions)).toBe(3);
      const raised = await consumeTimes(subject, bucket, { perMinute: 5, perDay: 100 }, 4);
      expect(raised.map((decision) => decision.allowed)).toEqual([true, true, false, false]);
    });

    it('does not spend short budget on a request refused on the long tier', async () => {
      const { subject, bucket } = await setup();
      expect(admitted(await consumeTimes(subject, bucket, { perMinute: 5, perDay: 3 }, 6))).toBe(3);
      const raised = await consumeTimes(subject, bucket, { perMinute: 5, perDay: 100 }, 4);
      expect(raised).toEqual([
        { allowed: true },
        { allowed: true },
        { allowed: false, scope: 'short', resetAt: MINUTE_END },
        { allowed: false, scope: 'short', resetAt: MINUTE_END },
      ]);
    });

    it('applies a lowered limit at once to the current window', async () => {
      const { subject, bucket } = await setup();
      expect(admitted(await consumeTimes(subject, bucket, { perMinute: 10, perDay: 100 }, 3))).toBe(3);
      expect(await subject.consume(bucket, { perMinute: 2, perDay: 100 }, NOW)).toEqual({
        allowed: false,
        scope: 'short',
        resetAt: MINUTE_END,
      });
      expect(await subject.consume(bucket, { perMinute: 10, perDay: 3 }, NOW)).toEqual({
        allowed: false,
        scope: 'long',
        resetAt: DAY_END,
      });
    });

    it('admits again in the next minute, counting the day across minutes', async () => {
      const { subject, bucket } = await setup();
      const limits = { perMinute: 2, perDay: 5 };
      expect(admitted(await consumeTimes(subject, bucket, limits, 3))).toBe(2);
      const nextMinute = new Date(MINUTE_END);
      expect(await consumeTimes(subject, bucket, limits, 3, nextMinute)).toEqual([
        { allowed: true },
        { allowed: true },
        { allowed: false, scope: 'short', resetAt: MINUTE_END + MINUTE_MS },
      ]);
      expect(await subject.consume(bucket, limits, new Date(MINUTE_END + 5 * MINUTE_MS))).toEqual({ allowed: true });
      expect(await subject.consume(bucket, limits, new Date(MINUTE_END + 6 * MINUTE_MS))).toEqual({
        allowed: false,
        scope: 'long',
        resetAt: DAY_END,
      });
    });

    it('admits again from the next UTC day', async () => {
      const { subject, bucket } = await setup();
      const limits = { perMinute: 10, perDay: 2 };
      const lastSecond = new Date(DAY_END - 1);
      expect(admitted(await consumeTimes(subject, bucket, limits, 3, lastSecond))).toBe(2);
      expect(await subject.consume(bucket, limits, new Date(DAY_END))).toEqual({ allowed: true });
    });

    it('counts a request stamped in an older window (a lagging clock) in the current one', async () => {
      const { subject, bucket } = await setup();
      const limits = { perMinute: 3, perDay: 100 };
      const nextMinute = new Date(MINUTE_END + 1);
      expect(admitted(await consumeTimes(subject, bucket, limits, 2, nextMinute))).toBe(2);
      expect(await subject.consume(bucket, limits, NOW)).toEqual({ allowed: true });
      const refusal = { allowed: false, scope: 'short', resetAt: MINUTE_END + MINUTE_MS };
      expect(await subject.consume(bucket, limits, NOW)).toEqual(refusal);
      expect(await subject.consume(bucket, limits, nextMinute)).toEqual(refusal);
    });

    it('keeps buckets independent', async () => {
      const { subject, bucket } = await setup();
      const limits = { perMinute: 1, perDay: 1 };
      expect(await subject.consume(bucket, limits, NOW)).toEqual({ allowed: true });
      expect((await subject.consume(bucket, limits, NOW)).allowed).toBe(false);
      expect(await subject.consume(`${bucket}:other`, limits, NOW)).toEqual({ allowed: true });
    });

    it('admits exactly the remaining budget among concurrent calls', async () => {
      const { subject, bucket } = await setup();
      const limits = { perMinute: 10, perDay: 100 };
      await consumeTimes(subject, bucket, limits, 3);
      const decisions = await Promise.all(Array.from({ length: 25 }, () => subject.consume(bucket, limits, NOW)));
      expect(admitted(decisions)).toBe(7);
      expect(decisions.filter((decision) => !decision.allowed)).toEqual(
        Array.from({ length: 18 }, () => ({ allowed: false, scope: 'short', resetAt: MINUTE_END })),
      );
    });
  });
};
