import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/adapters/config.ts';
import { fakeReply, HttpClient, signedInClient, startFakeLlmProvider, validBot } from '@careerbot/testkit';
import { spawnService, startServiceProcess } from '../support/service-process.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';

const postgresProcessesUsing = (dataDir: string) => {
  try {
    return execFileSync('pgrep', ['-f', `postgres.*${dataDir}`], { encoding: 'utf8' }).trim();
  } catch {
    return ''; // pgrep exits 1 when nothing matches
  }
};

describe('configuration', () => {
  it('names every bad variable in one message', () => {
    const result = parseConfig({
      PORT: 'abc',
      LLM_TIMEOUT_MS: '-5',
      NODE_ENV: 'production',
      PUBLIC_URL: 'not a url',
      ALLOWED_ORIGINS: 'https://ok.example,nope',
      LOG_LEVEL: 'loud',
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    for (const name of ['PORT', 'LLM_TIMEOUT_MS', 'SESSION_SECRET', 'KEY_ENCRYPTION_KEY', 'PUBLIC_URL', 'ALLOWED_ORIGINS', 'LOG_LEVEL']) {
      expect(result.message).toContain(`${name}`);
    }
  });

  it('applies the documented defaults', () => {
    const result = parseConfig({});
    expect(result.ok && result.config).toMatchObject({
      PORT: 3000,
      HOST: '0.0.0.0',
      DATA_DIR: './.data',
      LLM_TIMEOUT_MS: 30_000,
      LOG_LEVEL: 'info',
      TRUST_PROXY: false,
      AZURE_OPENAI_ALLOWED_HOSTS: ['.openai.azure.com', '.cognitiveservices.azure.com', '.services.ai.azure.com'],
    });
  });

  it('makes the process exit non-zero with that message before doing anything', async () => {
    const service = spawnService({ PORT: 'abc', NODE_ENV: 'production' });
    expect(await service.exited).toBe(1);
    expect(service.output()).toContain('Invalid configuration');
    expect(service.output()).toContain('PORT');
    expect(service.output()).toContain('SESSION_SECRET: is required when NODE_ENV=production');
  });
});

describe('npm start on the embedded PostgreSQL', () => {
  const dirs: string[] = [];
  afterAll(async () => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

  it('starts without DATABASE_URL, keeps data across restarts, and leaves no PostgreSQL behind after SIGINT', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'careerbot-start-'));
    dirs.push(dataDir);
    const env = { DATA_DIR: dataDir, LOG_LEVEL: 'info' };

    const first = await startServiceProcess(env);
    expect((await new HttpClient(first.baseUrl).get('/readyz')).status).toBe(200);
    const registered = await new HttpClient(first.baseUrl).post('/api/auth/register', {
      username: 'persisted',
      email: 'persisted@example.com',
      password: 'long enough pw',
    });
    expect(registered.status).toBe(201);
    expect(postgresProcessesUsing(dataDir)).not.toBe('');
    first.child.kill('SIGINT');
    expect(await first.exited).toBe(0);
    expect(postgresProcessesUsing(dataDir)).toBe('');

    const second = await startServiceProcess(env);
    const again = await new HttpClient(second.baseUrl).post('/api/auth/register', {
      username: 'persisted',
      email: 'persisted@example.com',
      password: 'long enough pw',
    });
    expect(again.status).toBe(409);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    expect(postgresProcessesUsing(dataDir)).toBe('');
    expect(second.output()).toContain('"msg":"stopped"');
  });
});

describe('a second instance on a data directory whose PostgreSQL is running', () => {
  it('fails to start with a message that says what is wrong and what to do, not "undefined"', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'careerbot-twice-'));
    const first = await startServiceProcess({ DATA_DIR: dataDir });
    try {
      const second = spawnService({ DATA_DIR: dataDir });
      expect(await second.exited).toBe(1);
      const fatal = second.output().split('\n').find((line) => line.includes('"msg":"start-up failed"'));
      expect(fatal).toBeDefined();
      expect(fatal).not.toContain('"message":"undefined"');
      expect(fatal).toMatch(/another PostgreSQL \(pid \d+\) is already running on its data directory/);
      expect(fatal).toMatch(/Stop that instance .* or give this one another DATA_DIR, or point DATABASE_URL at a PostgreSQL server/);
      // The first instance is untouched.
      expect((await new HttpClient(first.baseUrl).get('/readyz')).status).toBe(200);
    } finally {
      first.child.kill('SIGTERM');
      await first.exited;
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});

describe('npm start with DATABASE_URL', () => {
  let database: TestDatabase;
  afterAll(async () => database?.drop());

  it('two instances starting at once on one empty database both come up, migrating once', async () => {
    database = await createTestDatabase({ migrated: false });
    const env = { DATABASE_URL: database.url, LOG_LEVEL: 'info', DATA_DIR: path.join(tmpdir(), 'careerbot-unused') };
    const [a, b] = await Promise.all([startServiceProcess(env), startServiceProcess(env)]);
    expect((await new HttpClient(a.baseUrl).get('/readyz')).status).toBe(200);
    expect((await new HttpClient(b.baseUrl).get('/readyz')).status).toBe(200);
    const appliedBy = [a, b].filter((service) => service.output().includes('migrations applied'));
    expect(appliedBy).toHaveLength(1);
    a.child.kill('SIGTERM');
    b.child.kill('SIGTERM');
    expect(await Promise.all([a.exited, b.exited])).toEqual([0, 0]);
  });
});

describe('graceful shutdown', () => {
  let database: TestDatabase;
  afterAll(async () => database?.drop());

  it('on SIGTERM stops accepting connections but finishes the request in flight, then exits 0', async () => {
    database = await createTestDatabase();
    const provider = await startFakeLlmProvider({ defaultReply: fakeReply.delayed(1_500, fakeReply.success('Finished answer.')) });
    try {
      const service = await startServiceProcess({
        DATABASE_URL: database.url,
        OPENAI_BASE_URL: provider.baseUrls.openai,
        DATA_DIR: path.join(tmpdir(), 'careerbot-unused'),
      });
      const { client } = await signedInClient(service.baseUrl);
      const botId = (await client.post('/api/bots', validBot())).json.bot.id;
      const inFlight = fetch(`${service.baseUrl}/api/chat/${botId}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-llm-api-key': 'sk-test' },
        body: JSON.stringify({ message: 'Still there?' }),
      });
      await new Promise((resolve) => setTimeout(resolve, 400)); // the provider call is under way
      service.child.kill('SIGTERM');
      await new Promise((resolve) => setTimeout(resolve, 200));
      // No new connection is accepted (an idle kept-alive one would still be answered, with Connection: close).
      const newConnection = new Promise((resolve, reject) => http.get(`${service.baseUrl}/healthz`, { agent: false }, resolve).on('error', reject));
      await expect(newConnection).rejects.toThrow(/ECONNREFUSED/);
      const response = await inFlight;
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ reply: 'Finished answer.' });
      expect(await service.exited).toBe(0);
    } finally {
      await provider.close();
    }
  });
});
