import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Outbox, type Delivery } from '../src/outbox.ts';

/** A delivery that fails `failures` times, then succeeds; what it was asked is kept in `tries`. */
const flaky = (failures: number, tries: number[], now: () => number) => async (): Promise<Delivery> => {
  tries.push(now());
  return tries.length > failures ? { kind: 'delivered' } : { kind: 'retry' };
};

describe('Outbox', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('retries with doubling waits, jittered within the upper half, up to the ceiling', () => {
    const low = new Outbox({ limit: 10, now: Date.now, random: () => 0, baseDelayMs: 1_000, maxDelayMs: 8_000 });
    const high = new Outbox({ limit: 10, now: Date.now, random: () => 0.99, baseDelayMs: 1_000, maxDelayMs: 8_000 });
    expect([1, 2, 3, 4, 5].map((attempt) => low.delayAfter(attempt))).toEqual([500, 1_000, 2_000, 4_000, 4_000]);
    expect([1, 2, 3, 4, 5].map((attempt) => high.delayAfter(attempt))).toEqual([995, 1_990, 3_980, 7_960, 7_960]);
  });

  it('delivers after the platform comes back, each wait longer than the one before', async () => {
    const outbox = new Outbox({ limit: 10, now: Date.now, random: () => 0.5 });
    const tries: number[] = [];
    outbox.add('conversation:a', flaky(3, tries, Date.now));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(outbox.size).toBe(0);
    expect(tries).toHaveLength(4);
    const waits = tries.slice(1).map((at, i) => at - tries[i]!);
    expect(waits).toEqual([750, 1_500, 3_000]);
  });

  it('waits at least what the platform asked (Retry-After)', async () => {
    const outbox = new Outbox({ limit: 10, now: Date.now, random: () => 0 });
    const tries: number[] = [];
    outbox.add('lead:a', async () => {
      tries.push(Date.now());
      return tries.length > 1 ? { kind: 'delivered' } : { kind: 'retry', afterMs: 30_000 };
    });
    await vi.advanceTimersByTimeAsync(29_000);
    expect(tries).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(tries).toHaveLength(2);
  });

  it('is bounded: past its limit it refuses new work and keeps the old', () => {
    const outbox = new Outbox({ limit: 2, now: Date.now, random: () => 0 });
    const never = async (): Promise<Delivery> => ({ kind: 'retry' });
    expect(outbox.add('a', never, 10_000)).toBe(true);
    expect(outbox.add('b', never, 10_000)).toBe(true);
    expect(outbox.add('c', never, 10_000)).toBe(false);
    expect(outbox.size).toBe(2);
    expect(outbox.has('a') && outbox.has('b') && !outbox.has('c')).toBe(true);
    // A newer transcript of a queued session takes the older one's place, even when full.
    expect(outbox.add('a', never)).toBe(true);
    expect(outbox.size).toBe(2);
    outbox.stop();
  });

  it('replaces a queued entry of the same key: only the newer work is delivered', async () => {
    const outbox = new Outbox({ limit: 10, now: Date.now, random: () => 0 });
    const delivered: string[] = [];
    const send = (what: string) => async (): Promise<Delivery> => {
      delivered.push(what);
      return { kind: 'delivered' };
    };
    outbox.add('conversation:a', send('two messages'), 1_000);
    outbox.add('conversation:a', send('four messages'));
    await vi.advanceTimersByTimeAsync(2_000);
    expect(delivered).toEqual(['four messages']);
  });

  it('flush() makes one attempt at every entry, due or not, and drops what the platform refuses', async () => {
    const dropped: string[] = [];
    const outbox = new Outbox({ limit: 10, now: Date.now, random: () => 0, onDropped: (key) => dropped.push(key) });
    outbox.add('a', async () => ({ kind: 'delivered' }), 60_000);
    outbox.add('b', async () => ({ kind: 'dropped' }), 60_000);
    outbox.add('c', async () => ({ kind: 'retry' }), 60_000);
    await outbox.flush();
    outbox.stop();
    expect(outbox.size).toBe(1);
    expect(outbox.has('c')).toBe(true);
    expect(dropped).toEqual(['b']);
  });
});
