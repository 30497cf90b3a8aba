import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient, signedInClient, validBot } from '@careerbot/testkit';
import { startTestApp, type TestApp } from '../support/test-app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => app?.close());

const BOT_KEYS = [
  'id',
  'userId',
  'name',
  'headline',
  'personality',
  'contextText',
  'suggestedQuestions',
  'loadingMessages',
  'isActive',
  'createdAt',
  'updatedAt',
].sort();
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('POST /api/bots', () => {
  it('answers 401 Unauthorized without a session cookie or with a forged one', async () => {
    for (const headers of [{}, { cookie: 'careerbot.session-token=s%3Aforged.signature' }] as Record<string, string>[]) {
      const response = await new HttpClient(app.baseUrl).post('/api/bots', validBot(), headers);
      expect(response.status).toBe(401);
      expect(response.json).toEqual({ error: 'Unauthorized' });
    }
  });

  it('creates the bot (201) with server-set fields, then updates it (200) with updatedAt advancing', async () => {
    const { client, userId } = await signedInClient(app.baseUrl);
    const created = await client.post('/api/bots', validBot({ name: '  Ada  ', headline: undefined }));
    expect(created.status).toBe(201);
    const bot = created.json.bot;
    expect(Object.keys(bot).sort()).toEqual(BOT_KEYS);
    expect(bot).toMatchObject({ userId, name: 'Ada', headline: null, personality: 'professional', isActive: true });
    expect(bot.loadingMessages.length).toBeGreaterThan(0);
    expect(bot.createdAt).toMatch(ISO);
    expect(bot.updatedAt).toBe(bot.createdAt);

    const updates = [];
    for (const name of ['Ada L.', 'Ada Lovelace', 'Countess Ada']) {
      updates.push(await client.post('/api/bots', validBot({ name, personality: 'creative' })));
    }
    let previous = bot.updatedAt;
    for (const update of updates) {
      expect(update.status).toBe(200);
      expect(update.json.bot.id).toBe(bot.id);
      expect(update.json.bot.createdAt).toBe(bot.createdAt);
      expect(update.json.bot.loadingMessages).toEqual(bot.loadingMessages);
      expect(new Date(update.json.bot.updatedAt).getTime()).toBeGreaterThan(new Date(previous).getTime());
      previous = update.json.bot.updatedAt;
    }
    expect(updates.at(-1)!.json.bot).toMatchObject({ name: 'Countess Ada', personality: 'creative' });
  });

  it('stores the provider and model on the user, defaulting the model per provider', async () => {
    const { client, userId } = await signedInClient(app.baseUrl);
    const expectations: [Record<string, unknown>, string, string][] = [
      [{ llmProvider: 'anthropic' }, 'anthropic', 'claude-haiku-4-5'],
      [{ llmProvider: 'openai' }, 'openai', 'gpt-4o-mini'],
      [{ llmProvider: 'google' }, 'google', 'gemini-2.5-flash'],
      [{ llmProvider: 'openai', llmModel: 'gpt-4.1' }, 'openai', 'gpt-4.1'],
      [{ llmProvider: 'azure', llmModel: 'my-deployment' }, 'azure', 'my-deployment'],
    ];
    for (const [override, provider, model] of expectations) {
      expect((await client.post('/api/bots', validBot(override))).status).toBeLessThan(300);
      const { rows } = await app.db.query('SELECT llm_provider, llm_model FROM users WHERE id = $1', [userId]);
      expect(rows[0]).toEqual({ llm_provider: provider, llm_model: model });
    }
  });

  it.each([
    ['name', { name: '   ' }],
    ['name', { name: 'n'.repeat(101) }],
    ['headline', { headline: 'h'.repeat(121) }],
    ['personality', { personality: 'grumpy' }],
    ['contextText', { contextText: '' }],
    ['contextText', { contextText: 'c'.repeat(50_001) }],
    ['suggestedQuestions', { suggestedQuestions: ['1', '2', '3', '4', '5', '6', '7'] }],
    ['suggestedQuestions', { suggestedQuestions: ['q'.repeat(201)] }],
    ['suggestedQuestions', { suggestedQuestions: ['fine', '  '] }],
    ['suggestedQuestions', { suggestedQuestions: 'not a list' }],
    ['llmProvider', { llmProvider: 'mistral' }],
    ['llmModel', { llmModel: 'm'.repeat(61) }],
    ['llmModel', { llmProvider: 'azure' }],
    ['name', { name: undefined }],
  ])('answers 400 Validation failed for a bad %s', async (field, override) => {
    const { client } = await signedInClient(app.baseUrl);
    const response = await client.post('/api/bots', validBot(override));
    expect(response.status).toBe(400);
    expect(response.json.error).toBe('Validation failed');
    expect(response.json.details.formErrors).toEqual([]);
    expect(Object.keys(response.json.details.fieldErrors)).toEqual([field]);
  });

  it('accepts the bounds themselves: 100-char name, 120-char headline, 50,000-char context, 6 questions of 200', async () => {
    const { client } = await signedInClient(app.baseUrl);
    const response = await client.post(
      '/api/bots',
      validBot({
        name: '𝒜'.repeat(100), // astral characters count once each
        headline: 'h'.repeat(120),
        contextText: 'c'.repeat(50_000),
        suggestedQuestions: Array.from({ length: 6 }, () => 'q'.repeat(200)),
        llmModel: 'm'.repeat(60),
      }),
    );
    expect(response.status).toBe(201);
    expect(response.json.bot.contextText).toHaveLength(50_000);
  });

  it('answers 400 Invalid JSON body for malformed JSON', async () => {
    const { client } = await signedInClient(app.baseUrl);
    const response = await client.request('POST', '/api/bots', { body: '{"name":', headers: { 'content-type': 'application/json' } });
    expect(response.status).toBe(400);
    expect(response.json).toEqual({ error: 'Invalid JSON body' });
  });

  it.each(['apiKey', 'llmApiKey', 'api_key', 'key', 'x-llm-api-key'])(
    'refuses a key-like field %s and never stores or logs its value',
    async (field) => {
      const { client, userId } = await signedInClient(app.baseUrl);
      const canary = `sk-canary-${field}-0123456789abcdefghij`;
      const response = await client.post('/api/bots', validBot({ [field]: canary }));
      expect(response.status).toBe(400);
      expect(response.json.error).toBe('Validation failed');
      expect(Object.keys(response.json.details.fieldErrors)).toEqual([field]);
      expect(response.text).not.toContain(canary);
      expect(app.logs.text()).not.toContain(canary);
      const { rows } = await app.db.query('SELECT * FROM bots b JOIN users u ON u.id = b.user_id WHERE u.id = $1', [userId]);
      expect(rows).toEqual([]);
    },
  );

  it('ignores other unknown fields', async () => {
    const { client } = await signedInClient(app.baseUrl);
    const response = await client.post('/api/bots', validBot({ favouriteColour: 'teal', isActive: false }));
    expect(response.status).toBe(201);
    expect(response.json.bot).not.toHaveProperty('favouriteColour');
    expect(response.json.bot.isActive).toBe(true);
  });

  it('gives concurrent first saves one 201 and 200s, and one bot row', async () => {
    const { client, userId } = await signedInClient(app.baseUrl);
    const responses = await Promise.all(Array.from({ length: 6 }, (_, i) => client.post('/api/bots', validBot({ name: `Bot ${i}` }))));
    expect(responses.map((response) => response.status).sort()).toEqual([200, 200, 200, 200, 200, 201]);
    expect(new Set(responses.map((response) => response.json.bot.id)).size).toBe(1);
    const { rows } = await app.db.query('SELECT count(*)::int AS n FROM bots WHERE user_id = $1', [userId]);
    expect(rows[0]!.n).toBe(1);
  });
});

describe('GET /api/bots and PATCH /api/bots/settings', () => {
  it('answers 401 without a session and 404 Bot not found before the first save', async () => {
    expect((await new HttpClient(app.baseUrl).get('/api/bots')).status).toBe(401);
    expect((await new HttpClient(app.baseUrl).patch('/api/bots/settings', { isActive: false })).json).toEqual({
      error: 'Unauthorized',
    });
    const { client } = await signedInClient(app.baseUrl);
    const get = await client.get('/api/bots');
    expect(get.status).toBe(404);
    expect(get.json).toEqual({ error: 'Bot not found' });
    const patch = await client.patch('/api/bots/settings', { isActive: false });
    expect(patch.status).toBe(404);
    expect(patch.json).toEqual({ error: 'Bot not found' });
  });

  it('reads the bot with default settings and zero stats', async () => {
    const { client } = await signedInClient(app.baseUrl);
    const saved = (await client.post('/api/bots', validBot())).json.bot;
    const response = await client.get('/api/bots');
    expect(response.status).toBe(200);
    expect(response.json).toEqual({
      bot: saved,
      settings: { themeColor: '#4f46e5', deploymentMode: 'managed', rateLimits: { perMinute: 10, perDay: 50 }, embedOrigins: [] },
      stats: { totalConversations: 0, totalMessages: 0, totalLeads: 0 },
      llm: { provider: 'openai', model: 'gpt-4o-mini' },
      image: `/api/avatars/${saved.id}.svg`,
    });
  });

  it('restores both default rate limits with rateLimits: null', async () => {
    const { client } = await signedInClient(app.baseUrl);
    await client.post('/api/bots', validBot());
    expect((await client.patch('/api/bots/settings', { rateLimits: { perMinute: 3, perDay: 7 } })).json.settings.rateLimits).toEqual({ perMinute: 3, perDay: 7 });
    const restored = await client.patch('/api/bots/settings', { rateLimits: null });
    expect(restored.status).toBe(200);
    expect(restored.json.settings.rateLimits).toEqual({ perMinute: 10, perDay: 50 });
    expect((await client.get('/api/bots')).json.settings.rateLimits).toEqual({ perMinute: 10, perDay: 50 });
  });

  it('changes isActive, themeColor, deploymentMode and rate limits; null restores a default; omitted fields stay', async () => {
    const { client } = await signedInClient(app.baseUrl);
    const saved = (await client.post('/api/bots', validBot())).json.bot;
    const patched = await client.patch('/api/bots/settings', {
      isActive: false,
      themeColor: '#AABBCC',
      deploymentMode: 'self_hosted',
      rateLimits: { perMinute: 3, perDay: 100_000 },
    });
    expect(patched.status).toBe(200);
    expect(patched.json.bot.isActive).toBe(false);
    expect(new Date(patched.json.bot.updatedAt).getTime()).toBeGreaterThan(new Date(saved.updatedAt).getTime());
    expect(patched.json.settings).toEqual({
      themeColor: '#aabbcc',
      deploymentMode: 'self_hosted',
      rateLimits: { perMinute: 3, perDay: 100_000 },
      embedOrigins: [],
    });
    const reset = await client.patch('/api/bots/settings', { rateLimits: { perMinute: null } });
    expect(reset.json.settings.rateLimits).toEqual({ perMinute: 10, perDay: 100_000 });
    expect(reset.json.bot.isActive).toBe(false);
    const reactivated = await client.patch('/api/bots/settings', { isActive: true });
    expect(reactivated.json.bot.isActive).toBe(true);
    expect(reactivated.json.settings.themeColor).toBe('#aabbcc');
    // A later upsert keeps the settings.
    await client.post('/api/bots', validBot({ name: 'Renamed' }));
    expect((await client.get('/api/bots')).json.settings.deploymentMode).toBe('self_hosted');
  });

  it.each([
    ['themeColor', { themeColor: 'red' }],
    ['themeColor', { themeColor: '#abc' }],
    ['deploymentMode', { deploymentMode: 'cloud' }],
    ['isActive', { isActive: 'yes' }],
    ['rateLimits', { rateLimits: { perMinute: 0 } }],
    ['rateLimits', { rateLimits: { perMinute: 1_001 } }],
    ['rateLimits', { rateLimits: { perDay: 100_001 } }],
    ['rateLimits', { rateLimits: { perDay: 2.5 } }],
  ])('answers 400 Validation failed for a bad %s', async (field, body) => {
    const { client } = await signedInClient(app.baseUrl);
    await client.post('/api/bots', validBot());
    const response = await client.patch('/api/bots/settings', body);
    expect(response.status).toBe(400);
    expect(response.json.error).toBe('Validation failed');
    expect(Object.keys(response.json.details.fieldErrors)).toEqual([field]);
  });
});
