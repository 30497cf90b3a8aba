import { describe, expect, it } from 'vitest';
import { makeListRefusedMessages } from '../../src/application/owner-lists.ts';
import { decodeCursor } from '../../src/domain/pagination.ts';
import { fixedClock } from '../fakes/clock.ts';
import { inMemoryRepositories } from '../fakes/in-memory-repositories.ts';
import { InMemoryRefusedMessageRepository } from '../fakes/in-memory-refused-message-repository.ts';

const fields = { name: 'Ada', headline: null, personality: 'professional' as const, contextText: 'Ada builds engines.', suggestedQuestions: [] };

const setup = async () => {
  const repos = inMemoryRepositories();
  const clock = fixedClock();
  const refused = new InMemoryRefusedMessageRepository(repos.bots);
  const owner = async (username: string) => {
    const user = await repos.users.create({ username, email: `${username}@example.com`, passwordHash: 'h' }, clock.now());
    if (user === 'duplicate') throw new Error('unexpected');
    return user.id;
  };
  return { repos, clock, refused, owner, list: makeListRefusedMessages({ bots: repos.bots, refused }) };
};

describe('ListRefusedMessages: the owner reads what the filter refused', () => {
  it('answers bot_not_found before the first save', async () => {
    const s = await setup();
    expect(await s.list(await s.owner('ada'), { limit: 20, cursor: null })).toEqual({ ok: false, error: { type: 'bot_not_found' } });
  });

  it('lists only the owner’s bot’s messages, newest first, a page at a time', async () => {
    const s = await setup();
    const ada = await s.owner('ada');
    const bob = await s.owner('bob');
    const { bot } = await s.repos.bots.upsertForUser(ada, fields, [], s.clock.now());
    const other = (await s.repos.bots.upsertForUser(bob, { ...fields, name: 'Bob' }, [], s.clock.now())).bot;
    for (let i = 0; i < 5; i++) {
      await s.refused.add({ botId: bot.id, reason: 'prompt_injection', content: `message ${i}` }, s.clock.now());
      s.clock.advance(1000);
    }
    await s.refused.add({ botId: other.id, reason: 'jailbreak', content: 'Bob’s refused message' }, s.clock.now());

    const first = await s.list(ada, { limit: 3, cursor: null });
    if (!first.ok) throw new Error('expected a page');
    expect(first.value.items.map((m) => m.content)).toEqual(['message 4', 'message 3', 'message 2']);
    expect(first.value.items[0]).toMatchObject({ reason: 'prompt_injection', botId: bot.id });
    const second = await s.list(ada, { limit: 3, cursor: decodeCursor(first.value.nextCursor!) });
    expect(second.ok && second.value.items.map((m) => m.content)).toEqual(['message 1', 'message 0']);
    expect(second.ok && second.value.nextCursor).toBeNull();

    const bobs = await s.list(bob, { limit: 20, cursor: null });
    expect(bobs.ok && bobs.value.items.map((m) => m.content)).toEqual(['Bob’s refused message']);
  });
});
