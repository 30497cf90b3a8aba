import { randomUUID } from 'node:crypto';
import type {
  ConversationRepository,
  ConversationSummary,
  LockedConversation,
  NotificationRepository,
  PageRequest,
  SaveEffects,
} from '../../src/application/ports.ts';
import { newestFirst, toPage } from '../../src/adapters/persistence/keyset.ts';
import type { ChatMessage, Conversation, Page, StoredMessage } from '../../src/domain/types.ts';
import type { InMemoryBotRepository } from './in-memory-bot-repository.ts';

const PREVIEW_LENGTH = 120;

/** Counts code points, as PostgreSQL's left() does. */
const truncate = (text: string, length: number) => Array.from(text).slice(0, length).join('');

const position = (conversation: Conversation) => ({ at: conversation.startedAt, id: conversation.id });

/** Needs the bots and notifications fakes: a save also counts in the bot's totals and notifies the owner. */
export class InMemoryConversationRepository implements ConversationRepository {
  private readonly conversations: Conversation[] = [];
  private readonly messages = new Map<string, StoredMessage[]>();

  constructor(private readonly d: { bots: InMemoryBotRepository; notifications: NotificationRepository }) {}

  async startOrLock(botId: string, sessionId: string, now: Date, tailLength = 0): Promise<LockedConversation> {
    const existing = this.conversations.find((c) => c.botId === botId && c.sessionId === sessionId);
    if (existing) return { conversation: { ...existing }, created: false, tail: this.tail(existing.id, tailLength) };
    const conversation = {
      id: randomUUID(),
      botId,
      sessionId,
      messageCount: 0,
      startedAt: new Date(now),
      lastMessageAt: new Date(now),
    };
    this.conversations.push(conversation);
    this.messages.set(conversation.id, []);
    return { conversation: { ...conversation }, created: true, tail: [] };
  }

  async startWith(
    start: { id: string; botId: string; sessionId: string },
    messages: ChatMessage[],
    now: Date,
    effects: SaveEffects,
  ): Promise<Conversation | null> {
    if (this.conversations.some((c) => c.botId === start.botId && c.sessionId === start.sessionId)) return null;
    const conversation = { ...start, messageCount: 0, startedAt: new Date(now), lastMessageAt: new Date(now) };
    this.conversations.push(conversation);
    this.messages.set(conversation.id, []);
    return this.append(conversation, messages, now, effects);
  }

  async append(conversation: Conversation, messages: ChatMessage[], now: Date, effects?: SaveEffects): Promise<Conversation> {
    if (messages.length === 0 && !effects) return conversation;
    const stored = this.conversations.find((c) => c.id === conversation.id);
    if (!stored) throw new Error(`conversation ${conversation.id} does not exist`);
    if (messages.length > 0) {
      this.messages.get(stored.id)!.push(...messages.map(({ role, content }) => ({ role, content, createdAt: new Date(now) })));
      stored.messageCount += messages.length;
      stored.lastMessageAt = new Date(now);
    }
    if (effects) {
      this.d.bots.addToCounters(stored.botId, effects.botTotals.conversations, effects.botTotals.messages);
      if (effects.notify) await this.d.notifications.add(effects.notify.userId, effects.notify.kind, effects.notify.payload, now);
    }
    return { ...stored };
  }

  async belongsToBot(conversationId: string, botId: string): Promise<boolean> {
    return this.find(botId, conversationId) !== undefined;
  }

  async list(botId: string, page: PageRequest): Promise<Page<ConversationSummary>> {
    const rows = this.conversations
      .filter((c) => c.botId === botId && (!page.cursor || newestFirst(position(c), page.cursor) > 0))
      .sort((a, b) => newestFirst(position(a), position(b)))
      .slice(0, page.limit + 1)
      .map((c) => {
        const firstUserMessage = this.messages.get(c.id)!.find((message) => message.role === 'user');
        return { ...c, preview: firstUserMessage ? truncate(firstUserMessage.content, PREVIEW_LENGTH) : '' };
      });
    return toPage(rows, page.limit, position);
  }

  async get(botId: string, conversationId: string): Promise<{ conversation: Conversation; messages: StoredMessage[] } | null> {
    const conversation = this.find(botId, conversationId);
    if (!conversation) return null;
    return { conversation: { ...conversation }, messages: this.messages.get(conversation.id)!.map((message) => ({ ...message })) };
  }

  private tail(conversationId: string, count: number): ChatMessage[] {
    if (count <= 0) return [];
    return this.messages.get(conversationId)!.slice(-count).map(({ role, content }) => ({ role, content }));
  }

  private find(botId: string, conversationId: string): Conversation | undefined {
    return this.conversations.find((c) => c.id === conversationId.toLowerCase() && c.botId === botId);
  }
}
