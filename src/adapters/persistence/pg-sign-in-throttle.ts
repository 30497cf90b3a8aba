import type { SignInThrottle } from '../../application/ports.ts';
import type { Queryable } from './db.ts';

export const SIGN_IN_WINDOW_MS = 15 * 60_000;

const windowStart = (now: Date) => new Date(Math.floor(now.getTime() / SIGN_IN_WINDOW_MS) * SIGN_IN_WINDOW_MS);

const COUNT_FAILURES = 'SELECT key, count FROM sign_in_failures WHERE key = ANY($1) AND window_start = $2';
const RECORD_FAILURE = `
  INSERT INTO sign_in_failures AS f (key, window_start, count)
  SELECT key, $2, 1 FROM unnest($1::text[]) AS key
  ON CONFLICT (key, window_start) DO UPDATE SET count = f.count + 1`;
const FORGET_OLD_WINDOWS = 'DELETE FROM sign_in_failures WHERE key = ANY($1) AND window_start < $2';

export class PgSignInThrottle implements SignInThrottle {
  constructor(private readonly q: Queryable) {}

  async failures(keys: string[], now: Date) {
    const start = windowStart(now);
    const { rows } = await this.q.query<{ key: string; count: number }>(COUNT_FAILURES, [keys, start]);
    const resetAt = start.getTime() + SIGN_IN_WINDOW_MS;
    return new Map(rows.map((row) => [row.key, { count: row.count, resetAt }]));
  }

  async recordFailure(keys: string[], now: Date): Promise<void> {
    const start = windowStart(now);
    await this.q.query(RECORD_FAILURE, [keys, start]);
    await this.q.query(FORGET_OLD_WINDOWS, [keys, start]);
  }
}
