import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { z } from 'zod';
import type { Fetch, LlmGateway, LlmRequest, LlmResponse, LlmStreamResponse, GatewayTransport } from './ports.ts';
import {
  completeWithPolicy,
  failureForStatus,
  failureForUnknownError,
  MalformedAnswerError,
  requireText,
  retryAfterSecondsFromHeaders,
  streamWithPolicy,
  textsOf,
  bearerHeader,
  KEY_SENT_PER_REQUEST,
  type ProviderFailure,
} from './call-policy.ts';

export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

export interface OpenAiLlmGatewayOptions extends GatewayTransport {
  baseURL?: string;
  timeoutMs: number;
}

const chatCompletionAnswer = z.object({
  choices: z
    .array(z.object({ message: z.object({ content: z.string().nullish() }) }))
    .min(1),
});

/**
 * One SDK client per transport, made once: building a client per request cost about 4 % of a
 * streamed reply's CPU. The caller's key is never kept in it: each request carries its own
 * Authorization header, which the SDK lets override the client's (a placeholder never sent).
 */
export class OpenAiLlmGateway implements LlmGateway {
  private readonly timeoutMs: number;
  private readonly clients: { complete: OpenAI; stream: OpenAI };

  constructor(options: OpenAiLlmGatewayOptions) {
    this.timeoutMs = options.timeoutMs;
    const client = (fetch: Fetch | undefined) =>
      new OpenAI({
        ...(fetch ? { fetch } : {}),
        apiKey: KEY_SENT_PER_REQUEST,
        baseURL: options.baseURL || OPENAI_DEFAULT_BASE_URL,
        organization: null,
        project: null,
        maxRetries: 0,
        timeout: options.timeoutMs,
      });
    this.clients = { complete: client(options.fetch), stream: client(options.streamFetch) };
  }

  complete(request: LlmRequest): Promise<LlmResponse> {
    return completeWithPolicy(
      this.timeoutMs,
      async (signal) => {
        const answer = await this.clients.complete.chat.completions.create(chatCompletionBody(request), { signal, headers: bearerHeader(request.apiKey) });
        return chatCompletionText('openai', answer);
      },
      classifyOpenAiError,
    );
  }

  /** Streamed through `streamFetch` (the SDK's own fetch when absent): `fetch` may buffer whole answers. */
  stream(request: LlmRequest, signal: AbortSignal): Promise<LlmStreamResponse> {
    return streamChatCompletion(this.timeoutMs, this.clients.stream, request, signal, bearerHeader(request.apiKey));
  }
}

/** A streamed chat completion (OpenAI and Azure OpenAI); `headers` carry the caller's key when the client does not. */
export function streamChatCompletion(
  timeoutMs: number,
  client: OpenAI,
  request: LlmRequest,
  signal: AbortSignal,
  headers?: Record<string, string>,
): Promise<LlmStreamResponse> {
  return streamWithPolicy(
    timeoutMs,
    async (callSignal) => {
      const chunks = await client.chat.completions.create({ ...chatCompletionBody(request), stream: true }, { signal: callSignal, headers });
      return textsOf(chunks, (chunk) => chunk.choices[0]?.delta?.content);
    },
    classifyOpenAiError,
    signal,
  );
}

/** The single-turn chat body shared by OpenAI and Azure OpenAI. */
export function chatCompletionBody(request: LlmRequest) {
  return {
    model: request.model,
    messages: [
      { role: 'system' as const, content: request.system },
      { role: 'user' as const, content: request.message },
    ],
    max_tokens: request.maxTokens,
    temperature: request.temperature,
  };
}

export function chatCompletionText(provider: string, answer: unknown): string {
  const parsed = chatCompletionAnswer.safeParse(answer);
  if (!parsed.success) throw new MalformedAnswerError(provider);
  return requireText(provider, parsed.data.choices[0]?.message.content);
}

/** Classifies errors of the `openai` SDK (OpenAI, Azure OpenAI and embeddings). */
export function classifyOpenAiError(error: unknown): ProviderFailure {
  if (error instanceof APIConnectionTimeoutError || error instanceof APIUserAbortError) {
    return { kind: 'unavailable', retryable: false };
  }
  if (error instanceof APIConnectionError) return { kind: 'unavailable', retryable: true };
  if (error instanceof APIError && typeof error.status === 'number') {
    return failureForStatus(error.status, retryAfterSecondsFromHeaders(error.headers));
  }
  return failureForUnknownError(error);
}
