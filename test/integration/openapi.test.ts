import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGES } from '../../src/adapters/pages/pages.tsx';
import { requestJsonSchema } from '../../src/adapters/http/openapi.ts';
import { requestSchemasOf } from '../../src/adapters/http/validated.ts';
import { HttpClient, signedInClient } from '@careerbot/testkit';
import { openApiCheck } from '../support/response-check.ts';
import { ownerWithToken } from '../support/runtime-clients.ts';
import { servedRoutes } from '../support/served-routes.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

let app: TestApp;
let document: any;
beforeAll(async () => {
  app = await startTestApp();
  document = (await new HttpClient(app.baseUrl).get('/api/openapi.json')).json;
});
afterAll(async () => app?.close());

/** Pages (HTML for people) and the widget scripts are not operations of the JSON API. */
// What the page router serves: the pages of the one table, the widget scripts beside them, the managed widget's frame, and the runtime's file for Node.
const PAGE_PATHS = new Set([...PAGES.flatMap((page) => (page.path ? [page.path.replace(/:(\w+)/g, '{$1}')] : [])), '/widget.js', '/embed/{botId}', '/runtime/careerbot-runtime.mjs']);
const isPage = (path: string) => PAGE_PATHS.has(path);
const apiRoutes = () => servedRoutes(app.express).filter((route) => !isPage(route.path));

const documented = () =>
  Object.entries(document.paths as Record<string, Record<string, unknown>>).flatMap(([path, methods]) =>
    Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
  );

describe('the OpenAPI document', () => {
  it('is what every answer of every test file is checked against (test/support/response-check.ts)', async () => {
    const before = app.responsesChecked();
    await new HttpClient(app.baseUrl).get('/healthz');
    await new HttpClient(app.baseUrl).post('/api/auth/register', { username: 'x' });
    await expect.poll(() => app.responsesChecked()).toBe(before + 2);
  });

  it('is OpenAPI 3.1 with an operation for every served route, and documents nothing that is not served', () => {
    expect(document.openapi).toBe('3.1.0');
    const served = apiRoutes().map((route) => `${route.method.toUpperCase()} ${route.path}`);
    expect(served.length).toBeGreaterThan(20);
    expect([...new Set(served)].sort()).toEqual(documented().sort());
  });

  it('documents each request body and query with exactly the schema the route validates with', () => {
    let compared = 0;
    for (const route of apiRoutes()) {
      const operation = document.paths[route.path][route.method];
      const schemas = route.handlers.map(requestSchemasOf).find(Boolean);
      if (schemas?.body) {
        const content = operation.requestBody?.content ?? {};
        expect(Object.keys(content).length, `${route.method} ${route.path} documents its body`).toBeGreaterThan(0);
        for (const { schema } of Object.values<{ schema: unknown }>(content)) {
          expect(schema, `${route.method} ${route.path} body`).toEqual(requestJsonSchema(schemas.body));
        }
        compared++;
      } else {
        expect(operation.requestBody, `${route.method} ${route.path} documents a body it does not validate`).toBeUndefined();
      }
      const queryParams = operation.parameters.filter((p: { in: string }) => p.in === 'query');
      if (schemas?.query) {
        const expected = requestJsonSchema(schemas.query) as { properties: Record<string, unknown> };
        expect(Object.fromEntries(queryParams.map((p: { name: string; schema: unknown }) => [p.name, p.schema]))).toEqual(
          expected.properties,
        );
        compared++;
      } else {
        expect(queryParams, `${route.method} ${route.path} documents a query it does not validate`).toEqual([]);
      }
    }
    expect(compared).toBeGreaterThan(8);
  });

  it('gives every operation a summary, responses with descriptions, and its error bodies', () => {
    for (const [path, methods] of Object.entries<Record<string, any>>(document.paths)) {
      for (const [method, operation] of Object.entries<any>(methods)) {
        expect(operation.summary, `${method} ${path}`).toBeTruthy();
        for (const response of Object.values<any>(operation.responses)) expect(response.description).toBeTruthy();
        if (path.startsWith('/api/') && !path.startsWith('/api/auth') && path !== '/api/openapi.json' && path !== '/api/docs') {
          const statuses = Object.keys(operation.responses).map(Number);
          expect(statuses.some((status) => status >= 400 && status < 500), `${method} ${path} documents a 4xx`).toBe(true);
        }
      }
    }
  });

  it('serves a readable HTML reference at /api/docs listing every operation', async () => {
    const response = await fetch(`${app.baseUrl}/api/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await response.text();
    for (const entry of documented()) {
      const [method, path] = entry.split(' ');
      expect(html).toContain(`${method}</span> <code>${path!.replaceAll('&', '&amp;')}</code>`);
    }
  });

  it('lists every status each served route answers to malformed, unauthenticated, foreign and oversized requests', async () => {
    const { check } = openApiCheck(document);
    const owner = await ownerWithToken(app.baseUrl);
    const botless = await signedInClient(app.baseUrl);
    const csrf = (await owner.client.get('/api/auth/csrf')).json.csrfToken as string;
    const credentials: Record<string, Record<string, string>> = {
      anonymous: {},
      'owner without a bot': { cookie: botless.client.cookieHeader() },
      owner: { cookie: owner.client.cookieHeader() },
      'bot token': { authorization: `Bearer ${owner.token}` },
      'unknown bot token': { authorization: `Bearer cbt_${'0'.repeat(64)}` },
      'LLM key': { 'x-llm-api-key': 'sk-probe' },
    };
    const oversized = `{"x":"${'a'.repeat(1024 * 1024 + 1)}"}`;
    const bodies: Record<string, { body?: string; headers: Record<string, string> }> = {
      none: { headers: {} },
      'invalid JSON': { body: '{"x":', headers: { 'content-type': 'application/json' } },
      'a JSON array': { body: '[]', headers: { 'content-type': 'application/json' } },
      'an empty object': { body: '{}', headers: { 'content-type': 'application/json' } },
      'a form with a CSRF token': { body: `csrfToken=${csrf}`, headers: { 'content-type': 'application/x-www-form-urlencoded' } },
      'plain text': { body: 'hello', headers: { 'content-type': 'text/plain' } },
      'over 1 MiB': { body: oversized, headers: { 'content-type': 'application/json' } },
      'a foreign Origin': { body: '{}', headers: { 'content-type': 'application/json', origin: 'https://evil.example' } },
    };
    const ids = { botId: owner.botId, id: '00000000-0000-4000-8000-000000000000', file: `${owner.botId}.svg` };
    const problems: string[] = [];
    const statuses = new Set<string>();
    // Sign-out last: it ends the sessions the other probes use.
    const routes = apiRoutes().sort((a, b) => Number(a.path === '/api/auth/signout') - Number(b.path === '/api/auth/signout'));
    for (const route of routes) {
      const path = route.path.replace(/\{(\w+)\}/g, (_m, name: keyof typeof ids) => ids[name] ?? 'x');
      const method = route.method.toUpperCase();
      for (const [who, auth] of Object.entries(credentials)) {
        for (const [what, { body, headers }] of Object.entries(bodies)) {
          if (body !== undefined && method === 'GET') continue;
          const response = await fetch(`${app.baseUrl}${path}`, { method, body, headers: { ...auth, ...headers }, redirect: 'manual' });
          const text = await response.text();
          statuses.add(`${method} ${route.path} ${response.status}`);
          const found = check({ method, path, status: response.status, header: (name) => response.headers.get(name), body: text });
          for (const problem of found ?? [`${method} ${path}: no documented operation`]) problems.push(`${problem} (${who}, ${what})`);
        }
      }
    }
    expect(problems).toEqual([]);
    // The probes reach the refusals the fuzzer found undocumented, and the ordinary answers.
    for (const expected of ['POST /api/auth/callback/credentials 400', 'POST /api/auth/signout 400', 'POST /api/bots 413', 'POST /api/bots 403', 'GET /api/bots 200']) {
      expect(statuses).toContain(expected);
    }
    // Some 2,000 requests, one after another (sign-out must come last): 11-13 s in CI, 45-60 s on a
    // machine whose two cores run other suites too, so its own limit, above the files' 60 s.
  }, 180_000);

  it('fails an answer whose status, body or header the document does not state', () => {
    const { check } = openApiCheck(document);
    const answer = (status: number, body: unknown, headers: Record<string, string> = {}) =>
      check({
        method: 'GET',
        path: '/api/v1/bot/config',
        status,
        header: (name) => ({ 'content-type': 'application/json', ...headers })[name.toLowerCase()] ?? null,
        body: JSON.stringify(body),
      });
    expect(answer(401, { error: 'invalid_bot_token' }, { 'www-authenticate': 'Bearer' })).toEqual([]);
    expect(answer(418, { error: 'teapot' })).toEqual(['GET /api/v1/bot/config answered 418, which the document does not list']);
    expect(answer(401, { error: 'nope' })!.join()).toMatch(/does not match/);
    expect(answer(401, { error: 'invalid_bot_token' }, { 'www-authenticate': 'Basic' })!.join()).toMatch(/WWW-Authenticate/);
    expect(check({ method: 'GET', path: '/not-an-operation', status: 200, header: () => null, body: '' })).toBeNull();
  });

  it('states the request rules in its schemas: formats, lengths, trimming, no NUL, and Azure needing a model', () => {
    const body = (path: string, method = 'post') => document.paths[path][method].requestBody.content['application/json'].schema;
    const register = body('/api/auth/register');
    expect(register.properties.email).toMatchObject({ format: 'email', maxLength: 254 });
    expect(register.properties.email.description).toMatch(/trimmed/);
    expect(register.properties.password).toMatchObject({ minLength: 8, maxLength: 72 });
    const bot = body('/api/bots');
    expect(bot.properties.name).toMatchObject({ minLength: 1, maxLength: 100 });
    expect(bot.properties.name.description).toMatch(/Trimmed/);
    expect(new RegExp(bot.properties.name.pattern, 'u').test('Ada\u0000')).toBe(false);
    expect(new RegExp(bot.properties.name.pattern, 'u').test('Ada')).toBe(true);
    expect(bot.if.properties.llmProvider.const).toBe('azure');
    expect(bot.then.required).toContain('llmModel');
    expect(body('/api/v1/bot/leads').properties.email.format).toBe('email');
    expect(body('/api/v1/bot/conversations').properties.sessionId.pattern).toBeTruthy();

    const headerType = (path: string, method: string, status: number, name: string) =>
      document.paths[path][method].responses[status].headers[name].schema.type;
    expect(headerType('/api/v1/bot/config', 'get', 200, 'ETag')).toBe('string');
    expect(headerType('/api/v1/bot/config', 'get', 401, 'WWW-Authenticate')).toBe('string');
    expect(headerType('/api/chat/{botId}', 'post', 429, 'Retry-After')).toBe('integer');
    expect(Object.keys(document.paths['/api/auth/callback/credentials'].post.responses)).toContain('400');
    expect(Object.keys(document.paths['/api/auth/signout'].post.responses)).toContain('400');
  });
});
