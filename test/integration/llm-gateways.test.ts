import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { EmbeddingResponse, LlmGateway, LlmRequest, LlmResponse } from '../../src/application/ports.ts';
import {
  AnthropicLlmGateway,
  AzureOpenAiLlmGateway,
  GoogleLlmGateway,
  isAllowedAzureEndpoint,
  isConnectionError,
  KEY_SENT_PER_REQUEST,
  OpenAiEmbeddingGateway,
  OpenAiLlmGateway,
  parseRetryAfter,
  retryAfterSecondsFromHeaders,
} from '@careerbot/llm';
import { httpFetch } from '@careerbot/llm/http-fetch';
import { httpStreamFetch } from '@careerbot/llm/http-stream-fetch';
import { fakeEmbedding, type FakeLlmProvider, fakeReply, type RecordedRequest, startFakeLlmProvider } from '@careerbot/testkit';

const CANARY_KEY = 'sk-canary-DO-NOT-LEAK-1234567890abcdef';
const SYSTEM_PROMPT = 'You are the career bot of Ada Lovelace. Answer only about her work.';
const VISITOR_MESSAGE = 'What did Ada work on most recently?';
const DEFAULT_AZURE_HOSTS = ['.openai.azure.com', '.cognitiveservices.azure.com', '.services.ai.azure.com'];

let fake: FakeLlmProvider;

beforeAll(async () => {
  fake = await startFakeLlmProvider();
});

afterEach(() => {
  fake.reset();
});

afterAll(async () => {
  await fake.close();
});

/** What a recorded request carried, read from wherever each provider puts it. */
interface SeenRequest {
  model: string | undefined;
  system: unknown;
  message: unknown;
  maxTokens: unknown;
  temperature: unknown;
  key: unknown;
}

interface ProviderCase {
  name: string;
  model: string;
  /** Anthropic's API version 2026-10-21 refuses any temperature, so none is sent there. */
  sendsTemperature: boolean;
  gateway(timeoutMs?: number): LlmGateway;
  extraRequest(): Partial<LlmRequest>;
  expectedPath(model: string): string;
  seen(request: RecordedRequest): SeenRequest;
}

type Json = Record<string, any>;  

const bodyOf = (request: RecordedRequest): Json => request.body as Json;

const providers: ProviderCase[] = [
  {
    name: 'openai',
    sendsTemperature: true,
    model: 'gpt-4o-mini',
    gateway: (timeoutMs = 5_000) => new OpenAiLlmGateway({ baseURL: fake.baseUrls.openai, timeoutMs, fetch: httpFetch, streamFetch: httpStreamFetch }),
    extraRequest: () => ({}),
    expectedPath: () => '/v1/chat/completions',
    seen: (request) => {
      const body = bodyOf(request);
      return {
        model: body.model,
        system: body.messages.find((m: Json) => m.role === 'system')?.content,
        message: body.messages.find((m: Json) => m.role === 'user')?.content,
        maxTokens: body.max_tokens,
        temperature: body.temperature,
        key: request.headers.authorization,
      };
    },
  },
  {
    name: 'anthropic',
    sendsTemperature: false,
    model: 'claude-haiku-4-5',
    gateway: (timeoutMs = 5_000) => new AnthropicLlmGateway({ baseURL: fake.baseUrls.anthropic, timeoutMs, fetch: httpFetch, streamFetch: httpStreamFetch }),
    extraRequest: () => ({}),
    expectedPath: () => '/v1/messages',
    seen: (request) => {
      const body = bodyOf(request);
      return {
        model: body.model,
        system: body.system,
        message: body.messages[0]?.content,
        maxTokens: body.max_tokens,
        temperature: body.temperature,
        // @anthropic-ai/sdk 1.x sends the key as a bearer token; older versions used x-api-key.
        key: request.headers['x-api-key'] ?? request.headers.authorization,
      };
    },
  },
  {
    name: 'google',
    sendsTemperature: true,
    model: 'gemini-2.5-flash',
    gateway: (timeoutMs = 5_000) => new GoogleLlmGateway({ baseURL: fake.baseUrls.google, timeoutMs }),
    extraRequest: () => ({}),
    expectedPath: (model) => `/v1beta/models/${model}:generateContent`,
    seen: (request) => {
      const body = bodyOf(request);
      return {
        model: request.model,
        system: body.systemInstruction?.parts?.[0]?.text,
        message: body.contents[0]?.parts?.[0]?.text,
        maxTokens: body.generationConfig?.maxOutputTokens,
        temperature: body.generationConfig?.temperature,
        key: request.headers['x-goog-api-key'],
      };
    },
  },
  {
    name: 'azure',
    sendsTemperature: true,
    model: 'career-gpt4o',
    gateway: (timeoutMs = 5_000) => new AzureOpenAiLlmGateway({ allowedHosts: ['127.0.0.1'], timeoutMs, fetch: httpFetch, streamFetch: httpStreamFetch }),
    extraRequest: () => ({ azureEndpoint: fake.baseUrls.azureEndpoint }),
    expectedPath: (model) => `/openai/deployments/${model}/chat/completions`,
    seen: (request) => {
      const body = bodyOf(request);
      return {
        model: request.model,
        system: body.messages.find((m: Json) => m.role === 'system')?.content,
        message: body.messages.find((m: Json) => m.role === 'user')?.content,
        maxTokens: body.max_tokens,
        temperature: body.temperature,
        key: request.headers['api-key'],
      };
    },
  },
];

function requestFor(provider: ProviderCase, overrides: Partial<LlmRequest> = {}): LlmRequest {
  return {
    model: provider.model,
    apiKey: CANARY_KEY,
    system: SYSTEM_PROMPT,
    message: VISITOR_MESSAGE,
    maxTokens: 800,
    temperature: 0.3,
    ...provider.extraRequest(),
    ...overrides,
  };
}

/** Calls the gateway and checks that neither the result nor a thrown error carries the key. */
async function complete(gateway: LlmGateway, request: LlmRequest): Promise<LlmResponse> {
  let result: LlmResponse;
  try {
    result = await gateway.complete(request);
  } catch (error) {
    expect(`${String(error)} ${(error as Error).stack ?? ''}`).not.toContain(request.apiKey);
    throw error;
  }
  expect(JSON.stringify(result)).not.toContain(request.apiKey);
  return result;
}

describe.each(providers)('$name gateway through the real SDK', (provider) => {
  it('sends the single-turn request and returns the reply text', async () => {
    fake.respondWith(fakeReply.success('Ada wrote the first published algorithm.'));

    const result = await complete(provider.gateway(), requestFor(provider));

    expect(result).toEqual({ ok: true, text: 'Ada wrote the first published algorithm.' });
    expect(fake.requests).toHaveLength(1);
    const recorded = fake.requests[0] as RecordedRequest;
    expect(recorded.method).toBe('POST');
    expect(recorded.path).toBe(provider.expectedPath(provider.model));
    const seen = provider.seen(recorded);
    expect(seen.model).toBe(provider.model);
    expect(seen.system).toBe(SYSTEM_PROMPT);
    expect(seen.message).toBe(VISITOR_MESSAGE);
    expect(seen.maxTokens).toBe(800);
    expect(seen.temperature).toBe(provider.sendsTemperature ? 0.3 : undefined);
    expect(String(seen.key)).toContain(CANARY_KEY);
  });

  it("sends each caller's own key through one gateway, streamed or not, and never another's or a placeholder", async () => {
    const gateway = provider.gateway();
    const keys = ['sk-first-caller-0000000000000000', 'sk-second-caller-111111111111111', 'sk-third-caller-2222222222222222'];
    for (const apiKey of keys) {
      fake.respondWith(fakeReply.success('Ada wrote it.'));
      expect(await complete(gateway, requestFor(provider, { apiKey }))).toEqual({ ok: true, text: 'Ada wrote it.' });
      const streamed = await gateway.stream(requestFor(provider, { apiKey }), new AbortController().signal);
      expect(streamed.ok).toBe(true);
      if (streamed.ok) for await (const text of streamed.stream.rest) expect(text).not.toContain(apiKey);
    }
    const sent = fake.requests.map((request) => String(provider.seen(request).key));
    expect(sent).toHaveLength(keys.length * 2);
    keys.forEach((apiKey, i) => {
      for (const key of sent.slice(i * 2, i * 2 + 2)) {
        expect(key).toContain(apiKey);
        for (const other of keys.filter((k) => k !== apiKey)) expect(key).not.toContain(other);
      }
    });
    expect(JSON.stringify(fake.requests.map((request) => request.headers))).not.toContain(KEY_SENT_PER_REQUEST);
  });

  it.each([401, 403])('maps %i to invalid_llm_key without retrying', async (status) => {
    fake.respondWith(fakeReply.status(status), fakeReply.success());

    const result = await complete(provider.gateway(), requestFor(provider));

    expect(result).toEqual({ ok: false, error: 'invalid_llm_key' });
    expect(fake.requests).toHaveLength(1);
  });

  it('maps 429 to provider_rate_limit, carries retry-after and does not retry', async () => {
    fake.respondWith(fakeReply.status(429, { retryAfter: 7 }), fakeReply.success());

    const result = await complete(provider.gateway(), requestFor(provider));

    expect(result).toEqual({ ok: false, error: 'provider_rate_limit', retryAfterSeconds: 7 });
    expect(fake.requests).toHaveLength(1);
  });

  it('maps 429 without retry-after to provider_rate_limit alone', async () => {
    fake.respondWith(fakeReply.status(429));

    const result = await complete(provider.gateway(), requestFor(provider));

    expect(result).toEqual({ ok: false, error: 'provider_rate_limit' });
  });

  it('retries a 500 once and returns the second answer', async () => {
    fake.respondWith(fakeReply.status(500), fakeReply.success('second time lucky'));

    const result = await complete(provider.gateway(), requestFor(provider));

    expect(result).toEqual({ ok: true, text: 'second time lucky' });
    expect(fake.requests).toHaveLength(2);
  });

  it('gives provider_unavailable after exactly two attempts when both answer 503', async () => {
    fake.respondWith(fakeReply.status(503), fakeReply.status(503), fakeReply.success());

    const result = await complete(provider.gateway(), requestFor(provider));

    expect(result).toEqual({ ok: false, error: 'provider_unavailable' });
    expect(fake.requests).toHaveLength(2);
  });

  it.skipIf(provider.name === 'google')('refuses an answer over 8 MB without retrying it', async () => {
    fake.respondWith(fakeReply.success('x'.repeat(9 * 1024 * 1024)), fakeReply.success('not asked for'));

    const result = await complete(provider.gateway(), requestFor(provider));

    expect(result).toEqual({ ok: false, error: 'provider_unavailable' });
    expect(fake.requests).toHaveLength(1);
  });

  it('retries a reset connection once', async () => {
    fake.respondWith(fakeReply.connectionReset(), fakeReply.success('after the reset'));

    const result = await complete(provider.gateway(), requestFor(provider));

    expect(result).toEqual({ ok: true, text: 'after the reset' });
    expect(fake.requests).toHaveLength(2);
  });

  it('gives provider_unavailable when the connection is reset twice', async () => {
    fake.respondWith(fakeReply.connectionReset());

    const result = await complete(provider.gateway(), requestFor(provider));

    expect(result).toEqual({ ok: false, error: 'provider_unavailable' });
    expect(fake.requests).toHaveLength(2);
  });

  it('gives provider_unavailable at the deadline without waiting for a slow provider, and does not retry', async () => {
    fake.respondWith(fakeReply.delayed(10_000));

    const result = await complete(provider.gateway(300), requestFor(provider));

    expect(result).toEqual({ ok: false, error: 'provider_unavailable' });
    expect(fake.requests).toHaveLength(1);
  }, 5_000);

  it('counts the retry inside the same deadline', async () => {
    // Each attempt alone fits in the deadline; both together do not.
    fake.respondWith(fakeReply.delayed(700, fakeReply.status(503)), fakeReply.delayed(700, fakeReply.success()));

    const result = await complete(provider.gateway(1_000), requestFor(provider));

    expect(result).toEqual({ ok: false, error: 'provider_unavailable' });
    expect(fake.requests).toHaveLength(2);
  }, 5_000);

  it.each([
    ['invalid JSON', fakeReply.invalidJson()],
    ['JSON of the wrong shape', fakeReply.wrongShape()],
    ['empty text', fakeReply.success('')],
    ['404 (unknown model)', fakeReply.status(404)],
    ['400', fakeReply.status(400)],
  ])('maps %s to provider_unavailable without retrying', async (_label, reply) => {
    fake.respondWith(reply, fakeReply.success());

    const result = await complete(provider.gateway(), requestFor(provider));

    expect(result).toEqual({ ok: false, error: 'provider_unavailable' });
    expect(fake.requests).toHaveLength(1);
  });
});

describe('Azure OpenAI specifics', () => {
  const azure = providers.find((provider) => provider.name === 'azure') as ProviderCase;

  it('puts the deployment in the path and the default api-version in the query, with the key in api-key', async () => {
    await complete(azure.gateway(), requestFor(azure, { azureApiVersion: undefined }));

    const recorded = fake.requests[0] as RecordedRequest;
    expect(recorded.path).toBe('/openai/deployments/career-gpt4o/chat/completions');
    expect(recorded.query['api-version']).toBe('2024-10-21');
    expect(recorded.headers['api-key']).toBe(CANARY_KEY);
    expect(recorded.headers.authorization).toBeUndefined();
  });

  it("sends the caller's api-version and uses only the endpoint's origin", async () => {
    const result = await complete(
      azure.gateway(),
      requestFor(azure, { azureEndpoint: `${fake.url}/some/path/?x=1`, azureApiVersion: '2025-01-01-preview' }),
    );

    expect(result.ok).toBe(true);
    expect(fake.requests[0]?.url).toBe('/openai/deployments/career-gpt4o/chat/completions?api-version=2025-01-01-preview');
  });

  it('ignores OPENAI_BASE_URL in the environment (baseURL and endpoint are mutually exclusive)', async () => {
    const previous = process.env.OPENAI_BASE_URL;
    process.env.OPENAI_BASE_URL = 'http://127.0.0.1:9/v1';
    try {
      const result = await complete(azure.gateway(), requestFor(azure));

      expect(result).toEqual({ ok: true, text: expect.any(String) });
      expect(fake.requests).toHaveLength(1);
    } finally {
      if (previous === undefined) delete process.env.OPENAI_BASE_URL;
      else process.env.OPENAI_BASE_URL = previous;
    }
  });

  it.each([
    ['an endpoint not on the allow-list', () => fake.url],
    ['a blank endpoint', () => '   '],
    ['no endpoint', () => undefined],
    ['an endpoint that is not a URL', () => 'not a url'],
  ])('refuses %s with missing_llm_key before connecting', async (_label, endpoint) => {
    const gateway = new AzureOpenAiLlmGateway({ allowedHosts: DEFAULT_AZURE_HOSTS, timeoutMs: 5_000, fetch: httpFetch, streamFetch: httpStreamFetch });

    const result = await complete(gateway, requestFor(azure, { azureEndpoint: endpoint() }));

    expect(result).toEqual({ ok: false, error: 'missing_llm_key' });
    expect(fake.requests).toHaveLength(0);
  });

  it('refuses a deployment name that would change the path, before connecting', async () => {
    const result = await complete(azure.gateway(), requestFor(azure, { model: '../../models' }));

    expect(result).toEqual({ ok: false, error: 'provider_unavailable' });
    expect(fake.requests).toHaveLength(0);
  });
});

describe('isAllowedAzureEndpoint', () => {
  it.each([
    'https://my-resource.openai.azure.com',
    'https://my-resource.openai.azure.com/',
    'https://My-Resource.OpenAI.Azure.com/openai',
    'https://my-resource.cognitiveservices.azure.com',
    'https://my-project.services.ai.azure.com:443/',
  ])('allows %s with the default list', (url) => {
    expect(isAllowedAzureEndpoint(url, DEFAULT_AZURE_HOSTS)).toBe(true);
  });

  it.each([
    ['plain http to an Azure host', 'http://my-resource.openai.azure.com'],
    ['the bare suffix as a host', 'https://openai.azure.com'],
    ['a look-alike host', 'https://xopenai.azure.com'],
    ['the suffix inside another domain', 'https://evil-openai.azure.com.attacker.net'],
    ['the suffix as a subdomain of an attacker', 'https://my-resource.openai.azure.com.attacker.net'],
    ['userinfo', 'https://user:pass@my-resource.openai.azure.com'],
    ['a user name only', 'https://user@my-resource.openai.azure.com'],
    ['an allowed host as userinfo', 'https://my-resource.openai.azure.com@attacker.net'],
    ['the suffix in the fragment', 'https://attacker.net#.openai.azure.com'],
    ['the suffix in the path', 'https://attacker.net/.openai.azure.com'],
    ['a backslash trick', 'https://attacker.net\\.openai.azure.com'],
    ['another scheme', 'ftp://my-resource.openai.azure.com'],
    ['loopback without a loopback entry', 'http://127.0.0.1:8080'],
    ['blank', ''],
    ['not a URL', 'my-resource.openai.azure.com'],
  ])('refuses %s', (_label, url) => {
    expect(isAllowedAzureEndpoint(url, DEFAULT_AZURE_HOSTS)).toBe(false);
  });

  it('treats an entry without a leading dot as a host and its subdomains', () => {
    expect(isAllowedAzureEndpoint('https://gateway.example.com', ['gateway.example.com'])).toBe(true);
    expect(isAllowedAzureEndpoint('https://eu.gateway.example.com', ['gateway.example.com'])).toBe(true);
    expect(isAllowedAzureEndpoint('https://evilgateway.example.com', ['gateway.example.com'])).toBe(false);
    expect(isAllowedAzureEndpoint('https://gateway.example.com.evil.net', ['gateway.example.com'])).toBe(false);
  });

  it('allows plain http only to a loopback host that is listed exactly', () => {
    expect(isAllowedAzureEndpoint('http://127.0.0.1:4010', ['127.0.0.1'])).toBe(true);
    expect(isAllowedAzureEndpoint('http://localhost:4010/', [' localhost '])).toBe(true);
    expect(isAllowedAzureEndpoint('http://localhost', ['127.0.0.1'])).toBe(false);
    expect(isAllowedAzureEndpoint('http://127.0.0.1.attacker.net', ['127.0.0.1'])).toBe(false);
    expect(isAllowedAzureEndpoint('http://sub.localhost', ['localhost'])).toBe(false);
    expect(isAllowedAzureEndpoint('http://user:pass@127.0.0.1:4010', ['127.0.0.1'])).toBe(false);
    expect(isAllowedAzureEndpoint('http://my-resource.openai.azure.com', ['.openai.azure.com', '127.0.0.1'])).toBe(false);
  });
});

describe('OpenAI embedding gateway through the real SDK', () => {
  const gateway = (timeoutMs = 5_000) => new OpenAiEmbeddingGateway({ baseURL: fake.baseUrls.openai, timeoutMs, fetch: httpFetch });

  async function embed(embeddings: OpenAiEmbeddingGateway, texts: string[]): Promise<EmbeddingResponse> {
    const result = await embeddings.embed(CANARY_KEY, texts);
    expect(JSON.stringify(result)).not.toContain(CANARY_KEY);
    return result;
  }

  it('embeds all texts in one call and keeps their order', async () => {
    const texts = ['Led the payments platform team', 'Wrote a compiler in Rust', 'Plays the cello'];

    const result = await embed(gateway(), texts);

    expect(result).toEqual({ ok: true, vectors: texts.map(fakeEmbedding) });
    expect(fake.requests).toHaveLength(1);
    const recorded = fake.requests[0] as RecordedRequest;
    expect(recorded.path).toBe('/v1/embeddings');
    expect(bodyOf(recorded).input).toEqual(texts);
    expect(recorded.model).toBe('text-embedding-3-small');
    expect(recorded.headers.authorization).toBe(`Bearer ${CANARY_KEY}`);
  });

  it('uses the configured model', async () => {
    const embeddings = new OpenAiEmbeddingGateway({ baseURL: fake.baseUrls.openai, timeoutMs: 5_000, model: 'text-embedding-3-large', fetch: httpFetch });

    await embed(embeddings, ['one text']);

    expect(embeddings.model).toBe('text-embedding-3-large');
    expect(fake.requests[0]?.model).toBe('text-embedding-3-large');
  });

  it('answers an empty batch without calling the provider', async () => {
    expect(await embed(gateway(), [])).toEqual({ ok: true, vectors: [] });
    expect(fake.requests).toHaveLength(0);
  });

  it.each([401, 403])('maps %i to invalid_embedding_key', async (status) => {
    fake.respondWith(fakeReply.status(status));

    expect(await embed(gateway(), ['text'])).toEqual({ ok: false, error: 'invalid_embedding_key' });
    expect(fake.requests).toHaveLength(1);
  });

  it('maps 429 to provider_rate_limit with retry-after, without retrying', async () => {
    fake.respondWith(fakeReply.status(429, { retryAfter: '2.5' }), fakeReply.success());

    expect(await embed(gateway(), ['text'])).toEqual({ ok: false, error: 'provider_rate_limit', retryAfterSeconds: 3 });
    expect(fake.requests).toHaveLength(1);
  });

  it('retries a 500 once, then gives provider_unavailable', async () => {
    fake.respondWith(fakeReply.status(500));

    expect(await embed(gateway(), ['text'])).toEqual({ ok: false, error: 'provider_unavailable' });
    expect(fake.requests).toHaveLength(2);
  });

  it('succeeds when the retry of a 500 succeeds', async () => {
    fake.respondWith(fakeReply.status(500), fakeReply.success());

    const result = await embed(gateway(), ['text']);

    expect(result).toEqual({ ok: true, vectors: [fakeEmbedding('text')] });
  });

  it.each([
    ['invalid JSON', fakeReply.invalidJson()],
    ['JSON of the wrong shape', fakeReply.wrongShape()],
  ])('maps %s to provider_unavailable', async (_label, reply) => {
    fake.respondWith(reply);

    expect(await embed(gateway(), ['text'])).toEqual({ ok: false, error: 'provider_unavailable' });
  });

  it('gives provider_unavailable at the deadline', async () => {
    fake.respondWith(fakeReply.delayed(10_000));

    expect(await embed(gateway(300), ['text'])).toEqual({ ok: false, error: 'provider_unavailable' });
  }, 5_000);
});

describe('fake provider', () => {
  it('refuses an Anthropic temperature like API version 2026-10-21 does', async () => {
    const response = await fetch(`${fake.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'anthropic-version': '2026-10-21' },
      body: JSON.stringify({ model: 'claude-haiku-4-5', max_tokens: 10, temperature: 1, messages: [] }),
    });

    expect(response.status).toBe(400);
  });
});

describe('fake embeddings', () => {
  const cosine = (a: number[], b: number[]) => a.reduce((sum, value, i) => sum + value * (b[i] ?? 0), 0);

  it('ranks the chunk that shares words with the query first', () => {
    const query = fakeEmbedding('Which Kubernetes projects has she led?');
    const related = fakeEmbedding('She led the migration of forty services to Kubernetes.');
    const unrelated = fakeEmbedding('In her spare time she restores vintage bicycles and bakes bread.');

    expect(cosine(query, related)).toBeGreaterThan(cosine(query, unrelated));
    expect(cosine(related, related)).toBeCloseTo(1);
  });
});

describe('call policy helpers', () => {
  it('reads retry-after as whole seconds rounded up, or as an HTTP date', () => {
    const now = new Date('2030-01-01T00:00:00.000Z');
    expect(parseRetryAfter('7', now)).toBe(7);
    expect(parseRetryAfter('0.2', now)).toBe(1);
    expect(parseRetryAfter('Tue, 01 Jan 2030 00:00:30 GMT', now)).toBe(30);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(retryAfterSecondsFromHeaders(new Headers({ 'retry-after-ms': '1500' }), now)).toBe(2);
  });

  it('recognises connection errors but not timeouts', () => {
    const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    expect(isConnectionError(new TypeError('fetch failed', { cause: reset }))).toBe(true);
    expect(isConnectionError(new Error('socket hang up'))).toBe(true);
    const timeout = Object.assign(new Error('Connect Timeout Error'), { code: 'UND_ERR_CONNECT_TIMEOUT' });
    expect(isConnectionError(new TypeError('fetch failed', { cause: timeout }))).toBe(false);
    expect(isConnectionError(new SyntaxError('Unexpected end of JSON input'))).toBe(false);
  });
});
