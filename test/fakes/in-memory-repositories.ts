import type { Repositories, Transactor } from '../../src/application/ports.ts';
import { InMemoryBotRepository } from './in-memory-bot-repository.ts';
import { InMemoryBotTokenRepository } from './in-memory-bot-token-repository.ts';
import { InMemoryConversationRepository } from './in-memory-conversation-repository.ts';
import { InMemoryEmbeddingCache } from './in-memory-embedding-cache.ts';
import { InMemoryLeadRepository } from './in-memory-lead-repository.ts';
import { InMemoryNotificationRepository } from './in-memory-notification-repository.ts';
import { InMemoryRateLimiter } from './in-memory-rate-limiter.ts';
import { InMemoryUserRepository } from './in-memory-user-repository.ts';

/** Every repository fake, wired like the database would be, plus a transactor over them. */
export const inMemoryRepositories = () => {
  const users = new InMemoryUserRepository();
  const leads = new InMemoryLeadRepository();
  const bots = new InMemoryBotRepository(users);
  bots.countLeads = async (botId) => (await leads.all(botId)).length;
  const notifications = new InMemoryNotificationRepository();
  const repos = {
    users,
    bots,
    tokens: new InMemoryBotTokenRepository(bots),
    conversations: new InMemoryConversationRepository({ bots, notifications }),
    leads,
    notifications,
    embeddings: new InMemoryEmbeddingCache(),
  } satisfies Repositories;
  /** No isolation or rollback: unit tests run one use case at a time. */
  const transactor: Transactor = { transaction: (work) => work(repos) };
  return { ...repos, repos, transactor, limits: new InMemoryRateLimiter() };
};
