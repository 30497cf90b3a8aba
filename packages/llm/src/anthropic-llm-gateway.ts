import Anthropic, {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
} from '@anthropic-ai/sdk';
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

const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com';

export interface AnthropicLlmGatewayOptions extends GatewayTransport {
  baseURL?: string;
  timeoutMs: number;
}

const messageAnswer = z.object({
  content: z.array(z.object({ type: z.string(), text: z.string().optional() })),
});

/**
 * `request.temperature` is not sent: @anthropic-ai/sdk 1.x speaks API version 2026-10-21,
 * which answers 400 to any temperature, top_p or top_k (the SDK's types no longer have them).
 */
export class AnthropicLlmGateway implements LlmGateway {
  private readonly timeoutMs: number;
  /** Made once per transport, as OpenAI's: each request carries the caller's key in its own header. */
  private readonly clients: { complete: Anthropic; stream: Anthropic };

  constructor(options: AnthropicLlmGatewayOptions) {
    this.timeoutMs = options.timeoutMs;
    const client = (fetch: Fetch | undefined) =>
      new Anthropic({
        ...(fetch ? { fetch } : {}),
        apiKey: KEY_SENT_PER_REQUEST,
        baseURL: options.baseURL || ANTHROPIC_DEFAULT_BASE_URL,
        maxRetries: 0,
        timeout: options.timeoutMs,
      });
    this.clients = { complete: client(options.fetch), stream: client(options.streamFetch) };
  }

  complete(request: LlmRequest): Promise<LlmResponse> {
    return completeWithPolicy(
      this.timeoutMs,
      async (signal) => {
        const answer = await this.clients.complete.messages.create(
          {
            model: request.model,
            system: request.system,
            messages: [{ role: 'user', content: request.message }],
            max_tokens: request.maxTokens,
          },
          { signal, headers: bearerHeader(request.apiKey) },
        );
        return messageText(answer);
      },
      classifyAnthropicError,
    );
  }

  /** Streamed through `streamFetch` (the SDK's own fetch when absent): `fetch` may buffer whole answers. */
  stream(request: LlmRequest, signal: AbortSignal): Promise<LlmStreamResponse> {
    return streamWithPolicy(
      this.timeoutMs,
      async (callSignal) => {
        const events = await this.clients.stream.messages.create(
          {
            model: request.model,
            system: request.system,
            messages: [{ role: 'user', content: request.message }],
            max_tokens: request.maxTokens,
            stream: true,
          },
          { signal: callSignal, headers: bearerHeader(request.apiKey) },
        );
        return textsOf(events, (event) =>
          event.type === 'content_block_delta' && event.delta.type === 'text_delta' ? event.delta.text : '',
        );
      },
      classifyAnthropicError,
      signal,
    );
  }
}

function messageText(answer: unknown): string {
  const parsed = messageAnswer.safeParse(answer);
  if (!parsed.success) throw new MalformedAnswerError('anthropic');
  const texts = parsed.data.content.flatMap((block) =>
    block.type === 'text' && block.text !== undefined ? [block.text] : [],
  );
  return requireText('anthropic', texts.join(''));
}

function classifyAnthropicError(error: unknown): ProviderFailure {
  if (error instanceof APIConnectionTimeoutError || error instanceof APIUserAbortError) {
    return { kind: 'unavailable', retryable: false };
  }
  if (error instanceof APIConnectionError) return { kind: 'unavailable', retryable: true };
  if (error instanceof APIError && typeof error.status === 'number') {
    return failureForStatus(error.status, retryAfterSecondsFromHeaders(error.headers));
  }
  return failureForUnknownError(error);
}
