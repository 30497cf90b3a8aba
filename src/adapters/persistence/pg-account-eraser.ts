import type { AccountEraser } from '../../application/ports.ts';
import type { Db } from './db.ts';

const LOCK_ACCOUNT = `
  SELECT u.username, u.email, b.id AS bot_id
  FROM users u LEFT JOIN bots b ON b.user_id = u.id
  WHERE u.id = $1 FOR UPDATE OF u`;
const DELETE_SESSIONS = "DELETE FROM session WHERE sess ->> 'userId' = $1";
// Throttle keys name an account by its id (`account:user:<id>|<address>`) or, for names that
// matched no account when counted, by the e-mail or username typed (`account-any:<name>`).
const DELETE_THROTTLE_ROWS = `
  DELETE FROM sign_in_failures
  WHERE position($1 in key) > 0
     OR split_part(substr(key, position(':' in key) + 1), '|', 1) IN ($2, $3)`;
const DELETE_RATE_LIMIT_ROWS = 'DELETE FROM rate_limit_buckets WHERE position($1 in bucket) > 0';
// The bot, its tokens, conversations, messages, leads, embeddings, the notifications and the
// account's links follow by ON DELETE CASCADE, as will any table that references users or bots.
const DELETE_USER = 'DELETE FROM users WHERE id = $1';

/** The whole account in one transaction: when it commits, no row names the account or its bot. */
export class PgAccountEraser implements AccountEraser {
  constructor(private readonly db: Db) {}

  erase(userId: string): Promise<{ botId: string | null }> {
    return this.db.transaction(async (tx) => {
      const { rows } = await tx.query<{ username: string; email: string; bot_id: string | null }>(LOCK_ACCOUNT, [userId]);
      const account = rows[0];
      if (!account) return { botId: null };
      await tx.query(DELETE_SESSIONS, [userId]);
      await tx.query(DELETE_THROTTLE_ROWS, [userId, account.email, account.username]);
      if (account.bot_id) await tx.query(DELETE_RATE_LIMIT_ROWS, [account.bot_id]);
      await tx.query(DELETE_USER, [userId]);
      return { botId: account.bot_id };
    });
  }
}
