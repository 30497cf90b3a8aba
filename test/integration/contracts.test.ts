import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgBotRepository } from '../../src/adapters/persistence/pg-bot-repository.ts';
import { PgBotTokenRepository } from '../../src/adapters/persistence/pg-bot-token-repository.ts';
import { PgConversationRepository } from '../../src/adapters/persistence/pg-conversation-repository.ts';
import { PgEmbeddingCache } from '../../src/adapters/persistence/pg-embedding-cache.ts';
import { PgLeadRepository } from '../../src/adapters/persistence/pg-lead-repository.ts';
import { PgRefusedMessageRepository } from '../../src/adapters/persistence/pg-refused-message-repository.ts';
import { PgNotificationRepository } from '../../src/adapters/persistence/pg-notification-repository.ts';
import { PgRateLimiter } from '../../src/adapters/persistence/pg-rate-limiter.ts';
import { botTokenRepositoryContract } from '../contracts/bot-token-repository.contract.ts';
import { conversationRepositoryContract } from '../contracts/conversation-repository.contract.ts';
import { embeddingCacheContract } from '../contracts/embedding-cache.contract.ts';
import { leadRepositoryContract } from '../contracts/lead-repository.contract.ts';
import { refusedMessageRepositoryContract } from '../contracts/refused-message-repository.contract.ts';
import { notificationRepositoryContract } from '../contracts/notification-repository.contract.ts';
import { ownerKeyRepositoryContract } from '../contracts/owner-key-repository.contract.ts';
import { PgOwnerKeyRepository } from '../../src/adapters/persistence/pg-owner-key-repository.ts';
import { rateLimiterContract } from '../contracts/rate-limiter.contract.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => database?.drop());

// Every fixture gets fresh users and bots, so the tests share one database without seeing each other.
const insertUser = async (): Promise<string> => {
  const name = `user_${randomUUID().slice(0, 8)}`;
  const { rows } = await database.db.query<{ id: string }>(
    'INSERT INTO users (username, email, password_hash) VALUES ($1, $2, $3) RETURNING id',
    [name, `${name}@example.test`, 'not-a-real-hash'],
  );
  return rows[0]!.id;
};

const insertBot = async (userId?: string): Promise<string> => {
  const { rows } = await database.db.query<{ id: string }>(
    `INSERT INTO bots (user_id, name, personality, context_text, created_at, updated_at)
     VALUES ($1, 'Test bot', 'professional', 'Context', now(), now()) RETURNING id`,
    [userId ?? (await insertUser())],
  );
  return rows[0]!.id;
};

const insertConversation = async (botId: string): Promise<string> => {
  const { rows } = await database.db.query<{ id: string }>(
    `INSERT INTO conversations (bot_id, session_id, started_at, last_message_at)
     VALUES ($1, gen_random_uuid(), now(), now()) RETURNING id`,
    [botId],
  );
  return rows[0]!.id;
};

rateLimiterContract(async () => ({ subject: new PgRateLimiter(database.db) }));

botTokenRepositoryContract(async () => ({
  subject: new PgBotTokenRepository(database.db),
  botId: await insertBot(),
  otherBotId: await insertBot(),
  bots: new PgBotRepository(database.db),
}));

conversationRepositoryContract(async () => {
  const ownerId = await insertUser();
  return {
    subject: new PgConversationRepository(database.db),
    botId: await insertBot(ownerId),
    otherBotId: await insertBot(),
    ownerId,
    bots: new PgBotRepository(database.db),
    notifications: new PgNotificationRepository(database.db),
  };
});

leadRepositoryContract(async () => {
  const botId = await insertBot();
  return {
    subject: new PgLeadRepository(database.db),
    botId,
    otherBotId: await insertBot(),
    conversationIds: [await insertConversation(botId), await insertConversation(botId)],
  };
});

refusedMessageRepositoryContract(async () => ({
  subject: new PgRefusedMessageRepository(database.db),
  botId: await insertBot(),
  otherBotId: await insertBot(),
}));

notificationRepositoryContract(async () => ({
  subject: new PgNotificationRepository(database.db),
  userId: await insertUser(),
  otherUserId: await insertUser(),
}));

ownerKeyRepositoryContract(async () => ({
  subject: new PgOwnerKeyRepository(database.db),
  userId: await insertUser(),
  otherUserId: await insertUser(),
}));

embeddingCacheContract(async () => ({
  subject: new PgEmbeddingCache(database.db),
  botId: await insertBot(),
  otherBotId: await insertBot(),
}));

describe('PostgreSQL repositories inside transactions', () => {
  const NOW = new Date('2025-03-01T10:00:00.000Z');
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('gives concurrent first saves of one session one row and one created: true', async () => {
    const botId = await insertBot();
    const sessionId = randomUUID();
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        database.db.transaction((tx) => new PgConversationRepository(tx).startOrLock(botId, sessionId, NOW)),
      ),
    );
    expect(results.filter((result) => result.created)).toHaveLength(1);
    expect(new Set(results.map((result) => result.conversation.id)).size).toBe(1);
    const { rows } = await database.db.query('SELECT id FROM conversations WHERE bot_id = $1', [botId]);
    expect(rows).toHaveLength(1);
  });

  it('holds the conversation row until commit, so a second save sees the first one’s messages, in its tail too', async () => {
    const botId = await insertBot();
    const sessionId = randomUUID();
    const seeded = await new PgConversationRepository(database.db).startOrLock(botId, sessionId, NOW);
    const earlier = [{ role: 'user' as const, content: 'one' }, { role: 'assistant' as const, content: 'two' }];
    await new PgConversationRepository(database.db).append(seeded.conversation, earlier, NOW);

    let firstCommitted = false;
    let firstLocked!: () => void;
    const locked = new Promise<void>((resolve) => (firstLocked = resolve));
    const first = database.db.transaction(async (tx) => {
      const repository = new PgConversationRepository(tx);
      const { conversation } = await repository.startOrLock(botId, sessionId, NOW);
      firstLocked();
      await sleep(300);
      await repository.append(conversation, [{ role: 'user', content: 'first' }], NOW);
      firstCommitted = true;
    });
    await locked;
    // This statement starts before the first transaction commits and waits for its lock:
    // the tail must still include what the first one appended.
    const second = await database.db.transaction(async (tx) => {
      const { conversation, tail } = await new PgConversationRepository(tx).startOrLock(botId, sessionId, NOW, 2);
      return { conversation, tail, sawFirstCommitted: firstCommitted };
    });
    await first;
    expect(second.sawFirstCommitted).toBe(true);
    expect(second.conversation.messageCount).toBe(3);
    expect(second.tail).toEqual([earlier[1], { role: 'user', content: 'first' }]);
  });

  it('gives concurrent identical lead captures one row and one created: true', async () => {
    const botId = await insertBot();
    const conversationId = await insertConversation(botId);
    const lead = { botId, email: 'ada@example.com', conversationId, contextSummary: null };
    const results = await Promise.all(
      Array.from({ length: 8 }, () => database.db.transaction((tx) => new PgLeadRepository(tx).insertOrFind(lead, NOW))),
    );
    expect(results.filter((result) => result.created)).toHaveLength(1);
    expect(new Set(results.map((result) => result.lead.id)).size).toBe(1);
    const { rows } = await database.db.query('SELECT id FROM leads WHERE bot_id = $1', [botId]);
    expect(rows).toHaveLength(1);
  });
});
