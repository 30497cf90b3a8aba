import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpClient, signedInClient, validBot } from '@careerbot/testkit';
import { startTestApp, type TestApp } from '../support/test-app.ts';

describe('cookie-authenticated changes take JSON only', () => {
  let app: TestApp;
  let owner: HttpClient;
  beforeAll(async () => {
    app = await startTestApp();
    owner = (await signedInClient(app.baseUrl)).client;
    expect((await owner.post('/api/bots', validBot())).status).toBe(201);
  });
  afterAll(async () => app?.close());

  const changes: [string, string, unknown][] = [
    ['POST', '/api/bots', validBot({ name: 'Mallory' })],
    ['PATCH', '/api/bots/settings', { isActive: false }],
    ['POST', '/api/bots/tokens', { name: 'Planted' }],
    ['PATCH', '/api/account/settings', { notifyLeadsEmail: false }],
    ['POST', '/api/notifications/read-all', {}],
  ];

  it.each(changes)('%s %s: a JSON body sent as text/plain or form-encoded, with no Origin, is 415 and changes nothing', async (method, path, body) => {
    for (const contentType of ['text/plain', 'text/plain;charset=UTF-8', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const answer = await owner.request(method, path, { body: JSON.stringify(body), headers: { 'content-type': contentType } });
      expect(answer.status, contentType).toBe(415);
      expect(answer.json).toEqual({ error: 'unsupported_media_type' });
    }
    const form = await owner.request(method, path, { form: { name: 'Mallory' } });
    expect(form.status).toBe(415);
    const bot = (await owner.get('/api/bots')).json.bot;
    expect(bot.name).toBe('Ada Lovelace');
    expect(bot.isActive).toBe(true);
    expect((await owner.get('/api/bots/tokens')).text).not.toContain('Planted');
  });

  it('JSON still works, as do changes without a body, and the credentials form post', async () => {
    expect((await owner.patch('/api/bots/settings', { isActive: true })).status).toBe(200);
    expect((await owner.request('POST', '/api/notifications/read-all')).status).toBe(200);
    expect((await owner.request('PATCH', '/api/bots/settings', { json: { isActive: true }, headers: { 'content-type': 'application/json; charset=utf-8' } })).status).toBe(200);
    const minted = await owner.post('/api/bots/tokens', { name: 'Widget' });
    expect((await owner.request('DELETE', `/api/bots/tokens/${minted.json.tokenInfo.id}`)).status).toBe(204);

    const { client, username, password } = await signedInClient(app.baseUrl);
    const csrfToken = (await client.get('/api/auth/csrf')).json.csrfToken;
    const signIn = await client.request('POST', '/api/auth/callback/credentials', { form: { csrfToken, email: username, password } });
    expect(signIn.status).toBe(302);
  });
});
