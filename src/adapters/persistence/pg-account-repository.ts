import type { AccountCredentials, AccountRepository, AccountTokenPurpose, AccountTokenRepository } from '../../application/ports.ts';
import type { Queryable } from './db.ts';

const CREDENTIALS_OF = 'SELECT username, email, password_hash FROM users WHERE id = $1';
const SET_PASSWORD = 'UPDATE users SET password_hash = $2 WHERE id = $1';
const SET_EMAIL = 'UPDATE users SET email = $2 WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM users WHERE email = $2 AND id <> $1)';
const RETENTION_OF = 'SELECT conversation_retention_days AS days FROM users WHERE id = $1';
const SET_RETENTION = 'UPDATE users SET conversation_retention_days = $2 WHERE id = $1';

export class PgAccountRepository implements AccountRepository {
  constructor(private readonly q: Queryable) {}

  async credentialsOf(userId: string): Promise<AccountCredentials | null> {
    const { rows } = await this.q.query<{ username: string; email: string; password_hash: string }>(CREDENTIALS_OF, [userId]);
    const row = rows[0];
    return row ? { username: row.username, email: row.email, passwordHash: row.password_hash } : null;
  }

  async setPasswordHash(userId: string, passwordHash: string): Promise<void> {
    await this.q.query(SET_PASSWORD, [userId, passwordHash]);
  }

  async setEmail(userId: string, email: string): Promise<'ok' | 'duplicate'> {
    try {
      const { rowCount } = await this.q.query(SET_EMAIL, [userId, email]);
      return rowCount ? 'ok' : 'duplicate';
    } catch (error) {
      // Two changes to one address at once: the unique constraint refuses the second.
      if ((error as { code?: string }).code === '23505') return 'duplicate';
      throw error;
    }
  }

  async retentionDays(userId: string): Promise<number | null> {
    const { rows } = await this.q.query<{ days: number | null }>(RETENTION_OF, [userId]);
    return rows[0]?.days ?? null;
  }

  async setRetentionDays(userId: string, days: number | null): Promise<void> {
    await this.q.query(SET_RETENTION, [userId, days]);
  }
}

const INSERT_TOKEN = `
  INSERT INTO account_tokens (token_hash, user_id, purpose, new_email, created_at, expires_at)
  VALUES ($1, $2, $3, $4, $5, $6)`;
// One statement: of two concurrent uses, exactly one gets the row. Expired rows are never returned.
const SPEND_TOKEN = `
  DELETE FROM account_tokens WHERE token_hash = $1 AND purpose = $2
  RETURNING user_id, new_email, expires_at > $3 AS live`;
const DELETE_FOR_USER = 'DELETE FROM account_tokens WHERE user_id = $1 AND purpose = $2';

export class PgAccountTokenRepository implements AccountTokenRepository {
  constructor(private readonly q: Queryable) {}

  async create(
    token: { tokenHash: string; userId: string; purpose: AccountTokenPurpose; newEmail: string | null; expiresAt: Date },
    now: Date,
  ): Promise<void> {
    await this.q.query(INSERT_TOKEN, [token.tokenHash, token.userId, token.purpose, token.newEmail, now, token.expiresAt]);
  }

  async spend(tokenHash: string, purpose: AccountTokenPurpose, now: Date): Promise<{ userId: string; newEmail: string | null } | null> {
    const { rows } = await this.q.query<{ user_id: string; new_email: string | null; live: boolean }>(SPEND_TOKEN, [tokenHash, purpose, now]);
    const row = rows[0];
    return row?.live ? { userId: row.user_id, newEmail: row.new_email } : null;
  }

  async deleteForUser(userId: string, purpose: AccountTokenPurpose): Promise<void> {
    await this.q.query(DELETE_FOR_USER, [userId, purpose]);
  }
}
