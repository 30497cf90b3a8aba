import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { chunkText } from '../../src/domain/chunking.ts';
import { type FakeLlmProvider, fakeReply, HttpClient, startFakeLlmProvider, validBot } from '@careerbot/testkit';
import { ownerWithToken } from '../support/runtime-clients.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { awayFromWindowEnd, MINUTE_MS } from '../support/windows.ts';

const EMBEDDING_KEY = 'sk-embed-canary-DO-NOT-LEAK-0123456789abcdef';
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

let provider: FakeLlmProvider;
let app: TestApp;
beforeAll(async () => {
  provider = await startFakeLlmProvider();
  app = await startTestApp({
    env: { OPENAI_BASE_URL: provider.baseUrls.openai, EMBEDDING_MODEL: 'text-embedding-3-small', LLM_TIMEOUT_MS: '2000' },
  });
});
afterAll(async () => {
  await app?.close();
  await provider?.close();
});
beforeEach(() => provider.reset());

const user = (content: string) => ({ role: 'user', content });
const assistant = (content: string) => ({ role: 'assistant', content });

const embeddingInputs = () =>
  provider.requests.filter((request) => request.provider === 'embeddings').map((request) => (request.body as { input: string[] }).input);

const expectValidation = (response: { status: number; json: any }, field: string) => {
  expect(response.status).toBe(400);
  expect(response.json).toEqual({ error: 'validation_failed', details: { fieldErrors: { [field]: expect.any(Array) }, formErrors: [] } });
};

/** Rate-limit tests count within one UTC minute window: start them well before its end. */
const awayFromMinuteEnd = () => awayFromWindowEnd(MINUTE_MS);

/** Retry-After is whole seconds to resetAt, rounded up, computed a moment before we look. */
const expectRetryAfter = (response: { headers: Headers; json: any }) => {
  const atLeast = Math.max(1, Math.ceil((response.json.resetAt - Date.now()) / 1000));
  expect([atLeast, atLeast + 1]).toContain(Number(response.headers.get('retry-after')));
};

const storedMessages = async (conversationId: string) =>
  (
    await app.db.query('SELECT role, content FROM conversation_messages WHERE conversation_id = $1 ORDER BY position', [conversationId])
  ).rows;

const notificationsOf = async (userId: string, kind: string) =>
  (await app.db.query('SELECT payload FROM notifications WHERE user_id = $1 AND kind = $2', [userId, kind])).rows.map(
    (row) => row.payload,
  );

// ---------------------------------------------------------------- config and avatar

describe('GET /api/v1/bot/config', () => {
  it('answers 200 with the configuration view, headline null when unset', async () => {
    const { widget, botId } = await ownerWithToken(app.baseUrl, { headline: undefined });
    const response = await widget.get('/config');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.json).toEqual({
      id: botId,
      name: 'Ada Lovelace',
      headline: null,
      personality: 'professional',
      themeColor: '#4f46e5',
      image: `/api/avatars/${botId}.svg`,
      suggestedQuestions: ['What did Ada build?', 'Who did she work with?'],
      loadingMessages: expect.arrayContaining([expect.any(String)]),
      isActive: true,
      deploymentMode: 'managed',
    });
  });

  it('supports ETag and If-None-Match: 304 while nothing changed, a new ETag when any field changes', async () => {
    const { widget, client } = await ownerWithToken(app.baseUrl);
    const first = await widget.get('/config');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[^"]+"$/);
    const unchanged = await widget.get('/config', { 'if-none-match': etag });
    expect(unchanged.status).toBe(304);
    expect(unchanged.text).toBe('');
    expect((await widget.get('/config', { 'if-none-match': `"other", W/${etag}` })).status).toBe(304);

    const seen = new Set([etag]);
    const changes: [string, () => Promise<unknown>, Record<string, unknown>][] = [
      ['themeColor', () => client.patch('/api/bots/settings', { themeColor: '#112233' }), { themeColor: '#112233' }],
      ['deploymentMode', () => client.patch('/api/bots/settings', { deploymentMode: 'self_hosted' }), { deploymentMode: 'self_hosted' }],
      ['name', () => client.post('/api/bots', validBot({ name: 'Countess Ada' })), { name: 'Countess Ada' }],
      ['suggestedQuestions', () => client.post('/api/bots', validBot({ name: 'Countess Ada', suggestedQuestions: ['New?'] })), { suggestedQuestions: ['New?'] }],
      ['isActive', () => client.patch('/api/bots/settings', { isActive: false }), { isActive: false }],
    ];
    let previous = etag;
    for (const [field, change, expected] of changes) {
      await change();
      const response = await widget.get('/config', { 'if-none-match': previous });
      expect(response.status, field).toBe(200);
      expect(response.json).toMatchObject(expected);
      previous = response.headers.get('etag')!;
      expect(seen.has(previous), field).toBe(false);
      seen.add(previous);
    }
  });

  it('still serves an inactive bot’s config, with isActive false', async () => {
    const { widget, client } = await ownerWithToken(app.baseUrl);
    await client.patch('/api/bots/settings', { isActive: false });
    const response = await widget.get('/config');
    expect(response.status).toBe(200);
    expect(response.json.isActive).toBe(false);
  });
});

describe('the public avatar', () => {
  it('serves an SVG with the initials, a restrictive policy and public CORS', async () => {
    const { widget } = await ownerWithToken(app.baseUrl);
    const { image } = (await widget.get('/config')).json;
    const response = await fetch(`${app.baseUrl}${image}`, { headers: { origin: 'https://portfolio.example' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const svg = await response.text();
    expect(svg).toMatch(/^<svg /);
    expect(svg).toContain('>AL</text>');
  });

  it('escapes a hostile bot name', async () => {
    const { widget } = await ownerWithToken(app.baseUrl, { name: '<script>alert(1)</script> "Eve"' });
    const svg = await (await fetch(`${app.baseUrl}${(await widget.get('/config')).json.image}`)).text();
    expect(svg).not.toContain('<script');
    expect(svg).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &quot;Eve&quot;');
  });

  it('answers 404 not_found for a switched-off bot, as its public view and page do, and 200 again once it is on', async () => {
    const { client, botId } = await ownerWithToken(app.baseUrl, { name: 'Grace Brewster Hopper' });
    const avatar = () => new HttpClient(app.baseUrl).get(`/api/avatars/${botId}.svg`);
    expect((await avatar()).status).toBe(200);
    expect((await client.patch('/api/bots/settings', { isActive: false })).status).toBe(200);
    const off = await avatar();
    expect(off.status).toBe(404);
    expect(off.json).toEqual({ error: 'not_found' });
    expect(off.text).not.toContain('Hopper');
    expect((await new HttpClient(app.baseUrl).get(`/api/bots/${botId}/public`)).status).toBe(404);
    expect((await client.patch('/api/bots/settings', { isActive: true })).status).toBe(200);
    expect((await avatar()).status).toBe(200);
  });

  it.each([
    ['an unknown bot', () => `${randomUUID()}.svg`],
    ['a non-UUID name', () => 'nobody.svg'],
    ['another extension', () => `${randomUUID()}.png`],
  ])('answers 404 not_found for %s', async (_label, file) => {
    const response = await new HttpClient(app.baseUrl).get(`/api/avatars/${file()}`);
    expect(response.status).toBe(404);
    expect(response.json).toEqual({ error: 'not_found' });
  });
});

// ---------------------------------------------------------------- knowledge

const TOPICS = [
  'designed compilers in Rust for embedded devices',
  'led kubernetes migrations for payment platforms',
  'taught mathematics lectures at the university',
  'organised open source conferences in Lisbon',
  'managed finance budgets for research teams',
  'wrote poetry anthologies about engines',
  'coached football teams on weekends',
];
const topic = (subject: string) => Array.from({ length: 9 }, (_, i) => `Note ${i + 1}: Ada ${subject}.`).join(' ');
const CONTEXT = TOPICS.map(topic).join('\n\n');

describe('POST /api/v1/bot/knowledge', () => {
  it('answers 200 { mode: full_context, context } without an embedding key, calling no provider', async () => {
    const { widget } = await ownerWithToken(app.baseUrl, { contextText: CONTEXT });
    for (const body of [{ query: 'Rust?' }, { query: 'Rust?', embeddingApiKey: null }, { query: 'Rust?', embeddingApiKey: '  ' }]) {
      const response = await widget.post('/knowledge', body);
      expect(response.status).toBe(200);
      expect(response.json).toEqual({ mode: 'full_context', context: CONTEXT });
    }
    expect(embeddingInputs()).toEqual([]);
  });

  it('answers 200 { mode: retrieval, chunks }: at most 5 chunks, the best first, through the base-URL override', async () => {
    const { widget } = await ownerWithToken(app.baseUrl, { contextText: CONTEXT });
    const response = await widget.post('/knowledge', { query: 'Which kubernetes migrations did Ada lead?', embeddingApiKey: EMBEDDING_KEY });
    expect(response.status).toBe(200);
    expect(response.json.mode).toBe('retrieval');
    expect(response.json.chunks).toHaveLength(5);
    expect(response.json.chunks[0]).toContain('kubernetes migrations');
    for (const chunk of response.json.chunks) expect(CONTEXT).toContain(chunk);
    const [request] = provider.requests;
    expect(request!.path).toBe('/v1/embeddings');
    expect(request!.model).toBe('text-embedding-3-small');
    expect(request!.headers.authorization).toBe(`Bearer ${EMBEDDING_KEY}`);
  });

  it('caches chunk embeddings in PostgreSQL: later queries embed only the query', async () => {
    const { widget, botId } = await ownerWithToken(app.baseUrl, { contextText: CONTEXT });
    const chunks = chunkText(CONTEXT).map((chunk) => chunk.text);
    await widget.post('/knowledge', { query: 'Rust compilers?', embeddingApiKey: EMBEDDING_KEY });
    expect(embeddingInputs()).toEqual([[...chunks, 'Rust compilers?']]);
    const { rows } = await app.db.query('SELECT model, count(*)::int AS count FROM embedding_cache WHERE bot_id = $1 GROUP BY model', [botId]);
    expect(rows).toEqual([{ model: 'text-embedding-3-small', count: chunks.length }]);

    provider.reset();
    const second = await widget.post('/knowledge', { query: 'Football coaching?', embeddingApiKey: EMBEDDING_KEY });
    const third = await widget.post('/knowledge', { query: 'Poetry?', embeddingApiKey: EMBEDDING_KEY });
    expect(embeddingInputs()).toEqual([['Football coaching?'], ['Poetry?']]);
    expect(second.json.chunks[0]).toContain('football');
    expect(third.json.chunks[0]).toContain('poetry');
  });

  it('shares the cache through PostgreSQL: another instance on the same database embeds only the query', async () => {
    const { widget, token } = await ownerWithToken(app.baseUrl, { contextText: CONTEXT });
    await widget.post('/knowledge', { query: 'Rust compilers?', embeddingApiKey: EMBEDDING_KEY });
    const second = await startTestApp({ database: app.database, env: { OPENAI_BASE_URL: provider.baseUrls.openai } });
    try {
      provider.reset();
      const response = await new HttpClient(second.baseUrl).post(
        '/api/v1/bot/knowledge',
        { query: 'Mathematics lectures at the university?', embeddingApiKey: EMBEDDING_KEY },
        { authorization: `Bearer ${token}` },
      );
      expect(response.status).toBe(200);
      expect(embeddingInputs()).toEqual([['Mathematics lectures at the university?']]);
      expect(response.json.chunks[0]).toContain('mathematics lectures');
    } finally {
      await second.close();
    }
  });

  it('invalidates the cache when the owner changes the context, and retrieves from the new one', async () => {
    const { widget, client, botId } = await ownerWithToken(app.baseUrl, { contextText: CONTEXT });
    await widget.post('/knowledge', { query: 'Rust?', embeddingApiKey: EMBEDDING_KEY });
    const cached = async () =>
      (await app.db.query<{ n: number }>('SELECT count(*)::int AS n FROM embedding_cache WHERE bot_id = $1', [botId])).rows[0]!.n;
    expect(await cached()).toBeGreaterThan(0);

    await client.post('/api/bots', validBot({ contextText: CONTEXT, name: 'Renamed only' }));
    expect(await cached()).toBeGreaterThan(0);

    const changed = `${CONTEXT}\n\n${topic('sailed solo across the Atlantic ocean')}`;
    await client.post('/api/bots', validBot({ contextText: changed }));
    expect(await cached()).toBe(0);

    provider.reset();
    const response = await widget.post('/knowledge', { query: 'Which ocean did she sail across?', embeddingApiKey: EMBEDDING_KEY });
    expect(embeddingInputs()).toEqual([[...chunkText(changed).map((chunk) => chunk.text), 'Which ocean did she sail across?']]);
    expect(response.json.chunks[0]).toContain('Atlantic');
  });

  it.each([
    [401, 400, { error: 'invalid_embedding_key' }],
    [403, 400, { error: 'invalid_embedding_key' }],
    [429, 429, { error: 'provider_rate_limit' }],
    [500, 502, { error: 'provider_unavailable' }],
    [404, 502, { error: 'provider_unavailable' }],
  ])('maps a provider %s to %s', async (status, expected, body) => {
    const { widget } = await ownerWithToken(app.baseUrl, { contextText: CONTEXT });
    provider.respondWith(fakeReply.status(status, status === 429 ? { retryAfter: 9 } : {}));
    const response = await widget.post('/knowledge', { query: 'Rust?', embeddingApiKey: EMBEDDING_KEY });
    expect(response.status).toBe(expected);
    expect(response.json).toEqual(body);
    if (status === 429) expect(response.headers.get('retry-after')).toBe('9');
  });

  it('never lets the embedding key reach a response, a log line or the database', async () => {
    const { widget } = await ownerWithToken(app.baseUrl, { contextText: CONTEXT });
    const responses = [await widget.post('/knowledge', { query: 'Rust?', embeddingApiKey: EMBEDDING_KEY })];
    provider.respondWith(fakeReply.status(401));
    responses.push(await widget.post('/knowledge', { query: 'Rust again?', embeddingApiKey: EMBEDDING_KEY }));
    provider.respondWith(fakeReply.connectionReset());
    responses.push(await widget.post('/knowledge', { query: 'And again?', embeddingApiKey: EMBEDDING_KEY }));
    responses.push(await widget.post('/knowledge', { query: 'x'.repeat(2_001), embeddingApiKey: EMBEDDING_KEY }));
    expect(responses.map((response) => response.status)).toEqual([200, 400, 502, 400]);
    for (const response of responses) {
      expect(response.text).not.toContain('DO-NOT-LEAK');
      expect([...response.headers.values()].join('\n')).not.toContain('DO-NOT-LEAK');
    }
    expect(app.logs.text()).not.toContain('DO-NOT-LEAK');
    const { rows: tables } = await app.db.query<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'",
    );
    for (const { table_name } of tables) {
      expect(JSON.stringify((await app.db.query(`SELECT * FROM "${table_name}"`)).rows)).not.toContain('DO-NOT-LEAK');
    }
  });

  it.each([
    ['query', { query: '' }],
    ['query', { query: '   ' }],
    ['query', { query: 'q'.repeat(2_001) }],
    ['query', {}],
    ['embeddingApiKey', { query: 'q', embeddingApiKey: 42 }],
  ])('answers 400 validation_failed for a bad %s', async (field, body) => {
    const { widget } = await ownerWithToken(app.baseUrl);
    expectValidation(await widget.post('/knowledge', body), field);
  });

  it('keeps its own limits, 30 a minute whatever the owner set, in a bucket apart', async () => {
    await awayFromMinuteEnd();
    const { widget, client } = await ownerWithToken(app.baseUrl);
    await client.patch('/api/bots/settings', { rateLimits: { perMinute: 1 } });
    const statuses = [];
    for (let i = 0; i < 31; i += 1) statuses.push((await widget.post('/knowledge', { query: `q${i}` })).status);
    expect(statuses.slice(0, 30).every((status) => status === 200)).toBe(true);
    const limited = await widget.post('/knowledge', { query: 'one more' });
    expect(limited.status).toBe(429);
    expect(limited.json).toEqual({ error: 'rate_limited', scope: 'short', resetAt: expect.any(Number) });
    expect(limited.json.resetAt % 60_000).toBe(0);
    expectRetryAfter(limited);
    expect((await widget.post('/conversations', { sessionId: randomUUID(), messages: [user('hi')] })).status).toBe(201);
  });
});

// ---------------------------------------------------------------- conversations

describe('POST /api/v1/bot/conversations', () => {
  it('answers 201 { conversationId } first, then 200 with the same id, coalescing resends and retries', async () => {
    const { widget, client, userId } = await ownerWithToken(app.baseUrl);
    const sessionId = randomUUID();
    const first = await widget.post('/conversations', { sessionId, messages: [user('Hi'), assistant('Hello!')] });
    expect(first.status).toBe(201);
    expect(first.json).toEqual({ conversationId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    const { conversationId } = first.json;

    const history = [user('Hi'), assistant('Hello!'), user('Do you know Rust?'), assistant('Yes, daily.')];
    const resent = await widget.post('/conversations', { sessionId, messages: history });
    const retried = await widget.post('/conversations', { sessionId, messages: history });
    const delta = await widget.post('/conversations', { sessionId: sessionId.toUpperCase(), messages: [user('Thanks!')] });
    for (const response of [resent, retried, delta]) {
      expect(response.status).toBe(200);
      expect(response.json).toEqual({ conversationId });
    }
    expect(await storedMessages(conversationId)).toEqual([...history, user('Thanks!')]);
    expect((await client.get('/api/bots')).json.stats).toMatchObject({ totalConversations: 1, totalMessages: 5 });
    expect(await notificationsOf(userId, 'conversation_started')).toEqual([{ botId: expect.any(String), conversationId, sessionId }]);
  });

  it('counts what was really appended, across sessions', async () => {
    const { widget, client } = await ownerWithToken(app.baseUrl);
    const one = randomUUID();
    await widget.post('/conversations', { sessionId: one, messages: [user('a'), assistant('b')] });
    await widget.post('/conversations', { sessionId: one, messages: [user('a'), assistant('b'), user('c')] });
    await widget.post('/conversations', { sessionId: randomUUID(), messages: [user('a')] });
    expect((await client.get('/api/bots')).json.stats).toMatchObject({ totalConversations: 2, totalMessages: 4 });
  });

  it('gives concurrent first saves of one session one conversation, one notification and the messages once', async () => {
    const { widget, userId, botId } = await ownerWithToken(app.baseUrl);
    const sessionId = randomUUID();
    const messages = [user('Hi'), assistant('Hello!'), user('Hiring?')];
    const responses = await Promise.all(Array.from({ length: 8 }, () => widget.post('/conversations', { sessionId, messages })));
    expect(responses.map((response) => response.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 201]);
    expect(new Set(responses.map((response) => response.json.conversationId)).size).toBe(1);
    const { rows } = await app.db.query<{ id: string }>('SELECT id FROM conversations WHERE bot_id = $1', [botId]);
    expect(rows).toHaveLength(1);
    expect(await storedMessages(rows[0]!.id)).toEqual(messages);
    expect(await notificationsOf(userId, 'conversation_started')).toHaveLength(1);
    const counters = await app.db.query('SELECT total_conversations, total_messages FROM bots WHERE id = $1', [botId]);
    expect(counters.rows[0]).toEqual({ total_conversations: 1, total_messages: 3 });
  });

  it('refuses, whole, with 422 conversation_full a save that would pass 2,000 messages', async () => {
    const { widget, client, botId } = await ownerWithToken(app.baseUrl);
    await client.patch('/api/bots/settings', { rateLimits: { perMinute: 1_000 } });
    const sessionId = randomUUID();
    let conversationId = '';
    for (let batch = 0; batch < 10; batch += 1) {
      const messages = Array.from({ length: 200 }, (_, i) => user(`message ${batch * 200 + i}`));
      const response = await widget.post('/conversations', { sessionId, messages });
      expect(response.status).toBe(batch === 0 ? 201 : 200);
      conversationId = response.json.conversationId;
    }
    expect((await widget.post('/conversations', { sessionId, messages: [user('message 1999')] })).status).toBe(200);
    const full = await widget.post('/conversations', { sessionId, messages: [user('message 1999'), user('one more')] });
    expect(full.status).toBe(422);
    expect(full.json).toEqual({ error: 'conversation_full' });
    expect(await storedMessages(conversationId)).toHaveLength(2_000);
    const { rows } = await app.db.query<{ message_count: number }>('SELECT message_count FROM conversations WHERE id = $1', [conversationId]);
    expect(rows[0]!.message_count).toBe(2_000);
    expect((await client.get('/api/bots')).json.stats.totalMessages).toBe(2_000);
    expect(botId).toBeTruthy();
  });

  it.each([
    ['sessionId', { sessionId: 'not-a-uuid', messages: [user('hi')] }],
    ['sessionId', { messages: [user('hi')] }],
    ['messages', { sessionId: randomUUID(), messages: [] }],
    ['messages', { sessionId: randomUUID(), messages: Array.from({ length: 201 }, () => user('hi')) }],
    ['messages', { sessionId: randomUUID(), messages: [{ role: 'system', content: 'hi' }] }],
    ['messages', { sessionId: randomUUID(), messages: [user('')] }],
    ['messages', { sessionId: randomUUID(), messages: [user('c'.repeat(8_001))] }],
    ['messages', { sessionId: randomUUID(), messages: 'hi' }],
    // PostgreSQL's text cannot hold NUL: a save that held one would fail at the database.
    ['messages', { sessionId: randomUUID(), messages: [user('hi\u0000there')] }],
  ])('answers 400 validation_failed for a bad %s', async (field, body) => {
    const { widget, botId } = await ownerWithToken(app.baseUrl);
    expectValidation(await widget.post('/conversations', body), field);
    expect((await app.db.query('SELECT 1 FROM conversations WHERE bot_id = $1', [botId])).rows).toEqual([]);
  });

  it('accepts 200 messages of 8,000 code points within the 512 KiB body', async () => {
    const { widget } = await ownerWithToken(app.baseUrl);
    const messages = [user('😀'.repeat(4_000) + 'a'.repeat(4_000)), ...Array.from({ length: 199 }, (_, i) => assistant(`m${i}`))];
    expect((await widget.post('/conversations', { sessionId: randomUUID(), messages })).status).toBe(201);
  });

  it('applies the owner’s limits, 429 rate_limited with scope, resetAt and Retry-After, apart from leads', async () => {
    await awayFromMinuteEnd();
    const { widget, client } = await ownerWithToken(app.baseUrl);
    await client.patch('/api/bots/settings', { rateLimits: { perMinute: 2 } });
    for (let i = 0; i < 2; i += 1) expect((await widget.post('/conversations', { sessionId: randomUUID(), messages: [user('q')] })).status).toBe(201);
    const limited = await widget.post('/conversations', { sessionId: randomUUID(), messages: [user('q')] });
    expect(limited.status).toBe(429);
    expect(limited.json).toEqual({ error: 'rate_limited', scope: 'short', resetAt: expect.any(Number) });
    expectRetryAfter(limited);
    expect((await widget.post('/leads', { email: 'r@corp.example' })).status).toBe(201);
    expect((await client.get('/api/bots')).json.stats.totalConversations).toBe(2);
  });

  it('uses the defaults, 10 a minute, when the owner set nothing', async () => {
    await awayFromMinuteEnd();
    const { widget } = await ownerWithToken(app.baseUrl);
    const statuses = [];
    for (let i = 0; i < 11; i += 1) statuses.push((await widget.post('/conversations', { sessionId: randomUUID(), messages: [user('q')] })).status);
    expect(statuses).toEqual([...Array.from({ length: 10 }, () => 201), 429]);
  });

  it('reports scope long once the day is used up', async () => {
    const { widget, client } = await ownerWithToken(app.baseUrl);
    await client.patch('/api/bots/settings', { rateLimits: { perDay: 1 } });
    await widget.post('/conversations', { sessionId: randomUUID(), messages: [user('q')] });
    const limited = await widget.post('/conversations', { sessionId: randomUUID(), messages: [user('q')] });
    expect(limited.json).toMatchObject({ error: 'rate_limited', scope: 'long' });
    expect(limited.json.resetAt % 86_400_000).toBe(0);
  });
});

// ---------------------------------------------------------------- leads

describe('POST /api/v1/bot/leads', () => {
  it('answers 201 { lead, deduped: false } for a new lead, then 200 { original lead, deduped: true }', async () => {
    const { widget, userId, botId } = await ownerWithToken(app.baseUrl);
    const conversationId = (await widget.post('/conversations', { sessionId: randomUUID(), messages: [user('hi')] })).json.conversationId;
    const created = await widget.post('/leads', { email: '  Recruiter@Corp.Example ', conversationId, contextSummary: 'Hiring a Rust dev' });
    expect(created.status).toBe(201);
    expect(created.json).toEqual({ lead: { id: expect.any(String), email: 'recruiter@corp.example', capturedAt: expect.stringMatching(ISO) }, deduped: false });

    const again = await widget.post('/leads', { email: 'recruiter@corp.example', conversationId, contextSummary: 'Different' });
    expect(again.status).toBe(200);
    expect(again.json).toEqual({ lead: created.json.lead, deduped: true });

    const { rows } = await app.db.query('SELECT email, conversation_id, context_summary FROM leads WHERE bot_id = $1', [botId]);
    expect(rows).toEqual([{ email: 'recruiter@corp.example', conversation_id: conversationId, context_summary: 'Hiring a Rust dev' }]);
    expect(await notificationsOf(userId, 'lead_captured')).toEqual([
      { botId, leadId: created.json.lead.id, email: 'recruiter@corp.example', conversationId },
    ]);
  });

  it('deduplicates leads without a conversation as one value, apart from those with one', async () => {
    const { widget, client } = await ownerWithToken(app.baseUrl);
    const conversationId = (await widget.post('/conversations', { sessionId: randomUUID(), messages: [user('hi')] })).json.conversationId;
    expect((await widget.post('/leads', { email: 'r@corp.example' })).status).toBe(201);
    expect((await widget.post('/leads', { email: 'r@corp.example', conversationId: null })).json.deduped).toBe(true);
    expect((await widget.post('/leads', { email: 'r@corp.example', conversationId })).status).toBe(201);
    expect((await client.get('/api/bots')).json.stats.totalLeads).toBe(2);
  });

  it('gives concurrent identical captures one row, one 201 and one notification', async () => {
    const { widget, userId, botId } = await ownerWithToken(app.baseUrl);
    const responses = await Promise.all(Array.from({ length: 8 }, () => widget.post('/leads', { email: 'same@corp.example' })));
    expect(responses.map((response) => response.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 201]);
    expect(new Set(responses.map((response) => response.json.lead.id)).size).toBe(1);
    expect((await app.db.query('SELECT id FROM leads WHERE bot_id = $1', [botId])).rows).toHaveLength(1);
    expect(await notificationsOf(userId, 'lead_captured')).toHaveLength(1);
  });

  it('answers 400 validation_failed on conversationId for a conversation of another bot or none at all', async () => {
    const ada = await ownerWithToken(app.baseUrl);
    const grace = await ownerWithToken(app.baseUrl);
    const gracesConversation = (await grace.widget.post('/conversations', { sessionId: randomUUID(), messages: [user('hi')] })).json
      .conversationId;
    for (const conversationId of [gracesConversation, randomUUID(), 'not-a-uuid']) {
      expectValidation(await ada.widget.post('/leads', { email: 'r@corp.example', conversationId }), 'conversationId');
    }
    expect((await app.db.query('SELECT 1 FROM leads WHERE bot_id = $1', [ada.botId])).rows).toEqual([]);
  });

  it.each([
    ['email', {}],
    ['email', { email: 'not an address' }],
    ['email', { email: `${'a'.repeat(245)}@corp.example` }],
    ['contextSummary', { email: 'r@corp.example', contextSummary: 's'.repeat(2_001) }],
    ['contextSummary', { email: 'r@corp.example', contextSummary: 42 }],
  ])('answers 400 validation_failed for a bad %s', async (field, body) => {
    const { widget } = await ownerWithToken(app.baseUrl);
    expectValidation(await widget.post('/leads', body), field);
  });

  it('applies the owner’s limits in its own bucket', async () => {
    await awayFromMinuteEnd();
    const { widget, client } = await ownerWithToken(app.baseUrl);
    await client.patch('/api/bots/settings', { rateLimits: { perMinute: 1 } });
    expect((await widget.post('/leads', { email: 'a@corp.example' })).status).toBe(201);
    const limited = await widget.post('/leads', { email: 'b@corp.example' });
    expect(limited.status).toBe(429);
    expect(limited.json).toMatchObject({ error: 'rate_limited', scope: 'short' });
    expectRetryAfter(limited);
    expect((await widget.post('/conversations', { sessionId: randomUUID(), messages: [user('q')] })).status).toBe(201);
  });
});

// ---------------------------------------------------------------- order of checks, inactive bot, surface

describe('v1 order of checks: token, size, JSON, validation, inactive bot, rate limit', () => {
  const over512KiB = JSON.stringify({ sessionId: randomUUID(), messages: [user('x'.repeat(600 * 1024))] });

  it('checks the token before the body size', async () => {
    const response = await new HttpClient(app.baseUrl).request('POST', '/api/v1/bot/conversations', {
      body: over512KiB,
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(401);
    expect(response.json).toEqual({ error: 'missing_bot_token' });
  });

  it.each(['/knowledge', '/conversations', '/leads'])('%s: 413 request_too_large over 512 KiB, then 400 invalid_json', async (path) => {
    const { widget } = await ownerWithToken(app.baseUrl);
    const tooLarge = await widget.raw('POST', path, over512KiB);
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.json).toEqual({ error: 'request_too_large' });
    for (const body of ['{"query": ', '']) {
      const invalid = await widget.raw('POST', path, body);
      expect(invalid.status).toBe(400);
      expect(invalid.json).toEqual({ error: 'invalid_json' });
    }
    const notObject = await widget.raw('POST', path, '[1, 2]');
    expect(notObject.json).toEqual({ error: 'validation_failed', details: { fieldErrors: {}, formErrors: [expect.any(String)] } });
  });

  it('413 for a chunked body without Content-Length that crosses 512 KiB', async () => {
    const { token } = await ownerWithToken(app.baseUrl);
    const chunks = (async function* () {
      yield Buffer.from('{"sessionId":"00000000-0000-4000-8000-000000000000","messages":[{"role":"user","content":"');
      for (let i = 0; i < 600; i++) yield Buffer.from('x'.repeat(1024));
      yield Buffer.from('"}]}');
    })();
    const response = await fetch(`${app.baseUrl}/api/v1/bot/conversations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: chunks as unknown as RequestInit['body'],
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ error: 'request_too_large' });
  });

  it('inactive bot: validation first, then 404 bot_not_found for knowledge, conversations and leads; config still served', async () => {
    const { widget, client } = await ownerWithToken(app.baseUrl);
    await client.patch('/api/bots/settings', { isActive: false });
    expectValidation(await widget.post('/conversations', { sessionId: 'bad', messages: [user('hi')] }), 'sessionId');
    for (const [path, body] of [
      ['/knowledge', { query: 'Rust?' }],
      ['/conversations', { sessionId: randomUUID(), messages: [user('hi')] }],
      ['/leads', { email: 'r@corp.example' }],
    ] as const) {
      const response = await widget.post(path, body);
      expect(response.status).toBe(404);
      expect(response.json).toEqual({ error: 'bot_not_found' });
    }
    expect((await widget.get('/config')).status).toBe(200);
    await client.patch('/api/bots/settings', { isActive: true });
    expect((await widget.post('/leads', { email: 'r@corp.example' })).status).toBe(201);
  });

  it('answers 404 bot_not_found before 429, and 400 before 429', async () => {
    await awayFromMinuteEnd();
    const { widget, client } = await ownerWithToken(app.baseUrl);
    await client.patch('/api/bots/settings', { rateLimits: { perMinute: 1 } });
    await widget.post('/conversations', { sessionId: randomUUID(), messages: [user('q')] });
    expect((await widget.post('/conversations', { sessionId: randomUUID(), messages: [user('q')] })).status).toBe(429);
    expect((await widget.raw('POST', '/conversations', '{')).status).toBe(400);
    expectValidation(await widget.post('/conversations', { sessionId: randomUUID(), messages: [] }), 'messages');
    await client.patch('/api/bots/settings', { isActive: false });
    expect((await widget.post('/conversations', { sessionId: randomUUID(), messages: [user('q')] })).json).toEqual({ error: 'bot_not_found' });
  });
});

describe('the v1 surface', () => {
  it.each([
    ['PUT', '/conversations'],
    ['PATCH', '/conversations'],
    ['DELETE', '/conversations'],
    ['PUT', '/leads'],
    ['PATCH', '/leads'],
    ['DELETE', '/leads'],
    ['DELETE', `/leads/${randomUUID()}`],
    ['GET', '/conversations'],
    ['GET', '/nothing-here'],
  ])('is write-only: %s %s answers 404 not_found', async (method, path) => {
    const { widget } = await ownerWithToken(app.baseUrl);
    const response = await widget.raw(method, path, method === 'GET' || method === 'DELETE' ? undefined : '{}');
    expect(response.status).toBe(404);
    expect(response.json).toEqual({ error: 'not_found' });
  });

  it('allows any origin without credentials: preflight 204, and the header on answers and errors', async () => {
    const preflight = await fetch(`${app.baseUrl}/api/v1/bot/conversations`, {
      method: 'OPTIONS',
      headers: { origin: 'https://portfolio.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-credentials')).toBeNull();
    expect(preflight.headers.get('access-control-allow-methods')).toBe('GET, POST, OPTIONS');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('Authorization');
    expect(preflight.headers.get('access-control-max-age')).toBe('86400');

    const { widget } = await ownerWithToken(app.baseUrl);
    const origin = { origin: 'https://portfolio.example' };
    for (const response of [
      await widget.get('/config', origin),
      await widget.post('/leads', { email: 'nope' }, origin),
      await new HttpClient(app.baseUrl).get('/api/v1/bot/config', origin),
    ]) {
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('access-control-allow-credentials')).toBeNull();
    }
    expect((await new HttpClient(app.baseUrl).get('/api/bots/tokens', origin)).headers.get('access-control-allow-origin')).toBeNull();
  });
});
