import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient, signedInClient, uniqueName, validBot } from '@careerbot/testkit';
import { widgetClient } from '../support/runtime-clients.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const LONE = 'a\ud800';
/** Zero-width space, word joiner, BOM, Hangul filler, soft hyphen, Braille blank, and a no-break space. */
const NOTHING_VISIBLE = '\u200b\u2060\ufeff\u3164\u00ad\u2800\u00a0';

type Path = (string | number)[];

/** Every string leaf of a body, with its path. */
const stringPaths = (value: unknown, path: Path = []): Path[] => {
  if (typeof value === 'string') return [path];
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, item]) => stringPaths(item, [...path, Array.isArray(value) ? Number(key) : key]));
};

const replaced = (body: unknown, path: Path, text: string): unknown => {
  const copy = structuredClone(body) as Record<string | number, unknown>;
  let at = copy;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string | number, unknown>;
  at[path.at(-1)!] = text;
  return copy;
};

describe('every field that stores text', () => {
  let app: TestApp;
  let owner: HttpClient;
  let botId: string;
  let widget: ReturnType<typeof widgetClient>;
  let conversationId: string;
  beforeAll(async () => {
    app = await startTestApp();
    owner = (await signedInClient(app.baseUrl)).client;
    botId = (await owner.post('/api/bots', validBot())).json.bot.id;
    widget = widgetClient(app.baseUrl, (await owner.post('/api/bots/tokens', { name: 'Widget' })).json.token);
    conversationId = (await widget.post('/conversations', { sessionId: randomUUID(), messages: [{ role: 'user', content: 'Hi' }] })).json
      .conversationId;
  });
  afterAll(async () => app?.close());

  /** Each route that stores text, a valid body, how it is sent, and which of its strings are free text. */
  const routes = () => {
    const name = uniqueName('text');
    return [
      {
        what: 'POST /api/auth/register',
        send: (body: unknown) => new HttpClient(app.baseUrl).post('/api/auth/register', body),
        body: { username: name, email: `${name}@example.com`, password: 'correct horse battery' },
        visible: [] as string[],
      },
      {
        what: 'POST /api/bots',
        send: (body: unknown) => owner.post('/api/bots', body),
        body: validBot({ llmModel: 'gpt-4o-mini' }),
        visible: ['name', 'contextText', 'suggestedQuestions.0'],
      },
      { what: 'POST /api/bots/tokens', send: (body: unknown) => owner.post('/api/bots/tokens', body), body: { name: 'Widget' }, visible: ['name'] },
      {
        what: 'POST /api/v1/bot/conversations',
        send: (body: unknown) => widget.post('/conversations', body),
        body: { sessionId: randomUUID(), messages: [{ role: 'user', content: 'Hello' }] },
        visible: ['messages.0.content'],
      },
      {
        what: 'POST /api/v1/bot/leads',
        send: (body: unknown) => widget.post('/leads', body),
        body: { email: 'recruiter@example.com', conversationId, contextSummary: 'Asked about Ada' },
        visible: [],
      },
      {
        what: 'POST /api/v1/bot/knowledge',
        send: (body: unknown) => widget.post('/knowledge', body),
        body: { query: 'What did Ada build?' },
        visible: ['query'],
      },
      {
        what: 'POST /api/chat/:botId',
        send: (body: unknown) => new HttpClient(app.baseUrl).post(`/api/chat/${botId}`, body, { 'x-llm-api-key': 'sk-text-fields-0123456789' }),
        body: { message: 'What did Ada build?' },
        visible: ['message'],
      },
    ];
  };

  it('a lone surrogate in any string is refused with 400 validation failed on that field, never a 500, never stored as U+FFFD', async () => {
    const checked: string[] = [];
    for (const route of routes()) {
      for (const path of stringPaths(route.body)) {
        const answer = await route.send(replaced(route.body, path, LONE));
        expect(answer.status, `${route.what} ${path.join('.')}`).toBe(400);
        expect(answer.json.error, `${route.what} ${path.join('.')}`).toMatch(/^(Validation failed|validation_failed)$/);
        expect(Object.keys(answer.json.details.fieldErrors), `${route.what} ${path.join('.')}`).toEqual([String(path[0])]);
        expect(answer.json.details.fieldErrors[String(path[0])][0]).toMatch(/lone surrogate/);
        checked.push(`${route.what} ${path.join('.')}`);
      }
    }
    expect(checked).toContain('POST /api/bots suggestedQuestions.0');
    expect(checked.length).toBeGreaterThanOrEqual(17);
    // A key can hold one too.
    const key = await owner.post('/api/bots', { ...validBot(), [`x${'\udc00'}`]: 1 });
    expect(key.status).toBe(400);
    // A well-formed pair (an emoji) is text, and is stored as sent (its zero-width joiner kept).
    const emoji = await owner.post('/api/bots', validBot({ suggestedQuestions: ['Why \ud83d\ude80?', '\u{1F469}\u200d\u{1F4BB}'] }));
    expect(emoji.status).toBe(200);
    expect(emoji.json.bot.suggestedQuestions).toEqual(['Why \u{1F680}?', '\u{1F469}\u200d\u{1F4BB}']);
  });

  it('a field that must not be empty needs a character a person can see: zero-width characters alone are validation failed', async () => {
    const checked: string[] = [];
    for (const route of routes()) {
      for (const visible of route.visible) {
        const path = visible.split('.').map((key) => (/^\d+$/.test(key) ? Number(key) : key));
        const answer = await route.send(replaced(route.body, path, NOTHING_VISIBLE));
        expect(answer.status, `${route.what} ${visible}`).toBe(400);
        expect(answer.json.details.fieldErrors[String(path[0])], `${route.what} ${visible}`).toEqual(['Must not be empty']);
        checked.push(`${route.what} ${visible}`);
      }
    }
    expect(checked).toContain('POST /api/bots name');
    expect(checked.length).toBe(7);
  });

  it('every trimmed field is trimmed of invisible characters at both ends, and keeps those inside', async () => {
    const saved = await owner.post(
      '/api/bots',
      validBot({ name: '\u200b\ufeff Grace\u200bHopper \u2060', headline: '\u200b', suggestedQuestions: ['\u200bWhy?\u200b'] }),
    );
    expect(saved.status).toBe(200);
    expect(saved.json.bot.name).toBe('Grace\u200bHopper');
    expect(saved.json.bot.headline).toBeNull();
    expect(saved.json.bot.suggestedQuestions).toEqual(['Why?']);
    const name = uniqueName('zw');
    const registered = await new HttpClient(app.baseUrl).post('/api/auth/register', {
      username: `\u200b${name}\u2060`,
      email: `\ufeff${name}@example.com\u200b`,
      password: 'correct horse battery',
    });
    expect(registered.status).toBe(201);
    expect(registered.json.user.username).toBe(name);
    expect(registered.json.user.email).toBe(`${name}@example.com`);
    const token = await owner.post('/api/bots/tokens', { name: '\u200bSite\u200b' });
    expect(token.json.tokenInfo.name).toBe('Site');
  });
});
