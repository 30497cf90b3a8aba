import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient, signedInClient, validBot } from '@careerbot/testkit';
import { startTestApp, type TestApp } from '../support/test-app.ts';

let app: TestApp;
let anonymous: HttpClient;
beforeAll(async () => {
  app = await startTestApp();
  anonymous = new HttpClient(app.baseUrl);
});
afterAll(async () => {
  await app?.close();
});

const ownerWithBot = async () => {
  const owner = await signedInClient(app.baseUrl);
  const botId: string = (await owner.client.post('/api/bots', validBot({ name: 'Ada </script><b>Lovelace' }))).json.bot.id;
  return { ...owner, botId };
};

/** The CSP's directives by name. */
const directives = (csp: string | null) =>
  Object.fromEntries((csp ?? '').split(';').map((part) => part.trim().split(/\s+/)).map(([name, ...values]) => [name!, values.join(' ')]));

describe('GET /embed/{botId}: the managed widget’s chat, framed by other sites', () => {
  it('serves the chat page under its own strict CSP: our script only, no inline script, requests to us only, any site may frame it', async () => {
    const { botId } = await ownerWithBot();
    const response = await anonymous.get(`/embed/${botId}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = directives(response.headers.get('content-security-policy'));
    expect(csp).toMatchObject({
      'default-src': "'none'",
      'script-src': "'self'",
      'connect-src': "'self'",
      'base-uri': "'none'",
      'frame-ancestors': '*',
    });
    expect(response.headers.get('x-frame-options')).toBeNull();
    expect(response.headers.get('cache-control')).toBe('no-store');
    // Its one script is the frame's bundle; the bot's view is a JSON data block whose text cannot close it.
    expect([...response.text.matchAll(/<script\b[^>]*>/g)].map((tag) => tag[0])).toEqual([
      expect.stringMatching(/^<script defer src="\/assets\/embed-frame\.js\?v=[0-9a-f]{12}">$/),
      '<script type="application/json" id="careerbot-bot">',
    ]);
    expect(response.text).not.toContain('</script><b>');
    const data = JSON.parse(/<script type="application\/json" id="careerbot-bot">(.*?)<\/script>/s.exec(response.text)![1]!);
    expect(data).toEqual((await anonymous.get(`/api/bots/${botId}/public`)).json);
    expect(data.embedOrigins).toBeUndefined();
    const script = await anonymous.get(/src="([^"]+)"/.exec(response.text)![1]!.replace(/&amp;/g, '&'));
    expect(script.status).toBe(200);
  });

  it('follows the owner’s list of sites in frame-ancestors, and any site again once the list is emptied', async () => {
    const { client, botId } = await ownerWithBot();
    const saved = await client.patch('/api/bots/settings', { embedOrigins: ['https://ada.example', 'http://localhost:8080'] });
    expect(saved.status).toBe(200);
    expect(directives((await anonymous.get(`/embed/${botId}`)).headers.get('content-security-policy'))['frame-ancestors']).toBe(
      'https://ada.example http://localhost:8080',
    );
    await client.patch('/api/bots/settings', { embedOrigins: [] });
    expect(directives((await anonymous.get(`/embed/${botId}`)).headers.get('content-security-policy'))['frame-ancestors']).toBe('*');
  });

  it('answers 404 for an unknown, malformed or switched-off bot, with no bot data', async () => {
    const { client, botId } = await ownerWithBot();
    await client.patch('/api/bots/settings', { isActive: false });
    for (const id of [botId, '00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const response = await anonymous.get(`/embed/${id}`);
      expect(response.status).toBe(404);
      expect(response.text).toContain('This chat is not available.');
      expect(response.text).not.toContain('careerbot-bot');
      expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    }
  });
});

describe('the owner’s sites allowed to embed (PATCH /api/bots/settings embedOrigins)', () => {
  it('round-trips: normalised (lower case, no default port, no trailing slash), without repeats, in GET /api/bots and the export', async () => {
    const { client } = await ownerWithBot();
    expect((await client.get('/api/bots')).json.settings.embedOrigins).toEqual([]);
    const saved = await client.patch('/api/bots/settings', {
      embedOrigins: ['https://WWW.Ada.example:443/', ' https://www.ada.example ', 'https://blog.ada.example:8443', 'http://localhost:3000'],
    });
    expect(saved.status).toBe(200);
    const expected = ['https://www.ada.example', 'https://blog.ada.example:8443', 'http://localhost:3000'];
    expect(saved.json.settings.embedOrigins).toEqual(expected);
    expect((await client.get('/api/bots')).json.settings.embedOrigins).toEqual(expected);
    // A change of another setting keeps the list.
    await client.patch('/api/bots/settings', { themeColor: '#112233' });
    expect((await client.get('/api/bots')).json.settings.embedOrigins).toEqual(expected);
    const exported = JSON.parse((await client.get('/api/account/export')).text);
    expect(exported.bot.embedOrigins).toEqual(expected);
  });

  it.each([
    ['plain http to another host', ['http://ada.example'], /must start with https:\/\//],
    ['a path', ['https://ada.example/blog'], /only a scheme, a host and a port/],
    ['a wildcard', ['https://*.ada.example'], /only a scheme, a host and a port/],
    ['a user', ['https://me@ada.example'], /only a scheme, a host and a port/],
    ['a query', ['https://ada.example?x=1'], /only a scheme, a host and a port/],
    ['no scheme', ['ada.example'], /is not an origin/],
    ['a CSP keyword', ["'self'"], /is not an origin/],
    ['a javascript: URL', ['javascript:alert(1)'], /must start with https:\/\//],
    ['a second bad site', ['https://ok.example', 'https://x.example/;script-src *'], /^Site 2 /],
    ['too many', Array.from({ length: 21 }, (_, i) => `https://site${i}.example`), /At most 20 sites/],
    ['a number', [42], /Expected a string/],
    ['not a list', 'https://ada.example', /Expected a list of origins/],
  ])('refuses %s with 400 Validation failed and keeps the saved list', async (_name, embedOrigins, message) => {
    const { client, botId } = await ownerWithBot();
    await client.patch('/api/bots/settings', { embedOrigins: ['https://kept.example'] });
    const response = await client.patch('/api/bots/settings', { embedOrigins });
    expect(response.status).toBe(400);
    expect(response.json.error).toBe('Validation failed');
    expect(response.json.details.fieldErrors.embedOrigins.join(' ')).toMatch(message);
    expect((await client.get('/api/bots')).json.settings.embedOrigins).toEqual(['https://kept.example']);
    expect(directives((await anonymous.get(`/embed/${botId}`)).headers.get('content-security-policy'))['frame-ancestors']).toBe('https://kept.example');
  });

  it('takes 20 sites, and answers 401 without a session', async () => {
    const { client } = await ownerWithBot();
    const twenty = Array.from({ length: 20 }, (_, i) => `https://site${i}.example`);
    expect((await client.patch('/api/bots/settings', { embedOrigins: twenty })).json.settings.embedOrigins).toEqual(twenty);
    const response = await anonymous.patch('/api/bots/settings', { embedOrigins: ['https://ada.example'] });
    expect(response.status).toBe(401);
    expect(response.json).toEqual({ error: 'Unauthorized' });
  });
});
