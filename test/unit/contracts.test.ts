import { randomUUID } from 'node:crypto';
import { botTokenRepositoryContract } from '../contracts/bot-token-repository.contract.ts';
import { conversationRepositoryContract } from '../contracts/conversation-repository.contract.ts';
import { embeddingCacheContract } from '../contracts/embedding-cache.contract.ts';
import { leadRepositoryContract } from '../contracts/lead-repository.contract.ts';
import { refusedMessageRepositoryContract } from '../contracts/refused-message-repository.contract.ts';
import { notificationRepositoryContract } from '../contracts/notification-repository.contract.ts';
import { ownerKeyRepositoryContract } from '../contracts/owner-key-repository.contract.ts';
import { InMemoryOwnerKeyRepository } from '../fakes/in-memory-owner-key-repository.ts';
import { rateLimiterContract } from '../contracts/rate-limiter.contract.ts';
import { InMemoryEmbeddingCache } from '../fakes/in-memory-embedding-cache.ts';
import { InMemoryLeadRepository } from '../fakes/in-memory-lead-repository.ts';
import { InMemoryRefusedMessageRepository } from '../fakes/in-memory-refused-message-repository.ts';
import { InMemoryNotificationRepository } from '../fakes/in-memory-notification-repository.ts';
import { InMemoryRateLimiter } from '../fakes/in-memory-rate-limiter.ts';
import { inMemoryRepositories } from '../fakes/in-memory-repositories.ts';

// The fakes have no foreign keys: any ids will do as fixtures, except where a fake reads
// another one (tokens and conversations read their bot): those get real bots.

/** Wired fakes with two owners and a bot each. */
const fakesWithTwoBots = async () => {
  const repos = inMemoryRepositories();
  const now = new Date('2025-03-01T09:00:00.000Z');
  const ownerWithBot = async (username: string) => {
    const owner = await repos.users.create({ username, email: `${username}@example.com`, passwordHash: 'h' }, now);
    if (owner === 'duplicate') throw new Error('unexpected duplicate');
    const fields = { name: 'Test bot', headline: null, personality: 'professional' as const, contextText: 'Context', suggestedQuestions: [] };
    const { bot } = await repos.bots.upsertForUser(owner.id, fields, [], now);
    return { ownerId: owner.id, botId: bot.id };
  };
  const [first, second] = [await ownerWithBot('ada'), await ownerWithBot('bob')];
  return { repos, ownerId: first.ownerId, botId: first.botId, otherBotId: second.botId };
};

rateLimiterContract(async () => ({ subject: new InMemoryRateLimiter() }));

botTokenRepositoryContract(async () => {
  const { repos, botId, otherBotId } = await fakesWithTwoBots();
  return { subject: repos.tokens, botId, otherBotId, bots: repos.bots };
});

conversationRepositoryContract(async () => {
  const { repos, ownerId, botId, otherBotId } = await fakesWithTwoBots();
  return { subject: repos.conversations, botId, otherBotId, ownerId, bots: repos.bots, notifications: repos.notifications };
});

leadRepositoryContract(async () => ({
  subject: new InMemoryLeadRepository(),
  botId: randomUUID(),
  otherBotId: randomUUID(),
  conversationIds: [randomUUID(), randomUUID()],
}));

refusedMessageRepositoryContract(async () => {
  const { repos, botId, otherBotId } = await fakesWithTwoBots();
  return { subject: new InMemoryRefusedMessageRepository(repos.bots), botId, otherBotId };
});

notificationRepositoryContract(async () => ({
  subject: new InMemoryNotificationRepository(),
  userId: randomUUID(),
  otherUserId: randomUUID(),
}));

embeddingCacheContract(async () => ({
  subject: new InMemoryEmbeddingCache(),
  botId: randomUUID(),
  otherBotId: randomUUID(),
}));

ownerKeyRepositoryContract(async () => ({ subject: new InMemoryOwnerKeyRepository(), userId: randomUUID(), otherUserId: randomUUID() }));
