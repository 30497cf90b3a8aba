import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeLlmProvider, fakeReply, signedInClient, startFakeLlmProvider, validBot } from '@careerbot/testkit';
import { httpsCall, nginxAvailable, startNginx } from '../support/nginx.ts';
import { startServiceProcess } from '../support/service-process.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';

const KEY = 'sk-drain-0123456789abcdef';

/** A raw keep-alive socket: what a proxy's upstream pool holds. */
const rawSocket = async (port: number) => {
  const socket = net.connect(port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
  const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now())));
  socket.on('error', () => undefined);
  return { socket, received: () => received, closed };
};

const waitFor = async (what: string, check: () => boolean, timeoutMs = 10_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

const chatRequest = (botId: string) => {
  const body = JSON.stringify({ message: 'What did Ada build?' });
  return `POST /api/chat/${botId} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nx-llm-api-key: ${KEY}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
};

describe('SIGTERM drains the server', () => {
  let database: TestDatabase;
  let provider: FakeLlmProvider;
  beforeAll(async () => {
    database = await createTestDatabase();
    provider = await startFakeLlmProvider({ recordRequests: false });
  });
  afterAll(async () => {
    await provider?.close();
    await database?.drop();
  });

  it('answers in-flight and arriving requests with Connection: close, leaves idle sockets to their client, and exits when the last request ends', async () => {
    const service = await startServiceProcess({
      DATABASE_URL: database.url,
      DATA_DIR: path.join(tmpdir(), 'careerbot-unused'),
      OPENAI_BASE_URL: provider.baseUrls.openai,
      LLM_TIMEOUT_MS: '20000',
      SHUTDOWN_TIMEOUT_MS: '60000',
    });
    try {
      const { client } = await signedInClient(service.baseUrl);
      const botId = (await client.post('/api/bots', validBot())).json.bot.id as string;
      const port = Number(new URL(service.baseUrl).port);

      // An idle keep-alive socket, as nginx's upstream pool keeps.
      const idle = await rawSocket(port);
      idle.socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      await waitFor('the first answer', () => idle.received().includes('\r\n\r\n'));
      expect(idle.received()).toMatch(/connection: keep-alive/i);

      // A chat in flight when the signal comes, and a request half sent.
      provider.respondWith(fakeReply.delayed(1_500, fakeReply.success('Ada built the first algorithm.')));
      const chat = await rawSocket(port);
      chat.socket.write(chatRequest(botId));
      const arriving = await rawSocket(port);
      arriving.socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n');
      await new Promise((resolve) => setTimeout(resolve, 300));

      const signalled = Date.now();
      service.child.kill('SIGTERM');
      // The idle socket is left open: closing it would race with a request its client (a proxy's
      // pool) sends on it that instant, which a proxy does not resend. A request on it is answered,
      // with Connection: close, and the socket closes after the answer.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(idle.socket.destroyed).toBe(false);
      idle.socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      await idle.closed;
      const lastAnswer = idle.received().slice(idle.received().lastIndexOf('HTTP/1.1 '));
      expect(lastAnswer).toMatch(/^HTTP\/1\.1 200/);
      expect(lastAnswer).toMatch(/\r\nconnection: close\r\n/i);
      // The half-sent request, completed after the signal, is answered, with Connection: close.
      arriving.socket.write('\r\n');
      await arriving.closed;
      expect(arriving.received()).toMatch(/^HTTP\/1\.1 200/);
      expect(arriving.received()).toMatch(/\r\nconnection: close\r\n/i);
      // The chat is answered whole, with Connection: close, and its socket closes.
      const chatClosed = await chat.closed;
      expect(chat.received()).toMatch(/^HTTP\/1\.1 200/);
      expect(chat.received()).toMatch(/\r\nconnection: close\r\n/i);
      expect(chat.received()).toContain('Ada built the first algorithm.');
      // The process ends once the last socket has closed (an idle one at Node's 5 s keep-alive
      // timeout at the latest), long before the 60 s backstop.
      expect(await service.exited).toBe(0);
      expect(Date.now() - chatClosed).toBeLessThan(6_000);
      expect(Date.now() - signalled).toBeLessThan(9_000);
    } finally {
      if (service.child.exitCode === null) service.child.kill('SIGKILL');
    }
  }, 60_000);

  it('SHUTDOWN_TIMEOUT_MS is configurable and must be longer than LLM_TIMEOUT_MS', async () => {
    const { parseConfig } = await import('../../src/adapters/config.ts');
    const defaults = parseConfig({ LLM_TIMEOUT_MS: '30000' });
    expect(defaults.ok && defaults.config.SHUTDOWN_TIMEOUT_MS).toBe(45_000);
    const set = parseConfig({ LLM_TIMEOUT_MS: '30000', SHUTDOWN_TIMEOUT_MS: '40000' });
    expect(set.ok && set.config.SHUTDOWN_TIMEOUT_MS).toBe(40_000);
    const tooShort = parseConfig({ LLM_TIMEOUT_MS: '30000', SHUTDOWN_TIMEOUT_MS: '20000' });
    expect(tooShort.ok).toBe(false);
    expect(!tooShort.ok && tooShort.message).toMatch(/SHUTDOWN_TIMEOUT_MS: must be longer than LLM_TIMEOUT_MS/);
  });

  it.runIf(nginxAvailable())('through nginx, under a steady load, a restart of one of two workers fails no request', async () => {
    const service = await startServiceProcess({
      DATABASE_URL: database.url,
      DATA_DIR: path.join(tmpdir(), 'careerbot-unused'),
      WEB_CONCURRENCY: '2',
      OPENAI_BASE_URL: provider.baseUrls.openai,
      TRUST_PROXY: 'loopback',
      REGISTRATIONS_PER_ADDRESS: '1000',
    });
    const proxy = await startNginx(Number(new URL(service.baseUrl).port));
    try {
      await waitFor('both workers', () => (service.output().match(/"msg":"listening"/g)?.length ?? 0) >= 2, 30_000);
      const { client } = await signedInClient(service.baseUrl);
      const botId = (await client.post('/api/bots', validBot())).json.bot.id as string;
      expect((await client.patch('/api/bots/settings', { rateLimits: { perMinute: 1000, perDay: 100000 } })).status).toBe(200);
      provider.respondWith(fakeReply.delayed(200, fakeReply.success('Ada built the first algorithm.')));
      const workerPids = [...service.output().matchAll(/"pid":(\d+)[^\n]*"msg":"listening"/g)].map((match) => Number(match[1]));

      let running = true;
      const outcomes: string[] = [];
      const loop = async (kind: 'chat' | 'read') => {
        while (running) {
          const answer = await (kind === 'chat'
            ? httpsCall(`${proxy.httpsUrl}/api/chat/${botId}`, {
                method: 'POST',
                headers: { 'content-type': 'application/json', 'x-llm-api-key': KEY },
                body: JSON.stringify({ message: 'What did Ada build?' }),
              })
            : httpsCall(`${proxy.httpsUrl}/api/bots/${botId}/public`)
          ).then(
            (response) => String(response.status),
            (error: Error) => `error ${error.message}`,
          );
          outcomes.push(answer);
        }
      };
      const loops = [...Array.from({ length: 4 }, () => loop('chat')), ...Array.from({ length: 4 }, () => loop('read'))];
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      process.kill(workerPids[0]!, 'SIGTERM');
      await waitFor('a replacement worker', () => (service.output().match(/"msg":"listening"/g)?.length ?? 0) >= 3, 30_000);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      running = false;
      await Promise.all(loops);
      expect(outcomes.length).toBeGreaterThan(50);
      expect(outcomes.filter((outcome) => outcome !== '200')).toEqual([]);
      expect(service.output()).toMatch(new RegExp(`"pid":${workerPids[0]}[^\\n]*"msg":"stopped"`));
    } finally {
      await proxy.stop();
      service.child.kill('SIGTERM');
      await service.exited;
    }
  }, 90_000);
});
