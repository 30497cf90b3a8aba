import { randomUUID } from 'node:crypto';
import { botTokenRepositoryContract } from '../contracts/bot-token-repository.contract.ts';
import { conversationRepositoryContract } from '../contracts/conversation-repository.contract.ts';
import { embeddingCacheContract } from '../contracts/embedding-cache.contract.ts';
import { leadRepositoryContract } from '../contracts/lead-repository.contract.ts';
import { notificationRepositoryContract } from '../contracts/notification-repository.contract.ts';
import { rateLimiterContract } from '../contracts/rate-limiter.contract.ts';
import { InMemoryBotTokenRepository } from '../fakes/in-memory-bot-token-repository.ts';
import { InMemoryConversationRepository } from '../fakes/in-memory-conversation-repository.ts';
import { InMemoryEmbeddingCache } from '../fakes/in-memory-embedding-cache.ts';
import { InMemoryLeadRepository } from '../fakes/in-memory-lead-repository.ts';
import { InMemoryNotificationRepository } from '../fakes/in-memory-notification-repository.ts';
import { InMemoryRateLimiter } from '../fakes/in-memory-rate-limiter.ts';

// The fakes have no foreign keys: any ids will do as fixtures.

rateLimiterContract(async () => ({ subject: new InMemoryRateLimiter() }));

botTokenRepositoryContract(async () => ({
  subject: new InMemoryBotTokenRepository(),
  botId: randomUUID(),
  otherBotId: randomUUID(),
}));

conversationRepositoryContract(async () => ({
  subject: new InMemoryConversationRepository(),
  botId: randomUUID(),
  otherBotId: randomUUID(),
}));

leadRepositoryContract(async () => ({
  subject: new InMemoryLeadRepository(),
  botId: randomUUID(),
  otherBotId: randomUUID(),
  conversationIds: [randomUUID(), randomUUID()],
}));

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
