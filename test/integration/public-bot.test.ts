import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient, validBot } from '@careerbot/testkit';
import { ownerWithToken } from '../support/runtime-clients.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const PRIVATE_CONTEXT = 'PRIVATE-CONTEXT-CANARY: Ada keeps her salary floor at 123,456.';

let app: TestApp;
let anonymous: HttpClient;
beforeAll(async () => {
  app = await startTestApp();
  anonymous = new HttpClient(app.baseUrl);
});
afterAll(async () => {
  await app?.close();
});

describe('GET /api/bots/{botId}/public', () => {
  it('serves the config view of an active bot to anyone, with nothing private', async () => {
    const owner = await ownerWithToken(app.baseUrl, validBot({ contextText: PRIVATE_CONTEXT, themeColor: '#112233' }));
    const response = await anonymous.get(`/api/bots/${owner.botId}/public`, { origin: 'https://recruiter.example' });
    expect(response.status).toBe(200);
    const config = await owner.widget.get('/config');
    expect(response.json).toEqual({ ...config.json, llmProvider: 'openai', ownerKeyAnswers: false });
    expect(Object.keys(response.json).sort()).toEqual(
      ['deploymentMode', 'headline', 'id', 'image', 'isActive', 'llmProvider', 'loadingMessages', 'ownerKeyAnswers', 'name', 'personality', 'suggestedQuestions', 'themeColor'].sort(),
    );
    expect(response.text).not.toContain('PRIVATE-CONTEXT-CANARY');
    expect(response.text).not.toContain(owner.email);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('cache-control')).toContain('public');
    expect(response.headers.get('set-cookie')).toBeNull();
  });

  it('answers 304 to a matching If-None-Match and a new ETag after a change', async () => {
    const owner = await ownerWithToken(app.baseUrl);
    const first = await anonymous.get(`/api/bots/${owner.botId}/public`);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[^"]+"$/);
    const again = await anonymous.get(`/api/bots/${owner.botId}/public`, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    await owner.client.patch('/api/bots/settings', { themeColor: '#abcdef' });
    const changed = await anonymous.get(`/api/bots/${owner.botId}/public`, { 'if-none-match': etag });
    expect(changed.status).toBe(200);
    expect(changed.json.themeColor).toBe('#abcdef');
    expect(changed.headers.get('etag')).not.toBe(etag);
  });

  it('is 404 bot_not_found for an inactive, unknown or non-UUID bot', async () => {
    const owner = await ownerWithToken(app.baseUrl);
    await owner.client.patch('/api/bots/settings', { isActive: false });
    for (const id of [owner.botId, randomUUID(), 'not-a-uuid', "'; DROP TABLE bots; --"]) {
      const response = await anonymous.get(`/api/bots/${encodeURIComponent(id)}/public`);
      expect(response.status, id).toBe(404);
      expect(response.json).toEqual({ error: 'bot_not_found' });
    }
  });

  it('answers a CORS preflight from any origin', async () => {
    const response = await anonymous.request('OPTIONS', `/api/bots/${randomUUID()}/public`, {
      headers: { origin: 'https://recruiter.example', 'access-control-request-method': 'GET' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
  });
});
