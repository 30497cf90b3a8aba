import { KNOWLEDGE_RATE_LIMITS } from '../domain/bot-rules.ts';
import { chunkText, type Chunk } from '../domain/chunking.ts';
import { err, ok, type Result } from '../domain/result.ts';
import { topK } from '../domain/retrieval.ts';
import type { Bot } from '../domain/types.ts';
import type { Clock, EmbeddingCache, EmbeddingGateway, RateLimiter, RateLimitScope } from './ports.ts';

const KNOWLEDGE_TOP_K = 5;

export interface KnowledgeInput {
  bot: Bot;
  query: string;
  /** The caller's own embeddings key; without one the whole context is returned. */
  embeddingApiKey?: string;
}

export type Knowledge = { mode: 'full_context'; context: string } | { mode: 'retrieval'; chunks: string[] };

export type KnowledgeError =
  | { type: 'bot_not_found' }
  | { type: 'rate_limited'; scope: RateLimitScope; resetAt: number }
  | { type: 'invalid_embedding_key' }
  | { type: 'provider_rate_limit'; retryAfterSeconds?: number }
  | { type: 'provider_unavailable' };

const knowledgeBucket = (botId: string) => `v1:knowledge:${botId}`;

/** One chunk per hash: a paragraph repeated in the context is embedded once. */
const distinctByHash = (chunks: Chunk[]) => [...new Map(chunks.map((chunk) => [chunk.hash, chunk])).values()];

const REMEMBERED_CONTEXTS = 100;

/** Chunking is pure: the chunks of recently seen contexts are kept, keyed by the text itself. */
const rememberedChunking = () => {
  const chunksByContext = new Map<string, Chunk[]>();
  return (contextText: string): Chunk[] => {
    const known = chunksByContext.get(contextText);
    if (known) return known;
    const chunks = distinctByHash(chunkText(contextText));
    if (chunksByContext.size >= REMEMBERED_CONTEXTS) chunksByContext.delete(chunksByContext.keys().next().value!);
    chunksByContext.set(contextText, chunks);
    return chunks;
  };
};

/**
 * Retrieval embeds the chunks missing from the cache together with the query, in one
 * provider call, and caches them; once the cache is warm only the query is embedded.
 * No transaction is open during the provider call.
 */
export const makeRetrieveKnowledge = (d: { limiter: RateLimiter; gateway: EmbeddingGateway; cache: EmbeddingCache; clock: Clock }) => {
  const chunksOf = rememberedChunking();
  return async (input: KnowledgeInput): Promise<Result<Knowledge, KnowledgeError>> => {
    const { bot } = input;
    if (!bot.isActive) return err({ type: 'bot_not_found' });
    const admission = await d.limiter.consume(knowledgeBucket(bot.id), KNOWLEDGE_RATE_LIMITS, d.clock.now());
    if (!admission.allowed) return err({ type: 'rate_limited', scope: admission.scope, resetAt: admission.resetAt });
    if (!input.embeddingApiKey) return ok({ mode: 'full_context', context: bot.contextText });

    const chunks = chunksOf(bot.contextText);
    const cached = await d.cache.get(bot.id, d.gateway.model, chunks.map((chunk) => chunk.hash));
    const missing = chunks.filter((chunk) => !cached.has(chunk.hash));
    const embedded = await d.gateway.embed(input.embeddingApiKey, [...missing.map((chunk) => chunk.text), input.query]);
    if (!embedded.ok) {
      return err(
        embedded.error === 'provider_rate_limit'
          ? { type: 'provider_rate_limit', retryAfterSeconds: embedded.retryAfterSeconds }
          : { type: embedded.error },
      );
    }
    const fresh = missing.map((chunk, i) => ({ chunkHash: chunk.hash, embedding: embedded.vectors[i]! }));
    if (fresh.length > 0) await d.cache.put(bot.id, d.gateway.model, fresh);

    const vectors = new Map([...cached, ...fresh.map((entry) => [entry.chunkHash, entry.embedding] as const)]);
    const queryVector = embedded.vectors[missing.length]!;
    const scored = chunks.map((chunk) => ({ item: chunk.text, vector: vectors.get(chunk.hash)! }));
    return ok({ mode: 'retrieval', chunks: topK(queryVector, scored, KNOWLEDGE_TOP_K) });
  };
};
