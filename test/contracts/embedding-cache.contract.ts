import { describe, expect, it } from 'vitest';
import type { EmbeddingCache } from '../../src/application/ports.ts';

export interface EmbeddingCacheFixture {
  subject: EmbeddingCache;
  /** Two bots with nothing cached yet. */
  botId: string;
  otherBotId: string;
}

const MODEL = 'text-embedding-3-small';

/** Vectors may come back as float32 (as PostgreSQL stores them): equal within that precision. */
const expectVectors = (actual: Map<string, number[]>, expected: Record<string, number[]>) => {
  expect([...actual.keys()].sort()).toEqual(Object.keys(expected).sort());
  for (const [hash, vector] of Object.entries(expected)) {
    const got = actual.get(hash)!;
    expect(got).toHaveLength(vector.length);
    vector.forEach((value, i) => expect(got[i]).toBeCloseTo(value, 6));
  }
};

export const embeddingCacheContract = (makeSubject: () => Promise<EmbeddingCacheFixture>) => {
  describe('EmbeddingCache contract', () => {
    it('returns only the hits', async () => {
      const { subject, botId } = await makeSubject();
      expect(await subject.get(botId, MODEL, ['h1'])).toEqual(new Map());
      await subject.put(botId, MODEL, [
        { chunkHash: 'h1', embedding: [0.123456789, -0.5, 1e-3] },
        { chunkHash: 'h2', embedding: [0, 0.25, -0.987654321] },
      ]);
      expectVectors(await subject.get(botId, MODEL, ['h1', 'h2', 'missing']), {
        h1: [0.123456789, -0.5, 1e-3],
        h2: [0, 0.25, -0.987654321],
      });
      expectVectors(await subject.get(botId, MODEL, ['h2']), { h2: [0, 0.25, -0.987654321] });
      expect(await subject.get(botId, MODEL, [])).toEqual(new Map());
    });

    it('replaces a vector put again, the last entry of one batch winning', async () => {
      const { subject, botId } = await makeSubject();
      await subject.put(botId, MODEL, [{ chunkHash: 'h1', embedding: [1, 2, 3] }]);
      await subject.put(botId, MODEL, [
        { chunkHash: 'h1', embedding: [4, 5, 6] },
        { chunkHash: 'h1', embedding: [7, 8, 9] },
      ]);
      expectVectors(await subject.get(botId, MODEL, ['h1']), { h1: [7, 8, 9] });
    });

    it('keeps vectors apart by bot and by model', async () => {
      const { subject, botId, otherBotId } = await makeSubject();
      await subject.put(botId, MODEL, [{ chunkHash: 'h1', embedding: [1, 0] }]);
      await subject.put(botId, 'text-embedding-3-large', [{ chunkHash: 'h1', embedding: [0, 1] }]);
      expectVectors(await subject.get(botId, MODEL, ['h1']), { h1: [1, 0] });
      expectVectors(await subject.get(botId, 'text-embedding-3-large', ['h1']), { h1: [0, 1] });
      expect(await subject.get(otherBotId, MODEL, ['h1'])).toEqual(new Map());
    });

    it('invalidates every vector of one bot, whatever the model, and only that bot’s', async () => {
      const { subject, botId, otherBotId } = await makeSubject();
      await subject.put(botId, MODEL, [{ chunkHash: 'h1', embedding: [1] }]);
      await subject.put(botId, 'other-model', [{ chunkHash: 'h1', embedding: [2] }]);
      await subject.put(otherBotId, MODEL, [{ chunkHash: 'h1', embedding: [3] }]);
      await subject.invalidate(botId);
      expect(await subject.get(botId, MODEL, ['h1'])).toEqual(new Map());
      expect(await subject.get(botId, 'other-model', ['h1'])).toEqual(new Map());
      expectVectors(await subject.get(otherBotId, MODEL, ['h1']), { h1: [3] });
    });
  });
};
