import type { EmbeddingCache } from '../../src/application/ports.ts';

const key = (botId: string, model: string, chunkHash: string) => JSON.stringify([botId, model, chunkHash]);

export class InMemoryEmbeddingCache implements EmbeddingCache {
  private readonly vectors = new Map<string, { botId: string; embedding: number[] }>();

  async get(botId: string, model: string, chunkHashes: string[]): Promise<Map<string, number[]>> {
    const hits = new Map<string, number[]>();
    for (const chunkHash of chunkHashes) {
      const cached = this.vectors.get(key(botId, model, chunkHash));
      if (cached) hits.set(chunkHash, [...cached.embedding]);
    }
    return hits;
  }

  async put(botId: string, model: string, entries: { chunkHash: string; embedding: number[] }[]): Promise<void> {
    for (const { chunkHash, embedding } of entries) {
      this.vectors.set(key(botId, model, chunkHash), { botId, embedding: [...embedding] });
    }
  }

  async invalidate(botId: string): Promise<void> {
    for (const [cacheKey, cached] of this.vectors) {
      if (cached.botId === botId) this.vectors.delete(cacheKey);
    }
  }
}
