import { describe, expect, it } from 'vitest';
import { cosineSimilarity, topK } from '../../src/domain/retrieval.ts';

describe('cosine similarity', () => {
  it('is 1 for the same direction, 0 for orthogonal vectors, -1 for opposite ones', () => {
    expect(cosineSimilarity([1, 2, 3], [2, 4, 6])).toBeCloseTo(1, 12);
    expect(cosineSimilarity([1, 0], [0, 5])).toBe(0);
    expect(cosineSimilarity([1, -1], [-1, 1])).toBeCloseTo(-1, 12);
    expect(cosineSimilarity([3, 4], [4, 3])).toBeCloseTo(24 / 25, 12);
  });

  it('is 0 when a vector has no length, and refuses vectors of different lengths', () => {
    expect(cosineSimilarity([0, 0], [1, 1])).toBe(0);
    expect(() => cosineSimilarity([1, 2], [1, 2, 3])).toThrow();
  });
});

describe('top k', () => {
  const items = [
    { item: 'far', vector: [0, 1] },
    { item: 'close', vector: [1, 0.1] },
    { item: 'exact', vector: [2, 0] },
    { item: 'opposite', vector: [-1, 0] },
  ];

  it('returns the k most similar items, best first', () => {
    expect(topK([1, 0], items, 2)).toEqual(['exact', 'close']);
    expect(topK([1, 0], items, 10)).toEqual(['exact', 'close', 'far', 'opposite']);
    expect(topK([1, 0], items, 0)).toEqual([]);
  });

  it('keeps the original order between equal scores', () => {
    const ties = ['a', 'b', 'c'].map((item) => ({ item, vector: [1, 1] }));
    expect(topK([1, 1], ties, 3)).toEqual(['a', 'b', 'c']);
  });
});
