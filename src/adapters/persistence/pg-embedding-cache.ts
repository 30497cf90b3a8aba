import type { EmbeddingCache } from '../../application/ports.ts';
import type { Queryable } from './db.ts';

// Vectors are stored as real[] (float4): reading one back loses precision beyond float32.
const GET = `
  SELECT chunk_hash, embedding FROM embedding_cache
  WHERE bot_id = $1 AND model = $2 AND chunk_hash = ANY($3::text[])`;
// Each vector travels as an array literal ('{0.1,0.2}'), since unnest would flatten a 2-D array.
const PUT = `
  INSERT INTO embedding_cache (bot_id, model, chunk_hash, embedding)
  SELECT $1, $2, e.chunk_hash, e.embedding::real[]
  FROM unnest($3::text[], $4::text[]) AS e(chunk_hash, embedding)
  ON CONFLICT (bot_id, model, chunk_hash) DO UPDATE SET embedding = EXCLUDED.embedding`;
const INVALIDATE = 'DELETE FROM embedding_cache WHERE bot_id = $1';

const toArrayLiteral = (vector: number[]): string => `{${vector.join(',')}}`;

export class PgEmbeddingCache implements EmbeddingCache {
  constructor(private readonly q: Queryable) {}

  async get(botId: string, model: string, chunkHashes: string[]): Promise<Map<string, number[]>> {
    if (chunkHashes.length === 0) return new Map();
    const { rows } = await this.q.query<{ chunk_hash: string; embedding: number[] }>(GET, [botId, model, chunkHashes]);
    return new Map(rows.map((row) => [row.chunk_hash, row.embedding]));
  }

  async put(botId: string, model: string, entries: { chunkHash: string; embedding: number[] }[]): Promise<void> {
    // One row per hash, the last entry winning: an upsert cannot touch the same row twice.
    const byHash = new Map(entries.map((entry) => [entry.chunkHash, entry.embedding]));
    if (byHash.size === 0) return;
    await this.q.query(PUT, [botId, model, [...byHash.keys()], [...byHash.values()].map(toArrayLiteral)]);
  }

  async invalidate(botId: string): Promise<void> {
    await this.q.query(INVALIDATE, [botId]);
  }
}
