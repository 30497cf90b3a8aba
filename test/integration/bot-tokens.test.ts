import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../fakes/clock.ts';
import { HttpClient, signedInClient, validBot } from '@careerbot/testkit';
import { ownerWithToken, widgetClient } from '../support/runtime-clients.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => app?.close());

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const DAY_MS = 86_400_000;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Every row of every table, as text: where a secret must never be found. */
const wholeDatabase = async () => {
  const { rows: tables } = await app.db.query<{ table_name: string }>(
    "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'",
  );
  const dumps = [];
  for (const { table_name } of tables) dumps.push(JSON.stringify((await app.db.query(`SELECT * FROM "${table_name}"`)).rows));
  return dumps.join('\n');
};

describe('POST, GET and DELETE /api/bots/tokens: authentication and the bot', () => {
  it.each([
    ['POST', '/api/bots/tokens'],
    ['GET', '/api/bots/tokens'],
    ['DELETE', `/api/bots/tokens/${randomUUID()}`],
  ])('%s %s answers 401 Unauthorized without a session', async (method, path) => {
    const response = await new HttpClient(app.baseUrl).request(method, path, { json: method === 'POST' ? { name: 'x' } : undefined });
    expect(response.status).toBe(401);
    expect(response.json).toEqual({ error: 'Unauthorized' });
  });

  it('answers 404 Bot not found to every operation before the first bot save', async () => {
    const { client } = await signedInClient(app.baseUrl);
    for (const response of [
      await client.post('/api/bots/tokens', { name: 'Site' }),
      await client.get('/api/bots/tokens'),
      await client.delete(`/api/bots/tokens/${randomUUID()}`),
    ]) {
      expect(response.status).toBe(404);
      expect(response.json).toEqual({ error: 'Bot not found' });
    }
  });

  it('refuses a state change from another origin with 403 Forbidden, like the rest of /api/bots', async () => {
    const { client } = await signedInClient(app.baseUrl);
    await client.post('/api/bots', validBot());
    const response = await client.post('/api/bots/tokens', { name: 'Site' }, { origin: 'https://evil.example' });
    expect(response.status).toBe(403);
    expect(response.json).toEqual({ error: 'Forbidden' });
    expect((await client.get('/api/bots/tokens')).json).toEqual({ tokens: [] });
  });
});

describe('minting and listing tokens', () => {
  it('answers 201 { token, tokenInfo }, shows the token once and stores only its SHA-256', async () => {
    const { client } = await signedInClient(app.baseUrl);
    const botId = (await client.post('/api/bots', validBot())).json.bot.id;
    const response = await client.post('/api/bots/tokens', { name: '  Portfolio site  ', expiresInDays: 30 });
    expect(response.status).toBe(201);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const { token, tokenInfo } = response.json;
    expect(token).toMatch(/^cbt_[0-9a-f]{64}$/);
    expect(tokenInfo).toEqual({
      id: expect.any(String),
      name: 'Portfolio site',
      lastFour: token.slice(-4),
      createdAt: expect.stringMatching(ISO),
      expiresAt: expect.stringMatching(ISO),
      lastUsedAt: null,
      revokedAt: null,
    });
    expect(Date.parse(tokenInfo.expiresAt) - Date.parse(tokenInfo.createdAt)).toBe(30 * DAY_MS);

    const { rows } = await app.db.query('SELECT bot_id, token_hash, last_four FROM bot_tokens WHERE id = $1', [tokenInfo.id]);
    expect(rows).toEqual([{ bot_id: botId, token_hash: sha256(token), last_four: token.slice(-4) }]);
    expect(await wholeDatabase()).not.toContain(token.slice(4, 60));
    expect(app.logs.text()).not.toContain(token.slice(4, 60));

    const listed = await client.get('/api/bots/tokens');
    expect(listed.status).toBe(200);
    expect(listed.json).toEqual({ tokens: [tokenInfo] });
    expect(listed.text).not.toContain(token.slice(4, 60));
  });

  it('mints without expiry when expiresInDays is absent or null, and lists tokens newest first', async () => {
    const { client } = await signedInClient(app.baseUrl);
    await client.post('/api/bots', validBot());
    const first = await client.post('/api/bots/tokens', { name: 'First' });
    const second = await client.post('/api/bots/tokens', { name: 'Second', expiresInDays: null });
    expect(first.json.tokenInfo.expiresAt).toBeNull();
    expect(second.json.tokenInfo.expiresAt).toBeNull();
    expect((await client.get('/api/bots/tokens')).json.tokens.map((t: { name: string }) => t.name)).toEqual(['Second', 'First']);
  });

  it('lists only the signed-in owner’s tokens', async () => {
    const ada = await ownerWithToken(app.baseUrl);
    const grace = await ownerWithToken(app.baseUrl);
    const listed = (await ada.client.get('/api/bots/tokens')).json.tokens;
    expect(listed.map((t: { id: string }) => t.id)).toEqual([ada.tokenId]);
    expect(listed.map((t: { id: string }) => t.id)).not.toContain(grace.tokenId);
  });

  it.each([
    ['name', { name: '' }],
    ['name', { name: '   ' }],
    ['name', { name: 'n'.repeat(81) }],
    ['name', {}],
    ['name', { name: 42 }],
    ['expiresInDays', { name: 'x', expiresInDays: 0 }],
    ['expiresInDays', { name: 'x', expiresInDays: 366 }],
    ['expiresInDays', { name: 'x', expiresInDays: 1.5 }],
    ['expiresInDays', { name: 'x', expiresInDays: '7' }],
  ])('answers 400 Validation failed for a bad %s', async (field, body) => {
    const { client } = await signedInClient(app.baseUrl);
    await client.post('/api/bots', validBot());
    const response = await client.post('/api/bots/tokens', body);
    expect(response.status).toBe(400);
    expect(response.json).toEqual({ error: 'Validation failed', details: { fieldErrors: { [field]: [expect.any(String)] }, formErrors: [] } });
    expect((await client.get('/api/bots/tokens')).json.tokens).toEqual([]);
  });

  it('accepts the bounds: an 80-character name, 1 and 365 days', async () => {
    const { client } = await signedInClient(app.baseUrl);
    await client.post('/api/bots', validBot());
    for (const body of [{ name: 'n'.repeat(80) }, { name: 'a', expiresInDays: 1 }, { name: 'b', expiresInDays: 365 }]) {
      expect((await client.post('/api/bots/tokens', body)).status).toBe(201);
    }
  });

  it('answers 400 Invalid JSON body for malformed JSON, and a form error for JSON that is not an object', async () => {
    const { client } = await signedInClient(app.baseUrl);
    await client.post('/api/bots', validBot());
    const malformed = await client.request('POST', '/api/bots/tokens', { body: '{"name":', headers: { 'content-type': 'application/json' } });
    expect(malformed.status).toBe(400);
    expect(malformed.json).toEqual({ error: 'Invalid JSON body' });
    const notObject = await client.post('/api/bots/tokens', ['name']);
    expect(notObject.json).toEqual({ error: 'Validation failed', details: { fieldErrors: {}, formErrors: [expect.any(String)] } });
  });
});

describe('revoking tokens', () => {
  it('answers 204; the next request with the token is 401 invalid_bot_token and the list shows revokedAt', async () => {
    const owner = await ownerWithToken(app.baseUrl);
    expect((await owner.widget.get('/config')).status).toBe(200);
    const revoked = await owner.client.delete(`/api/bots/tokens/${owner.tokenId}`);
    expect(revoked.status).toBe(204);
    expect(revoked.text).toBe('');
    const refused = await owner.widget.get('/config');
    expect(refused.status).toBe(401);
    expect(refused.json).toEqual({ error: 'invalid_bot_token' });
    const [info] = (await owner.client.get('/api/bots/tokens')).json.tokens;
    expect(info.revokedAt).toMatch(ISO);
    expect((await owner.client.delete(`/api/bots/tokens/${owner.tokenId}`)).status).toBe(204);
  });

  it('revokes only the named token', async () => {
    const owner = await ownerWithToken(app.baseUrl);
    const second = (await owner.client.post('/api/bots/tokens', { name: 'Second' })).json.token;
    await owner.client.delete(`/api/bots/tokens/${owner.tokenId}`);
    expect((await widgetClient(app.baseUrl, second).get('/config')).status).toBe(200);
  });

  it.each([
    ['an unknown id', () => randomUUID()],
    ['a non-UUID id', () => 'not-a-uuid'],
    ['an SQL-ish id', () => "1' OR '1'='1"],
  ])('answers 404 Not found for %s', async (_label, id) => {
    const owner = await ownerWithToken(app.baseUrl);
    const response = await owner.client.delete(`/api/bots/tokens/${encodeURIComponent(id())}`);
    expect(response.status).toBe(404);
    expect(response.json).toEqual({ error: 'Not found' });
    expect((await owner.widget.get('/config')).status).toBe(200);
  });

  it('answers 404 Not found for another owner’s token, which keeps working', async () => {
    const ada = await ownerWithToken(app.baseUrl);
    const grace = await ownerWithToken(app.baseUrl);
    const response = await ada.client.delete(`/api/bots/tokens/${grace.tokenId}`);
    expect(response.status).toBe(404);
    expect(response.json).toEqual({ error: 'Not found' });
    expect((await grace.widget.get('/config')).status).toBe(200);
  });
});

describe('the bearer token on /api/v1/bot/*', () => {
  const expectMissing = (response: { status: number; json: unknown; headers: Headers }) => {
    expect(response.status).toBe(401);
    expect(response.json).toEqual({ error: 'missing_bot_token' });
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
  };

  it('answers 401 missing_bot_token with WWW-Authenticate: Bearer when the header is absent or malformed', async () => {
    const { token } = await ownerWithToken(app.baseUrl);
    const anonymous = new HttpClient(app.baseUrl);
    expectMissing(await anonymous.get('/api/v1/bot/config'));
    for (const authorization of [
      '',
      token,
      `Basic ${token}`,
      `Bearer ${token.toUpperCase().replace('CBT_', 'cbt_')}`,
      `Bearer ${token.slice(0, -1)}`,
      `Bearer ${token.slice(4)}`,
      'Bearer sk-proj-0123456789abcdef',
    ]) {
      expectMissing(await anonymous.get('/api/v1/bot/config', { authorization }));
      expectMissing(await anonymous.post('/api/v1/bot/conversations', {}, { authorization }));
    }
  });

  it('takes the scheme in any case', async () => {
    const { token } = await ownerWithToken(app.baseUrl);
    for (const scheme of ['bearer', 'BEARER', 'bEaReR']) {
      expect((await new HttpClient(app.baseUrl).get('/api/v1/bot/config', { authorization: `${scheme} ${token}` })).status).toBe(200);
    }
  });

  it('answers 401 invalid_bot_token with WWW-Authenticate: Bearer for an unknown or an expired token', async () => {
    const owner = await ownerWithToken(app.baseUrl);
    const unknown = await widgetClient(app.baseUrl, `cbt_${'ab'.repeat(32)}`).get('/config');
    expect(unknown.status).toBe(401);
    expect(unknown.json).toEqual({ error: 'invalid_bot_token' });
    expect(unknown.headers.get('www-authenticate')).toBe('Bearer');

    const expiring = (await owner.client.post('/api/bots/tokens', { name: 'Short', expiresInDays: 1 })).json;
    const widget = widgetClient(app.baseUrl, expiring.token);
    expect((await widget.get('/config')).status).toBe(200);
    await app.db.query("UPDATE bot_tokens SET expires_at = now() - interval '1 second' WHERE id = $1", [expiring.tokenInfo.id]);
    const expired = await widget.get('/config');
    expect(expired.status).toBe(401);
    expect(expired.json).toEqual({ error: 'invalid_bot_token' });
  });

  it('records lastUsedAt, written at most once a minute', async () => {
    const clock = fixedClock(new Date().toISOString());
    const timed = await startTestApp({ clock });
    try {
      const owner = await ownerWithToken(timed.baseUrl);
      const lastUsedAt = async () => (await owner.client.get('/api/bots/tokens')).json.tokens[0].lastUsedAt as string | null;
      expect(await lastUsedAt()).toBeNull();
      await owner.widget.get('/config');
      const first = clock.now().toISOString();
      expect(await lastUsedAt()).toBe(first);
      clock.advance(59_000);
      await owner.widget.get('/config');
      expect(await lastUsedAt()).toBe(first);
      clock.advance(2_000);
      await owner.widget.get('/config');
      expect(await lastUsedAt()).toBe(clock.now().toISOString());
    } finally {
      await timed.close();
    }
  });

  it('never writes a token to the log', async () => {
    const owner = await ownerWithToken(app.baseUrl);
    await owner.widget.get('/config');
    await owner.widget.post('/conversations', { sessionId: randomUUID(), messages: [{ role: 'user', content: 'hi' }] });
    expect(app.logs.text()).not.toContain(owner.token.slice(4));
  });
});
