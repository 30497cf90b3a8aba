import {
  CHAT_BODY_LIMIT,
  CHAT_MAX_OUTPUT_TOKENS,
  CHAT_TEMPERATURE,
  chatErrorReply,
  cleanedEvents,
  SSE_HEADERS,
  transcriptMessage,
  uuidText,
  wantsEventStream,
  writeEventStream,
  type ChatError,
  type ChatStreamEvent,
} from '@careerbot/chat-protocol';
import type { MessageVerdict, ReplyCleaner, ReplyContext } from '@careerbot/guardrails';
import type { LlmErrorType, LlmGateway, LlmRequest } from '@careerbot/llm';
import { buildSystemPrompt } from '@careerbot/prompt';
import { z } from 'zod';
import type { BotSource } from './bot-source.ts';
import type { Deliveries, TranscriptMessage } from './deliveries.ts';
import type { RuntimeLogger } from './logger.ts';
import type { RuntimeReply, RuntimeRequest } from './exchange.ts';
import { errorResponse, json, readJsonBody, REFUSALS } from './responses.ts';
import type { VisitorLimits } from './visitor-limits.ts';

export const chatRequest = z.object(
  {
    sessionId: uuidText(),
    messages: z
      .array(transcriptMessage, { error: 'Expected an array of messages' })
      .min(1, { message: 'At least 1 message' })
      .max(200, { message: 'At most 200 messages' })
      .refine((messages) => messages.at(-1)?.role === 'user', { message: "The last message must be the visitor's question (role 'user')" }),
  },
  { error: 'Request body must be a JSON object' },
);

export interface ChatDeps {
  bot: BotSource;
  limits: VisitorLimits;
  checkMessage: (text: string) => MessageVerdict;
  cleaner: ReplyCleaner;
  gateway: LlmGateway;
  llm: { model: string; apiKey: string; azureEndpoint?: string };
  deliveries: Deliveries;
  log: RuntimeLogger;
  now: () => number;
}

const providerError = (error: LlmErrorType, retryAfterSeconds: number | undefined): ChatError =>
  error === 'provider_rate_limit' ? { type: 'provider_rate_limit', retryAfterSeconds } : { type: error };

/**
 * POST /chat: the platform's steps, in its order, with its error bodies: validation, the bot
 * (404 when inactive or the token is dead), the visitor's limits, the message filter, knowledge,
 * the system prompt, the provider, reply cleaning; then the transcript goes to the platform.
 */
export const handleChat = async (d: ChatDeps, request: RuntimeRequest, visitor: string, corsHeaders: Record<string, string>): Promise<RuntimeReply> => {
  const refuse = (error: ChatError) => errorResponse(withHeaders(chatErrorReply(error, d.now()), corsHeaders));
  const body = await readJsonBody(request, chatRequest, CHAT_BODY_LIMIT);
  if (!body.ok) return errorResponse(withHeaders(body.reply, corsHeaders));
  const { sessionId, messages } = body.value;
  const question = messages.at(-1)!.content;

  const bot = await d.bot.bot();
  if (bot.kind === 'gone') return refuse({ type: 'bot_not_found' });
  if (bot.kind === 'unknown') return errorResponse(withHeaders(REFUSALS.serviceUnavailable, corsHeaders));

  const admitted = d.limits.admit(visitor);
  if (!admitted.allowed) return refuse({ type: 'rate_limit', scope: admitted.scope, resetAt: admitted.resetAt });

  const verdict = d.checkMessage(question);
  if (verdict.blocked) {
    // Kept for the owner as the platform keeps its own chat's refusals (after the visitor's limits, which bound them).
    d.deliveries.reportRefusal({ reason: verdict.reason, content: question });
    return refuse({ type: 'blocked', reason: verdict.reason });
  }

  const knowledge = await d.bot.knowledgeFor(question);
  if (knowledge.kind === 'gone') return refuse({ type: 'bot_not_found' });
  if (knowledge.kind === 'unknown') return errorResponse(withHeaders(REFUSALS.serviceUnavailable, corsHeaders));

  const { name, headline, personality } = bot.value;
  const system = buildSystemPrompt({ name, headline, personality, contextText: knowledge.text });
  const llmRequest: LlmRequest = {
    model: d.llm.model,
    apiKey: d.llm.apiKey,
    system,
    message: question,
    maxTokens: CHAT_MAX_OUTPUT_TOKENS,
    temperature: CHAT_TEMPERATURE,
    azureEndpoint: d.llm.azureEndpoint,
    payer: 'owner',
  };
  const context: ReplyContext = { systemPrompt: system, contextText: knowledge.text, callerKey: d.llm.apiKey };
  const save = (reply: string) => d.deliveries.saveTranscript(sessionId, [...messages, { role: 'assistant', content: reply } satisfies TranscriptMessage]);

  if (wantsEventStream(request.header('accept'))) {
    const streamed = await d.gateway.stream(llmRequest, request.signal);
    if (!streamed.ok) return refuse(noteProviderRefusal(d, streamed.error, streamed.retryAfterSeconds));
    const events = savedAtTheEnd(cleanedEvents(streamed.stream.first, streamed.stream.rest, d.cleaner.stream(context)), save);
    return {
      status: 200,
      headers: { ...SSE_HEADERS, ...corsHeaders },
      stream: (sink) => writeEventStream(events, { ...sink, left: () => request.signal.aborted }),
    };
  }

  const answer = await d.gateway.complete(llmRequest);
  if (!answer.ok) return refuse(noteProviderRefusal(d, answer.error, answer.retryAfterSeconds));
  const reply = d.cleaner.sanitizeReply(answer.text, context);
  const conversationId = await save(reply);
  return json(200, conversationId ? { reply, conversationId } : { reply }, corsHeaders);
};

const withHeaders = <R extends { headers?: Record<string, string> }>(reply: R, headers: Record<string, string>): R => ({
  ...reply,
  headers: { ...reply.headers, ...headers },
});

/** A refused key is the owner's to fix: said in the log (never the key), answered as the platform answers. */
const noteProviderRefusal = (d: ChatDeps, error: LlmErrorType, retryAfterSeconds: number | undefined): ChatError => {
  if (error === 'invalid_llm_key' || error === 'missing_llm_key') d.log('warn', 'the provider refused LLM_API_KEY (or the Azure endpoint)', { error });
  return providerError(error, retryAfterSeconds);
};

/** The transcript is saved once the reply is whole; `done` carries the conversation id when the platform gave one. */
async function* savedAtTheEnd(events: AsyncIterable<ChatStreamEvent>, save: (reply: string) => Promise<string | undefined>): AsyncGenerator<ChatStreamEvent> {
  for await (const event of events) {
    if (event.type !== 'done') {
      yield event;
      continue;
    }
    const conversationId = await save(event.reply);
    yield conversationId ? { ...event, conversationId } : event;
  }
}
