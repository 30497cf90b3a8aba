import { effectiveRateLimits } from '../domain/bot-rules.ts';
import { err, ok, type Result } from '../domain/result.ts';
import type { Bot } from '../domain/types.ts';
import type { Clock, RateLimiter, RateLimitScope, RefusedMessageRepository } from './ports.ts';

export interface ReportedRefusal {
  bot: Bot;
  /** The runtime's id for this refusal: a retried report keeps one row. */
  id: string;
  reason: string;
  content: string;
}

export type KeepReportedRefusalError = { type: 'bot_not_found' } | { type: 'rate_limited'; scope: RateLimitScope; resetAt: number };

const refusalsBucket = (botId: string) => `v1:refusals:${botId}`;

/**
 * A message a self-hosted runtime's filter refused, kept for the owner as the platform keeps its
 * own chat's (issue 23: the owner sees what was refused), and counted per day and reason. The
 * bot's v1 limits bound how many a token can add.
 */
export const makeKeepReportedRefusal =
  (d: { limiter: RateLimiter; refused: RefusedMessageRepository; clock: Clock }) =>
  async (input: ReportedRefusal): Promise<Result<{ kept: boolean }, KeepReportedRefusalError>> => {
    const { bot } = input;
    if (!bot.isActive) return err({ type: 'bot_not_found' });
    const admission = await d.limiter.consume(refusalsBucket(bot.id), effectiveRateLimits(bot), d.clock.now());
    if (!admission.allowed) return err({ type: 'rate_limited', scope: admission.scope, resetAt: admission.resetAt });
    const kept = await d.refused.addReported({ botId: bot.id, reason: input.reason, content: input.content, reportId: input.id }, d.clock.now());
    return ok({ kept });
  };
