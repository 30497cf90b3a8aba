import { err, ok, type Result } from '../domain/result.ts';
import type { BotRepository, Clock, InsightsDay, InsightsReader, TopQuestion } from './ports.ts';

export const INSIGHT_PERIODS = [30, 90] as const;
export type InsightPeriod = (typeof INSIGHT_PERIODS)[number];

export interface Insights {
  days: InsightPeriod;
  /** One entry per UTC day of the period, oldest first, today last; days without activity are zeros. */
  series: InsightsDay[];
  totals: { conversations: number; messages: number; leads: number; conversationsWithLead: number; leadShare: number };
  topQuestions: TopQuestion[];
  refusals: { reason: string; count: number }[];
}

const DAY_MS = 24 * 60 * 60 * 1000;
const TOP_QUESTIONS = 10;

const dayKey = (date: Date) => date.toISOString().slice(0, 10);

/** Whether recruiters come, what they ask, and whether the bot helps them: the owner's bot over 30 or 90 days. */
export const makeGetInsights =
  (d: { bots: BotRepository; insights: InsightsReader; clock: Clock }) =>
  async (userId: string, days: InsightPeriod): Promise<Result<Insights, { type: 'bot_not_found' }>> => {
    const bot = await d.bots.findByUserId(userId);
    if (!bot) return err({ type: 'bot_not_found' });
    const today = new Date(`${dayKey(d.clock.now())}T00:00:00.000Z`);
    const since = new Date(today.getTime() - (days - 1) * DAY_MS);
    const [perDay, withLead, topQuestions, refusals] = await Promise.all([
      d.insights.perDay(bot.id, since),
      d.insights.conversationsWithLead(bot.id, since),
      d.insights.topQuestions(bot.id, since, TOP_QUESTIONS),
      d.insights.refusals(bot.id, since),
    ]);
    const byDay = new Map(perDay.map((day) => [day.date, day]));
    const series = Array.from({ length: days }, (_, i) => {
      const date = dayKey(new Date(since.getTime() + i * DAY_MS));
      return byDay.get(date) ?? { date, conversations: 0, messages: 0, leads: 0 };
    });
    const sum = (key: 'conversations' | 'messages' | 'leads') => series.reduce((total, day) => total + day[key], 0);
    const conversations = sum('conversations');
    return ok({
      days,
      series,
      totals: {
        conversations,
        messages: sum('messages'),
        leads: sum('leads'),
        conversationsWithLead: withLead,
        leadShare: conversations === 0 ? 0 : Math.round((withLead / conversations) * 1000) / 1000,
      },
      topQuestions,
      refusals,
    });
  };
