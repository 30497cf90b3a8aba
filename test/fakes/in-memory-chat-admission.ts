import type { BotRepository, ChatAdmission, RateLimiter, RateLimits } from '../../src/application/ports.ts';
import { effectiveRateLimits } from '../../src/domain/bot-rules.ts';

/** The same contract as PgChatAdmission, composed of the bot and rate-limiter fakes. */
export class InMemoryChatAdmission implements ChatAdmission {
  constructor(
    private readonly bots: BotRepository,
    private readonly limiter: RateLimiter,
  ) {}

  async admit(botId: string, bucket: string, defaults: RateLimits, now: Date) {
    const target = await this.bots.findChatTarget(botId);
    if (!target) return { target: null };
    const decision = await this.limiter.consume(bucket, effectiveRateLimits(target.bot, defaults), now);
    return { target, decision };
  }
}
