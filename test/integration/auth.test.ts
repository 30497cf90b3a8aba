import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { HttpClient, signedInClient, uniqueName } from '@careerbot/testkit';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { awayFromWindowEnd, SIGN_IN_WINDOW_MS } from '../support/windows.ts';

let app: TestApp;
let address = 0;
/** Each test signs in from its own client address, so the per-address throttle of one test can't leak into another. */
const freshAddress = () => ({ 'x-forwarded-for': `10.0.${Math.floor(++address / 250)}.${address % 250}` });

beforeAll(async () => {
  app = await startTestApp({ env: { TRUST_PROXY: 'true' } });
});
afterAll(async () => app?.close());

const register = (client: HttpClient, body: unknown) => client.post('/api/auth/register', body);

const csrfOf = async (client: HttpClient) => (await client.get('/api/auth/csrf')).json.csrfToken as string;

describe('POST /api/auth/register', () => {
  it('creates the user, normalises username and e-mail, and never returns or stores the password', async () => {
    const client = new HttpClient(app.baseUrl);
    const name = uniqueName('Reg');
    const response = await register(client, {
      username: `  ${name} `,
      email: ` ${name}@Example.COM `,
      password: 'a sturdy password',
    });
    expect(response.status).toBe(201);
    expect(response.json).toEqual({
      user: { id: expect.stringMatching(/^[0-9a-f-]{36}$/), username: name.toLowerCase(), email: `${name.toLowerCase()}@example.com` },
    });
    expect(response.text).not.toContain('a sturdy password');
    expect(response.text).not.toMatch(/\$2[aby]\$/);
    const { rows } = await app.db.query('SELECT password_hash FROM users WHERE id = $1', [response.json.user.id]);
    expect(rows[0]!.password_hash).toMatch(/^\$2b\$10\$/);
    expect(JSON.stringify(rows)).not.toContain('a sturdy password');
  });

  it('does not sign the new user in', async () => {
    const client = new HttpClient(app.baseUrl);
    const name = uniqueName();
    await register(client, { username: name, email: `${name}@example.com`, password: 'long enough pw' });
    expect((await client.get('/api/auth/session')).json).toEqual({});
  });

  it.each([
    ['malformed JSON', '{"username": '],
    ['an empty body', ''],
  ])('answers 400 Invalid JSON body for %s', async (_label, body) => {
    const response = await new HttpClient(app.baseUrl).request('POST', '/api/auth/register', {
      body,
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(400);
    expect(response.json).toEqual({ error: 'Invalid JSON body' });
  });

  it.each([
    ['username', { username: 'ab' }],
    ['username', { username: '-starts-with-dash' }],
    ['username', { username: 'has space' }],
    ['username', { username: 'x'.repeat(31) }],
    ['email', { email: 'not-an-email' }],
    ['email', { email: `${'a'.repeat(250)}@example.com` }],
    ['password', { password: 'short' }],
    ['password', { password: 'é'.repeat(37) }], // 74 bytes: bcrypt would silently ignore the tail
  ])('answers 400 Validation failed naming %s', async (field, override) => {
    const name = uniqueName();
    const response = await register(new HttpClient(app.baseUrl), {
      username: name,
      email: `${name}@example.com`,
      password: 'valid password',
      ...override,
    });
    expect(response.status).toBe(400);
    expect(response.json.error).toBe('Validation failed');
    expect(response.json.details.formErrors).toEqual([]);
    expect(Object.keys(response.json.details.fieldErrors)).toEqual([field]);
    expect(response.json.details.fieldErrors[field][0]).toEqual(expect.any(String));
  });

  it('reports a body that is not an object in formErrors', async () => {
    const response = await register(new HttpClient(app.baseUrl), ['not', 'an', 'object']);
    expect(response.status).toBe(400);
    expect(response.json).toEqual({
      error: 'Validation failed',
      details: { fieldErrors: {}, formErrors: [expect.any(String)] },
    });
  });

  it('answers 409 for a taken e-mail (checked first) and for a taken username', async () => {
    const client = new HttpClient(app.baseUrl);
    const name = uniqueName();
    await register(client, { username: name, email: `${name}@example.com`, password: 'long enough pw' });
    const both = await register(client, { username: name, email: `${name}@EXAMPLE.com`, password: 'long enough pw' });
    expect(both.status).toBe(409);
    expect(both.json).toEqual({ error: 'A user with this email already exists' });
    const username = await register(client, { username: name, email: `other-${name}@example.com`, password: 'long enough pw' });
    expect(username.status).toBe(409);
    expect(username.json).toEqual({ error: 'A user with this username already exists' });
  });

  it.each([
    ['e-mail', (i: number, name: string) => ({ username: `${name}${i}`, email: `${name}@example.com` })],
    ['username', (i: number, name: string) => ({ username: name, email: `${name}${i}@example.com` })],
  ])('lets the unique constraint decide concurrent registrations of one %s: one 201, the rest 409, never 500', async (_label, make) => {
    const name = uniqueName('race');
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        register(new HttpClient(app.baseUrl), { ...make(i, name), password: 'long enough pw' }),
      ),
    );
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    // All eight passed the pre-check before any insert (hashing sits between them), so
    // the insert-time path answered at least some of them.
    expect(responses.map((response) => response.json.error)).toContain('Email or username already exists');
    const { rows } = await app.db.query('SELECT count(*)::int AS n FROM users WHERE username LIKE $1', [`${name}%`]);
    expect(rows[0]!.n).toBe(1);
  });
});

describe('sign-in (Auth.js credentials flow)', () => {
  it('lists the credentials provider with absolute URLs', async () => {
    const response = await new HttpClient(app.baseUrl).get('/api/auth/providers');
    expect(response.json.credentials).toMatchObject({
      id: 'credentials',
      type: 'credentials',
      callbackUrl: `${app.baseUrl}/api/auth/callback/credentials`,
    });
  });

  it('gives a CSRF token and keeps it stable while its cookie is valid', async () => {
    const client = new HttpClient(app.baseUrl);
    const first = await client.get('/api/auth/csrf');
    expect(first.json.csrfToken).toMatch(/^[0-9a-f]{64}$/);
    const cookie = first.headers.getSetCookie().find((line) => line.startsWith('careerbot.csrf-token='))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect((await client.get('/api/auth/csrf')).json.csrfToken).toBe(first.json.csrfToken);
  });

  it('signs in with JSON: 200 { url }, an httpOnly Lax session cookie for 30 days, and a session', async () => {
    const { email, username } = await signedInClient(app.baseUrl).then(async ({ client, ...rest }) => {
      await client.post('/api/auth/signout', { csrfToken: await csrfOf(client) });
      return rest;
    });
    const client = new HttpClient(app.baseUrl);
    const csrfToken = await csrfOf(client);
    const response = await client.post(
      '/api/auth/callback/credentials',
      { csrfToken, email: email.toUpperCase(), password: 'correct horse battery', callbackUrl: '/dashboard' },
      freshAddress(),
    );
    expect(response.status).toBe(200);
    expect(response.json).toEqual({ url: `${app.baseUrl}/dashboard` });
    const cookie = response.headers.getSetCookie().find((line) => line.startsWith('careerbot.session-token='))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).not.toMatch(/Secure/i);
    const expires = new Date(/Expires=([^;]+)/i.exec(cookie)![1]!).getTime();
    expect(expires - Date.now()).toBeGreaterThan(29 * 24 * 3600_000);
    const session = await client.get('/api/auth/session');
    expect(session.json).toEqual({
      user: { id: expect.any(String), name: username, email },
      expires: expect.stringMatching(/Z$/),
    });
  });

  it('accepts the username in place of the e-mail, and form-encoded bodies with a 302 to a same-origin callback', async () => {
    const { username } = await signedInClient(app.baseUrl);
    const client = new HttpClient(app.baseUrl);
    const csrfToken = await csrfOf(client);
    const response = await client.request('POST', '/api/auth/callback/credentials', {
      form: { csrfToken, email: username, password: 'correct horse battery', callbackUrl: `${app.baseUrl}/dashboard?tab=leads` },
      headers: freshAddress(),
    });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe(`${app.baseUrl}/dashboard?tab=leads`);
    expect((await client.get('/api/auth/session')).json.user.name).toBe(username);
  });

  it('never redirects off-site, and answers JSON to a form with json=true', async () => {
    const { email } = await signedInClient(app.baseUrl);
    for (const callbackUrl of ['https://evil.example/steal', '//evil.example/x', 'javascript:alert(1)']) {
      const client = new HttpClient(app.baseUrl);
      const response = await client.request('POST', '/api/auth/callback/credentials', {
        form: { csrfToken: await csrfOf(client), email, password: 'correct horse battery', callbackUrl },
        headers: freshAddress(),
      });
      expect(response.headers.get('location')).toBe(`${app.baseUrl}/`);
    }
    const client = new HttpClient(app.baseUrl);
    const response = await client.request('POST', '/api/auth/callback/credentials', {
      form: { csrfToken: await csrfOf(client), email, password: 'correct horse battery', json: 'true' },
      headers: freshAddress(),
    });
    expect(response.status).toBe(200);
    expect(response.json).toEqual({ url: `${app.baseUrl}/` });
  });

  it('answers 401 CredentialsSignin with an absolute failure URL, or a 302 to the login page for forms', async () => {
    const { email } = await signedInClient(app.baseUrl);
    const client = new HttpClient(app.baseUrl);
    const csrfToken = await csrfOf(client);
    const json = await client.post('/api/auth/callback/credentials', { csrfToken, email, password: 'wrong password' }, freshAddress());
    expect(json.status).toBe(401);
    expect(json.json.error).toBe('CredentialsSignin');
    expect(new URL(json.json.url).searchParams.get('error')).toBe('CredentialsSignin');
    expect(json.json.url.startsWith(app.baseUrl)).toBe(true);
    const form = await client.request('POST', '/api/auth/callback/credentials', {
      form: { csrfToken, email, password: 'wrong password' },
      headers: freshAddress(),
    });
    expect(form.status).toBe(302);
    expect(form.headers.get('location')).toBe(`${app.baseUrl}/login?error=CredentialsSignin`);
    expect(client.cookies.has('careerbot.session-token')).toBe(false);
  });

  it('answers an unknown account exactly like a wrong password', async () => {
    const client = new HttpClient(app.baseUrl);
    const response = await client.post(
      '/api/auth/callback/credentials',
      { csrfToken: await csrfOf(client), email: 'nobody@example.com', password: 'whatever pw' },
      freshAddress(),
    );
    expect(response.status).toBe(401);
    expect(response.json).toEqual({ error: 'CredentialsSignin', url: `${app.baseUrl}/login?error=CredentialsSignin` });
  });

  it('answers a NUL in the e-mail or the password like any wrong credentials, not as a database failure', async () => {
    const { email } = await signedInClient(app.baseUrl);
    const client = new HttpClient(app.baseUrl);
    for (const body of [
      { email: 'nobody\u0000@example.com', password: 'whatever pw' },
      { email, password: 'correct horse\u0000battery' },
    ]) {
      const response = await client.post('/api/auth/callback/credentials', { csrfToken: await csrfOf(client), ...body }, freshAddress());
      expect(response.status).toBe(401);
      expect(response.json).toEqual({ error: 'CredentialsSignin', url: `${app.baseUrl}/login?error=CredentialsSignin` });
    }
  });

  it('answers 403 MissingCSRF without a token, with a wrong one, or without the CSRF cookie', async () => {
    const { email } = await signedInClient(app.baseUrl);
    const client = new HttpClient(app.baseUrl);
    const token = await csrfOf(client);
    const body = { email, password: 'correct horse battery' };
    for (const csrfToken of [undefined, 'f'.repeat(64), 'é'.repeat(64), 42]) {
      const response = await client.post('/api/auth/callback/credentials', { ...body, csrfToken }, freshAddress());
      expect(response.status).toBe(403);
      expect(response.json).toEqual({ error: 'MissingCSRF' });
    }
    const cookieless = new HttpClient(app.baseUrl);
    const response = await cookieless.post('/api/auth/callback/credentials', { ...body, csrfToken: token }, freshAddress());
    expect(response.json).toEqual({ error: 'MissingCSRF' });
  });

  it('keeps only a hash of the session id in the database, never the cookie value', async () => {
    const { client } = await signedInClient(app.baseUrl);
    const cookie = decodeURIComponent(client.cookies.get('careerbot.session-token')!);
    const sid = cookie.slice(2, cookie.lastIndexOf('.'));
    const { rows } = await app.db.query<{ sid: string; sess: unknown }>('SELECT sid, sess FROM session');
    const dump = JSON.stringify(rows);
    expect(dump).not.toContain(sid);
    expect(rows.map((row) => row.sid)).toContain(createHash('sha256').update(sid).digest('hex'));
  });

  it('regenerates the session id at sign-in, and the old id stops working', async () => {
    const { client, email, password } = await signedInClient(app.baseUrl);
    const before = client.cookies.get('careerbot.session-token')!;
    const again = await client.post(
      '/api/auth/callback/credentials',
      { csrfToken: await csrfOf(client), email, password },
      freshAddress(),
    );
    expect(again.status).toBe(200);
    const after = client.cookies.get('careerbot.session-token')!;
    expect(after).not.toBe(before);
    const stale = await new HttpClient(app.baseUrl).get('/api/auth/session', { cookie: `careerbot.session-token=${before}` });
    expect(stale.json).toEqual({});
  });

  it('throttles after 10 failures per account and address: 429 with Retry-After, even for the right password', async () => {
    await awayFromWindowEnd(SIGN_IN_WINDOW_MS);
    const { email, password } = await signedInClient(app.baseUrl);
    const client = new HttpClient(app.baseUrl);
    const csrfToken = await csrfOf(client);
    const from = freshAddress();
    // CSRF failures do not count.
    for (let i = 0; i < 12; i++) {
      expect((await client.post('/api/auth/callback/credentials', { email, password: 'nope' }, from)).status).toBe(403);
    }
    for (let i = 0; i < 10; i++) {
      const response = await client.post('/api/auth/callback/credentials', { csrfToken, email, password: 'wrong pw' }, from);
      expect(response.status).toBe(401);
    }
    const throttled = await client.post('/api/auth/callback/credentials', { csrfToken, email, password }, from);
    expect(throttled.status).toBe(429);
    expect(throttled.json).toEqual({ error: 'TooManyRequests' });
    const retryAfter = Number(throttled.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    // Another address is not affected.
    const elsewhere = await client.post('/api/auth/callback/credentials', { csrfToken, email, password }, freshAddress());
    expect(elsewhere.status).toBe(200);
  });

  it('counts concurrent guesses against each other: of 25 at once, exactly 10 are checked and 15 throttled', async () => {
    await awayFromWindowEnd(SIGN_IN_WINDOW_MS);
    const { email } = await signedInClient(app.baseUrl);
    const client = new HttpClient(app.baseUrl);
    const csrfToken = await csrfOf(client);
    const from = freshAddress();
    const responses = await Promise.all(
      Array.from({ length: 25 }, () => client.post('/api/auth/callback/credentials', { csrfToken, email, password: 'guess-guess' }, from)),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(15);
  });

  it('does not count successful sign-ins against the account', async () => {
    const { email, password } = await signedInClient(app.baseUrl);
    const from = freshAddress();
    for (let i = 0; i < 12; i++) {
      const client = new HttpClient(app.baseUrl);
      const response = await client.post('/api/auth/callback/credentials', { csrfToken: await csrfOf(client), email, password }, from);
      expect(response.status).toBe(200);
    }
  });

  it('caps failures on one account across all addresses: 50, then 429 even from a new address', async () => {
    await awayFromWindowEnd(SIGN_IN_WINDOW_MS, 15_000);
    const { username, password } = await signedInClient(app.baseUrl);
    const client = new HttpClient(app.baseUrl);
    const csrfToken = await csrfOf(client);
    const guesses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        client.post('/api/auth/callback/credentials', { csrfToken, email: i % 2 ? username : `${username}@example.com`, password: `guess-${i}-x` }, freshAddress()),
      ),
    );
    expect(guesses.every((response) => response.status === 401)).toBe(true);
    const owner = await client.post('/api/auth/callback/credentials', { csrfToken, email: username, password }, freshAddress());
    expect(owner.status).toBe(429);
    expect(owner.json).toEqual({ error: 'TooManyRequests' });
  });

  it('throttles an address after 100 failures across accounts', async () => {
    await awayFromWindowEnd(SIGN_IN_WINDOW_MS, 15_000);
    const client = new HttpClient(app.baseUrl);
    const csrfToken = await csrfOf(client);
    const from = freshAddress();
    const attempts = Array.from({ length: 100 }, (_, i) =>
      client.post('/api/auth/callback/credentials', { csrfToken, email: `ghost${i}@example.com`, password: 'x'.repeat(9) }, from),
    );
    expect((await Promise.all(attempts)).every((response) => response.status === 401)).toBe(true);
    const { email, password } = await signedInClient(app.baseUrl);
    const response = await client.post('/api/auth/callback/credentials', { csrfToken, email, password }, from);
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});

describe('sign-out and the Origin check', () => {
  it('destroys the session in the store: the old cookie is refused at once', async () => {
    const { client } = await signedInClient(app.baseUrl);
    const cookie = client.cookieHeader();
    expect((await client.get('/api/bots')).status).toBe(404); // signed in, no bot yet
    const refused = await client.post('/api/auth/signout', {});
    expect(refused.status).toBe(403);
    expect(refused.json).toEqual({ error: 'MissingCSRF' });
    const out = await client.post('/api/auth/signout', { csrfToken: await csrfOf(client) });
    expect(out.status).toBe(200);
    expect(out.json).toEqual({ url: `${app.baseUrl}/` });
    const replayed = await new HttpClient(app.baseUrl).get('/api/bots', { cookie });
    expect(replayed.status).toBe(401);
    expect(replayed.json).toEqual({ error: 'Unauthorized' });
  });

  it('refuses cookie-authenticated changes from another origin, or Origin: null, with 403 Forbidden', async () => {
    const { client } = await signedInClient(app.baseUrl);
    for (const origin of ['https://evil.example', 'null']) {
      const response = await client.post('/api/bots', {}, { origin });
      expect(response.status).toBe(403);
      expect(response.json).toEqual({ error: 'Forbidden' });
    }
    const same = await client.post('/api/bots', {}, { origin: app.baseUrl });
    expect(same.status).toBe(400);
    const signIn = await client.post('/api/auth/callback/credentials', {}, { origin: 'https://evil.example' });
    expect(signIn.json).toEqual({ error: 'Forbidden' });
    const signOut = await client.post('/api/auth/signout', {}, { origin: 'https://evil.example' });
    expect(signOut.json).toEqual({ error: 'Forbidden' });
  });
});

describe('an app with ALLOWED_ORIGINS and production cookies behind a proxy', () => {
  let production: TestApp;
  beforeAll(async () => {
    production = await startTestApp({
      env: {
        NODE_ENV: 'production',
        SESSION_SECRET: 'a-production-secret-that-is-long-enough-0123',
        TRUST_PROXY: 'true',
        ALLOWED_ORIGINS: 'https://dashboard.example.com',
      },
    });
  });
  afterAll(async () => production?.close());

  it('marks the session cookie Secure and accepts a listed origin', async () => {
    const client = new HttpClient(production.baseUrl);
    const name = uniqueName();
    const proxied = { 'x-forwarded-proto': 'https' };
    await client.post('/api/auth/register', { username: name, email: `${name}@example.com`, password: 'long enough pw' });
    const csrfToken = (await client.get('/api/auth/csrf', proxied)).json.csrfToken;
    const response = await client.post(
      '/api/auth/callback/credentials',
      { csrfToken, email: `${name}@example.com`, password: 'long enough pw' },
      { ...proxied, origin: 'https://dashboard.example.com' },
    );
    expect(response.status).toBe(200);
    const cookie = response.headers.getSetCookie().find((line) => line.startsWith('careerbot.session-token='))!;
    expect(cookie).toMatch(/; Secure/i);
  });
});

describe('the register throttle', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await startTestApp({ env: { TRUST_PROXY: 'true', REGISTRATIONS_PER_ADDRESS: '3' } });
  });
  afterAll(async () => limited?.close());

  it('admits exactly 3 of 10 concurrent registrations from one address; the rest get 429 with Retry-After and create nothing', async () => {
    await awayFromWindowEnd(SIGN_IN_WINDOW_MS, 15_000);
    const client = new HttpClient(limited.baseUrl);
    const from = { 'x-forwarded-for': '192.0.2.77' };
    const names = Array.from({ length: 10 }, () => uniqueName('flood'));
    const responses = await Promise.all(
      names.map((name) => client.post('/api/auth/register', { username: name, email: `${name}@example.com`, password: 'a sturdy password' }, from)),
    );
    expect(responses.filter((response) => response.status === 201)).toHaveLength(3);
    const refused = responses.filter((response) => response.status === 429);
    expect(refused).toHaveLength(7);
    for (const response of refused) {
      expect(response.json).toEqual({ error: 'TooManyRequests' });
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(Number(response.headers.get('retry-after'))).toBeLessThanOrEqual(15 * 60);
    }
    const stored = await limited.db.query('SELECT count(*)::int AS n FROM users WHERE username = ANY($1)', [names]);
    expect(stored.rows[0]!.n).toBe(3);
    const elsewhere = uniqueName('calm');
    const other = await client.post('/api/auth/register', { username: elsewhere, email: `${elsewhere}@example.com`, password: 'a sturdy password' }, { 'x-forwarded-for': '192.0.2.78' });
    expect(other.status).toBe(201);
  });
});
