import type { RetentionSweeper } from '../../application/ports.ts';
import type { Db, Queryable } from './db.ts';

/** Any constant of our own: the transaction-scoped advisory lock one retention batch holds. */
const RETENTION_LOCK = 240_024;

const TRY_LOCK = 'SELECT pg_try_advisory_xact_lock($1) AS locked';
// Conversations whose last message is older than their owner's retention. Counters on the bot
// are totals and stay as they are; leads keep their row, without the conversation.
const DELETE_BATCH = `
  DELETE FROM conversations WHERE id IN (
    SELECT c.id FROM conversations c
    JOIN bots b ON b.id = c.bot_id
    JOIN users u ON u.id = b.user_id
    WHERE u.conversation_retention_days IS NOT NULL
      AND c.last_message_at < $1::timestamptz - make_interval(days => u.conversation_retention_days)
    ORDER BY c.last_message_at
    LIMIT $2)`;
const DELETE_EXPIRED_LINKS = 'DELETE FROM account_tokens WHERE expires_at <= $1';
const DELETE_REFUSED_BATCH = `
  DELETE FROM refused_messages WHERE id IN (
    SELECT id FROM refused_messages WHERE created_at < $1 ORDER BY created_at LIMIT $2)`;

export class PgRetentionSweeper implements RetentionSweeper {
  constructor(private readonly db: Db) {}

  sweepBatch(now: Date, batchSize: number): Promise<number | 'busy'> {
    return this.locked(async (tx) => {
      await tx.query(DELETE_EXPIRED_LINKS, [now]);
      return (await tx.query(DELETE_BATCH, [now, batchSize])).rowCount ?? 0;
    });
  }

  sweepRefusedBatch(before: Date, batchSize: number): Promise<number | 'busy'> {
    return this.locked(async (tx) => (await tx.query(DELETE_REFUSED_BATCH, [before, batchSize])).rowCount ?? 0);
  }

  /** Exactly one instance works on a batch at a time; the others skip this round. */
  private locked(work: (tx: Queryable) => Promise<number>): Promise<number | 'busy'> {
    return this.db.transaction(async (tx) => {
      const { rows } = await tx.query<{ locked: boolean }>(TRY_LOCK, [RETENTION_LOCK]);
      if (!rows[0]?.locked) return 'busy' as const;
      return work(tx);
    });
  }
}
