import { randomUUID } from 'node:crypto';
import type { NewUser, UserRepository } from '../../src/application/ports.ts';
import type { LlmProvider, User } from '../../src/domain/types.ts';

export class InMemoryUserRepository implements UserRepository {
  readonly rows = new Map<string, User & { passwordHash: string }>();

  private find(predicate: (user: User) => boolean) {
    return [...this.rows.values()].find(predicate) ?? null;
  }

  async emailExists(email: string) {
    return this.find((user) => user.email === email) !== null;
  }

  async usernameExists(username: string) {
    return this.find((user) => user.username === username) !== null;
  }

  async create(user: NewUser, now: Date): Promise<User | 'duplicate'> {
    // The unique constraints, checked on the rows themselves.
    if (this.find((row) => row.email === user.email || row.username === user.username)) return 'duplicate';
    const row = {
      id: randomUUID(),
      username: user.username,
      email: user.email,
      passwordHash: user.passwordHash,
      llmProvider: null,
      llmModel: null,
      notifyLeadsEmail: false,
      createdAt: now,
    };
    this.rows.set(row.id, row);
    const { passwordHash: _hidden, ...created } = row;
    return created;
  }

  async findById(id: string) {
    const row = this.rows.get(id);
    if (!row) return null;
    const { passwordHash: _hidden, ...user } = row;
    return user;
  }

  async findCredentials(emailOrUsername: string) {
    const row = [...this.rows.values()].find((user) => user.email === emailOrUsername || user.username === emailOrUsername);
    return row ? { id: row.id, username: row.username, email: row.email, passwordHash: row.passwordHash } : null;
  }

  async setLlmChoice(userId: string, provider: LlmProvider, model: string) {
    const row = this.rows.get(userId);
    if (row) Object.assign(row, { llmProvider: provider, llmModel: model });
  }

  async setNotifyLeadsEmail(userId: string, value: boolean) {
    const row = this.rows.get(userId);
    if (!row) return null;
    row.notifyLeadsEmail = value;
    return this.findById(userId);
  }
}
