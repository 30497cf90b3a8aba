import type { EmbeddingCache } from '../../application/ports.ts';
import type { Queryable } from './db.ts';

// Vectors are stored as bytea, little-endian float32: reading one back loses precision beyond float32.
const GET = `
  SELECT chunk_hash, embedding FROM embedding_cache
  WHERE bot_id = $1 AND model = $2 AND chunk_hash = ANY($3::text[])`;
const PUT = `
  INSERT INTO embedding_cache (bot_id, model, chunk_hash, embedding)
  SELECT $1, $2, e.chunk_hash, e.embedding
  FROM unnest($3::text[], $4::bytea[]) AS e(chunk_hash, embedding)
  ON CONFLICT (bot_id, model, chunk_hash) DO UPDATE SET embedding = EXCLUDED.embedding`;
const INVALIDATE = 'DELETE FROM embedding_cache WHERE bot_id = $1';

const BYTES_PER_DIMENSION = 4;

// A DataView reads and writes little-endian at any byte offset, whatever the platform's order.
const toBytes = (vector: number[]): Buffer => {
  const bytes = Buffer.allocUnsafe(vector.length * BYTES_PER_DIMENSION);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  for (let i = 0; i < vector.length; i += 1) view.setFloat32(i * BYTES_PER_DIMENSION, vector[i]!, true);
  return bytes;
};

/** The vector those bytes hold, or null when their length cannot be one (a corrupt row). */
const fromBytes = (bytes: Buffer): number[] | null => {
  if (bytes.length % BYTES_PER_DIMENSION !== 0) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  const vector = new Array<number>(bytes.length / BYTES_PER_DIMENSION);
  for (let i = 0; i < vector.length; i += 1) vector[i] = view.getFloat32(i * BYTES_PER_DIMENSION, true);
  return vector;
};

export class PgEmbeddingCache implements EmbeddingCache {
  constructor(private readonly q: Queryable) {}

  async get(botId: string, model: string, chunkHashes: string[]): Promise<Map<string, number[]>> {
    if (chunkHashes.length === 0) return new Map();
    const { rows } = await this.q.query<{ chunk_hash: string; embedding: Buffer }>(GET, [botId, model, chunkHashes]);
    const hits = new Map<string, number[]>();
    for (const row of rows) {
      const vector = fromBytes(row.embedding);
      if (vector) hits.set(row.chunk_hash, vector);
    }
    return hits;
  }

  async put(botId: string, model: string, entries: { chunkHash: string; embedding: number[] }[]): Promise<void> {
    // One row per hash, the last entry winning: an upsert cannot touch the same row twice.
    const byHash = new Map(entries.map((entry) => [entry.chunkHash, entry.embedding]));
    if (byHash.size === 0) return;
    await this.q.query(PUT, [botId, model, [...byHash.keys()], [...byHash.values()].map(toBytes)]);
  }

  async invalidate(botId: string): Promise<void> {
    await this.q.query(INVALIDATE, [botId]);
  }
}
