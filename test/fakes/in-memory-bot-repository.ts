import { randomUUID } from 'node:crypto';
import type { BotFields, BotRepository, BotSettingsPatch, ChatTarget } from '../../src/application/ports.ts';
import { DEFAULT_THEME_COLOR } from '../../src/domain/bot-rules.ts';
import type { Bot, BotStats } from '../../src/domain/types.ts';
import type { InMemoryUserRepository } from './in-memory-user-repository.ts';

/** Needs the users fake for findChatTarget (the owner's provider and model live on the user). */
export class InMemoryBotRepository implements BotRepository {
  readonly rows = new Map<string, Bot>();
  readonly counters = new Map<string, { conversations: number; messages: number }>();
  /** Wired to the leads fake by inMemoryRepositories(), so stats can count leads. */
  countLeads: (botId: string) => Promise<number> = async () => 0;

  constructor(private readonly users: InMemoryUserRepository) {}

  async upsertForUser(userId: string, fields: BotFields, loadingMessages: string[], now: Date) {
    const existing = await this.findByUserId(userId);
    if (existing) {
      const updatedAt = new Date(Math.max(now.getTime(), existing.updatedAt.getTime() + 1));
      const bot = { ...existing, ...fields, suggestedQuestions: [...fields.suggestedQuestions], updatedAt };
      this.rows.set(bot.id, bot);
      return { bot, created: false, contextChanged: existing.contextText !== fields.contextText };
    }
    const bot: Bot = {
      id: randomUUID(),
      userId,
      ...fields,
      suggestedQuestions: [...fields.suggestedQuestions],
      loadingMessages: [...loadingMessages],
      isActive: true,
      themeColor: DEFAULT_THEME_COLOR,
      deploymentMode: 'managed',
      rateLimits: { perMinute: null, perDay: null },
      embedOrigins: [],
      photoHash: null,
      createdAt: now,
      updatedAt: now,
    };
    this.rows.set(bot.id, bot);
    return { bot, created: true, contextChanged: true };
  }

  async findByUserId(userId: string) {
    return [...this.rows.values()].find((bot) => bot.userId === userId) ?? null;
  }

  async findById(botId: string) {
    return this.rows.get(botId) ?? null;
  }

  async findChatTarget(botId: string): Promise<ChatTarget | null> {
    const bot = this.rows.get(botId);
    const owner = bot ? await this.users.findById(bot.userId) : null;
    if (!bot || !bot.isActive || !owner?.llmProvider || !owner.llmModel) return null;
    return { bot, provider: owner.llmProvider, model: owner.llmModel };
  }

  async updateSettings(botId: string, patch: BotSettingsPatch, now: Date) {
    const bot = this.rows.get(botId)!;
    const updated: Bot = {
      ...bot,
      isActive: patch.isActive ?? bot.isActive,
      themeColor: patch.themeColor ?? bot.themeColor,
      deploymentMode: patch.deploymentMode ?? bot.deploymentMode,
      rateLimits: { ...bot.rateLimits, ...patch.rateLimits },
      embedOrigins: patch.embedOrigins ? [...patch.embedOrigins] : bot.embedOrigins,
      updatedAt: new Date(Math.max(now.getTime(), bot.updatedAt.getTime() + 1)),
    };
    this.rows.set(botId, updated);
    return updated;
  }

  async stats(botId: string): Promise<BotStats> {
    const counters = this.counters.get(botId) ?? { conversations: 0, messages: 0 };
    return {
      totalConversations: counters.conversations,
      totalMessages: counters.messages,
      totalLeads: await this.countLeads(botId),
    };
  }

  /** What a transcript save adds to the totals (the Pg save statement does it in SQL). */
  addToCounters(botId: string, conversations: number, messages: number) {
    const counters = this.counters.get(botId) ?? { conversations: 0, messages: 0 };
    this.counters.set(botId, { conversations: counters.conversations + conversations, messages: counters.messages + messages });
  }
}
