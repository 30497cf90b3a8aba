import type { SignInThrottle } from '../../application/ports.ts';
import type { Queryable } from './db.ts';

const SIGN_IN_WINDOW_MS = 15 * 60_000;

const windowStart = (now: Date) => new Date(Math.floor(now.getTime() / SIGN_IN_WINDOW_MS) * SIGN_IN_WINDOW_MS);

/** One more attempt on each key, atomically; past windows of any key are dropped on the way. */
const BEGIN = `
  WITH expired AS (DELETE FROM sign_in_failures WHERE window_start < $2)
  INSERT INTO sign_in_failures AS f (key, window_start, count)
  SELECT key, $2, 1 FROM unnest($1::text[]) AS key
  ON CONFLICT (key, window_start) DO UPDATE SET count = f.count + 1
  RETURNING key, count`;

const FORGIVE = `
  UPDATE sign_in_failures SET count = count - 1
  WHERE key = ANY($1) AND window_start = $2 AND count > 0`;

export class PgSignInThrottle implements SignInThrottle {
  constructor(private readonly q: Queryable) {}

  async begin(keys: string[], now: Date) {
    const start = windowStart(now);
    const { rows } = await this.q.query<{ key: string; count: number }>(BEGIN, [keys, start]);
    const resetAt = start.getTime() + SIGN_IN_WINDOW_MS;
    return new Map(rows.map((row) => [row.key, { count: row.count, resetAt }]));
  }

  async forgive(keys: string[], now: Date): Promise<void> {
    await this.q.query(FORGIVE, [keys, windowStart(now)]);
  }
}
