import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeLlmProvider, fakeReply, HttpClient, signedInClient, startFakeLlmProvider, validBot } from '@careerbot/testkit';
import { EnvelopeVault, masterKeyId, parseMasterKey } from '../../src/adapters/crypto/envelope-vault.ts';
import { Db } from '../../src/adapters/persistence/db.ts';
import { rewrapOwnerKeys } from '../../src/adapters/persistence/pg-owner-key-repository.ts';
import { parseConfig } from '../../src/adapters/config.ts';
import { masterKeysFor } from '../../src/startup.ts';
import { startTestApp, TEST_MASTER_KEY, type TestApp } from '../support/test-app.ts';
import { useTwoInstanceDatabase } from '../support/test-database.ts';

const run = promisify(execFile);

/** The owner's key: a canary that must appear in no response, log line, metric, page or dump. */
const OWNER_KEY = 'sk-owner-CANARY-DO-NOT-LEAK-7f3a9c2e5b1d4f6a8c0e';
const VISITOR_KEY = 'sk-visitor-key-0123456789abcdef';
const METRICS_TOKEN = 'owner-key-metrics-token-0123456789abcdef';

const envFor = (fake: FakeLlmProvider, extra: Record<string, string> = {}) => ({
  OPENAI_BASE_URL: fake.baseUrls.openai,
  ANTHROPIC_BASE_URL: fake.baseUrls.anthropic,
  GEMINI_BASE_URL: fake.baseUrls.google,
  AZURE_OPENAI_ALLOWED_HOSTS: '127.0.0.1',
  LLM_TIMEOUT_MS: '1500',
  METRICS_TOKEN,
  ...extra,
});

let provider: FakeLlmProvider;
let app: TestApp;
/** Every body the service sent back in this file, searched for the canary at the end. */
const answers: string[] = [];

const shared = useTwoInstanceDatabase();

beforeAll(async () => {
  provider = await startFakeLlmProvider();
  app = await startTestApp({ env: envFor(provider), database: shared.database });
});
afterAll(async () => {
  await app?.close();
  await provider?.close();
});
beforeEach(() => provider.reset());

const keep = <T extends { text: string }>(response: T) => {
  answers.push(response.text);
  return response;
};

/** A signed-in owner with a saved bot, whose rate limits leave room for the tests. */
const ownerWithBot = async (bot: Record<string, unknown> = {}, base = app.baseUrl) => {
  const { client, userId } = await signedInClient(base);
  const saved = await client.post('/api/bots', validBot(bot));
  await client.patch('/api/bots/settings', { rateLimits: { perMinute: 1000, perDay: 1000 } });
  return { owner: client, userId, botId: saved.json.bot.id as string };
};

const chat = (botId: string, headers: Record<string, string> = {}, base = app.baseUrl) =>
  new HttpClient(base)
    .request('POST', `/api/chat/${botId}`, { body: JSON.stringify({ message: 'What did Ada build?' }), headers: { 'content-type': 'application/json', ...headers } })
    .then(keep);

const saveKey = async (owner: HttpClient, body: Record<string, unknown> = { apiKey: OWNER_KEY }) => keep(await owner.post('/api/account/llm-key', body));

/** The key the provider was called with, as each SDK sends it. */
const keySent = (request: FakeLlmProvider['requests'][number]) => {
  const h = request.headers;
  return String(h['x-api-key'] ?? h['x-goog-api-key'] ?? h['api-key'] ?? h.authorization ?? '').replace(/^Bearer /, '');
};

const notificationKinds = async (owner: HttpClient) =>
  ((await owner.get('/api/notifications')).json.items as { kind: string }[]).map((item) => item.kind);

describe('envelope encryption', () => {
  const master = parseMasterKey(TEST_MASTER_KEY)!;

  it('round-trips, binds the sealed key to its account, and refuses a tampered one', () => {
    const vault = new EnvelopeVault([master]);
    const sealed = vault.seal('user-a', OWNER_KEY);
    expect(vault.open('user-a', sealed)).toBe(OWNER_KEY);
    expect(Buffer.from(sealed.ciphertext).toString('latin1')).not.toContain(OWNER_KEY);
    expect(sealed.masterKeyId).toBe(masterKeyId(master));
    expect(() => vault.open('user-b', sealed)).toThrow();
    const tampered = { ...sealed, ciphertext: Buffer.from(sealed.ciphertext).map((byte, i) => (i === 0 ? byte ^ 1 : byte)) };
    expect(() => vault.open('user-a', tampered)).toThrow();
    expect(() => new EnvelopeVault([randomBytes(32)]).open('user-a', sealed)).toThrow(/no master key/);
    // A fresh data key each time: sealing the same key twice gives different bytes.
    expect(Buffer.from(vault.seal('user-a', OWNER_KEY).ciphertext).equals(Buffer.from(sealed.ciphertext))).toBe(false);
  });

  it('the master key: generated once into DATA_DIR in development (0600), taken from KEY_ENCRYPTION_KEY otherwise, required in production', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'careerbot-master-key-'));
    try {
      const development = parseConfig({ DATA_DIR: dataDir });
      if (!development.ok) throw new Error(development.message);
      const [generated] = await masterKeysFor(development.config);
      expect(parseMasterKey(generated!)).toHaveLength(32);
      expect((await stat(path.join(dataDir, 'key-encryption-key'))).mode & 0o777).toBe(0o600);
      expect(await masterKeysFor(development.config)).toEqual([generated]);
      const given = parseConfig({ DATA_DIR: dataDir, KEY_ENCRYPTION_KEY: TEST_MASTER_KEY, KEY_ENCRYPTION_KEY_PREVIOUS: generated });
      if (!given.ok) throw new Error(given.message);
      expect(await masterKeysFor(given.config)).toEqual([TEST_MASTER_KEY, generated]);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
    const production = parseConfig({ NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(40) });
    expect(production.ok).toBe(false);
    expect(!production.ok && production.message).toContain('KEY_ENCRYPTION_KEY: is required when NODE_ENV=production');
    const malformed = parseConfig({ KEY_ENCRYPTION_KEY: 'too-short' });
    expect(!malformed.ok && malformed.message).toContain('KEY_ENCRYPTION_KEY: must be 32 bytes');
  });

  it('a dump of the database (pg_dump, or every row as the server renders it) holds no key, searched for the canary in every form', async () => {
    const { owner } = await ownerWithBot();
    expect((await saveKey(owner)).status).toBe(200);
    const dump = await databaseDump(shared.database.url);
    expect(dump).toContain('owner_llm_keys'); // the dump has the table
    expect(dump).toContain(OWNER_KEY.slice(-4)); // and its rows (the last four are shown to the owner)
    for (const form of [OWNER_KEY, Buffer.from(OWNER_KEY).toString('hex'), Buffer.from(OWNER_KEY).toString('base64'), TEST_MASTER_KEY]) {
      expect(dump).not.toContain(form);
    }
  });

  it('rotation: the command re-wraps every data key with the new master key, and the key still answers', async () => {
    const { owner, botId } = await ownerWithBot();
    await saveKey(owner);
    const newMaster = randomBytes(32).toString('hex');
    const pending = await shared.secondPool.query<{ n: number }>('SELECT count(*)::int AS n FROM owner_llm_keys WHERE master_key_id <> $1', [
      masterKeyId(Buffer.from(newMaster, 'hex')),
    ]);
    expect(pending.rows[0]!.n).toBeGreaterThan(0);
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'src/rotate-master-key.ts'], {
      env: { ...process.env, DATABASE_URL: shared.database.url, KEY_ENCRYPTION_KEY: newMaster, KEY_ENCRYPTION_KEY_PREVIOUS: TEST_MASTER_KEY, NODE_ENV: 'test' },
    });
    expect(stdout).toMatch(/re-wrapped [1-9]\d* data key/);
    expect(stdout).not.toContain(newMaster);
    const after = await shared.secondPool.query<{ id: string; version: number }>('SELECT DISTINCT master_key_id AS id, master_key_version AS version FROM owner_llm_keys');
    expect(after.rows.map((row) => row.id)).toEqual([masterKeyId(Buffer.from(newMaster, 'hex'))]);
    expect(after.rows[0]!.version).toBeGreaterThan(1);
    // An instance that knows only the new master key answers with the owner's key.
    const rotated = await startTestApp({ env: envFor(provider, { KEY_ENCRYPTION_KEY: newMaster }), database: { ...shared.database, db: shared.secondPool } });
    try {
      const response = await chat(botId, {}, rotated.baseUrl);
      expect(response.status).toBe(200);
      expect(keySent(provider.requests.at(-1)!)).toBe(OWNER_KEY);
    } finally {
      await rotated.close();
    }
    // Running it again finds nothing left to do.
    const again = await run(process.execPath, ['--import', 'tsx', 'src/rotate-master-key.ts'], {
      env: { ...process.env, DATABASE_URL: shared.database.url, KEY_ENCRYPTION_KEY: newMaster, NODE_ENV: 'test' },
    });
    expect(again.stdout).toContain('re-wrapped 0 data key');
    // The app under test still has the old master key only: put the rows back under it.
    const back = new EnvelopeVault([parseMasterKey(TEST_MASTER_KEY)!, Buffer.from(newMaster, 'hex')]);
    await rewrapOwnerKeys(shared.secondPool, back.currentMasterKeyId, (o, s) => back.rewrap(o, s)!);
  });
});

describe('the owner API: set, replace, remove, read', () => {
  it('stores the key after one cheap check, and shows only the provider, the last four and when it was added', async () => {
    const { owner } = await ownerWithBot();
    const empty = keep(await owner.get('/api/account/llm-key'));
    expect(empty.json).toEqual({ key: null, usage: { today: 0, last30Days: 0 } });
    const saved = await saveKey(owner);
    expect(saved.status).toBe(200);
    expect(saved.json.key).toMatchObject({ provider: 'openai', lastFour: OWNER_KEY.slice(-4), checked: true, enabled: true, paused: false, dailyCap: 100 });
    expect(Date.parse(saved.json.key.createdAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(provider.requests).toHaveLength(1);
    expect(provider.requests[0]!.body).toMatchObject({ max_tokens: 1 });
    expect(keySent(provider.requests[0]!)).toBe(OWNER_KEY);
    const read = keep(await owner.get('/api/account/llm-key'));
    expect(read.json.key.lastFour).toBe(OWNER_KEY.slice(-4));

    const replaced = await saveKey(owner, { apiKey: 'sk-replacement-key-9999' });
    expect(replaced.json.key.lastFour).toBe('9999');
    expect((await owner.delete('/api/account/llm-key')).status).toBe(204);
    expect((await owner.delete('/api/account/llm-key')).status).toBe(204);
    expect(keep(await owner.get('/api/account/llm-key')).json.key).toBeNull();
  });

  it('refuses in words a key the provider refuses (401, 403), and stores nothing', async () => {
    const { owner } = await ownerWithBot();
    for (const status of [401, 403]) {
      provider.respondWith(fakeReply.status(status));
      const refused = await saveKey(owner);
      expect(refused.status).toBe(400);
      expect(refused.json).toEqual({ error: 'The provider refused this key' });
    }
    expect(keep(await owner.get('/api/account/llm-key')).json.key).toBeNull();
  });

  it('keeps a key the provider could not check, and says so (checked: false)', async () => {
    const { owner } = await ownerWithBot();
    provider.respondWith(fakeReply.status(503), fakeReply.status(503));
    const saved = await saveKey(owner);
    expect(saved.status).toBe(200);
    expect(saved.json.key).toMatchObject({ checked: false, lastFour: OWNER_KEY.slice(-4) });
  });

  it('needs a saved bot (its provider), an Azure endpoint for Azure, and a plausible key', async () => {
    const { client } = await signedInClient(app.baseUrl);
    expect((await saveKey(client)).json).toEqual({ error: 'Save your bot first: the key is for its provider' });
    const { owner } = await ownerWithBot({ llmProvider: 'azure', llmModel: 'dep' });
    expect((await saveKey(owner)).json).toEqual({ error: 'A valid Azure OpenAI endpoint is required (https, on an allowed host)' });
    const offList = await saveKey(owner, { apiKey: OWNER_KEY, azureEndpoint: 'https://evil.example.com' });
    expect(offList.json).toEqual({ error: 'A valid Azure OpenAI endpoint is required (https, on an allowed host)' });
    expect(provider.requests).toHaveLength(0);
    expect(keep(await owner.get('/api/account/llm-key')).json.key).toBeNull();
    const invalid = await saveKey(owner, { apiKey: 'short' });
    expect(invalid.status).toBe(400);
    expect(invalid.json.error).toBe('Validation failed');
    expect((await owner.patch('/api/account/llm-key', { dailyCap: 5 })).status).toBe(404);
    expect((await new HttpClient(app.baseUrl).get('/api/account/llm-key')).status).toBe(401);
  });
});

describe('who pays', () => {
  it('the visitor’s key wins; without one the owner’s key answers when switched on; without either, 400 missing_llm_key', async () => {
    const { owner, botId } = await ownerWithBot();
    expect((await chat(botId)).json).toEqual({ error: 'missing_llm_key' });
    await saveKey(owner);
    provider.reset();

    expect((await chat(botId, { 'x-llm-api-key': VISITOR_KEY })).status).toBe(200);
    expect(keySent(provider.requests[0]!)).toBe(VISITOR_KEY);
    expect((await chat(botId)).status).toBe(200);
    expect(keySent(provider.requests[1]!)).toBe(OWNER_KEY);

    expect(keep(await owner.patch('/api/account/llm-key', { enabled: false })).json.key.enabled).toBe(false);
    expect((await chat(botId)).json).toEqual({ error: 'missing_llm_key' });
    expect((await chat(botId, { 'x-llm-api-key': VISITOR_KEY })).status).toBe(200);
    expect(provider.requests).toHaveLength(3);
    expect(keep(await new HttpClient(app.baseUrl).get(`/api/bots/${botId}/public`)).json.ownerKeyAnswers).toBe(false);
    await owner.patch('/api/account/llm-key', { enabled: true });
    expect(keep(await new HttpClient(app.baseUrl).get(`/api/bots/${botId}/public`)).json.ownerKeyAnswers).toBe(true);

    // Only the owner's answers count on the dashboard.
    expect(keep(await owner.get('/api/account/llm-key')).json.usage).toEqual({ today: 1, last30Days: 1 });
  });

  it.each([
    ['openai', undefined],
    ['anthropic', undefined],
    ['google', undefined],
    ['azure', 'career-deployment'],
  ])('answers through the %s SDK with the owner’s key', async (llmProvider, llmModel) => {
    const { owner, botId } = await ownerWithBot({ llmProvider, llmModel });
    const body: Record<string, unknown> = { apiKey: OWNER_KEY };
    if (llmProvider === 'azure') body.azureEndpoint = provider.baseUrls.azureEndpoint;
    expect((await saveKey(owner, body)).json.key).toMatchObject({ provider: llmProvider, checked: true });
    provider.respondWith(fakeReply.success(`Ada built the first algorithm. ${OWNER_KEY}`));
    const response = await chat(botId);
    expect(response.status).toBe(200);
    expect(response.json.reply).toContain('Ada built the first algorithm.');
    expect(response.text).not.toContain(OWNER_KEY); // an echoed key is cleaned from the reply
    const sent = provider.requests.at(-1)!;
    expect(sent.provider).toBe(llmProvider);
    expect(keySent(sent)).toBe(OWNER_KEY);
  });
});

describe('the owner’s bill', () => {
  it('the daily cap is exact with two instances at once, says so in words, and tells the owner once', async () => {
    const second = await startTestApp({ env: envFor(provider), database: { ...shared.database, db: shared.secondPool } });
    try {
      const { owner, botId } = await ownerWithBot();
      await saveKey(owner);
      expect(keep(await owner.patch('/api/account/llm-key', { dailyCap: 5 })).json.key.dailyCap).toBe(5);
      provider.reset();
      const results = await Promise.all(Array.from({ length: 16 }, (_, i) => chat(botId, {}, i % 2 ? second.baseUrl : app.baseUrl)));
      const statuses = results.map((r) => r.status).sort();
      expect(statuses.filter((s) => s === 200)).toHaveLength(5);
      expect(statuses.filter((s) => s === 429)).toHaveLength(11);
      const refused = results.find((r) => r.status === 429)!;
      expect(refused.json.error).toBe('daily_limit_reached');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(provider.requests).toHaveLength(5);
      expect((await notificationKinds(owner)).filter((kind) => kind === 'owner_key_cap_reached')).toHaveLength(1);
      expect(keep(await owner.get('/api/account/llm-key')).json.usage.today).toBe(5);
      // A visitor with their own key is not held by the owner's cap.
      expect((await chat(botId, { 'x-llm-api-key': VISITOR_KEY })).status).toBe(200);
    } finally {
      await second.close();
    }
  });

  it('the per-bot rate limit applies to the owner’s key as well', async () => {
    const { owner, botId } = await ownerWithBot();
    await saveKey(owner);
    await owner.patch('/api/bots/settings', { rateLimits: { perMinute: 2, perDay: 1000 } });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await chat(botId)).status);
    expect(statuses).toEqual([200, 200, 429]);
  });

  it('a key the provider refuses while answering pauses answering with it and notifies the owner, until a working key is saved', async () => {
    const { owner, botId } = await ownerWithBot();
    await saveKey(owner);
    provider.respondWith(fakeReply.status(401));
    const refused = await chat(botId);
    expect(refused.status).toBe(400);
    expect(refused.json).toEqual({ error: 'missing_llm_key' });
    expect(keep(await owner.get('/api/account/llm-key')).json.key.paused).toBe(true);
    expect(await notificationKinds(owner)).toContain('owner_key_refused');
    expect(keep(await new HttpClient(app.baseUrl).get(`/api/bots/${botId}/public`)).json.ownerKeyAnswers).toBe(false);
    provider.reset();
    expect((await chat(botId)).json).toEqual({ error: 'missing_llm_key' });
    expect(provider.requests).toHaveLength(0); // paused: the provider is not called again
    expect((await notificationKinds(owner)).filter((kind) => kind === 'owner_key_refused')).toHaveLength(1);
    expect((await saveKey(owner, { apiKey: `${OWNER_KEY}-new` })).json.key.paused).toBe(false);
    expect((await chat(botId)).status).toBe(200);
  });
});

describe('canaries: the owner’s key appears nowhere', () => {
  it('in no response, log line, metric or page; provider calls are counted by payer, without ids', async () => {
    const { owner, botId } = await ownerWithBot();
    await saveKey(owner);
    await chat(botId);
    await chat(botId, { 'x-llm-api-key': VISITOR_KEY });
    for (const path of ['/dashboard/settings', '/dashboard', `/b/${botId}`]) {
      const page = keep(await owner.get(path));
      expect(page.status).toBe(200);
    }
    keep(await owner.get('/api/account/llm-key'));
    keep(await owner.get('/api/notifications'));
    // The account's export says that a key is stored, for which provider, and no more.
    const exported = keep(await owner.get('/api/account/export'));
    expect(exported.json.ownerKey).toEqual({ provider: 'openai', addedAt: expect.any(String) });
    expect(exported.text).not.toContain(OWNER_KEY.slice(-4));
    const metrics = keep(await new HttpClient(app.baseUrl).get('/metrics', { authorization: `Bearer ${METRICS_TOKEN}` }));
    expect(metrics.text).toMatch(/careerbot_provider_calls_by_payer_total\{provider="openai",payer="owner"\} [1-9]/);
    expect(metrics.text).toMatch(/careerbot_provider_calls_by_payer_total\{provider="openai",payer="visitor"\} [1-9]/);
    expect(metrics.text).not.toContain(botId);
    const everything = [...answers, app.logs.text()].join('\n');
    expect(everything).toContain(OWNER_KEY.slice(-4));
    expect(everything).not.toContain(OWNER_KEY);
    expect(everything).not.toContain(OWNER_KEY.slice(0, 20));
  });
});

/**
 * A pg_dump of the database (data and schema), with a pg_dump at least as new as the server
 * (Debian's for the PostgreSQL at 127.0.0.1:5432); otherwise, as for the embedded server, whose
 * package ships no pg_dump, every table's rows as the server renders them (bytea as hex).
 */
const databaseDump = async (url: string) => {
  const db = new Db({ connectionString: url, max: 1 });
  try {
    const serverMajor = Number((await db.query<{ v: string }>("SELECT current_setting('server_version_num') AS v")).rows[0]!.v.slice(0, -4));
    const pgDump = [18, 17, 16, 15]
      .filter((major) => major >= serverMajor)
      .map((major) => `/usr/lib/postgresql/${major}/bin/pg_dump`)
      .find((path) => existsSync(path));
    if (pgDump) return (await run(pgDump, ['--no-owner', url], { maxBuffer: 256 * 1024 * 1024 })).stdout;
    const tables = await db.query<{ name: string }>("SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'");
    const dumps = [];
    for (const { name } of tables.rows) {
      const rows = await db.query<{ row: string }>(`SELECT row_to_json(t)::text AS row FROM "${name}" t`);
      dumps.push(name, ...rows.rows.map((r) => r.row));
    }
    return dumps.join('\n');
  } finally {
    await db.close();
  }
};
