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

export class OpenAiLlmGateway implements LlmGateway {
  private readonly baseURL: string;
  private readonly timeoutMs: number;
  private readonly fetch: Fetch | undefined;
  private readonly streamFetch: Fetch | undefined;

  constructor(options: OpenAiLlmGatewayOptions) {
    this.baseURL = options.baseURL || OPENAI_DEFAULT_BASE_URL;
    this.timeoutMs = options.timeoutMs;
    this.fetch = options.fetch;
    this.streamFetch = options.streamFetch;
  }

  complete(request: LlmRequest): Promise<LlmResponse> {
    return completeWithPolicy(
      this.timeoutMs,
      async (signal) => {
        const answer = await this.client(request, this.fetch).chat.completions.create(chatCompletionBody(request), { signal });
        return chatCompletionText('openai', answer);
      },
      classifyOpenAiError,
    );
  }

  /** Streamed through `streamFetch` (the SDK's own fetch when absent): `fetch` may buffer whole answers. */
  stream(request: LlmRequest, signal: AbortSignal): Promise<LlmStreamResponse> {
    return streamChatCompletion(this.timeoutMs, this.client(request, this.streamFetch), request, signal);
  }

  private client(request: LlmRequest, fetch?: Fetch): OpenAI {
    return new OpenAI({
      ...(fetch ? { fetch } : {}),
      apiKey: request.apiKey,
      baseURL: this.baseURL,
      organization: null,
      project: null,
      maxRetries: 0,
      timeout: this.timeoutMs,
    });
  }
}

/** A streamed chat completion (OpenAI and Azure OpenAI), with the client made for this request. */
export function streamChatCompletion(timeoutMs: number, client: OpenAI, request: LlmRequest, signal: AbortSignal): Promise<LlmStreamResponse> {
  return streamWithPolicy(
    timeoutMs,
    async (callSignal) => {
      const chunks = await client.chat.completions.create({ ...chatCompletionBody(request), stream: true }, { signal: callSignal });
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
