import { randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type autocannon from 'autocannon';
import { signedInClient, validBot } from '../test/support/http-client.ts';
import { benchDatabase, cleanUp, freePorts, measure, printTable, spawnTs, verdict, waitForHttp } from './support/bench-kit.ts';

// npm run bench:chat — the real service (own process, real OpenAI SDK adapter) against an
// instant fake provider (own process), and a bare Express JSON echo, in one run.
// Compare the ratio, not the absolute figures: these machines are shared and noisy.

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 8);
const BOTS = 64; // each bot admits at most 1,000 chats a minute, its maximum override
const MESSAGE = JSON.stringify({ message: 'What did Ada build, and which languages does she use day to day?' });

try {
  const databaseUrl = await benchDatabase();
  const providerUrls = await new Promise<{ openai: string }>((resolve) =>
    spawnTs('scripts/support/fake-provider-process.ts', {}, (line) => resolve(JSON.parse(line))),
  );
  const [servicePort, echoPort] = await freePorts(2);
  const service = `http://127.0.0.1:${servicePort}`;
  const echo = `http://127.0.0.1:${echoPort}`;
  spawnTs('src/main.ts', {
    DATABASE_URL: databaseUrl,
    PORT: String(servicePort),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info', // request logs on, as in production (written to /dev/null here)
    DATA_DIR: await mkdtemp(path.join(tmpdir(), 'careerbot-bench-data-')),
    OPENAI_BASE_URL: providerUrls.openai,
  });
  spawnTs('scripts/support/echo-server.ts', { PORT: String(echoPort) });
  await Promise.all([waitForHttp(`${service}/readyz`), waitForHttp(`${echo}/echo`)]);

  console.log(`Seeding ${BOTS} bots…`);
  const botIds: string[] = [];
  for (let batch = 0; batch < BOTS; batch += 8) {
    const created = await Promise.all(
      Array.from({ length: 8 }, async () => {
        const { client } = await signedInClient(service, `bench${randomBytes(5).toString('hex')}`);
        const bot = await client.post('/api/bots', validBot({ llmProvider: 'openai' }));
        await client.patch('/api/bots/settings', { rateLimits: { perMinute: 1_000, perDay: 100_000 } });
        return bot.json.bot.id as string;
      }),
    );
    botIds.push(...created);
  }

  let next = 0;
  const chatOptions = (duration: number): autocannon.Options => ({
    url: service,
    connections: CONNECTIONS,
    duration,
    requests: [
      {
        method: 'POST' as const,
        headers: { 'content-type': 'application/json', 'x-llm-api-key': 'sk-bench-not-a-real-key' },
        body: MESSAGE,
        setupRequest: (request) => ({ ...request, path: `/api/chat/${botIds[next++ % botIds.length]}` }),
      },
    ],
  });
  const echoOptions = (duration: number): autocannon.Options => ({
    url: `${echo}/echo`,
    connections: CONNECTIONS,
    duration,
    method: 'POST' as const,
    headers: { 'content-type': 'application/json' },
    body: MESSAGE,
  });

  console.log('Warming up…');
  await measure('warm-up echo', echoOptions(2));
  await measure('warm-up chat', chatOptions(2));

  const bare = await measure(`bare echo (${CONNECTIONS} conn)`, echoOptions(DURATION_S));
  const health = await measure(`service GET /healthz`, { url: `${service}/healthz`, connections: CONNECTIONS, duration: 3 });
  const chat = await measure(`chat (${CONNECTIONS} conn)`, chatOptions(DURATION_S));
  printTable([bare, health, chat]);

  const ratio = chat.requestsPerSecond / bare.requestsPerSecond;
  const valid = chat.non2xx === 0 && chat.errors === 0;
  console.log(`\nchat / echo throughput: ${(ratio * 100).toFixed(1)} %   (target ≥ 20 %)  ${verdict(ratio >= 0.2)}`);
  console.log(`chat p99: ${chat.p99} ms   (target ≤ 50 ms at 32 connections)  ${verdict(chat.p99 <= 50)}`);
  if (!valid) console.log(`INVALID RUN: ${chat.non2xx} non-2xx answers and ${chat.errors} errors during the chat phase`);
} finally {
  await cleanUp();
}
