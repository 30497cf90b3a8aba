import OpenAI from 'openai';
import { z } from 'zod';
import type { EmbeddingGateway, Fetch, EmbeddingResponse } from './ports.ts';
import { callWithPolicy, MalformedAnswerError, toEmbeddingFailure } from './call-policy.ts';
import { classifyOpenAiError, OPENAI_DEFAULT_BASE_URL } from './openai-llm-gateway.ts';

const DEFAULT_EMBEDDING_MODEL = 'text-embedding-3-small';

export interface OpenAiEmbeddingGatewayOptions {
  baseURL?: string;
  timeoutMs: number;
  model?: string;
  /** Sends the calls; the SDK's own (the global fetch) when absent. */
  fetch?: Fetch;
}

const embeddingAnswer = z.object({
  data: z.array(z.object({ index: z.number().int().nonnegative(), embedding: z.array(z.number()).min(1) })),
});

export class OpenAiEmbeddingGateway implements EmbeddingGateway {
  readonly model: string;
  private readonly baseURL: string;
  private readonly timeoutMs: number;
  private readonly fetch: Fetch | undefined;

  constructor(options: OpenAiEmbeddingGatewayOptions) {
    this.model = options.model || DEFAULT_EMBEDDING_MODEL;
    this.baseURL = options.baseURL || OPENAI_DEFAULT_BASE_URL;
    this.timeoutMs = options.timeoutMs;
    this.fetch = options.fetch;
  }

  async embed(apiKey: string, texts: string[]): Promise<EmbeddingResponse> {
    if (texts.length === 0) return { ok: true, vectors: [] };
    try {
      const outcome = await callWithPolicy(
        this.timeoutMs,
        async (signal) => {
          const client = new OpenAI({
            ...(this.fetch ? { fetch: this.fetch } : {}),
            apiKey,
            baseURL: this.baseURL,
            organization: null,
            project: null,
            maxRetries: 0,
            timeout: this.timeoutMs,
          });
          const answer = await client.embeddings.create(
            { model: this.model, input: texts, encoding_format: 'float' },
            { signal },
          );
          return vectorsInInputOrder(answer, texts.length);
        },
        classifyOpenAiError,
      );
      return outcome.ok ? { ok: true, vectors: outcome.value } : toEmbeddingFailure(outcome.failure);
    } catch {
      return { ok: false, error: 'provider_unavailable' };
    }
  }
}

function vectorsInInputOrder(answer: unknown, count: number): number[][] {
  const parsed = embeddingAnswer.safeParse(answer);
  if (!parsed.success || parsed.data.data.length !== count) throw new MalformedAnswerError('openai embeddings');
  const vectors: (number[] | undefined)[] = new Array<number[] | undefined>(count).fill(undefined);
  for (const item of parsed.data.data) {
    if (item.index >= count || vectors[item.index] !== undefined) throw new MalformedAnswerError('openai embeddings');
    vectors[item.index] = item.embedding;
  }
  return vectors as number[][];
}
