import http from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeLlmProvider, fakeReply, HttpClient, signedInClient, startFakeLlmProvider, validBot } from '@careerbot/testkit';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const METRICS_TOKEN = 'metrics-token-streaming-0123456789abcdef';
const CANARY_KEY = 'sk-canary-DO-NOT-LEAK-stream-0123456789abcdef';

let provider: FakeLlmProvider;
let app: TestApp;

beforeAll(async () => {
  provider = await startFakeLlmProvider();
  app = await startTestApp({
    env: {
      OPENAI_BASE_URL: provider.baseUrls.openai,
      ANTHROPIC_BASE_URL: provider.baseUrls.anthropic,
      GEMINI_BASE_URL: provider.baseUrls.google,
      AZURE_OPENAI_ALLOWED_HOSTS: '127.0.0.1',
      LLM_TIMEOUT_MS: '1500',
      METRICS_TOKEN,
    },
  });
});
afterAll(async () => {
  await app?.close();
  await provider?.close();
});
beforeEach(() => provider.reset());

const PROVIDERS = [
  ['openai', 'gpt-4o-mini'],
  ['anthropic', 'claude-haiku-4-5'],
  ['google', 'gemini-2.5-flash'],
  ['azure', 'career-deployment'],
] as const;

const botFor = async (llmProvider: string, llmModel: string) => {
  const { client } = await signedInClient(app.baseUrl);
  const saved = await client.post('/api/bots', validBot({ llmProvider, llmModel }));
  return saved.json.bot.id as string;
};

const headersFor = (llmProvider: string, extra: Record<string, string> = {}): Record<string, string> => ({
  'content-type': 'application/json',
  'x-llm-api-key': CANARY_KEY,
  ...(llmProvider === 'azure' ? { 'x-llm-azure-endpoint': provider.baseUrls.azureEndpoint } : {}),
  ...extra,
});

interface ReceivedEvent {
  event: string;
  data: Record<string, string>;
  atMs: number;
}

/** Posts a chat message asking for events; reads them as they arrive, each with its arrival time. */
async function streamChat(botId: string, llmProvider: string) {
  const started = performance.now();
  const response = await fetch(`${app.baseUrl}/api/chat/${botId}`, {
    method: 'POST',
    headers: headersFor(llmProvider, { accept: 'text/event-stream' }),
    body: JSON.stringify({ message: 'What did Ada build?' }),
  });
  const events: ReceivedEvent[] = [];
  const comments: string[] = [];
  if (!response.headers.get('content-type')?.startsWith('text/event-stream')) {
    return { response, events, comments, json: (await response.json()) as Record<string, unknown> };
  }
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const bytes of response.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(bytes, { stream: true });
    let end = buffer.indexOf('\n\n');
    while (end !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      if (block.startsWith(':')) comments.push(block);
      else {
        const event = /^event: (.*)$/m.exec(block)?.[1] ?? 'message';
        const data = JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? '{}') as Record<string, string>;
        const received = { event, data, atMs: performance.now() - started };
        events.push(received);
      }
      end = buffer.indexOf('\n\n');
    }
  }
  return { response, events, comments, json: undefined };
}

const jsonChat = (botId: string, llmProvider: string) =>
  new HttpClient(app.baseUrl).request('POST', `/api/chat/${botId}`, {
    body: JSON.stringify({ message: 'What did Ada build?' }),
    headers: headersFor(llmProvider),
  });

const scrapeMetrics = () => fetch(`${app.baseUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } }).then((r) => r.text());
const providerCalls = (metrics: string, provider: string, outcome: string) =>
  Number(new RegExp(`careerbot_provider_calls_total\\{provider="${provider}",outcome="${outcome}"\\} (\\d+)`).exec(metrics)?.[1] ?? 0);
const earlyStarts = (metrics: string, outcome: string) =>
  Number(new RegExp(`careerbot_chat_early_starts_total\\{outcome="${outcome}"\\} (\\d+)`).exec(metrics)?.[1] ?? 0);

const deltasOf = (events: ReceivedEvent[]) => events.filter((e) => e.event === 'delta').map((e) => e.data.text).join('');

const DIRTY_REPLY = [
  'Ada designed the first algorithm for a machine. ',
  'Her key is sk-abcdefghijklmn',
  'opqrstuvwxyz012345 and you can mail ada.se',
  'cret@example.com for more. ',
  'She also wrote **notes**:\n- one\n- two\n',
];

describe('POST /api/chat/{botId} with Accept: text/event-stream', () => {
  it.each(PROVIDERS)('streams the cleaned reply through %s, word by word, as the JSON path would clean it', async (llmProvider, llmModel) => {
    const botId = await botFor(llmProvider, llmModel);
    provider.respondWith(fakeReply.stream(DIRTY_REPLY));
    const { response, events } = await streamChat(botId, llmProvider);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toContain('no-cache');
    expect(provider.requests[0]!.provider).toBe(llmProvider);
    if (llmProvider === 'google') expect(provider.requests[0]!.path).toMatch(/:streamGenerateContent$/);
    else expect(provider.requests[0]!.body).toMatchObject({ stream: true });

    const done = events.filter((e) => e.event === 'done');
    expect(done).toHaveLength(1);
    expect(events.at(-1)!.event).toBe('done');
    expect(events.filter((e) => e.event === 'delta').length).toBeGreaterThan(1);
    expect(deltasOf(events)).toBe(done[0]!.data.reply);
    expect(done[0]!.data.reply).not.toContain('sk-abcdef');
    expect(done[0]!.data.reply).not.toContain('example.com');
    expect(JSON.stringify(events)).not.toContain(CANARY_KEY);

    provider.respondWith(fakeReply.success(DIRTY_REPLY.join('')));
    const json = await jsonChat(botId, llmProvider);
    expect(json.status).toBe(200);
    expect(json.json).toEqual({ reply: done[0]!.data.reply });
  });

  it.each(PROVIDERS)('shows the first words through %s before the provider has finished writing', async (llmProvider, llmModel) => {
    const botId = await botFor(llmProvider, llmModel);
    const words = 'Ada designed the first algorithm. It ran on the Analytical Engine. She wrote notes on it. '.split(/(?<= )/);
    provider.respondWith(fakeReply.stream(words, { chunkDelayMs: 60 }));
    const { events } = await streamChat(botId, llmProvider);
    const firstDelta = events.find((e) => e.event === 'delta')!;
    const done = events.find((e) => e.event === 'done')!;
    // The fake needs words.length × 60 ms; the first sentence is sent long before the last word.
    expect(done.atMs - firstDelta.atMs).toBeGreaterThan(words.length * 60 * 0.5);
    expect(deltasOf(events)).toBe(done.data.reply);
  });

  it('bounds each silence, not the whole reply, by LLM_TIMEOUT_MS', async () => {
    const botId = await botFor('openai', 'gpt-4o-mini');
    // 8 chunks 400 ms apart: 3.2 s in all, more than twice the 1.5 s timeout.
    provider.respondWith(fakeReply.stream('One. Two. Three. Four. Five. Six. Seven. Eight.'.split(/(?<= )/), { chunkDelayMs: 400 }));
    const { events } = await streamChat(botId, 'openai');
    expect(events.at(-1)).toMatchObject({ event: 'done', data: { reply: 'One. Two. Three. Four. Five. Six. Seven. Eight.' } });
  });

  it('ends with event: error when the provider fails mid-answer', async () => {
    const botId = await botFor('anthropic', 'claude-haiku-4-5');
    provider.respondWith(fakeReply.stream('She led the ledger work. She then built more. And more. '.split(/(?<= )/), { chunkDelayMs: 30, breakAfter: 6 }));
    const { response, events } = await streamChat(botId, 'anthropic');
    expect(response.status).toBe(200);
    expect(events.at(-1)).toMatchObject({ event: 'error', data: { error: 'provider_unavailable' } });
    expect(events.some((e) => e.event === 'done')).toBe(false);
  });

  it.each([
    [fakeReply.status(401), 400, { error: 'invalid_llm_key' }],
    [fakeReply.status(429, { retryAfter: 7 }), 429, { error: 'provider_rate_limit' }],
    [fakeReply.status(503), 502, { error: 'provider_unavailable' }],
  ])('keeps the JSON status and body when the provider refuses before its first words (%o)', async (reply, status, body) => {
    const botId = await botFor('openai', 'gpt-4o-mini');
    provider.respondWith(reply);
    const { response, json } = await streamChat(botId, 'openai');
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(json).toEqual(body);
  });

  it('keeps the JSON refusals of the steps before the provider (unknown bot, blocked message)', async () => {
    const { response, json } = await streamChat('00000000-0000-4000-8000-000000000000', 'openai');
    expect(response.status).toBe(404);
    expect(json).toEqual({ error: 'bot_not_found' });
  });

  it('times out as 502 JSON when the provider is silent before its first words', async () => {
    const botId = await botFor('google', 'gemini-2.5-flash');
    provider.respondWith(fakeReply.delayed(2500, fakeReply.stream(['Too late.'])));
    const { response, json } = await streamChat(botId, 'google');
    expect(response.status).toBe(502);
    expect(json).toEqual({ error: 'provider_unavailable' });
  });

  it.each(PROVIDERS)('aborts the %s call when the visitor leaves, and counts it', async (llmProvider, llmModel) => {
    const botId = await botFor(llmProvider, llmModel);
    const abortedBefore = providerCalls(await scrapeMetrics(), llmProvider, 'aborted');
    const words = Array.from({ length: 40 }, (_, i) => `Sentence number ${i + 1} is here. `);
    provider.respondWith(fakeReply.stream(words, { chunkDelayMs: 100 }));
    // The visitor closes the tab once the first words arrived: the connection goes.
    await new Promise<void>((resolve, reject) => {
      const request = http.request(`${app.baseUrl}/api/chat/${botId}`, {
        method: 'POST',
        headers: headersFor(llmProvider, { accept: 'text/event-stream' }),
      });
      request.on('response', (response) => {
        response.on('data', (bytes: Buffer) => {
          if (!bytes.toString().includes('event: delta')) return;
          request.destroy();
          resolve();
        });
      });
      request.on('error', (error) => (request.destroyed ? resolve() : reject(error)));
      request.end(JSON.stringify({ message: 'What did Ada build?' }));
    });
    await expect.poll(() => provider.streamsClosedByClient, { timeout: 3000 }).toBe(1);
    await expect.poll(async () => providerCalls(await scrapeMetrics(), llmProvider, 'aborted') - abortedBefore).toBe(1);
    expect(await scrapeMetrics()).not.toContain(CANARY_KEY);
  });

  it('starts a visitor’s call for a bot it admitted lately while the admission is on its way, and drops it when the bot changed', async () => {
    const { client } = await signedInClient(app.baseUrl);
    const saved = await client.post('/api/bots', validBot({ llmProvider: 'openai', llmModel: 'gpt-4o-mini' }));
    const botId = saved.json.bot.id as string;
    const before = await scrapeMetrics();
    provider.respondWith(fakeReply.stream(['Ada designed ', 'the first algorithm. ']));

    await streamChat(botId, 'openai'); // the first: admitted before its call
    const second = await streamChat(botId, 'openai');
    expect(deltasOf(second.events)).toBe('Ada designed the first algorithm.');
    expect(provider.requests).toHaveLength(2);
    const adopted = await scrapeMetrics();
    expect(earlyStarts(adopted, 'adopted') - earlyStarts(before, 'adopted')).toBe(1);

    await client.post('/api/bots', validBot({ llmProvider: 'openai', llmModel: 'gpt-4o-mini', contextText: 'Ada now teaches mathematics in Turin.' }));
    const third = await streamChat(botId, 'openai');
    expect(deltasOf(third.events)).toBe('Ada designed the first algorithm.');
    expect(JSON.stringify(provider.requests.at(-1)!.body)).toContain('Ada now teaches mathematics in Turin.');
    const after = await scrapeMetrics();
    expect(earlyStarts(after, 'discarded') - earlyStarts(before, 'discarded')).toBe(1);
    expect(earlyStarts(after, 'adopted') - earlyStarts(before, 'adopted')).toBe(1);
    expect(after).not.toContain(CANARY_KEY);
  });

  it('starts early with the owner’s stored key for a visitor without one, and counts each answer once', async () => {
    const { client } = await signedInClient(app.baseUrl);
    const saved = await client.post('/api/bots', validBot({ llmProvider: 'openai', llmModel: 'gpt-4o-mini' }));
    const botId = saved.json.bot.id as string;
    const ownerKey = 'sk-owner-stream-canary-0123456789abcdef';
    expect((await client.post('/api/account/llm-key', { apiKey: ownerKey })).status).toBe(200);
    provider.reset();
    provider.respondWith(fakeReply.stream(['Ada designed ', 'the first algorithm. ']));
    const ask = () =>
      fetch(`${app.baseUrl}/api/chat/${botId}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
        body: JSON.stringify({ message: 'What did Ada build?' }),
      }).then((response) => response.text());
    const adoptedBefore = earlyStarts(await scrapeMetrics(), 'adopted');
    expect(await ask()).toContain('event: done');
    expect(await ask()).toContain('event: done');
    expect(provider.requests).toHaveLength(2);
    expect(provider.requests.every((request) => JSON.stringify(request.headers).includes(ownerKey))).toBe(true);
    expect(earlyStarts(await scrapeMetrics(), 'adopted') - adoptedBefore).toBe(1);
    expect((await client.get('/api/account/llm-key')).json.usage.today).toBe(2);
  });
});

describe('a provider silent for more than 15 s mid-answer', () => {
  it('gets a comment line sent meanwhile, so proxies keep the stream open', async () => {
    const slowProvider = await startFakeLlmProvider();
    const patient = await startTestApp({ env: { OPENAI_BASE_URL: slowProvider.baseUrls.openai, LLM_TIMEOUT_MS: '20000' } });
    try {
      const { client } = await signedInClient(patient.baseUrl);
      const botId = (await client.post('/api/bots', validBot({ llmProvider: 'openai' }))).json.bot.id as string;
      slowProvider.respondWith(fakeReply.stream(['Ada wrote the notes. ', 'Then she rested.'], { chunkDelayMs: 15_500 }));
      const response = await fetch(`${patient.baseUrl}/api/chat/${botId}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream', 'x-llm-api-key': CANARY_KEY },
        body: JSON.stringify({ message: 'What did Ada write?' }),
      });
      const text = await response.text();
      expect(text).toMatch(/event: delta[\s\S]*\n\n: [^\n]*\n\n[\s\S]*event: done/);
    } finally {
      await patient.close();
      await slowProvider.close();
    }
  }, 40_000);
});
