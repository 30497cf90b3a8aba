import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPORT_PAGE_SIZE } from '../../src/application/owner-lists.ts';
import { PgConversationRepository } from '../../src/adapters/persistence/pg-conversation-repository.ts';
import { PgLeadRepository } from '../../src/adapters/persistence/pg-lead-repository.ts';
import { PgNotificationRepository } from '../../src/adapters/persistence/pg-notification-repository.ts';
import { HttpClient, signedInClient, validBot } from '@careerbot/testkit';
import { startTestApp, type TestApp } from '../support/test-app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => app?.close());

let tick = Date.parse('2026-11-01T00:00:00.000Z');
/** Distinct, increasing times, with some deliberate ties to exercise the id tie-break. */
const nextTime = (tie = false) => new Date(tie ? tick : (tick += 1000));

const ownerWithBot = async () => {
  const owner = await signedInClient(app.baseUrl);
  const bot = (await owner.client.post('/api/bots', validBot())).json.bot;
  return { ...owner, botId: bot.id as string };
};

const seedConversation = async (botId: string, messages: { role: 'user' | 'assistant'; content: string }[]) => {
  const repo = new PgConversationRepository(app.db);
  const { conversation } = await repo.startOrLock(botId, randomUUID(), nextTime());
  return repo.append(conversation, messages, nextTime(true));
};

const seedLead = async (botId: string, email: string, extra: { conversationId?: string; contextSummary?: string } = {}) =>
  (
    await new PgLeadRepository(app.db).insertOrFind(
      { botId, email, conversationId: extra.conversationId ?? null, contextSummary: extra.contextSummary ?? null },
      nextTime(email.includes('tie')),
    )
  ).lead;

const walk = async (client: HttpClient, path: string, limit: number, between?: () => Promise<void>) => {
  const ids: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const separator = path.includes('?') ? '&' : '?';
    const response = await client.get(`${path}${separator}limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
    expect(response.status).toBe(200);
    expect(response.json.items.length).toBeLessThanOrEqual(limit);
    ids.push(...response.json.items.map((item: { id: string }) => item.id));
    cursor = response.json.nextCursor;
    pages++;
    await between?.();
  } while (cursor && pages < 100);
  return ids;
};

describe('owner API authentication and ownership', () => {
  it.each([
    ['GET', '/api/bots/conversations'],
    ['GET', `/api/bots/conversations/${randomUUID()}`],
    ['GET', '/api/bots/leads'],
    ['GET', '/api/bots/leads.csv'],
    ['GET', '/api/notifications'],
    ['POST', `/api/notifications/${randomUUID()}/read`],
    ['POST', '/api/notifications/read-all'],
    ['GET', '/api/account/settings'],
    ['PATCH', '/api/account/settings'],
  ])('%s %s answers 401 Unauthorized without a session', async (method, path) => {
    const response = await new HttpClient(app.baseUrl).request(method, path, method === 'GET' ? {} : { json: {} });
    expect(response.status).toBe(401);
    expect(response.json).toEqual({ error: 'Unauthorized' });
  });

  it.each(['/api/bots/conversations', '/api/bots/leads', '/api/bots/leads.csv', `/api/bots/conversations/${randomUUID()}`])(
    '%s answers 404 Bot not found before the first bot save',
    async (path) => {
      const { client } = await signedInClient(app.baseUrl);
      const response = await client.get(path);
      expect(response.status).toBe(404);
      expect(response.json).toEqual({ error: 'Bot not found' });
    },
  );

  it("answers 404 Not found for another user's conversation, an unknown id and a non-UUID id", async () => {
    const mine = await ownerWithBot();
    const theirs = await ownerWithBot();
    const conversation = await seedConversation(theirs.botId, [{ role: 'user', content: 'secret question' }]);
    for (const id of [conversation.id, randomUUID(), 'not-a-uuid', "1'or'1'='1", '%ZZ']) {
      const response = await mine.client.get(`/api/bots/conversations/${id === '%ZZ' ? id : encodeURIComponent(id)}`);
      expect(response.status).toBe(404);
      expect(response.json).toEqual({ error: 'Not found' });
    }
    expect((await theirs.client.get(`/api/bots/conversations/${conversation.id}`)).status).toBe(200);
  });

  it("never lists another user's conversations or leads", async () => {
    const mine = await ownerWithBot();
    const theirs = await ownerWithBot();
    await seedConversation(theirs.botId, [{ role: 'user', content: 'hi' }]);
    await seedLead(theirs.botId, 'someone@example.com');
    expect((await mine.client.get('/api/bots/conversations')).json).toEqual({ items: [], nextCursor: null });
    expect((await mine.client.get('/api/bots/leads')).json).toEqual({ items: [], nextCursor: null });
  });
});

describe('GET /api/bots/conversations and /api/bots/conversations/:id', () => {
  it('lists newest first with a preview, and shows one transcript in order', async () => {
    const { client, botId } = await ownerWithBot();
    const older = await seedConversation(botId, [
      { role: 'assistant', content: 'Hello! Ask me anything.' },
      { role: 'user', content: `What is her experience with Kubernetes? ${'x'.repeat(200)}` },
    ]);
    const newer = await seedConversation(botId, [{ role: 'user', content: 'Is she open to relocation?' }]);
    const list = await client.get('/api/bots/conversations');
    expect(list.json.nextCursor).toBeNull();
    expect(list.json.items.map((item: { id: string }) => item.id)).toEqual([newer.id, older.id]);
    expect(list.json.items[1]).toEqual({
      id: older.id,
      sessionId: older.sessionId,
      messageCount: 2,
      startedAt: older.startedAt.toISOString(),
      lastMessageAt: older.lastMessageAt.toISOString(),
      preview: expect.stringMatching(/^What is her experience with Kubernetes\?/),
    });
    expect(list.json.items[1].preview.length).toBeLessThanOrEqual(120);

    const detail = await client.get(`/api/bots/conversations/${older.id}`);
    expect(detail.status).toBe(200);
    expect(detail.json.conversation).toEqual({
      id: older.id,
      sessionId: older.sessionId,
      messageCount: 2,
      startedAt: older.startedAt.toISOString(),
      lastMessageAt: older.lastMessageAt.toISOString(),
    });
    expect(detail.json.messages.map((m: { role: string }) => m.role)).toEqual(['assistant', 'user']);
    expect(detail.json.messages[0]).toEqual({ role: 'assistant', content: 'Hello! Ask me anything.', createdAt: expect.any(String) });
  });

  it('pages through every conversation once, with ties on the timestamp broken by id', async () => {
    const { client, botId } = await ownerWithBot();
    const seeded = [];
    for (let i = 0; i < 9; i++) seeded.push((await seedConversation(botId, [{ role: 'user', content: `q${i}` }])).id);
    const ids = await walk(client, '/api/bots/conversations', 4);
    expect(ids).toHaveLength(9);
    expect(new Set(ids)).toEqual(new Set(seeded));
  });
});

describe('GET /api/bots/leads and leads.csv', () => {
  it('pages newest first with no row skipped or repeated while new leads arrive concurrently', async () => {
    const { client, botId } = await ownerWithBot();
    const original: string[] = [];
    for (let i = 0; i < 12; i++) original.push((await seedLead(botId, `lead${i}${i % 3 === 0 ? 'tie' : ''}@example.com`)).id);
    let added = 0;
    const ids = await walk(client, '/api/bots/leads', 5, async () => {
      await Promise.all([seedLead(botId, `late${added++}@example.com`), seedLead(botId, `late${added++}@example.com`)]);
    });
    // Leads that arrive while paging are newer than every cursor, so they belong before
    // the first page: the walk sees exactly the original rows, each once.
    expect(ids).toHaveLength(original.length);
    expect(new Set(ids)).toEqual(new Set(original));
  });

  it('shows each lead with its conversation and summary', async () => {
    const { client, botId } = await ownerWithBot();
    const conversation = await seedConversation(botId, [{ role: 'user', content: 'hi' }]);
    const lead = await seedLead(botId, 'recruiter@example.com', { conversationId: conversation.id, contextSummary: 'Hiring for SRE' });
    expect((await client.get('/api/bots/leads')).json.items).toEqual([
      {
        id: lead.id,
        email: 'recruiter@example.com',
        capturedAt: lead.capturedAt.toISOString(),
        conversationId: conversation.id,
        contextSummary: 'Hiring for SRE',
      },
    ]);
  });

  it('exports RFC 4180 CSV with a BOM and CRLF, quoting commas, quotes and newlines, keeping non-ASCII, neutralising formulas', async () => {
    const { client, botId } = await ownerWithBot();
    const summaries = [
      'Plain summary',
      'Commas, "quotes"\r\nand a new line',
      '=HYPERLINK("http://evil.example","click")',
      '+1 555 0100',
      '-2+3',
      '@SUM(A1:A2)',
      '\tTabbed',
      'Zoë — 日本語 — 🚀',
      'a;=1+1',
      '\u200b=1+1',
      '＝1+1',
      '\r=1+1',
    ];
    for (const [i, contextSummary] of summaries.entries()) await seedLead(botId, `csv${i}@example.com`, { contextSummary });
    const response = await fetch(`${app.baseUrl}/api/bots/leads.csv`, { headers: { cookie: client.cookieHeader() } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toContain('leads.csv');
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes).slice(1);
    expect(text.endsWith('\r\n')).toBe(true);
    const rows = parseCsv(text);
    expect(rows[0]).toEqual(['id', 'email', 'capturedAt', 'conversationId', 'contextSummary']);
    const bySummary = rows.slice(1).map((row) => row[4]);
    expect(rows.slice(1).every((row) => row.length === 5)).toBe(true);
    expect(bySummary).toEqual(
      [
        'Plain summary',
        'Commas, "quotes"\r\nand a new line',
        `'=HYPERLINK("http://evil.example","click")`,
        "'+1 555 0100",
        "'-2+3",
        "'@SUM(A1:A2)",
        "'\tTabbed",
        'Zoë — 日本語 — 🚀',
        'a;=1+1',
        "'\u200b=1+1",
        "'＝1+1",
        "'\r=1+1",
      ].reverse(),
    );
    // Every cell is quoted, so a spreadsheet that splits on `;` or a tab keeps each one whole.
    expect(text).toContain('"a;=1+1"');
    expect(text.startsWith('"id","email","capturedAt","conversationId","contextSummary"\r\n')).toBe(true);
  });
});

describe('GET /api/bots/leads.csv, larger than a page', () => {
  it('streams every lead once, newest first, across export pages, ties on time included', async () => {
    const { client, botId } = await ownerWithBot();
    const count = EXPORT_PAGE_SIZE * 2 + 37;
    // Many leads share one capture time, so page boundaries fall inside a tie.
    await app.db.query(
      `INSERT INTO leads (bot_id, email, captured_at)
       SELECT $1, 'bulk' || i || '@example.com', $2::timestamptz + ((i / 7) * interval '1 second')
       FROM generate_series(1, $3) AS i`,
      [botId, '2026-06-01T00:00:00.000Z', count],
    );
    const response = await fetch(`${app.baseUrl}/api/bots/leads.csv`, { headers: { cookie: client.cookieHeader() } });
    expect(response.status).toBe(200);
    const rows = parseCsv((await response.text()).replace(/^\uFEFF/, '')).slice(1);
    expect(rows).toHaveLength(count);
    expect(new Set(rows.map((row) => row[0])).size).toBe(count);
    const times = rows.map((row) => Date.parse(row[2]!));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });
});

describe('page bounds', () => {
  it.each([
    ['limit', 'limit=0'],
    ['limit', 'limit=101'],
    ['limit', 'limit=abc'],
    ['limit', 'limit=2.5'],
    ['cursor', 'cursor=not-a-cursor'],
    ['cursor', `cursor=${Buffer.from('2026-01-01T00:00:00.000Z|nope').toString('base64url')}`],
  ])('answers 400 Validation failed naming %s for ?%s', async (field, query) => {
    const { client } = await ownerWithBot();
    for (const path of ['/api/bots/conversations', '/api/bots/leads', '/api/notifications']) {
      const response = await client.get(`${path}?${query}`);
      expect(response.status).toBe(400);
      expect(response.json.error).toBe('Validation failed');
      expect(Object.keys(response.json.details.fieldErrors)).toEqual([field]);
    }
  });

  it('accepts limit=1 and limit=100, and defaults to 20', async () => {
    const { client, botId } = await ownerWithBot();
    for (let i = 0; i < 22; i++) await seedLead(botId, `bound${i}@example.com`);
    expect((await client.get('/api/bots/leads')).json.items).toHaveLength(20);
    expect((await client.get('/api/bots/leads?limit=1')).json.items).toHaveLength(1);
    const all = await client.get('/api/bots/leads?limit=100');
    expect(all.json.items).toHaveLength(22);
    expect(all.json.nextCursor).toBeNull();
  });
});

describe('notifications', () => {
  it('lists all or unread only, marks one and all read, and counts unread', async () => {
    const { client, userId } = await ownerWithBot();
    const other = await ownerWithBot();
    const repo = new PgNotificationRepository(app.db);
    const created = [];
    for (let i = 0; i < 5; i++) {
      created.push(await repo.add(userId, i % 2 ? 'lead_captured' : 'conversation_started', { n: i }, nextTime()));
    }
    const theirs = await repo.add(other.userId, 'lead_captured', {}, nextTime());

    const all = await client.get('/api/notifications');
    expect(all.json.unreadCount).toBe(5);
    expect(all.json.items).toHaveLength(5);
    expect(all.json.items[0]).toEqual({
      id: created[4]!.id,
      kind: 'conversation_started',
      payload: { n: 4 },
      createdAt: created[4]!.createdAt.toISOString(),
      readAt: null,
    });

    const read = await client.post(`/api/notifications/${created[4]!.id}/read`);
    expect(read.status).toBe(200);
    expect(read.json).toEqual({ unreadCount: 4 });
    const again = await client.post(`/api/notifications/${created[4]!.id}/read`);
    expect(again.json).toEqual({ unreadCount: 4 });
    for (const id of [theirs.id, randomUUID(), 'nope']) {
      const response = await client.post(`/api/notifications/${id}/read`);
      expect(response.status).toBe(404);
      expect(response.json).toEqual({ error: 'Not found' });
    }
    expect((await other.client.get('/api/notifications')).json.unreadCount).toBe(1);

    const unread = await client.get('/api/notifications?unread=true');
    expect(unread.json.items.map((item: { id: string }) => item.id)).toEqual(created.slice(0, 4).map((n) => n.id).reverse());
    expect(unread.json.unreadCount).toBe(4);
    const readOne = (await client.get('/api/notifications')).json.items[0];
    expect(readOne.readAt).toMatch(/Z$/);

    expect((await client.post('/api/notifications/read-all')).json).toEqual({ updated: 4, unreadCount: 0 });
    expect((await client.get('/api/notifications?unread=true')).json).toEqual({ items: [], nextCursor: null, unreadCount: 0 });
    expect((await other.client.get('/api/notifications')).json.unreadCount).toBe(1);
  });

  it('pages notifications with the cursor', async () => {
    const { client, userId } = await ownerWithBot();
    const repo = new PgNotificationRepository(app.db);
    const ids = [];
    for (let i = 0; i < 7; i++) ids.push((await repo.add(userId, 'lead_captured', {}, nextTime(i === 3))).id);
    const walked = await walk(client, '/api/notifications', 3);
    expect(new Set(walked)).toEqual(new Set(ids));
    expect(walked).toHaveLength(7);
  });

  it("refuses cookie-authenticated changes from another origin", async () => {
    const { client } = await ownerWithBot();
    const response = await client.post('/api/notifications/read-all', undefined, { origin: 'https://evil.example' });
    expect(response.status).toBe(403);
  });
});

describe('account settings', () => {
  it('reads and changes notifyLeadsEmail, validating the body', async () => {
    const { client, userId } = await signedInClient(app.baseUrl);
    expect((await client.get('/api/account/settings')).json).toEqual({ notifyLeadsEmail: false });
    expect((await client.patch('/api/account/settings', { notifyLeadsEmail: true })).json).toEqual({ notifyLeadsEmail: true });
    expect((await client.get('/api/account/settings')).json).toEqual({ notifyLeadsEmail: true });
    const { rows } = await app.db.query('SELECT notify_leads_email FROM users WHERE id = $1', [userId]);
    expect(rows[0]!.notify_leads_email).toBe(true);
    const bad = await client.patch('/api/account/settings', { notifyLeadsEmail: 'yes' });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.json.details.fieldErrors)).toEqual(['notifyLeadsEmail']);
    const malformed = await client.request('PATCH', '/api/account/settings', { body: '{', headers: { 'content-type': 'application/json' } });
    expect(malformed.json).toEqual({ error: 'Invalid JSON body' });
  });
});

/** A strict RFC 4180 reader, written here so the test does not trust the writer. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let i = 0;
  let quoted = false;
  while (i < text.length) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 2;
        continue;
      }
      if (char === '"') {
        quoted = false;
        i++;
        continue;
      }
      cell += char;
      i++;
      continue;
    }
    if (char === '"' && cell === '') {
      quoted = true;
      i++;
    } else if (char === ',') {
      row.push(cell);
      cell = '';
      i++;
    } else if (char === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i += 2;
    } else {
      if (char === '\r' || char === '\n' || char === '"') throw new Error(`bare ${JSON.stringify(char)} outside quotes at ${i}`);
      cell += char;
      i++;
    }
  }
  if (cell !== '' || row.length > 0) throw new Error('last record not terminated by CRLF');
  return rows;
}
