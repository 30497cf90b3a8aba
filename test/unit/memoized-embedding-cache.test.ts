import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { EmbeddingMemo, MemoizedEmbeddingCache } from '../../src/adapters/persistence/memoized-embedding-cache.ts';
import { embeddingCacheContract } from '../contracts/embedding-cache.contract.ts';
import { InMemoryEmbeddingCache } from '../fakes/in-memory-embedding-cache.ts';

const MODEL = 'text-embedding-3-small';

embeddingCacheContract(async () => ({
  subject: new MemoizedEmbeddingCache(new InMemoryEmbeddingCache(), new EmbeddingMemo()),
  botId: randomUUID(),
  otherBotId: randomUUID(),
}));

const setup = (maxVectors = 100) => {
  const shared = new InMemoryEmbeddingCache();
  const memo = new EmbeddingMemo(maxVectors);
  return { shared, memo, cache: new MemoizedEmbeddingCache(shared, memo), botId: randomUUID() };
};

describe('MemoizedEmbeddingCache', () => {
  it('keeps what it wrote or read, so a warm read does not need the shared cache', async () => {
    const { shared, cache, botId } = setup();
    await cache.put(botId, MODEL, [{ chunkHash: 'written', embedding: [0.5, 0.25] }]);
    await shared.put(botId, MODEL, [{ chunkHash: 'elsewhere', embedding: [1, 0] }]);
    expect(await cache.get(botId, MODEL, ['written', 'elsewhere'])).toEqual(
      new Map([
        ['written', [0.5, 0.25]],
        ['elsewhere', [1, 0]],
      ]),
    );
    await shared.invalidate(botId); // behind its back: what it already holds is still served
    expect([...(await cache.get(botId, MODEL, ['written', 'elsewhere'])).keys()].sort()).toEqual(['elsewhere', 'written']);
  });

  it('writes through to the shared cache, rounded like real[]', async () => {
    const { shared, cache, botId } = setup();
    await cache.put(botId, MODEL, [{ chunkHash: 'h', embedding: [0.1] }]);
    expect((await shared.get(botId, MODEL, ['h'])).get('h')).toEqual([0.1]);
    expect((await cache.get(botId, MODEL, ['h'])).get('h')).toEqual([Math.fround(0.1)]);
  });

  it('forgets a bot’s vectors on invalidation, in memory and in the shared cache', async () => {
    const { shared, memo, cache, botId } = setup();
    const otherBot = randomUUID();
    await cache.put(botId, MODEL, [{ chunkHash: 'h', embedding: [1] }]);
    await cache.put(otherBot, MODEL, [{ chunkHash: 'h', embedding: [2] }]);
    await cache.invalidate(botId);
    expect(await cache.get(botId, MODEL, ['h'])).toEqual(new Map());
    expect(await shared.get(botId, MODEL, ['h'])).toEqual(new Map());
    expect(memo.size).toBe(1);
    expect((await cache.get(otherBot, MODEL, ['h'])).get('h')).toEqual([2]);
  });

  it('holds at most maxVectors, dropping the least recently used first', async () => {
    const { shared, memo, cache, botId } = setup(2);
    await cache.put(botId, MODEL, [
      { chunkHash: 'a', embedding: [1] },
      { chunkHash: 'b', embedding: [2] },
    ]);
    await cache.get(botId, MODEL, ['a']); // a is now the most recently used
    await cache.put(botId, MODEL, [{ chunkHash: 'c', embedding: [3] }]);
    expect(memo.size).toBe(2);
    await shared.invalidate(botId);
    expect([...(await cache.get(botId, MODEL, ['a', 'b', 'c'])).keys()].sort()).toEqual(['a', 'c']);
  });
});
