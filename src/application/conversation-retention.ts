import { REFUSED_MESSAGE_DAYS } from '../domain/bot-rules.ts';
import type { AccountRepository, Clock, RetentionSweeper } from './ports.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

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

/** Batches of `sweep` until nothing old is left, or another instance holds the batch lock (it carries on). */
const sweepAll = async (sweep: () => Promise<number | 'busy'>, batchSize: number): Promise<number> => {
  let deleted = 0;
  for (;;) {
    const batch = await sweep();
    if (batch === 'busy' || batch === 0) return deleted;
    deleted += batch;
    if (batch < batchSize) return deleted;
  }
};

/**
 * One run of the retention job: the conversations past their owner's retention, then the
 * refused messages older than REFUSED_MESSAGE_DAYS, whatever the owner's setting (at least as
 * long). Returns how many conversations this run deleted.
 */
export const makeSweepRetention =
  (d: { sweeper: RetentionSweeper; clock: Clock; batchSize: number }) =>
  async (): Promise<number> => {
    const deleted = await sweepAll(() => d.sweeper.sweepBatch(d.clock.now(), d.batchSize), d.batchSize);
    const before = new Date(d.clock.now().getTime() - REFUSED_MESSAGE_DAYS * DAY_MS);
    await sweepAll(() => d.sweeper.sweepRefusedBatch(before, d.batchSize), d.batchSize);
    return deleted;
  };
