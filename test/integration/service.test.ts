import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Db } from '../../src/adapters/persistence/db.ts';
import { HttpClient, signedInClient, validBot } from '@careerbot/testkit';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { startTcpProxy } from '../support/tcp-proxy.ts';

describe('health, unknown routes and request ids', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => app?.close());

  it('answers /healthz and /readyz', async () => {
    const client = new HttpClient(app.baseUrl);
    expect((await client.get('/healthz')).json).toEqual({ status: 'ok' });
    expect((await client.get('/readyz')).json).toEqual({ status: 'ready' });
  });

  it.each(['/api/nope', '/api/auth/nope', '/dashboard/unknown', '/nope'])('answers 404 not_found for %s', async (path) => {
    const response = await new HttpClient(app.baseUrl).get(path);
    expect(response.status).toBe(404);
    expect(response.json).toEqual({ error: 'not_found' });
  });

  it.each([
    ['/api/chat/%ZZ', 'POST', { error: 'bot_not_found' }],
    ['/api/avatars/%ZZ.svg', 'GET', { error: 'not_found' }],
  ])('answers an undecodable path parameter in %s with that surface’s 404', async (path, method, body) => {
    const response = await new HttpClient(app.baseUrl).request(method, path, {
      body: method === 'POST' ? '{"message":"hi"}' : undefined,
      headers: { 'content-type': 'application/json', 'x-llm-api-key': 'k' },
    });
    expect(response.status).toBe(404);
    expect(response.json).toEqual(body);
  });

  it('echoes a well-formed x-request-id and generates one otherwise; logs one line per request with it', async () => {
    const client = new HttpClient(app.baseUrl);
    const given = await client.get('/healthz', { 'x-request-id': 'trace-abc-123' });
    expect(given.headers.get('x-request-id')).toBe('trace-abc-123');
    const generated = await client.get('/healthz', { 'x-request-id': 'bad id with spaces' });
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const line = app.logs.lines.map((entry) => JSON.parse(entry)).find((entry) => entry.req?.id === 'trace-abc-123');
    expect(line).toMatchObject({ req: { method: 'GET', url: '/healthz' }, res: { statusCode: 200 } });
  });

  it('never logs passwords, cookies or session ids', async () => {
    const { client, password } = await signedInClient(app.baseUrl);
    await client.post('/api/bots', validBot());
    const sessionId = decodeURIComponent(client.cookies.get('careerbot.session-token')!);
    const logs = app.logs.text();
    expect(logs).not.toContain(password);
    expect(logs).not.toContain(sessionId.slice(2, 34));
    expect(logs).not.toMatch(/set-cookie|careerbot\.session-token/i);
  });
});

describe('when the database becomes unreachable while running', () => {
  let database: TestDatabase;
  let app: TestApp;
  let proxy: Awaited<ReturnType<typeof startTcpProxy>>;
  let throughProxy: Db;

  beforeAll(async () => {
    database = await createTestDatabase();
    const target = new URL(database.url);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port) });
    throughProxy = new Db({ connectionString: proxy.wrap(database.url), connectionTimeoutMillis: 2_000 });
    app = await startTestApp({ database: { ...database, db: throughProxy } });
  });
  afterAll(async () => {
    await app?.close();
    await throughProxy?.close();
    await proxy?.close();
    await database?.drop();
  });

  it('answers 503 service_unavailable with Retry-After, stays up, and recovers by itself', async () => {
    const { client } = await signedInClient(app.baseUrl);
    expect((await client.post('/api/bots', validBot())).status).toBe(201);

    proxy.cut();
    for (const request of [
      () => client.get('/api/bots'),
      () => client.post('/api/bots', validBot()),
      () => new HttpClient(app.baseUrl).post('/api/auth/register', { username: 'zed', email: 'z@example.com', password: 'long enough' }),
    ]) {
      const response = await request();
      expect(response.status).toBe(503);
      expect(response.json).toEqual({ error: 'service_unavailable' });
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect((await client.get('/readyz')).status).toBe(503);
    expect((await client.get('/healthz')).status).toBe(200);

    proxy.restore();
    expect((await client.get('/readyz')).status).toBe(200);
    const back = await client.get('/api/bots');
    expect(back.status).toBe(200);
    expect(back.json.bot.name).toBe('Ada Lovelace');
  });
});

describe('an unexpected failure', () => {
  let app: TestApp;
  beforeAll(async () => {
    const failing = async (): Promise<never> => {
      throw new Error('boom: internal detail /srv/app/secret.ts:42');
    };
    app = await startTestApp({ hasher: { hash: failing, verify: failing, verifyDummy: failing } });
  });
  afterAll(async () => app?.close());

  it('answers 500 internal_error with no message or stack, and logs the failure', async () => {
    const response = await new HttpClient(app.baseUrl).post('/api/auth/register', {
      username: 'failing',
      email: 'failing@example.com',
      password: 'long enough pw',
    });
    expect(response.status).toBe(500);
    expect(response.json).toEqual({ error: 'internal_error' });
    expect(response.text).not.toContain('boom');
    const logged = app.logs.lines.map((line) => JSON.parse(line)).find((line) => line.msg === 'unexpected failure');
    expect(logged.error.message).toContain('boom');
    expect((await new HttpClient(app.baseUrl).get('/healthz')).status).toBe(200);
  });
});
