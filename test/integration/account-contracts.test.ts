import { afterAll, beforeAll } from 'vitest';
import { PgBotRepository } from '../../src/adapters/persistence/pg-bot-repository.ts';
import { PgChatAdmission } from '../../src/adapters/persistence/pg-chat-admission.ts';
import { PgUserRepository } from '../../src/adapters/persistence/pg-user-repository.ts';
import { accountRepositoriesContract } from '../contracts/account-repositories.contract.ts';
import { chatAdmissionContract } from '../contracts/chat-admission.contract.ts';
import { signInThrottleContract } from '../contracts/sign-in-throttle.contract.ts';
import { PgSignInThrottle } from '../../src/adapters/persistence/pg-sign-in-throttle.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => database?.drop());

accountRepositoriesContract('PostgreSQL', async () => ({
  users: new PgUserRepository(database.db),
  bots: new PgBotRepository(database.db),
}));

chatAdmissionContract('PostgreSQL', async () => ({
  admission: new PgChatAdmission(database.db),
  users: new PgUserRepository(database.db),
  bots: new PgBotRepository(database.db),
}));

signInThrottleContract('PostgreSQL', async () => new PgSignInThrottle(database.db));
