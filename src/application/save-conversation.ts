import { effectiveRateLimits } from '../domain/bot-rules.ts';
import { err, ok, type Result } from '../domain/result.ts';
import { messagesToAppend } from '../domain/transcript.ts';
import type { Bot, ChatMessage } from '../domain/types.ts';
import type { Clock, ConversationRepository, RateLimiter, RateLimitScope, SaveEffects, Transactor } from './ports.ts';

/** A save that would take a conversation past this is refused whole. */
export const MAX_CONVERSATION_MESSAGES = 2_000;

export interface SaveConversationInput {
  bot: Bot;
  sessionId: string;
  messages: ChatMessage[];
}

export interface SavedConversation {
  conversationId: string;
  /** True for the save that started the conversation. */
  created: boolean;
  /** How many of the messages were new. */
  appended: number;
}

export type SaveConversationError =
  | { type: 'bot_not_found' }
  | { type: 'rate_limited'; scope: RateLimitScope; resetAt: number }
  | { type: 'conversation_full' };

/** What a save does besides storing messages: count them (and a new conversation), and tell the owner of a new one. */
const saveEffects = (bot: Bot, conversationId: string, sessionId: string, created: boolean, messages: number): SaveEffects => ({
  botTotals: { conversations: created ? 1 : 0, messages },
  notify: created ? { userId: bot.userId, kind: 'conversation_started', payload: { botId: bot.id, conversationId, sessionId } } : null,
});

const conversationsBucket = (botId: string) => `v1:conversations:${botId}`;

/**
 * Upserts the (bot, session) conversation and appends only what it does not already end
 * with, in one transaction that holds the conversation's row lock: concurrent or retried
 * saves of one session neither duplicate messages nor start a second conversation. The
 * rate limit is spent first, as for leads and knowledge (a refusal writes nothing).
 */
export const makeSaveConversation =
  (d: { limiter: RateLimiter; conversations: ConversationRepository; transactor: Transactor; clock: Clock }) =>
  async (input: SaveConversationInput): Promise<Result<SavedConversation, SaveConversationError>> => {
    const { bot, sessionId, messages } = input;
    if (!bot.isActive) return err({ type: 'bot_not_found' });
    const admission = await d.limiter.consume(conversationsBucket(bot.id), effectiveRateLimits(bot), d.clock.now());
    if (!admission.allowed) return err({ type: 'rate_limited', scope: admission.scope, resetAt: admission.resetAt });

    // The session's first save: everything in one statement, unless the session turns out to
    // have a conversation already (a resend, or a concurrent first save that won).
    const first = messagesToAppend([], messages);
    if (first.length > MAX_CONVERSATION_MESSAGES) return err({ type: 'conversation_full' });
    const id = crypto.randomUUID();
    const effects = saveEffects(bot, id, sessionId, true, first.length);
    if (await d.conversations.startWith({ id, botId: bot.id, sessionId }, first, d.clock.now(), effects)) {
      return ok({ conversationId: id, created: true, appended: first.length });
    }

    // A later save: lock the conversation and append what it does not already end with.
    return d.transactor.transaction(async (tx) => {
      const now = d.clock.now();
      const { conversation, created, tail } = await tx.conversations.startOrLock(bot.id, sessionId, now, messages.length);
      const fresh = messagesToAppend(tail, messages);
      if (conversation.messageCount + fresh.length > MAX_CONVERSATION_MESSAGES) return err({ type: 'conversation_full' as const });
      await tx.conversations.append(conversation, fresh, now, saveEffects(bot, conversation.id, sessionId, created, fresh.length));
      return ok({ conversationId: conversation.id, created, appended: fresh.length });
    });
  };
