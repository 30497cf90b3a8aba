import { CHAT_MESSAGE_MAX_CHARS, DEFAULT_RATE_LIMITS } from '../domain/bot-rules.ts';
import { CHAT_MAX_OUTPUT_TOKENS, CHAT_TEMPERATURE, cleanedEvents, type ChatError, type ChatStreamEvent } from '@careerbot/chat-protocol';
import type { MessageVerdict, ReplyContext, StreamingReplyCleaner } from '@careerbot/guardrails';
import { err, ok, type Result } from '../domain/result.ts';
import { buildSystemPrompt } from '@careerbot/prompt';
import type { LlmProvider } from '../domain/types.ts';
import type { ChatAdmission, ChatTarget, Clock, LlmGateway, LlmRequest, LlmResponse, LlmStreamResponse, RefusedMessageRepository } from './ports.ts';
import type { ChatKey, OwnerKeyPayer } from './owner-llm-key.ts';
import { EarlyCall, RecentChatTargets, type EarlyStartOutcome } from './early-start.ts';

export type { ChatError, ChatStreamEvent };

export interface ChatInput {
  botId: string;
  message: string;
  /** The visitor's key; empty when they bring none. */
  apiKey: string;
  azureEndpoint?: string;
  azureApiVersion?: string;
}

export const chatBucket = (botId: string) => `chat:${botId}`;

export interface ChatDeps {
  admission: ChatAdmission;
  gateways: Record<LlmProvider, LlmGateway>;
  clock: Clock;
  /** The guardrails' check of a visitor's message (createMessageCheck), made once by the composer. */
  checkMessage: (text: string) => MessageVerdict;
  /** The guardrails' reply cleaner (createReplyCleaner), made once by the composer. */
  cleanReply: (reply: string, context: ReplyContext) => string;
  /** The same cleaner on a reply that arrives in chunks (createReplyCleaner().stream). */
  streamCleaner?: (context: ReplyContext) => StreamingReplyCleaner;
  ownerKey?: OwnerKeyPayer;
  /** Keeps each refused message for the owner, and counts it per bot and reason for the insights page. */
  refused: RefusedMessageRepository;
  /** Told what became of each streamed call started before its admission answered (the metrics). */
  onEarlyStart?: (outcome: EarlyStartOutcome) => void;
}

/**
 * Steps 6-13 of the chat contract, in order; the first failing step decides. The steps
 * before (content type, key header, size, JSON, validation) belong to the HTTP edge.
 */
export const makeSendChatMessage =
  (d: ChatDeps) =>
  async (input: ChatInput): Promise<Result<{ reply: string }, ChatError>> => {
    const call = await providerCall(d, input, (gateway, request) => gateway.complete(request));
    if (!call.ok) return call;
    const { answer, context } = call.value;
    // 12-13
    return ok({ reply: d.cleanReply(answer.text, context) });
  };

/**
 * The same steps, the reply streamed: every failure before the provider's first text is the
 * JSON path's; after it, the events carry the cleaned reply, or an error when the provider fails
 * mid-answer. `signal` (the visitor left) aborts the provider call; so does leaving `events` early.
 * A visitor who brings a key to a bot this process admitted lately has the provider call started
 * while the admission is on its way (EarlyCall): the words wait for the admission, the call does not.
 */
export const makeStreamChatMessage = (d: ChatDeps & { streamCleaner: (context: ReplyContext) => StreamingReplyCleaner }) => {
  const recent = new RecentChatTargets(() => d.clock.now().getTime());
  return async (input: ChatInput, signal: AbortSignal): Promise<Result<{ events: AsyncIterable<ChatStreamEvent> }, ChatError>> => {
    const early: { call: EarlyCall | null } = { call: null };
    try {
      const call = await providerCall(d, input, (gateway, request) => early.call?.adopt(gateway, request) ?? gateway.stream(request, signal), {
        meanwhile: () => {
          early.call = startEarly(d, recent, input, signal);
        },
        learn: (admission) => recent.learn(input.botId, admission),
      });
      if (!call.ok) return call;
      const { answer, context } = call.value;
      return ok({ events: cleanedEvents(answer.stream.first, answer.stream.rest, d.streamCleaner(context)) });
    } finally {
      early.call?.discard();
    }
  };
};

/**
 * The call the steps would make for the bot's last known target, started now: with the visitor's
 * key, or with the owner's while its last payment is recent and far from the daily cap (`pay`
 * still counts the answer, and a call it refuses is aborted).
 */
const startEarly = (d: ChatDeps, recent: RecentChatTargets, input: ChatInput, signal: AbortSignal): EarlyCall | null => {
  const target = recent.guess(input.botId);
  if (!target) return null;
  const key = input.apiKey ? visitorKey(input) : d.ownerKey?.paidLately(target, d.clock.now());
  if (!key || !keyReaches(target, key)) return null;
  const settled = recent.began(input.botId);
  return new EarlyCall(d.gateways[target.provider], chatRequest(target, key, input), signal, (outcome) => {
    settled();
    d.onEarlyStart?.(outcome);
  });
};

/** Azure has no public endpoint: a key for it needs the endpoint it belongs to. */
const keyReaches = (target: ChatTarget, key: ChatKey): boolean => target.provider !== 'azure' || Boolean(key.azureEndpoint);

const visitorKey = (input: ChatInput): ChatKey => ({ apiKey: input.apiKey, azureEndpoint: input.azureEndpoint?.trim(), payer: 'visitor' });

/** The provider call for a target: the owner's provider and model decide; the caller cannot choose them. */
const chatRequest = (target: ChatTarget, key: ChatKey, input: ChatInput): LlmRequest => ({
  model: target.model,
  apiKey: key.apiKey,
  system: buildSystemPrompt(target.bot),
  message: input.message,
  maxTokens: CHAT_MAX_OUTPUT_TOKENS,
  temperature: CHAT_TEMPERATURE,
  azureEndpoint: key.azureEndpoint,
  azureApiVersion: input.azureApiVersion?.trim() || undefined,
  payer: key.payer,
});

/** The edge already refused longer messages; a caller that skipped it cannot store more. */
const atMostCodePoints = (text: string, max: number): string => {
  if (text.length <= max) return text;
  return Array.from(text).slice(0, max).join('');
};

type Answered<R> = Extract<R, { ok: true }>;

/** What a streamed chat does beside the steps: start a call while admitting, and learn what admission said. */
interface Beside {
  /** Runs once the message passed the filter, while the admission is still on its way. */
  meanwhile(): void;
  learn(admission: Awaited<ReturnType<ChatAdmission['admit']>>): void;
}

/** Steps 6-11: admission, the message filter, who pays, and the provider call made by `call`. */
async function providerCall<R extends LlmResponse | LlmStreamResponse>(
  d: ChatDeps,
  input: ChatInput,
  call: (gateway: LlmGateway, request: LlmRequest) => Promise<R>,
  beside?: Beside,
): Promise<Result<{ answer: Answered<R>; context: ReplyContext }, ChatError>> {
  // 6-8 in one round trip: an unknown, inactive or ownerless bot look the same and
  // consume nothing; a known one spends one request of its rate limit.
  const admitting = d.admission.admit(input.botId, chatBucket(input.botId), DEFAULT_RATE_LIMITS, d.clock.now());
  // 9 is judged while the admission is on the wire; it decides only after 6-8 passed.
  const verdict = d.checkMessage(input.message);
  if (!verdict.blocked) beside?.meanwhile();
  const admission = await admitting;
  beside?.learn(admission);
  if (!admission.target) return err({ type: 'bot_not_found' });
  const { target, decision } = admission;
  if (!decision.allowed) return err({ type: 'rate_limit', scope: decision.scope, resetAt: decision.resetAt });

  // 9
  if (verdict.blocked) {
    // Kept as the visitor wrote it, so the owner can tell a refused recruiter from an attack;
    // admission came first, so the bot's rate limit bounds how many are kept.
    const content = atMostCodePoints(input.message, CHAT_MESSAGE_MAX_CHARS);
    await d.refused.add({ botId: target.bot.id, reason: verdict.reason, content }, d.clock.now());
    return err({ type: 'blocked', reason: verdict.reason });
  }

  // 10: who pays: the visitor's key wins; else the owner's, if switched on; else missing_llm_key.
  const paid: Result<ChatKey, ChatError> = input.apiKey
    ? ok(visitorKey(input))
    : d.ownerKey
      ? await d.ownerKey.pay(target, d.clock.now())
      : err({ type: 'missing_llm_key' });
  if (!paid.ok) return paid;
  const key = paid.value;
  if (!keyReaches(target, key)) return err({ type: 'missing_llm_key' });
  const request = chatRequest(target, key, input);

  // 11
  const answer = await call(d.gateways[target.provider], request);
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
  return ok({
    answer: answer as Answered<R>,
    context: { systemPrompt: request.system, contextText: target.bot.contextText, callerKey: key.apiKey },
  });
}
