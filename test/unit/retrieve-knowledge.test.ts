import { describe, expect, it } from 'vitest';
import { makeRetrieveKnowledge } from '../../src/application/retrieve-knowledge.ts';
import { makeUpsertBot } from '../../src/application/upsert-bot.ts';
import { chunkText } from '../../src/domain/chunking.ts';
import { runtimeFixture, type RuntimeFixture } from '../support/runtime-fixture.ts';

const KEY = 'sk-embedding-canary-0123456789';

/** Topic paragraphs long enough to be chunks of their own. */
const topic = (subject: string) =>
  Array.from({ length: 9 }, (_, i) => `Note ${i + 1}: Ada ${subject} during that period of her career.`).join(' ');
const TOPICS = ['designed compilers in Rust', 'led kubernetes migrations', 'taught mathematics lectures', 'painted watercolour landscapes', 'managed finance budgets', 'wrote poetry anthologies', 'coached football teams'];
const CONTEXT = TOPICS.map(topic).join('\n\n');

const setup = async (contextText = CONTEXT) => {
  const f = await runtimeFixture({ contextText });
  const retrieve = makeRetrieveKnowledge({ limiter: f.limiter, gateway: f.gateway, cache: f.repos.embeddings, clock: f.clock });
  return { ...f, retrieve };
};

const cachedCount = async (f: RuntimeFixture, contextText: string) =>
  (await f.repos.embeddings.get(f.bot.id, f.gateway.model, chunkText(contextText).map((chunk) => chunk.hash))).size;

describe('RetrieveKnowledge', () => {
  it('returns the whole context without an embedding key, embedding nothing', async () => {
    const f = await setup();
    expect(await f.retrieve({ bot: f.bot, query: 'Rust?' })).toEqual({ ok: true, value: { mode: 'full_context', context: CONTEXT } });
    expect(f.gateway.texts).toEqual([]);
  });

  it('returns at most five chunks, the most relevant first', async () => {
    const f = await setup();
    const result = await f.retrieve({ bot: f.bot, query: 'Which kubernetes migrations did she lead?', embeddingApiKey: KEY });
    if (!result.ok || result.value.mode !== 'retrieval') throw new Error('expected retrieval');
    expect(result.value.chunks).toHaveLength(5);
    expect(result.value.chunks[0]).toContain('kubernetes migrations');
    for (const chunk of result.value.chunks) expect(CONTEXT).toContain(chunk);
  });

  it('embeds the chunks once: later queries embed only the query', async () => {
    const f = await setup();
    await f.retrieve({ bot: f.bot, query: 'first question', embeddingApiKey: KEY });
    const chunks = chunkText(CONTEXT);
    expect(f.gateway.batches[0]).toEqual([...chunks.map((chunk) => chunk.text), 'first question']);
    expect(await cachedCount(f, CONTEXT)).toBe(chunks.length);
    await f.retrieve({ bot: f.bot, query: 'second question', embeddingApiKey: KEY });
    await f.retrieve({ bot: f.bot, query: 'third question', embeddingApiKey: KEY });
    expect(f.gateway.batches.slice(1)).toEqual([['second question'], ['third question']]);
  });

  it('embeds the new chunks after the context changes (UpsertBot invalidates the cache)', async () => {
    const f = await setup();
    await f.retrieve({ bot: f.bot, query: 'q', embeddingApiKey: KEY });
    const changed = `${CONTEXT}\n\n${topic('sailed across oceans')}`;
    const upsert = makeUpsertBot({ transactor: f.repos.transactor, clock: f.clock });
    await upsert(f.owner.id, { ...f.bot, contextText: changed, llmProvider: 'openai', llmModel: null });
    expect(await cachedCount(f, CONTEXT)).toBe(0);

    const result = await f.retrieve({ bot: await f.currentBot(), query: 'Which oceans did she sail across?', embeddingApiKey: KEY });
    expect(f.gateway.batches[1]).toEqual([...chunkText(changed).map((chunk) => chunk.text), 'Which oceans did she sail across?']);
    expect(result.ok && result.value.mode === 'retrieval' && result.value.chunks[0]).toContain('sailed across oceans');
  });

  it('embeds a chunk that occurs twice only once', async () => {
    const f = await setup(`${topic('wrote Rust')}\n\n${topic('led teams')}\n\n${topic('wrote Rust')}`);
    await f.retrieve({ bot: f.bot, query: 'q', embeddingApiKey: KEY });
    const batch = f.gateway.batches[0]!;
    expect(new Set(batch).size).toBe(batch.length);
  });

  it.each([
    ['invalid_embedding_key', { type: 'invalid_embedding_key' }],
    ['provider_unavailable', { type: 'provider_unavailable' }],
  ] as const)('passes a provider failure on: %s, caching nothing', async (error, expected) => {
    const f = await setup();
    f.gateway.failure = { ok: false, error };
    expect(await f.retrieve({ bot: f.bot, query: 'q', embeddingApiKey: KEY })).toEqual({ ok: false, error: expected });
    expect(await cachedCount(f, CONTEXT)).toBe(0);
  });

  it('passes a provider rate limit on with its retry delay', async () => {
    const f = await setup();
    f.gateway.failure = { ok: false, error: 'provider_rate_limit', retryAfterSeconds: 12 };
    expect(await f.retrieve({ bot: f.bot, query: 'q', embeddingApiKey: KEY })).toEqual({
      ok: false,
      error: { type: 'provider_rate_limit', retryAfterSeconds: 12 },
    });
  });

  it('answers bot_not_found for an inactive bot, spending no budget', async () => {
    const f = await setup();
    await f.repos.bots.updateSettings(f.bot.id, { isActive: false }, f.clock.now());
    expect(await f.retrieve({ bot: await f.currentBot(), query: 'q' })).toEqual({ ok: false, error: { type: 'bot_not_found' } });
    await f.repos.bots.updateSettings(f.bot.id, { isActive: true }, f.clock.now());
    for (let i = 0; i < 30; i += 1) expect((await f.retrieve({ bot: await f.currentBot(), query: 'q' })).ok).toBe(true);
  });

  it('keeps its own limit of 30 a minute, whatever the owner set, apart from chat', async () => {
    const f = await setup();
    await f.repos.bots.updateSettings(f.bot.id, { rateLimits: { perMinute: 2 } }, f.clock.now());
    const bot = await f.currentBot();
    for (let i = 0; i < 30; i += 1) expect((await f.retrieve({ bot, query: 'q' })).ok).toBe(true);
    expect(await f.retrieve({ bot, query: 'q' })).toEqual({
      ok: false,
      error: { type: 'rate_limited', scope: 'short', resetAt: Date.parse('2026-11-21T10:01:00.000Z') },
    });
    expect(await f.limiter.consume(`chat:${bot.id}`, { perMinute: 1, perDay: 1 }, f.clock.now())).toEqual({ allowed: true });
    f.clock.advance(60_000);
    expect((await f.retrieve({ bot, query: 'q' })).ok).toBe(true);
  });
});
