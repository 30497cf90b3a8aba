import type { BotFields } from '../../src/application/ports.ts';
import { fixedClock } from '../fakes/clock.ts';
import { FakeEmbeddingGateway } from '../fakes/fake-embedding-gateway.ts';
import { FakeMailer } from '../fakes/fake-mailer.ts';
import { inMemoryRepositories } from '../fakes/in-memory-repositories.ts';

export const OWNER_EMAIL = 'ada@example.com';

/** In-memory repositories with one owner and their saved bot, for the runtime use cases. */
export const runtimeFixture = async (fields: Partial<BotFields> = {}) => {
  const repos = inMemoryRepositories();
  const clock = fixedClock();
  const limiter = repos.limits;
  const gateway = new FakeEmbeddingGateway();
  const mailer = new FakeMailer();
  const owner = await repos.users.create({ username: 'ada', email: OWNER_EMAIL, passwordHash: 'h' }, clock.now());
  if (owner === 'duplicate') throw new Error('unexpected duplicate');
  await repos.users.setLlmChoice(owner.id, 'openai', 'gpt-4o-mini');
  const saved = await repos.bots.upsertForUser(
    owner.id,
    {
      name: 'Ada Lovelace',
      headline: 'Analytical engine programmer',
      personality: 'professional',
      contextText: 'Ada wrote the first published algorithm.',
      suggestedQuestions: ['What did Ada build?'],
      ...fields,
    },
    ['Thinking…'],
    clock.now(),
  );
  /** The bot as it is stored now (settings may have changed since). */
  const currentBot = async () => (await repos.bots.findById(saved.bot.id))!;
  return { repos, clock, limiter, gateway, mailer, owner, bot: saved.bot, currentBot };
};

export type RuntimeFixture = Awaited<ReturnType<typeof runtimeFixture>>;
