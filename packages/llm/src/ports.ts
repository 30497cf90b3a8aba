/**
 * What the provider gateways promise, whoever calls them: the platform's chat use cases and the
 * self-hosted runtime. The platform's application layer re-exports these as its LLM ports.
 */

/** The `fetch` a gateway sends its single-shot calls through (the platform passes a keep-alive one). */
export type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** How a chat gateway reaches its provider; the SDK's own fetch (the global one) for what is left out. */
export interface GatewayTransport {
  /** Sends the single-shot (unstreamed) calls. */
  fetch?: Fetch;
  /** Sends the streamed calls, answering as soon as the head arrives. */
  streamFetch?: Fetch;
}

export type LlmErrorType =
  /** Azure only: the endpoint header is missing, not a URL, or not an allowed host. */
  | 'missing_llm_key'
  | 'invalid_llm_key'
  | 'provider_rate_limit'
  | 'provider_unavailable';

export interface LlmRequest {
  model: string;
  apiKey: string;
  system: string;
  message: string;
  maxTokens: number;
  temperature: number;
  /** Azure only. */
  azureEndpoint?: string;
  azureApiVersion?: string;
  /** Whose key this is, for the metrics (visitor when unset). */
  payer?: 'owner' | 'visitor';
}

export type LlmResponse =
  | { ok: true; text: string }
  | { ok: false; error: LlmErrorType; retryAfterSeconds?: number };

/**
 * A reply being written: its first text has arrived. `rest` yields the texts that follow and
 * throws when the provider fails mid-answer or falls silent too long; leaving it early (the
 * visitor left) aborts the provider call.
 */
export interface LlmTextStream {
  first: string;
  rest: AsyncIterable<string>;
}

export type LlmStreamResponse =
  | { ok: true; stream: LlmTextStream }
  | { ok: false; error: LlmErrorType; retryAfterSeconds?: number };

/** One adapter per provider; each builds its client per request from the caller's key. */
export interface LlmGateway {
  complete(request: LlmRequest): Promise<LlmResponse>;
  /** The same call, streamed; resolves once the first text arrived, or fails as `complete` does. `signal` aborts it. */
  stream(request: LlmRequest, signal: AbortSignal): Promise<LlmStreamResponse>;
}

export type EmbeddingErrorType = 'invalid_embedding_key' | 'provider_rate_limit' | 'provider_unavailable';

export type EmbeddingResponse =
  | { ok: true; vectors: number[][] }
  | { ok: false; error: EmbeddingErrorType; retryAfterSeconds?: number };

export interface EmbeddingGateway {
  readonly model: string;
  embed(apiKey: string, texts: string[]): Promise<EmbeddingResponse>;
}
