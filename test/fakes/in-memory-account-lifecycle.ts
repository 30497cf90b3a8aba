import type { AccountCredentials, AccountRepository, AccountTokenPurpose, AccountTokenRepository, OwnerSession, SessionDirectory } from '../../src/application/ports.ts';
import type { InMemoryUserRepository } from './in-memory-user-repository.ts';

/** The account rows, over the users of an InMemoryUserRepository. */
export class InMemoryAccountRepository implements AccountRepository {
  readonly retention = new Map<string, number | null>();

  constructor(private readonly users: InMemoryUserRepository) {}

  async credentialsOf(userId: string): Promise<AccountCredentials | null> {
    const row = this.users.rows.get(userId);
    return row ? { username: row.username, email: row.email, passwordHash: row.passwordHash } : null;
  }

  async setPasswordHash(userId: string, passwordHash: string) {
    const row = this.users.rows.get(userId);
    if (row) row.passwordHash = passwordHash;
  }

  async setEmail(userId: string, email: string): Promise<'ok' | 'duplicate'> {
    if ([...this.users.rows.values()].some((row) => row.email === email && row.id !== userId)) return 'duplicate';
    const row = this.users.rows.get(userId);
    if (row) row.email = email;
    return 'ok';
  }

  async retentionDays(userId: string) {
    return this.retention.get(userId) ?? null;
  }

  async setRetentionDays(userId: string, days: number | null) {
    this.retention.set(userId, days);
  }
}

interface StoredLink {
  userId: string;
  purpose: AccountTokenPurpose;
  newEmail: string | null;
  expiresAt: Date;
}

export class InMemoryAccountTokenRepository implements AccountTokenRepository {
  readonly rows = new Map<string, StoredLink>();

  async create(token: StoredLink & { tokenHash: string }) {
    this.rows.set(token.tokenHash, { userId: token.userId, purpose: token.purpose, newEmail: token.newEmail, expiresAt: token.expiresAt });
  }

  async spend(tokenHash: string, purpose: AccountTokenPurpose, now: Date) {
    const row = this.rows.get(tokenHash);
    if (!row || row.purpose !== purpose) return null;
    this.rows.delete(tokenHash);
    return row.expiresAt > now ? { userId: row.userId, newEmail: row.newEmail } : null;
  }

  async deleteForUser(userId: string, purpose: AccountTokenPurpose) {
    for (const [hash, row] of this.rows) if (row.userId === userId && row.purpose === purpose) this.rows.delete(hash);
  }
}

/** Sessions by their cookie id; the listed id is the cookie id reversed (never the cookie itself in a real store). */
export class InMemorySessionDirectory implements SessionDirectory {
  readonly sessions = new Map<string, { userId: string; userAgent: string | null }>();

  add(sid: string, userId: string, userAgent: string | null = null) {
    this.sessions.set(sid, { userId, userAgent });
  }

  private listedId = (sid: string) => [...sid].reverse().join('');

  async list(userId: string, currentSid: string | null): Promise<OwnerSession[]> {
    return [...this.sessions]
      .filter(([, s]) => s.userId === userId)
      .map(([sid, s]) => ({ id: this.listedId(sid), current: sid === currentSid, createdAt: null, lastSeenAt: new Date(0), userAgent: s.userAgent, address: null }));
  }

  async revoke(userId: string, sessionId: string) {
    const sid = [...this.sessions.keys()].find((key) => this.listedId(key) === sessionId && this.sessions.get(key)!.userId === userId);
    return sid ? this.sessions.delete(sid) : false;
  }

  async revokeAllExcept(userId: string, keepSid: string | null) {
    let count = 0;
    for (const [sid, s] of this.sessions) if (s.userId === userId && sid !== keepSid && this.sessions.delete(sid)) count++;
    return count;
  }
}
