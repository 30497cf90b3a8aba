import type { EmbeddingGateway, EmbeddingResponse } from '../../src/application/ports.ts';
import { fakeEmbedding } from '@careerbot/testkit';

/**
 * Embeds with the same deterministic bag-of-words vectors as the fake provider server,
 * so texts sharing words are close. Keeps every batch of texts it was asked to embed.
 */
export class FakeEmbeddingGateway implements EmbeddingGateway {
  readonly batches: string[][] = [];
  /** Set to make every call fail this way. */
  failure: Extract<EmbeddingResponse, { ok: false }> | null = null;

  constructor(readonly model = 'fake-embedding-model') {}

  async embed(_apiKey: string, texts: string[]): Promise<EmbeddingResponse> {
    this.batches.push([...texts]);
    if (this.failure) return this.failure;
    return { ok: true, vectors: texts.map((text) => fakeEmbedding(text)) };
  }

  /** Every text embedded so far, in order. */
  get texts(): string[] {
    return this.batches.flat();
  }
}
