import { describe, expect, it } from 'vitest';
import { StatementBatcher } from '../../src/adapters/persistence/statement-batcher.ts';
import { ServiceUnavailableError } from '../../src/adapters/persistence/service-unavailable.ts';

/** A batcher over a fake statement that doubles numbers, fails on the batches `fails` picks, and records every batch. */
const doubling = (fails: (batch: number[]) => Error | null) => {
  const batches: number[][] = [];
  const batcher = new StatementBatcher<number, number>('test', async (batch) => {
    batches.push([...batch]);
    const error = fails(batch);
    if (error) throw error;
    return batch.map((n) => n * 2);
  });
  return { batcher, batches };
};

describe('StatementBatcher', () => {
  it('answers the requests that arrive together with one statement, each with its own outcome', async () => {
    const { batcher, batches } = doubling(() => null);
    expect(await Promise.all([1, 2, 3].map((n) => batcher.submit(n)))).toEqual([2, 4, 6]);
    expect(batches).toEqual([[1, 2, 3]]);
  });

  it('fails only the request whose data fails the statement: the others go again alone', async () => {
    const { batcher, batches } = doubling((batch) => (batch.includes(13) ? new Error('invalid input') : null));
    const results = await Promise.allSettled([1, 13, 3].map((n) => batcher.submit(n)));
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual([2, 'invalid input', 6]);
    expect(batches).toEqual([[1, 13, 3], [1], [13], [3]]);
  });

  it('fails every request at once, without going again, when the database is unavailable', async () => {
    const { batcher, batches } = doubling(() => new ServiceUnavailableError(new Error('connection lost')));
    const results = await Promise.allSettled([1, 2, 3].map((n) => batcher.submit(n)));
    expect(results.every((r) => r.status === 'rejected' && r.reason instanceof ServiceUnavailableError)).toBe(true);
    expect(batches).toEqual([[1, 2, 3]]);
  });
});
