import { afterAll, beforeAll } from 'vitest';
import { PgAccountRepository, PgAccountTokenRepository } from '../../src/adapters/persistence/pg-account-repository.ts';
import { storedSessionKey } from '../../src/adapters/persistence/pg-session-store.ts';
import { PgSessionDirectory } from '../../src/adapters/persistence/pg-session-directory.ts';
import { PgUserRepository } from '../../src/adapters/persistence/pg-user-repository.ts';
import { accountLifecycleContract } from '../contracts/account-lifecycle.contract.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => database?.drop());

accountLifecycleContract('PostgreSQL', async () => ({
  users: new PgUserRepository(database.db),
  accounts: new PgAccountRepository(database.db),
  links: new PgAccountTokenRepository(database.db),
  sessions: new PgSessionDirectory(database.db, 30 * 24 * 60 * 60 * 1000),
  // The row connect-pg-simple writes, keyed as our store keys it.
  addSession: async (sid, userId) => {
    await database.db.query("INSERT INTO session (sid, sess, expire) VALUES ($1, $2, now() + interval '1 day')", [
      storedSessionKey(sid),
      JSON.stringify({ cookie: {}, userId, userAgent: 'curl/8.0', address: '127.0.0.1', signedInAt: new Date().toISOString() }),
    ]);
  },
}));
