/** Cosine similarity of two vectors of the same length; 0 when either has no length. */
export const cosineSimilarity = (a: readonly number[], b: readonly number[]): number => {
  if (a.length !== b.length) throw new Error(`vectors of different lengths: ${a.length} and ${b.length}`);
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < a.length; i += 1) {
    const x = a[i]!;
    const y = b[i]!;
    dot += x * y;
    normA += x * x;
    normB += y * y;
  }
  return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB);
};

/** The `k` items most similar to the query, best first; ties keep their original order. */
export const topK = <T>(query: readonly number[], items: readonly { item: T; vector: readonly number[] }[], k: number): T[] =>
  items
    .map(({ item, vector }, index) => ({ item, index, score: cosineSimilarity(query, vector) }))
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, k)
    .map(({ item }) => item);
