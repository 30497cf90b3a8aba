import { DEFAULT_RATE_LIMITS } from '../domain/bot-rules.ts';
import type { BlockReason, MessageVerdict, ReplyContext } from '@careerbot/guardrails';
import { err, ok, type Result } from '../domain/result.ts';
import { buildSystemPrompt } from '@careerbot/prompt';
import type { LlmProvider } from '../domain/types.ts';
import type { ChatAdmission, Clock, LlmGateway, RateLimitScope, RefusalCounter } from './ports.ts';
import type { ChatKey, OwnerKeyPayer } from './owner-llm-key.ts';

const CHAT_MAX_OUTPUT_TOKENS = 800;
const CHAT_TEMPERATURE = 0.3;

export interface ChatInput {
  botId: string;
  message: string;
  /** The visitor's key; empty when they bring none. */
  apiKey: string;
  azureEndpoint?: string;
  azureApiVersion?: string;
}

export type ChatError =
  | { type: 'bot_not_found' }
  | { type: 'rate_limit'; scope: RateLimitScope; resetAt: number }
  | { type: 'blocked'; reason: BlockReason }
  | { type: 'missing_llm_key' }
  | { type: 'owner_key_daily_cap'; resetAt: number }
  | { type: 'invalid_llm_key' }
  | { type: 'provider_rate_limit'; retryAfterSeconds?: number }
  | { type: 'provider_unavailable' };

export const chatBucket = (botId: string) => `chat:${botId}`;

/**
 * Steps 6-13 of the chat contract, in order; the first failing step decides. The steps
 * before (content type, key header, size, JSON, validation) belong to the HTTP edge.
 */
export const makeSendChatMessage =
  (d: {
    admission: ChatAdmission;
    gateways: Record<LlmProvider, LlmGateway>;
    clock: Clock;
    /** The guardrails' check of a visitor's message (createMessageCheck), made once by the composer. */
    checkMessage: (text: string) => MessageVerdict;
    /** The guardrails' reply cleaner (createReplyCleaner), made once by the composer. */
    cleanReply: (reply: string, context: ReplyContext) => string;
    ownerKey?: OwnerKeyPayer;
    /** Counts each refused message per bot and reason, for the insights page. */
    refusals?: RefusalCounter;
  }) =>
  async (input: ChatInput): Promise<Result<{ reply: string }, ChatError>> => {
    // 6-8 in one round trip: an unknown, inactive or ownerless bot look the same and
    // consume nothing; a known one spends one request of its rate limit.
    const admission = await d.admission.admit(input.botId, chatBucket(input.botId), DEFAULT_RATE_LIMITS, d.clock.now());
    if (!admission.target) return err({ type: 'bot_not_found' });
    const { target, decision } = admission;
    if (!decision.allowed) return err({ type: 'rate_limit', scope: decision.scope, resetAt: decision.resetAt });

    // 9
    const verdict = d.checkMessage(input.message);
    if (verdict.blocked) {
      await d.refusals?.count(target.bot.id, verdict.reason, d.clock.now());
      return err({ type: 'blocked', reason: verdict.reason });
    }

    // 10: who pays: the visitor's key wins; else the owner's, if switched on; else missing_llm_key.
    // The owner's provider and model decide; the caller cannot choose them.
    const paid: Result<ChatKey, ChatError> = input.apiKey
      ? ok({ apiKey: input.apiKey, azureEndpoint: input.azureEndpoint?.trim(), payer: 'visitor' })
      : d.ownerKey
        ? await d.ownerKey.pay(target, d.clock.now())
        : err({ type: 'missing_llm_key' });
    if (!paid.ok) return paid;
    const key = paid.value;
    if (target.provider === 'azure' && !key.azureEndpoint) return err({ type: 'missing_llm_key' });
    const system = buildSystemPrompt(target.bot);

    // 11
    const answer = await d.gateways[target.provider].complete({
      model: target.model,
      apiKey: key.apiKey,
      system,
      message: input.message,
      maxTokens: CHAT_MAX_OUTPUT_TOKENS,
      temperature: CHAT_TEMPERATURE,
      azureEndpoint: key.azureEndpoint,
      azureApiVersion: input.azureApiVersion?.trim() || undefined,
      payer: key.payer,
    });
    if (!answer.ok && answer.error === 'invalid_llm_key' && key.payer === 'owner') {
      await d.ownerKey?.refused(target);
      return err({ type: 'missing_llm_key' });
    }
    if (!answer.ok) {
      return err(
        answer.error === 'provider_rate_limit'
          ? { type: 'provider_rate_limit', retryAfterSeconds: answer.retryAfterSeconds }
          : { type: answer.error },
      );
    }

    // 12-13
    return ok({
      reply: d.cleanReply(answer.text, { systemPrompt: system, contextText: target.bot.contextText, callerKey: key.apiKey }),
    });
  };
