import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { BotRepository, ConversationRepository, NotificationRepository } from '../../src/application/ports.ts';
import type { ChatMessage } from '../../src/domain/types.ts';
import { keysetPaginationContract } from './keyset-pagination.contract.ts';

export interface ConversationRepositoryFixture {
  subject: ConversationRepository;
  /** Two bots with no conversations yet; `ownerId` owns the first. */
  botId: string;
  otherBotId: string;
  ownerId: string;
  /** The same store's bots and notifications, where a save's totals and notification show. */
  bots: BotRepository;
  notifications: NotificationRepository;
}

const NOW = new Date('2025-03-01T10:00:00.000Z');
const later = (ms: number) => new Date(NOW.getTime() + ms);

const user = (content: string): ChatMessage => ({ role: 'user', content });
/** The effects SaveConversation names: count the messages (and the conversation when it started), notify when it started. */
const saveEffects = (fixture: { botId: string; ownerId: string }, conversation: { id: string; sessionId: string }, started: boolean, messages: number) => ({
  botTotals: { conversations: started ? 1 : 0, messages },
  notify: started
    ? { userId: fixture.ownerId, kind: 'conversation_started' as const, payload: { botId: fixture.botId, conversationId: conversation.id, sessionId: conversation.sessionId } }
    : null,
});
const assistant = (content: string): ChatMessage => ({ role: 'assistant', content });

export const conversationRepositoryContract = (makeSubject: () => Promise<ConversationRepositoryFixture>) => {
  describe('ConversationRepository contract', () => {
    it('starts a conversation once per (bot, session) and finds it again afterwards', async () => {
      const { subject, botId, otherBotId } = await makeSubject();
      const sessionId = randomUUID();
      const first = await subject.startOrLock(botId, sessionId, NOW);
      expect(first).toEqual({
        created: true,
        conversation: { id: expect.any(String), botId, sessionId, messageCount: 0, startedAt: NOW, lastMessageAt: NOW },
        tail: [],
      });
      const again = await subject.startOrLock(botId, sessionId, later(5000), 10);
      expect(again).toEqual({ created: false, conversation: first.conversation, tail: [] });
      const elsewhere = await subject.startOrLock(otherBotId, sessionId, NOW);
      expect(elsewhere.created).toBe(true);
      expect(elsewhere.conversation.id).not.toBe(first.conversation.id);
    });

    it('gives one conversation and one created: true to concurrent first saves of a session', async () => {
      const { subject, botId } = await makeSubject();
      const sessionId = randomUUID();
      const results = await Promise.all(Array.from({ length: 10 }, () => subject.startOrLock(botId, sessionId, NOW)));
      expect(results.filter((result) => result.created)).toHaveLength(1);
      expect(new Set(results.map((result) => result.conversation.id)).size).toBe(1);
      expect((await subject.list(botId, { limit: 100, cursor: null })).items).toHaveLength(1);
    });

    it('appends messages after the stored ones and returns the updated conversation', async () => {
      const { subject, botId } = await makeSubject();
      const { conversation } = await subject.startOrLock(botId, randomUUID(), NOW);
      const afterFirst = await subject.append(conversation, [user('Hi'), assistant('Hello!')], later(1000));
      expect(afterFirst).toEqual({ ...conversation, messageCount: 2, lastMessageAt: later(1000) });
      const afterSecond = await subject.append(afterFirst, [user('Rust?'), assistant('Yes.'), user('Thanks')], later(2000));
      expect(afterSecond).toEqual({ ...conversation, messageCount: 5, lastMessageAt: later(2000) });

      expect(await subject.get(botId, conversation.id)).toEqual({
        conversation: afterSecond,
        messages: [
          { role: 'user', content: 'Hi', createdAt: later(1000) },
          { role: 'assistant', content: 'Hello!', createdAt: later(1000) },
          { role: 'user', content: 'Rust?', createdAt: later(2000) },
          { role: 'assistant', content: 'Yes.', createdAt: later(2000) },
          { role: 'user', content: 'Thanks', createdAt: later(2000) },
        ],
      });
      expect((await subject.startOrLock(botId, conversation.sessionId, later(3000))).conversation).toEqual(afterSecond);
    });

    it('returns the conversation unchanged when appending nothing, counting and notifying nothing', async () => {
      const fixture = await makeSubject();
      const { subject, botId, ownerId, bots, notifications } = fixture;
      const { conversation } = await subject.startOrLock(botId, randomUUID(), NOW);
      const withMessages = await subject.append(conversation, [user('Hi')], later(1000), saveEffects(fixture, conversation, false, 1));
      expect(await subject.append(withMessages, [], later(9000))).toEqual(withMessages);
      expect(await subject.append(withMessages, [], later(9000), saveEffects(fixture, conversation, false, 0))).toEqual(withMessages);
      expect((await subject.get(botId, conversation.id))?.conversation).toEqual(withMessages);
      expect(await bots.stats(botId)).toMatchObject({ totalConversations: 0, totalMessages: 1 });
      expect((await notifications.list(ownerId, { limit: 10, cursor: null }, false)).items).toEqual([]);
    });

    it('carries out the named effects with the save: the bot’s totals, and the owner’s notification', async () => {
      const fixture = await makeSubject();
      const { subject, botId, otherBotId, ownerId, bots, notifications } = fixture;
      const sessionId = randomUUID();
      const { conversation } = await subject.startOrLock(botId, sessionId, NOW);
      const started = await subject.append(conversation, [user('Hi'), assistant('Hello!')], later(1000), saveEffects(fixture, conversation, true, 2));
      const next = await subject.append(started, [user('Rust?')], later(2000), saveEffects(fixture, conversation, false, 1));
      await subject.append(next, [assistant('Daily.')], later(3000), saveEffects(fixture, conversation, false, 1));
      expect(await bots.stats(botId)).toMatchObject({ totalConversations: 1, totalMessages: 4 });
      expect(await bots.stats(otherBotId)).toMatchObject({ totalConversations: 0, totalMessages: 0 });
      expect((await notifications.list(ownerId, { limit: 10, cursor: null }, false)).items).toEqual([
        {
          id: expect.any(String),
          userId: ownerId,
          kind: 'conversation_started',
          payload: { botId, conversationId: conversation.id, sessionId },
          createdAt: later(1000),
          readAt: null,
        },
      ]);
    });

    it('counts and notifies a starting save even without messages, leaving the conversation as it was', async () => {
      const fixture = await makeSubject();
      const { subject, botId, ownerId, bots, notifications } = fixture;
      const { conversation } = await subject.startOrLock(botId, randomUUID(), NOW);
      expect(await subject.append(conversation, [], later(1000), saveEffects(fixture, conversation, true, 0))).toEqual(conversation);
      expect(await bots.stats(botId)).toMatchObject({ totalConversations: 1, totalMessages: 0 });
      expect((await notifications.list(ownerId, { limit: 10, cursor: null }, false)).items).toHaveLength(1);
    });

    it('starts a conversation with its messages and effects in one step, and does nothing for a session that has one', async () => {
      const fixture = await makeSubject();
      const { subject, botId, ownerId, bots, notifications } = fixture;
      const start = { id: randomUUID(), botId, sessionId: randomUUID() };
      const started = await subject.startWith(start, [user('Hi'), assistant('Hello!')], later(1000), saveEffects(fixture, start, true, 2));
      expect(started).toEqual({ ...start, messageCount: 2, startedAt: later(1000), lastMessageAt: later(1000) });
      expect((await subject.get(botId, start.id))?.messages.map((message) => message.content)).toEqual(['Hi', 'Hello!']);
      expect(await bots.stats(botId)).toMatchObject({ totalConversations: 1, totalMessages: 2 });
      expect((await notifications.list(ownerId, { limit: 10, cursor: null }, false)).items.map((item) => item.payload)).toEqual([
        { botId, conversationId: start.id, sessionId: start.sessionId },
      ]);

      const again = { ...start, id: randomUUID() };
      expect(await subject.startWith(again, [user('Hi again')], later(2000), saveEffects(fixture, again, true, 1))).toBeNull();
      expect((await subject.get(botId, start.id))?.conversation.messageCount).toBe(2);
      expect(await subject.get(botId, again.id)).toBeNull();
      expect(await bots.stats(botId)).toMatchObject({ totalConversations: 1, totalMessages: 2 });
      expect((await notifications.list(ownerId, { limit: 10, cursor: null }, false)).items).toHaveLength(1);
      const locked = await subject.startOrLock(botId, start.sessionId, later(3000), 5);
      expect(locked).toMatchObject({ created: false, tail: [user('Hi'), assistant('Hello!')] });
    });

    it('starts concurrent first saves each as it would alone: one conversation per session, every effect once', async () => {
      const fixture = await makeSubject();
      const { subject, botId, otherBotId, ownerId, bots, notifications } = fixture;
      const [shared, own, elsewhere] = [randomUUID(), randomUUID(), randomUUID()];
      const starts = [
        { bot: botId, session: shared, messages: [user('one'), assistant('two')] },
        { bot: botId, session: own, messages: [user('three')] },
        { bot: botId, session: shared, messages: [user('one'), assistant('two'), user('again')] },
        { bot: otherBotId, session: elsewhere, messages: [user('four'), assistant('five')] },
      ].map(({ bot, session, messages }) => ({ start: { id: randomUUID(), botId: bot, sessionId: session }, messages }));

      const results = await Promise.all(
        starts.map(({ start, messages }, index) => subject.startWith(start, messages, later(index), saveEffects(fixture, start, true, messages.length))),
      );

      expect(results[1]).toMatchObject({ id: starts[1]!.start.id, messageCount: 1 });
      expect(results[3]).toMatchObject({ id: starts[3]!.start.id, messageCount: 2 });
      // The shared session started once, by one of its two saves, with that save's messages.
      const sharedWinner = [0, 2].filter((index) => results[index] !== null);
      expect(sharedWinner).toHaveLength(1);
      const winner = starts[sharedWinner[0]!]!;
      expect((await subject.get(botId, winner.start.id))?.messages.map((message) => message.content)).toEqual(
        winner.messages.map((message) => message.content),
      );
      expect((await subject.list(botId, { limit: 10, cursor: null })).items).toHaveLength(2);
      expect(await bots.stats(botId)).toMatchObject({ totalConversations: 2, totalMessages: 1 + winner.messages.length });
      expect(await bots.stats(otherBotId)).toMatchObject({ totalConversations: 1, totalMessages: 2 });
      // saveEffects names the fixture's owner and first bot for every start.
      const payloads = (await notifications.list(ownerId, { limit: 10, cursor: null }, false)).items.map((item) => item.payload);
      expect(payloads).toHaveLength(3);
      expect(payloads).toEqual(
        expect.arrayContaining([
          { botId, conversationId: winner.start.id, sessionId: shared },
          { botId, conversationId: starts[1]!.start.id, sessionId: own },
          { botId, conversationId: starts[3]!.start.id, sessionId: elsewhere },
        ]),
      );
    });

    it('gives the last messages with the conversation, oldest first', async () => {
      const { subject, botId } = await makeSubject();
      const sessionId = randomUUID();
      const { conversation } = await subject.startOrLock(botId, sessionId, NOW, 3);
      await subject.append(conversation, [user('one'), assistant('two'), user('three'), assistant('four')], NOW);
      const tail = async (length?: number) => (await subject.startOrLock(botId, sessionId, later(1000), length)).tail;
      expect(await tail(3)).toEqual([assistant('two'), user('three'), assistant('four')]);
      expect(await tail(10)).toEqual([user('one'), assistant('two'), user('three'), assistant('four')]);
      expect(await tail(0)).toEqual([]);
      expect(await tail()).toEqual([]);
    });

    it('tells whether a conversation belongs to a bot', async () => {
      const { subject, botId, otherBotId } = await makeSubject();
      const { conversation } = await subject.startOrLock(botId, randomUUID(), NOW);
      expect(await subject.belongsToBot(conversation.id, botId)).toBe(true);
      expect(await subject.belongsToBot(conversation.id, otherBotId)).toBe(false);
      expect(await subject.belongsToBot(randomUUID(), botId)).toBe(false);
      expect(await subject.belongsToBot('not-a-uuid', botId)).toBe(false);
    });

    it('gets nothing for another bot’s, an unknown or a non-UUID id', async () => {
      const { subject, botId, otherBotId } = await makeSubject();
      const { conversation } = await subject.startOrLock(otherBotId, randomUUID(), NOW);
      expect(await subject.get(otherBotId, conversation.id)).not.toBeNull();
      expect(await subject.get(botId, conversation.id)).toBeNull();
      expect(await subject.get(botId, randomUUID())).toBeNull();
      expect(await subject.get(botId, 'not-a-uuid')).toBeNull();
    });

    it('lists the bot’s conversations with a preview of the first user message', async () => {
      const { subject, botId, otherBotId } = await makeSubject();
      const start = async (at: Date, messages: ChatMessage[]) => {
        const { conversation } = await subject.startOrLock(botId, randomUUID(), at);
        return subject.append(conversation, messages, at);
      };
      // 119 letters and then emoji (two UTF-16 units each): the cut is at 120 characters.
      const long = `${'a'.repeat(119)}😀😀 and more`;
      const greeted = await start(later(1000), [assistant('Welcome!'), user('What stack do you use?'), user('Second')]);
      const lengthy = await start(later(2000), [user(long)]);
      const silent = await start(later(3000), [assistant('Anyone there?')]);
      const empty = await start(later(4000), []);
      await subject.startOrLock(otherBotId, randomUUID(), later(5000));

      expect(await subject.list(botId, { limit: 10, cursor: null })).toEqual({
        items: [
          { ...empty, preview: '' },
          { ...silent, preview: '' },
          { ...lengthy, preview: `${'a'.repeat(119)}😀` },
          { ...greeted, preview: 'What stack do you use?' },
        ],
        nextCursor: null,
      });
    });

    keysetPaginationContract(async () => {
      const { subject, botId } = await makeSubject();
      return {
        insertAt: async (at) => (await subject.startOrLock(botId, randomUUID(), at)).conversation.id,
        page: (request) => subject.list(botId, request),
      };
    });
  });
};
