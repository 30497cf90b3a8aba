import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { makeSaveConversation, MAX_CONVERSATION_MESSAGES } from '../../src/application/save-conversation.ts';
import type { ChatMessage } from '../../src/domain/types.ts';
import { runtimeFixture } from '../support/runtime-fixture.ts';

const u = (content: string): ChatMessage => ({ role: 'user', content });
const a = (content: string): ChatMessage => ({ role: 'assistant', content });

const setup = async () => {
  const f = await runtimeFixture();
  const save = makeSaveConversation({ limiter: f.limiter, conversations: f.repos.conversations, transactor: f.repos.transactor, clock: f.clock });
  const stored = async (conversationId: string) =>
    (await f.repos.conversations.get(f.bot.id, conversationId))!.messages.map(({ role, content }) => ({ role, content }));
  const notifications = async () => (await f.repos.notifications.list(f.owner.id, { limit: 100, cursor: null }, false)).items;
  return { ...f, save, stored, notifications };
};

describe('SaveConversation', () => {
  it('starts a conversation on the first save, with one conversation_started notification and the counters', async () => {
    const f = await setup();
    const sessionId = randomUUID();
    const result = await f.save({ bot: f.bot, sessionId, messages: [u('Hi'), a('Hello!')] });
    if (!result.ok) throw new Error('save failed');
    expect(result.value).toEqual({ conversationId: expect.any(String), created: true, appended: 2 });
    expect(await f.stored(result.value.conversationId)).toEqual([u('Hi'), a('Hello!')]);
    expect((await f.notifications()).map((n) => [n.kind, n.payload])).toEqual([
      ['conversation_started', { botId: f.bot.id, conversationId: result.value.conversationId, sessionId }],
    ]);
    expect(await f.repos.bots.stats(f.bot.id)).toMatchObject({ totalConversations: 1, totalMessages: 2 });
  });

  it('coalesces later saves of the session: the whole history resent, then a retry, add each message once', async () => {
    const f = await setup();
    const sessionId = randomUUID();
    const first = await f.save({ bot: f.bot, sessionId, messages: [u('Hi'), a('Hello!')] });
    const history = [u('Hi'), a('Hello!'), u('Rust?'), a('Daily.')];
    const second = await f.save({ bot: f.bot, sessionId, messages: history });
    const retry = await f.save({ bot: f.bot, sessionId, messages: history });
    const conversationId = first.ok ? first.value.conversationId : '';
    expect(second).toEqual({ ok: true, value: { conversationId, created: false, appended: 2 } });
    expect(retry).toEqual({ ok: true, value: { conversationId, created: false, appended: 0 } });
    expect(await f.stored(conversationId)).toEqual(history);
    expect(await f.notifications()).toHaveLength(1);
    expect(await f.repos.bots.stats(f.bot.id)).toMatchObject({ totalConversations: 1, totalMessages: 4 });
  });

  it('keeps sessions apart', async () => {
    const f = await setup();
    const one = await f.save({ bot: f.bot, sessionId: randomUUID(), messages: [u('Hi')] });
    const two = await f.save({ bot: f.bot, sessionId: randomUUID(), messages: [u('Hi')] });
    expect(one.ok && two.ok && one.value.conversationId !== two.value.conversationId).toBe(true);
    expect(await f.repos.bots.stats(f.bot.id)).toMatchObject({ totalConversations: 2, totalMessages: 2 });
    expect(await f.notifications()).toHaveLength(2);
  });

  it(`refuses, whole, a save that would pass ${MAX_CONVERSATION_MESSAGES} messages`, async () => {
    const f = await setup();
    const sessionId = randomUUID();
    let conversationId = '';
    for (let batch = 0; batch < 10; batch += 1) {
      const messages = Array.from({ length: 200 }, (_, i) => u(`message ${batch * 200 + i}`));
      const saved = await f.save({ bot: f.bot, sessionId, messages });
      if (!saved.ok) throw new Error(`batch ${batch} refused`);
      conversationId = saved.value.conversationId;
      f.clock.advance(60_000);
    }
    const resent = await f.save({ bot: f.bot, sessionId, messages: [u('message 1999')] });
    expect(resent).toEqual({ ok: true, value: { conversationId, created: false, appended: 0 } });
    f.clock.advance(60_000);
    expect(await f.save({ bot: f.bot, sessionId, messages: [u('message 1999'), u('one more')] })).toEqual({
      ok: false,
      error: { type: 'conversation_full' },
    });
    expect(await f.stored(conversationId)).toHaveLength(MAX_CONVERSATION_MESSAGES);
    expect(await f.repos.bots.stats(f.bot.id)).toMatchObject({ totalMessages: MAX_CONVERSATION_MESSAGES });
  });

  it('answers bot_not_found for an inactive bot before spending any budget', async () => {
    const f = await setup();
    await f.repos.bots.updateSettings(f.bot.id, { isActive: false, rateLimits: { perMinute: 1 } }, f.clock.now());
    const inactive = await f.currentBot();
    expect(await f.save({ bot: inactive, sessionId: randomUUID(), messages: [u('Hi')] })).toEqual({
      ok: false,
      error: { type: 'bot_not_found' },
    });
    await f.repos.bots.updateSettings(f.bot.id, { isActive: true }, f.clock.now());
    expect((await f.save({ bot: await f.currentBot(), sessionId: randomUUID(), messages: [u('Hi')] })).ok).toBe(true);
  });

  it('applies the owner’s limits in a bucket of its own, refusing without saving', async () => {
    const f = await setup();
    await f.repos.bots.updateSettings(f.bot.id, { rateLimits: { perMinute: 2 } }, f.clock.now());
    const bot = await f.currentBot();
    expect(await f.limiter.consume(`chat:${bot.id}`, { perMinute: 2, perDay: 50 }, f.clock.now())).toEqual({ allowed: true });
    expect((await f.save({ bot, sessionId: randomUUID(), messages: [u('one')] })).ok).toBe(true);
    expect((await f.save({ bot, sessionId: randomUUID(), messages: [u('two')] })).ok).toBe(true);
    expect(await f.save({ bot, sessionId: randomUUID(), messages: [u('three')] })).toEqual({
      ok: false,
      error: { type: 'rate_limited', scope: 'short', resetAt: Date.parse('2026-11-21T10:01:00.000Z') },
    });
    expect(await f.repos.bots.stats(bot.id)).toMatchObject({ totalConversations: 2, totalMessages: 2 });
  });

  it('uses the default 10 a minute and 50 a day', async () => {
    const f = await setup();
    const outcomes = [];
    for (let i = 0; i < 11; i += 1) outcomes.push((await f.save({ bot: f.bot, sessionId: randomUUID(), messages: [u('q')] })).ok);
    expect(outcomes.filter(Boolean)).toHaveLength(10);
    for (let minute = 1; minute <= 5; minute += 1) {
      f.clock.advance(60_000);
      for (let i = 0; i < 10; i += 1) await f.save({ bot: f.bot, sessionId: randomUUID(), messages: [u('q')] });
    }
    expect(await f.repos.bots.stats(f.bot.id)).toMatchObject({ totalConversations: 50 });
    expect(await f.save({ bot: f.bot, sessionId: randomUUID(), messages: [u('q')] })).toMatchObject({
      ok: false,
      error: { type: 'rate_limited', scope: 'long' },
    });
  });
});
