import type { AccountRepository, Clock, RetentionSweeper } from './ports.ts';

export const RETENTION_DAYS = { min: 30, max: 730 } as const;

export const makeGetRetention =
  (d: { accounts: AccountRepository }) =>
  async (userId: string): Promise<{ days: number | null }> => ({ days: await d.accounts.retentionDays(userId) });

export const makeSetRetention =
  (d: { accounts: AccountRepository }) =>
  async (userId: string, days: number | null): Promise<{ days: number | null }> => {
    await d.accounts.setRetentionDays(userId, days);
    return { days };
  };

/**
 * One run of the retention job: batches until nothing old is left, or until another
 * instance holds the batch lock (it carries on). Returns how many conversations this run deleted.
 */
export const makeSweepRetention =
  (d: { sweeper: RetentionSweeper; clock: Clock; batchSize: number }) =>
  async (): Promise<number> => {
    let deleted = 0;
    for (;;) {
      const batch = await d.sweeper.sweepBatch(d.clock.now(), d.batchSize);
      if (batch === 'busy' || batch === 0) return deleted;
      deleted += batch;
      if (batch < d.batchSize) return deleted;
    }
  };
