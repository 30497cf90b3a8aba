import type { NewUser, UserRepository } from '../../application/ports.ts';
import { isUuid } from '../../domain/pagination.ts';
import type { LlmProvider, User, UserCredentials } from '../../domain/types.ts';
import type { Queryable } from './db.ts';

interface UserRow {
  id: string;
  username: string;
  email: string;
  llm_provider: LlmProvider | null;
  llm_model: string | null;
  notify_leads_email: boolean;
  created_at: Date;
}

export const USER_COLUMNS = 'id, username, email, llm_provider, llm_model, notify_leads_email, created_at';

export const rowToUser = (row: UserRow): User => ({
  id: row.id,
  username: row.username,
  email: row.email,
  llmProvider: row.llm_provider,
  llmModel: row.llm_model,
  notifyLeadsEmail: row.notify_leads_email,
  createdAt: row.created_at,
});

const EMAIL_EXISTS = 'SELECT 1 FROM users WHERE email = $1';
const USERNAME_EXISTS = 'SELECT 1 FROM users WHERE username = $1';
const INSERT_USER = `
  INSERT INTO users (username, email, password_hash, created_at) VALUES ($1, $2, $3, $4)
  ON CONFLICT DO NOTHING
  RETURNING ${USER_COLUMNS}`;
const FIND_BY_ID = `SELECT ${USER_COLUMNS} FROM users WHERE id = $1`;
const FIND_CREDENTIALS = 'SELECT id, username, email, password_hash FROM users WHERE email = $1 OR username = $1 LIMIT 1';
const SET_LLM_CHOICE = 'UPDATE users SET llm_provider = $2, llm_model = $3 WHERE id = $1';
const SET_NOTIFY = `UPDATE users SET notify_leads_email = $2 WHERE id = $1 RETURNING ${USER_COLUMNS}`;

export class PgUserRepository implements UserRepository {
  constructor(private readonly q: Queryable) {}

  async emailExists(email: string): Promise<boolean> {
    return (await this.q.query(EMAIL_EXISTS, [email])).rowCount! > 0;
  }

  async usernameExists(username: string): Promise<boolean> {
    return (await this.q.query(USERNAME_EXISTS, [username])).rowCount! > 0;
  }

  async create(user: NewUser, now: Date): Promise<User | 'duplicate'> {
    // ON CONFLICT DO NOTHING: a registration racing past the pre-check gets no row, not an error.
    const { rows } = await this.q.query<UserRow>(INSERT_USER, [user.username, user.email, user.passwordHash, now]);
    return rows[0] ? rowToUser(rows[0]) : 'duplicate';
  }

  async findById(id: string): Promise<User | null> {
    if (!isUuid(id)) return null;
    const { rows } = await this.q.query<UserRow>(FIND_BY_ID, [id]);
    return rows[0] ? rowToUser(rows[0]) : null;
  }

  async findCredentials(emailOrUsername: string): Promise<UserCredentials | null> {
    const { rows } = await this.q.query<{ id: string; username: string; email: string; password_hash: string }>(
      FIND_CREDENTIALS,
      [emailOrUsername],
    );
    const row = rows[0];
    return row ? { id: row.id, username: row.username, email: row.email, passwordHash: row.password_hash } : null;
  }

  async setLlmChoice(userId: string, provider: LlmProvider, model: string): Promise<void> {
    await this.q.query(SET_LLM_CHOICE, [userId, provider, model]);
  }

  async setNotifyLeadsEmail(userId: string, value: boolean): Promise<User | null> {
    const { rows } = await this.q.query<UserRow>(SET_NOTIFY, [userId, value]);
    return rows[0] ? rowToUser(rows[0]) : null;
  }
}
