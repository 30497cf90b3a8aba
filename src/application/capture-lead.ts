import { effectiveRateLimits } from '../domain/bot-rules.ts';
import { err, ok, type Result } from '../domain/result.ts';
import type { Bot, Lead } from '../domain/types.ts';
import type {
  Clock,
  ConversationRepository,
  Mailer,
  MailMessage,
  RateLimiter,
  RateLimitScope,
  Transactor,
  UserRepository,
} from './ports.ts';

export interface CaptureLeadInput {
  bot: Bot;
  email: string;
  conversationId: string | null;
  contextSummary: string | null;
}

export type CaptureLeadError =
  /** The conversationId names no conversation of this bot: a validation failure. */
  | { type: 'unknown_conversation' }
  | { type: 'bot_not_found' }
  | { type: 'rate_limited'; scope: RateLimitScope; resetAt: number };

const leadsBucket = (botId: string) => `v1:leads:${botId}`;

const leadEmail = (to: string, bot: Bot, lead: Lead): MailMessage => ({
  to,
  subject: `New lead for ${bot.name.replace(/\s+/g, ' ')}: ${lead.email}`,
  text: [
    `Your career bot "${bot.name}" captured a new lead.`,
    '',
    `E-mail: ${lead.email}`,
    `Captured at: ${lead.capturedAt.toISOString()}`,
    `Conversation: ${lead.conversationId ?? '(none)'}`,
    `Context: ${lead.contextSummary ?? '(none)'}`,
  ].join('\n'),
});

/**
 * Deduplicated by the database on (bot, conversation, email): concurrent identical
 * captures give one row, one `lead_captured` notification and at most one e-mail. The
 * e-mail goes out after the commit, best effort: it is not awaited, and a failure is only
 * reported, so it can neither hold a transaction open nor change the answer.
 */
export const makeCaptureLead =
  (d: {
    limiter: RateLimiter;
    transactor: Transactor;
    conversations: ConversationRepository;
    users: UserRepository;
    mailer: Mailer;
    clock: Clock;
    reportMailFailure: (error: unknown) => void;
  }) =>
  async (input: CaptureLeadInput): Promise<Result<{ lead: Lead; deduped: boolean }, CaptureLeadError>> => {
    const { bot } = input;
    if (input.conversationId && !(await d.conversations.belongsToBot(input.conversationId, bot.id))) {
      return err({ type: 'unknown_conversation' });
    }
    if (!bot.isActive) return err({ type: 'bot_not_found' });
    const admission = await d.limiter.consume(leadsBucket(bot.id), effectiveRateLimits(bot), d.clock.now());
    if (!admission.allowed) return err({ type: 'rate_limited', scope: admission.scope, resetAt: admission.resetAt });

    const { lead, created } = await d.transactor.transaction(async (tx) => {
      const now = d.clock.now();
      const captured = await tx.leads.insertOrFind(
        { botId: bot.id, email: input.email, conversationId: input.conversationId, contextSummary: input.contextSummary },
        now,
      );
      if (captured.created) {
        await tx.notifications.add(
          bot.userId,
          'lead_captured',
          { botId: bot.id, leadId: captured.lead.id, email: captured.lead.email, conversationId: captured.lead.conversationId },
          now,
        );
      }
      return captured;
    });

    if (created) await emailOwner(d, bot, lead);
    return ok({ lead, deduped: !created });
  };

/** Looks the owner up and hands the e-mail to the mailer without waiting for delivery. */
const emailOwner = async (
  d: { users: UserRepository; mailer: Mailer; reportMailFailure: (error: unknown) => void },
  bot: Bot,
  lead: Lead,
) => {
  try {
    const owner = await d.users.findById(bot.userId);
    if (!owner?.notifyLeadsEmail) return;
    d.mailer.send(leadEmail(owner.email, bot, lead)).catch(d.reportMailFailure);
  } catch (error) {
    d.reportMailFailure(error);
  }
};
