import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeLlmProvider, fakeReply, HttpClient, signedInClient, startFakeLlmProvider, validBot } from '@careerbot/testkit';
import { widgetClient } from '../support/runtime-clients.ts';
import { startServiceProcess, type ServiceProcess } from '../support/service-process.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { awayFromWindowEnd, MINUTE_MS } from '../support/windows.ts';

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });

const pidsServing = (output: string) =>
  new Set([...output.matchAll(/"pid":(\d+)[^\n]*"msg":"request completed"/g)].map((match) => Number(match[1])));

describe('WEB_CONCURRENCY=2: two workers under the cluster module', () => {
  let database: TestDatabase;
  let provider: FakeLlmProvider;
  let service: ServiceProcess;
  let metricsPort: number;
  beforeAll(async () => {
    database = await createTestDatabase();
    provider = await startFakeLlmProvider({ recordRequests: false });
    metricsPort = await freePort();
    service = await startServiceProcess({
      DATABASE_URL: database.url,
      DATA_DIR: path.join(tmpdir(), 'careerbot-unused'),
      WEB_CONCURRENCY: '2',
      OPENAI_BASE_URL: provider.baseUrls.openai,
      METRICS_PORT: String(metricsPort),
      REGISTRATIONS_PER_ADDRESS: '1000',
    });
    // Both workers listen before the load starts.
    const deadline = Date.now() + 30_000;
    while ((service.output().match(/"msg":"listening"/g)?.length ?? 0) < 2) {
      if (Date.now() > deadline) throw new Error(`the workers did not both listen:\n${service.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }, 90_000);
  afterAll(async () => {
    if (service && service.child.exitCode === null) service.child.kill('SIGKILL');
    await provider?.close();
    await database?.drop();
  });

  it('keeps the rate limit exact: of 20 concurrent chats with 5 a minute, 5 are answered', async () => {
    const { client } = await signedInClient(service.baseUrl);
    const botId = (await client.post('/api/bots', validBot())).json.bot.id;
    await awayFromWindowEnd(MINUTE_MS, 15_000);
    await client.patch('/api/bots/settings', { rateLimits: { perMinute: 5, perDay: 1000 } });
    provider.respondWith(fakeReply.success('Ada built the first algorithm.'));
    const statuses = await Promise.all(
      Array.from({ length: 20 }, () =>
        new HttpClient(service.baseUrl).post(`/api/chat/${botId}`, { message: 'What did Ada build?' }, { 'x-llm-api-key': 'sk-cluster-0123456789' }),
      ),
    ).then((responses) => responses.map((response) => response.status));
    expect(statuses.filter((status) => status === 200)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(15);

    // The primary sums the workers' metrics.
    const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    expect(metrics).toMatch(/careerbot_http_requests_total\{method="POST",route="\/api\/chat\/:botId",status="200"\} 5\n/);
    expect(metrics).toMatch(/careerbot_http_requests_total\{method="POST",route="\/api\/chat\/:botId",status="429"\} 15\n/);
  });

  it('keeps one bot per owner when 12 first saves race', async () => {
    const owner = await signedInClient(service.baseUrl);
    const statuses = await Promise.all(Array.from({ length: 12 }, () => owner.client.post('/api/bots', validBot()))).then((responses) =>
      responses.map((response) => response.status),
    );
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status === 200)).toHaveLength(11);
    const rows = await database.db.query('SELECT count(*)::int AS n FROM bots WHERE user_id = $1', [owner.userId]);
    expect(rows.rows[0]!.n).toBe(1);
  });

  it('deduplicates 12 identical concurrent leads into one row', async () => {
    const { client } = await signedInClient(service.baseUrl);
    const botId = (await client.post('/api/bots', validBot())).json.bot.id;
    await client.patch('/api/bots/settings', { rateLimits: { perMinute: 1000, perDay: 100000 } });
    const widget = widgetClient(service.baseUrl, (await client.post('/api/bots/tokens', { name: 'Widget' })).json.token);
    const conversationId = (await widget.post('/conversations', { sessionId: randomUUID(), messages: [{ role: 'user', content: 'Hi' }] })).json.conversationId;
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => widget.post('/leads', { email: 'recruiter@example.com', conversationId })),
    );
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(1);
    expect(answers.filter((answer) => answer.status === 200 && answer.json.deduped === true)).toHaveLength(11);
    expect(new Set(answers.map((answer) => answer.json.lead.id)).size).toBe(1);
    const rows = await database.db.query('SELECT count(*)::int AS n FROM leads WHERE bot_id = $1', [botId]);
    expect(rows.rows[0]!.n).toBe(1);
  });

  it('spread the requests over both workers, and SIGTERM stops them all with exit code 0', async () => {
    const serving = pidsServing(service.output());
    expect(serving.size).toBe(2);
    service.child.kill('SIGTERM');
    expect(await service.exited).toBe(0);
    for (const pid of serving) expect(() => process.kill(pid, 0)).toThrow();
    expect(service.output()).toMatch(/"msg":"stopped"/);
  });
});

describe('WEB_CONCURRENCY=2 on the embedded PostgreSQL', () => {
  it('starts the embedded server once, in the primary; both workers serve; SIGTERM stops all of it', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'careerbot-cluster-'));
    const service = await startServiceProcess({ DATA_DIR: dataDir, WEB_CONCURRENCY: '2' });
    try {
      const deadline = Date.now() + 30_000;
      while ((service.output().match(/"msg":"listening"/g)?.length ?? 0) < 2) {
        if (Date.now() > deadline) throw new Error(`the workers did not both listen:\n${service.output()}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(service.output().match(/"msg":"embedded PostgreSQL started"/g)).toHaveLength(1);
      const primary = /"pid":(\d+)[^\n]*"msg":"embedded PostgreSQL started"/.exec(service.output())![1];
      expect(service.output()).toMatch(new RegExp(`"pid":${primary}[^\\n]*"msg":"workers started"`));
      const { client } = await signedInClient(service.baseUrl);
      expect((await client.post('/api/bots', validBot())).status).toBe(201);
    } finally {
      service.child.kill('SIGTERM');
      expect(await service.exited).toBe(0);
      await rm(dataDir, { recursive: true, force: true });
    }
    // No PostgreSQL of that data directory is left running.
    const left = await import('node:child_process').then(({ execFileSync }) => {
      try {
        return execFileSync('pgrep', ['-f', dataDir], { encoding: 'utf8' });
      } catch {
        return '';
      }
    });
    expect(left).toBe('');
  }, 90_000);
});
