import { request as httpsRequest } from 'node:https';
import { connect } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeLlmProvider, fakeReply, HttpClient, startFakeLlmProvider, uniqueName, validBot } from '@careerbot/testkit';
import { httpsCall, HttpsClient, nginxAvailable, startNginx, type Nginx } from '../support/nginx.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { awayFromWindowEnd, SIGN_IN_WINDOW_MS } from '../support/windows.ts';

const PASSWORD = 'correct horse battery';
const PRODUCTION = { NODE_ENV: 'production', SESSION_SECRET: 'behind-nginx-session-secret-0123456789abcdef', KEY_ENCRYPTION_KEY: 'a'.repeat(64) };

/** Registers and signs in through `client`; returns the username. */
const signIn = async (client: HttpsClient | HttpClient, headers: Record<string, string> = {}) => {
  const name = uniqueName('proxy');
  const call = (method: string, path: string, json?: unknown) =>
    client instanceof HttpsClient ? client.call(method, path, json, headers) : client.request(method, path, { json, headers });
  expect((await call('POST', '/api/auth/register', { username: name, email: `${name}@example.com`, password: PASSWORD })).status).toBe(201);
  const csrf = (await call('GET', '/api/auth/csrf')).json.csrfToken;
  expect((await call('POST', '/api/auth/callback/credentials', { csrfToken: csrf, email: name, password: PASSWORD })).status).toBe(200);
  return name;
};

const failSignIn = async (client: HttpsClient | HttpClient, username: string, headers: Record<string, string>) => {
  const call = (method: string, path: string, json?: unknown) =>
    client instanceof HttpsClient ? client.call(method, path, json, headers) : client.request(method, path, { json, headers });
  const csrf = (await call('GET', '/api/auth/csrf')).json.csrfToken;
  return (await call('POST', '/api/auth/callback/credentials', { csrfToken: csrf, email: username, password: 'not the password' })).status;
};

describe.runIf(nginxAvailable())('behind nginx with the shipped configuration', () => {
  let provider: FakeLlmProvider;
  let trusted: TestApp;
  let untrusted: TestApp;
  let proxy: Nginx;
  let untrustedProxy: Nginx;
  beforeAll(async () => {
    provider = await startFakeLlmProvider();
    const env = { ...PRODUCTION, OPENAI_BASE_URL: provider.baseUrls.openai, LLM_TIMEOUT_MS: '3000' };
    trusted = await startTestApp({ env: { ...env, TRUST_PROXY: 'loopback' } });
    untrusted = await startTestApp({ env: { ...env, TRUST_PROXY: 'false' } });
    proxy = await startNginx(Number(new URL(trusted.baseUrl).port));
    untrustedProxy = await startNginx(Number(new URL(untrusted.baseUrl).port));
  }, 60_000);
  afterAll(async () => {
    await proxy?.stop();
    await untrustedProxy?.stop();
    await trusted?.close();
    await untrusted?.close();
    await provider?.close();
  });

  it('sends plain http to https', async () => {
    const response = await fetch(`${proxy.httpUrl}/dashboard`, { redirect: 'manual' });
    expect(response.status).toBe(301);
    expect(response.headers.get('location')).toBe(`https://localhost${'/dashboard'}`);
  });

  it('X-Forwarded-Proto decides Secure cookies: a Secure session through the trusted proxy, none without trust or over plain http', async () => {
    const viaProxy = new HttpsClient(proxy.httpsUrl);
    await signIn(viaProxy);
    const session = viaProxy.setCookies.find((line) => line.startsWith('careerbot.session-token='));
    expect(session).toMatch(/; Secure/i);
    expect(session).toMatch(/; HttpOnly/i);
    expect((await viaProxy.call('GET', '/api/auth/session')).json.user).toBeDefined();

    const notTrusted = new HttpsClient(untrustedProxy.httpsUrl);
    await signIn(notTrusted);
    expect(notTrusted.setCookies.some((line) => line.startsWith('careerbot.session-token='))).toBe(false);
    expect((await notTrusted.call('GET', '/api/auth/session')).json).toEqual({});

    const direct = new HttpClient(trusted.baseUrl);
    await signIn(direct);
    expect(direct.cookies.has('careerbot.session-token')).toBe(false);
  });

  it('production over plain http: sign-in sets no cookie, and the log says why once, at the first such request', async () => {
    const warning = /"level":40[^\n]*session cookies are Secure in production, but this request came over plain http[^\n]*TRUST_PROXY/g;
    const notTrusted = new HttpsClient(untrustedProxy.httpsUrl);
    await signIn(notTrusted);
    await signIn(notTrusted);
    expect(notTrusted.setCookies.some((line) => line.startsWith('careerbot.session-token='))).toBe(false);
    expect(untrusted.logs.text().match(warning)).toHaveLength(1);
    // Through the trusted hop the cookie sticks, and nothing is said about it.
    const before = trusted.logs.text().match(warning)?.length ?? 0;
    await signIn(new HttpsClient(proxy.httpsUrl));
    expect(trusted.logs.text().match(warning)?.length ?? 0).toBe(before);
  });

  it('Strict-Transport-Security: the service sends it when the request came over https; nginx sends it once on every https answer', async () => {
    const hsts = (answer: { headers: Record<string, string | string[] | undefined> }) => answer.headers['strict-transport-security'];
    // Through the trusted hop: the service's header, replaced by nginx's, so exactly one.
    for (const path of ['/api/auth/session', '/', '/no-such-page']) expect(hsts(await httpsCall(`${proxy.httpsUrl}${path}`))).toBe('max-age=31536000');
    // The hop is not trusted: the service sees http and sends none; nginx still does.
    expect(hsts(await httpsCall(`${untrustedProxy.httpsUrl}/api/auth/session`))).toBe('max-age=31536000');
    const fromService = await fetch(`${untrusted.baseUrl}/api/auth/session`, { headers: { 'x-forwarded-proto': 'https' } });
    expect(fromService.headers.get('strict-transport-security')).toBeNull();
    // The service itself, asked by the trusted hop's address with X-Forwarded-Proto: https.
    const secure = await fetch(`${trusted.baseUrl}/api/auth/session`, { headers: { 'x-forwarded-proto': 'https' } });
    expect(secure.headers.get('strict-transport-security')).toBe('max-age=31536000');
    const plain = await fetch(`${trusted.baseUrl}/api/auth/session`);
    expect(plain.headers.get('strict-transport-security')).toBeNull();
  });

  it('TRUST_PROXY decides the client address the sign-in throttle counts', async () => {
    await awayFromWindowEnd(SIGN_IN_WINDOW_MS, 20_000);
    // Through nginx, a forged X-Forwarded-For is overwritten: all ten failures are one address's.
    const setup = new HttpsClient(proxy.httpsUrl);
    const victim = await signIn(setup);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push(await failSignIn(new HttpsClient(proxy.httpsUrl), victim, { 'x-forwarded-for': `198.51.100.${i}` }));
    expect(statuses.slice(0, 10).every((status) => status === 401)).toBe(true);
    expect(statuses[10]).toBe(429);

    // A trusted hop's forwarded addresses count separately...
    const other = await signIn(new HttpClient(trusted.baseUrl), { 'x-forwarded-for': '192.0.2.200' });
    const trustedStatuses: number[] = [];
    for (let i = 0; i < 12; i++) trustedStatuses.push(await failSignIn(new HttpClient(trusted.baseUrl), other, { 'x-forwarded-for': `192.0.2.${i}` }));
    expect(trustedStatuses.every((status) => status === 401)).toBe(true);

    // ...and an untrusted one's are ignored: the peer's address counts.
    const third = await signIn(new HttpClient(untrusted.baseUrl));
    const untrustedStatuses: number[] = [];
    for (let i = 0; i < 11; i++) untrustedStatuses.push(await failSignIn(new HttpClient(untrusted.baseUrl), third, { 'x-forwarded-for': `192.0.2.${i}` }));
    expect(untrustedStatuses[10]).toBe(429);
  });

  it('the Origin check compares with the public origin the proxy forwards', async () => {
    const client = new HttpsClient(proxy.httpsUrl);
    await signIn(client);
    const patch = (origin: string) => client.call('PATCH', '/api/account/settings', { notifyLeadsEmail: true }, { origin });
    expect((await patch(proxy.httpsUrl)).status).toBe(200);
    expect((await patch('https://evil.example')).status).toBe(403);
    expect((await patch(proxy.httpsUrl.replace('https:', 'http:'))).status).toBe(403);
  });

  it('keeps the 16,384-byte chat cap and its 413 through the proxy', async () => {
    const owner = new HttpsClient(proxy.httpsUrl);
    await signIn(owner);
    const botId = (await owner.call('POST', '/api/bots', validBot())).json.bot.id;
    const chat = (bytes: number) => {
      const json = '{"message":"What did Ada build?"}';
      return httpsCall(`${proxy.httpsUrl}/api/chat/${botId}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-llm-api-key': 'sk-proxy-key-0123456789' },
        body: json + ' '.repeat(bytes - json.length),
      });
    };
    provider.respondWith(fakeReply.success('Ada built the first algorithm.'));
    const atCap = await chat(16_384);
    expect(atCap.status).toBe(200);
    expect(atCap.json.reply).toBe('Ada built the first algorithm.');
    const over = await chat(16_385);
    expect(over.status).toBe(413);
    expect(over.json).toEqual({ error: 'request_too_large' });
    // The service reads (and drops) what nginx is still sending before it closes: closing
    // on unread bytes reset the connection, and nginx then answered 502 about 2 % of the time.
    const sizes = Array.from({ length: 100 }, (_, i) => 16_385 + i * 997);
    const statuses = [];
    for (const size of sizes) statuses.push((await chat(size)).status);
    expect(statuses.filter((status) => status !== 413)).toEqual([]);
  });

  it('streams leads.csv through the proxy', async () => {
    const owner = new HttpsClient(proxy.httpsUrl);
    await signIn(owner);
    const botId = (await owner.call('POST', '/api/bots', validBot())).json.bot.id;
    await trusted.db.query(
      `INSERT INTO leads (bot_id, email, context_summary, captured_at)
       SELECT $1, 'lead' || n || '@example.com', 'Summary ' || n, now() - n * interval '1 second' FROM generate_series(1, 1200) AS n`,
      [botId],
    );
    const csv = await owner.call('GET', '/api/bots/leads.csv');
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['transfer-encoding']).toBe('chunked');
    const lines = csv.text.trim().split('\n');
    expect(lines).toHaveLength(1201);
    expect(lines[1]).toContain('lead1@example.com');
    expect(lines[1200]).toContain('lead1200@example.com');
  });

  it('passes a streamed chat reply on event by event, not in one block at the end', async () => {
    const owner = new HttpsClient(proxy.httpsUrl);
    await signIn(owner);
    const botId = (await owner.call('POST', '/api/bots', validBot())).json.bot.id;
    const sentences = ['Ada wrote the notes. ', 'She saw the engine loop. ', 'She named the bits. ', 'She wrote the first program. ', 'It was for Bernoulli numbers. '];
    provider.respondWith(fakeReply.stream(sentences, { chunkDelayMs: 250 }));
    const arrivals: { atMs: number; text: string }[] = [];
    const started = performance.now();
    await new Promise<void>((resolve, reject) => {
      const req = httpsRequest(
        `${proxy.httpsUrl}/api/chat/${botId}`,
        { method: 'POST', rejectUnauthorized: false, headers: { 'content-type': 'application/json', accept: 'text/event-stream', 'x-llm-api-key': 'sk-proxy-key-0123456789' } },
        (res) => {
          expect(res.statusCode).toBe(200);
          res.on('data', (bytes: Buffer) => arrivals.push({ atMs: performance.now() - started, text: bytes.toString() }));
          res.on('end', resolve);
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end('{"message":"What did Ada write?"}');
    });
    const deltas = arrivals.filter((arrival) => arrival.text.includes('event: delta'));
    expect(deltas.length).toBeGreaterThanOrEqual(3);
    // The first words came through about a second before the end: nginx did not gather them.
    expect(arrivals.at(-1)!.atMs - deltas[0]!.atMs).toBeGreaterThan(700);
    expect(arrivals.map((arrival) => arrival.text).join('')).toContain('event: done');
  });

  it('a client that disconnects mid-request leaves nothing broken', async () => {
    const owner = new HttpsClient(proxy.httpsUrl);
    await signIn(owner);
    const botId = (await owner.call('POST', '/api/bots', validBot())).json.bot.id;
    const logLinesBefore = trusted.logs.lines.length;

    // Gone while the provider is still thinking.
    provider.respondWith(fakeReply.delayed(1_500, fakeReply.success('Too late.')));
    const abort = new AbortController();
    const gone = httpsCall(`${proxy.httpsUrl}/api/chat/${botId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-llm-api-key': 'sk-proxy-key-0123456789' },
      body: '{"message":"Are you there?"}',
      signal: abort.signal,
    }).catch((error: Error) => error);
    setTimeout(() => abort.abort(), 300);
    expect(await gone).toBeInstanceOf(Error);

    // Gone halfway through sending its body.
    const url = new URL(proxy.httpsUrl);
    await new Promise<void>((resolve) => {
      const socket = connect({ host: '127.0.0.1', port: Number(url.port), servername: 'localhost', rejectUnauthorized: false }, () => {
        socket.write(
          `POST /api/chat/${botId} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\nx-llm-api-key: sk-k\r\nContent-Length: 4000\r\n\r\n{"message":"half`,
        );
        setTimeout(() => (socket.destroy(), resolve()), 200);
      });
    });

    await new Promise((resolve) => setTimeout(resolve, 1_800)); // the abandoned provider call ends
    provider.respondWith(fakeReply.success('Still here.'));
    const after = await httpsCall(`${proxy.httpsUrl}/api/chat/${botId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-llm-api-key': 'sk-proxy-key-0123456789' },
      body: '{"message":"Are you there now?"}',
    });
    expect(after.status).toBe(200);
    expect(after.json.reply).toBe('Still here.');
    expect((await httpsCall(`${proxy.httpsUrl}/readyz`)).status).toBe(200);
    expect(trusted.db.pool.waitingCount).toBe(0);
    const newLines = trusted.logs.lines.slice(logLinesBefore).map((line) => JSON.parse(line));
    expect(newLines.filter((line) => line.level >= 50)).toEqual([]);
  });
});
