import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Queryable } from '../../src/adapters/persistence/db.ts';
import { migrate, migrationFiles, SQL_DIR } from '../../src/adapters/persistence/db.ts';
import { PgEmbeddingCache } from '../../src/adapters/persistence/pg-embedding-cache.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';

const MODEL = 'text-embedding-3-small';
const BYTEA_MIGRATION = '005_embedding_cache_bytea.sql';

const databases: TestDatabase[] = [];
let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
  databases.push(database);
});
afterAll(async () => Promise.all(databases.map((d) => d.drop())));

const insertBot = async (q: Queryable): Promise<string> => {
  const { rows } = await q.query<{ id: string }>(
    `WITH owner AS (
       INSERT INTO users (username, email, password_hash)
       VALUES ('u_' || gen_random_uuid(), gen_random_uuid() || '@example.test', 'not-a-real-hash') RETURNING id)
     INSERT INTO bots (user_id, name, personality, context_text, created_at, updated_at)
     SELECT id, 'Test bot', 'professional', 'Context', now(), now() FROM owner RETURNING id`,
  );
  return rows[0]!.id;
};

describe('PgEmbeddingCache storage (bytea, little-endian float32)', () => {
  it('round-trips 1,536 dimensions at float32 precision, negatives and zeros included', async () => {
    const botId = await insertBot(database.db);
    const cache = new PgEmbeddingCache(database.db);
    const vector = Array.from({ length: 1_536 }, (_, i) => [0.1, -0.1, 1 / 3, -1e-7, 12_345.678, 0, -0, -2.5][i % 8]! * (1 + i / 1_536));
    await cache.put(botId, MODEL, [{ chunkHash: 'h1', embedding: vector }]);

    const got = (await cache.get(botId, MODEL, ['h1'])).get('h1');
    expect(got).toEqual(vector.map(Math.fround));
    expect(got![0]).toBe(Math.fround(0.1));
    expect(got![0]).not.toBe(0.1);

    const { rows } = await database.db.query<{ size: number; head: Buffer }>(
      'SELECT octet_length(embedding) AS size, substring(embedding FROM 1 FOR 4) AS head FROM embedding_cache WHERE bot_id = $1',
      [botId],
    );
    expect(rows[0]!.size).toBe(1_536 * 4);
    expect(rows[0]!.head).toEqual(Buffer.from([0xcd, 0xcc, 0xcc, 0x3d])); // 0.1 as float32 0x3dcccccd, little-endian
  });

  it('reads a row whose length is not a whole number of floats as a miss, and a put replaces it', async () => {
    const botId = await insertBot(database.db);
    const cache = new PgEmbeddingCache(database.db);
    await cache.put(botId, MODEL, [{ chunkHash: 'good', embedding: [0.5, -0.25] }]);
    await database.db.query(
      `INSERT INTO embedding_cache (bot_id, model, chunk_hash, embedding) VALUES ($1, $2, 'corrupt', '\\x0102030405'::bytea)`,
      [botId, MODEL],
    );

    expect(await cache.get(botId, MODEL, ['good', 'corrupt'])).toEqual(new Map([['good', [0.5, -0.25]]]));
    await cache.put(botId, MODEL, [{ chunkHash: 'corrupt', embedding: [1, 2] }]);
    expect(await cache.get(botId, MODEL, ['corrupt'])).toEqual(new Map([['corrupt', [1, 2]]]));
  });
});

describe(`migration ${BYTEA_MIGRATION}`, () => {
  it('empties a cache of real[] vectors and leaves a bytea column that works', async () => {
    const older = (await migrationFiles()).filter((file) => file < BYTEA_MIGRATION);
    const dir = await mkdtemp(path.join(tmpdir(), 'careerbot-sql-'));
    try {
      await Promise.all(older.map((file) => copyFile(path.join(SQL_DIR, file), path.join(dir, file))));
      const unmigrated = await createTestDatabase({ migrated: false });
      databases.push(unmigrated);
      expect(await migrate(unmigrated.url, dir)).toEqual(older);

      const botId = await insertBot(unmigrated.db);
      await unmigrated.db.query(
        `INSERT INTO embedding_cache (bot_id, model, chunk_hash, embedding) VALUES ($1, $2, 'old', '{0.1,0.2}'::real[])`,
        [botId, MODEL],
      );
      expect(await migrate(unmigrated.url)).toContain(BYTEA_MIGRATION);

      const cache = new PgEmbeddingCache(unmigrated.db);
      expect(await cache.get(botId, MODEL, ['old'])).toEqual(new Map());
      await cache.put(botId, MODEL, [{ chunkHash: 'old', embedding: [0.5] }]);
      expect(await cache.get(botId, MODEL, ['old'])).toEqual(new Map([['old', [0.5]]]));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
