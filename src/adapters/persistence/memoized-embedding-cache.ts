import type { EmbeddingCache } from '../../application/ports.ts';

const keyOf = (botId: string, model: string, chunkHash: string) => `${botId}|${model}|${chunkHash}`;

/**
 * Recently used vectors in process memory, least recently used dropped first. A vector is
 * keyed by the hash of its chunk's text, so a kept entry is never wrong, only unused once
 * the context changes; invalidation frees the memory sooner.
 */
export class EmbeddingMemo {
  private readonly vectors = new Map<string, number[]>();

  /** 2,000 vectors of 1,536 dimensions take about 25 MB. */
  constructor(readonly maxVectors = 2_000) {}

  get(key: string): number[] | undefined {
    const vector = this.vectors.get(key);
    if (vector) {
      this.vectors.delete(key);
      this.vectors.set(key, vector);
    }
    return vector;
  }

  set(key: string, vector: number[]): void {
    this.vectors.delete(key);
    this.vectors.set(key, vector);
    for (const oldest of this.vectors.keys()) {
      if (this.vectors.size <= this.maxVectors) break;
      this.vectors.delete(oldest);
    }
  }

  forgetBot(botId: string): void {
    for (const key of this.vectors.keys()) if (key.startsWith(`${botId}|`)) this.vectors.delete(key);
  }

  get size(): number {
    return this.vectors.size;
  }
}

/**
 * The shared cache (PostgreSQL) behind the process's memo: a warm retrieval reads no
 * vectors from the database. Reading ~70 vectors of 1,536 floats back as bytea costs a few
 * milliseconds; the whole retrieval from memory well under one.
 */
export class MemoizedEmbeddingCache implements EmbeddingCache {
  constructor(
    private readonly shared: EmbeddingCache,
    private readonly memo: EmbeddingMemo,
  ) {}

  async get(botId: string, model: string, chunkHashes: string[]): Promise<Map<string, number[]>> {
    const found = new Map<string, number[]>();
    const missing: string[] = [];
    for (const hash of chunkHashes) {
      const vector = this.memo.get(keyOf(botId, model, hash));
      if (vector) found.set(hash, vector);
      else missing.push(hash);
    }
    if (missing.length === 0) return found;
    for (const [hash, vector] of await this.shared.get(botId, model, missing)) {
      this.memo.set(keyOf(botId, model, hash), vector);
      found.set(hash, vector);
    }
    return found;
  }

  async put(botId: string, model: string, entries: { chunkHash: string; embedding: number[] }[]): Promise<void> {
    await this.shared.put(botId, model, entries);
    // Rounded as the database stores them (real), so scores do not depend on where a vector came from.
    for (const { chunkHash, embedding } of entries) this.memo.set(keyOf(botId, model, chunkHash), embedding.map(Math.fround));
  }

  async invalidate(botId: string): Promise<void> {
    this.memo.forgetBot(botId);
    await this.shared.invalidate(botId);
  }
}
