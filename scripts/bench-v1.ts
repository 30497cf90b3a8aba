/**
 * npm run bench:v1 — throughput of the bot runtime API against a bare Express JSON echo,
 * in one run on this machine:
 *
 * - conversation saves (POST /api/v1/bot/conversations), each a real insert: a new
 *   session, spread over many bots (each with its own token and limits at the maximum);
 * - config reads (GET /api/v1/bot/config), rotating over the same tokens;
 * - the echo: an Express app with one POST route answering the JSON it was sent.
 *
 * The service is the real one (createService from src/main.ts, request logging included,
 * to a discarding stream) over a real PostgreSQL: TEST_DATABASE_URL or DATABASE_URL when set
 * (a scratch database is created on that server and dropped afterwards), else an embedded
 * one in a temporary directory.
 *
 * Two rounds: autocannon in-process on the servers' event loop (the targets are judged on
 * this one), then autocannon in a worker thread, so the servers' thread only serves. Every
 * PostgreSQL round trip is a loopback TCP write on the servers' thread, so the second round
 * shows the cost of the round trips without the client's share diluting it.
 *
 * It also times knowledge retrieval inside the service, beyond the query-embedding call:
 * the RetrieveKnowledge use case over a 50,000-character context with a warm cache, the
 * gateway answering instantly with 1,536-dimension vectors.
 *
 * Prints requests/s, p50 and p99 per phase, the ratios, and PASS/FAIL per target. Exits 1
 * when a target fails or the run is invalid (any non-2xx answer while measuring).
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import autocannon from 'autocannon';
import express from 'express';
import pg from 'pg';
import { parseConfig } from '../src/adapters/config.ts';
import { createLogger } from '../src/adapters/logger.ts';
import { Db, migrate } from '../src/adapters/persistence/db.ts';
import { startEmbeddedPostgres } from '../src/adapters/persistence/embedded-postgres.ts';
import { EmbeddingMemo, MemoizedEmbeddingCache } from '../src/adapters/persistence/memoized-embedding-cache.ts';
import { PgBotRepository } from '../src/adapters/persistence/pg-bot-repository.ts';
import { PgEmbeddingCache } from '../src/adapters/persistence/pg-embedding-cache.ts';
import type { EmbeddingGateway, RateLimiter } from '../src/application/ports.ts';
import { makeRetrieveKnowledge } from '../src/application/retrieve-knowledge.ts';
import { chunkText } from '../src/domain/chunking.ts';
import { createService } from '../src/main.ts';

const TARGETS = { conversationSaves: 0.15, configReads: 0.4, knowledgeP99Ms: 5 };

/** Sized for a 2-core machine. */
const CONNECTIONS = 10;
const WARMUP_SECONDS = 2;
const MEASURE_SECONDS = 6;
/** Each bot admits at most 1,000 saves a minute (the settings maximum): spread the load. */
const BOTS = 40;
const KNOWLEDGE_RUNS = 500;
const EMBEDDING_DIMENSIONS = 1_536;

const TRANSCRIPT = [
  { role: 'user', content: 'Hi! Which languages does Ada use at work?' },
  { role: 'assistant', content: 'Mostly Rust and TypeScript, with some Python for data work.' },
];

// ---------------------------------------------------------------- database

interface BenchDatabase {
  url: string;
  drop(): Promise<void>;
}

const onServer = (serverUrl: string, database: string) => {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
};

const adminQuery = async (serverUrl: string, sql: string) => {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
};

/** A scratch database on the given server, or on an embedded one; migrated. */
const openDatabase = async (): Promise<BenchDatabase & { kind: string }> => {
  const given = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL;
  const name = `careerbot_bench_${process.pid}`;
  if (given) {
    await adminQuery(given, `CREATE DATABASE ${name}`);
    const url = onServer(given, name);
    await migrate(url);
    return { kind: 'given server', url, drop: () => adminQuery(given, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
  }
  const dataDir = await mkdtemp(path.join(tmpdir(), 'careerbot-bench-pg-'));
  const embedded = await startEmbeddedPostgres({ dataDir, persistent: false, ownSignalHandling: false });
  await adminQuery(embedded.url, `CREATE DATABASE ${name}`);
  const url = onServer(embedded.url, name);
  await migrate(url);
  return {
    kind: 'embedded',
    url,
    drop: async () => {
      await embedded.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
};

// ---------------------------------------------------------------- servers

const listen = async (app: express.Express): Promise<{ server: Server; url: string }> => {
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
};

const close = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

const echoApp = () => {
  const app = express();
  app.use(express.json({ limit: '1mb' }));
  app.post('/echo', (req, res) => {
    res.json(req.body);
  });
  return app;
};

// ---------------------------------------------------------------- owners, bots and tokens, through the API

/** fetch that keeps the session cookies of one owner. */
const ownerSession = (baseUrl: string) => {
  const cookies = new Map<string, string>();
  return async (method: string, pathname: string, json?: unknown) => {
    const response = await fetch(`${baseUrl}${pathname}`, {
      method,
      headers: {
        ...(json === undefined ? {} : { 'content-type': 'application/json' }),
        cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
      },
      body: json === undefined ? undefined : JSON.stringify(json),
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const index = pair!.indexOf('=');
      cookies.set(pair!.slice(0, index), pair!.slice(index + 1));
    }
    const text = await response.text();
    return { status: response.status, json: text ? JSON.parse(text) : undefined };
  };
};

const expectStatus = (step: string, actual: number, expected: number) => {
  if (actual !== expected) throw new Error(`${step}: expected ${expected}, got ${actual}`);
};

/** Registers an owner, saves a bot with the highest limits and mints a token for it. */
const createBot = async (baseUrl: string, index: number, contextText: string) => {
  const call = ownerSession(baseUrl);
  const username = `bench${index}_${randomUUID().slice(0, 8)}`;
  const email = `${username}@bench.example`;
  const password = 'correct horse battery';
  expectStatus('register', (await call('POST', '/api/auth/register', { username, email, password })).status, 201);
  const { json: csrf } = await call('GET', '/api/auth/csrf');
  expectStatus('sign in', (await call('POST', '/api/auth/callback/credentials', { csrfToken: csrf.csrfToken, email, password })).status, 200);
  const saved = await call('POST', '/api/bots', {
    name: `Bench Bot ${index}`,
    personality: 'professional',
    contextText,
    suggestedQuestions: ['What do you build?'],
    llmProvider: 'openai',
  });
  expectStatus('save bot', saved.status, 201);
  expectStatus('settings', (await call('PATCH', '/api/bots/settings', { rateLimits: { perMinute: 1_000, perDay: 100_000 } })).status, 200);
  const minted = await call('POST', '/api/bots/tokens', { name: 'bench' });
  expectStatus('mint token', minted.status, 201);
  return { botId: saved.json.bot.id as string, token: minted.json.token as string };
};

const inBatches = async <T>(count: number, batch: number, make: (i: number) => Promise<T>): Promise<T[]> => {
  const results: T[] = [];
  for (let start = 0; start < count; start += batch) {
    results.push(...(await Promise.all(Array.from({ length: Math.min(batch, count - start) }, (_, i) => make(start + i)))));
  }
  return results;
};

// ---------------------------------------------------------------- load generator

type Phase = 'echo' | 'config' | 'conversations';

/**
 * Where autocannon runs. `event-loop`: in this thread, beside the servers, as an in-process
 * benchmark does (the targets are judged on it). `worker`: in a worker thread, so the
 * servers' thread does nothing but serve; shown for information.
 */
type Placement = 'event-loop' | 'worker';

interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  total: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
}

/**
 * Builds each request as it is sent: the next token in turn, a new session id. Kept as
 * source text, because the worker runs the very same code.
 */
const REQUEST_BUILDER = `(phase, tokens, transcript, newId) => {
  let turn = 0;
  const nextToken = () => tokens[turn++ % tokens.length];
  const json = { 'content-type': 'application/json' };
  if (phase === 'echo') {
    return () => ({ method: 'POST', path: '/echo', headers: json, body: JSON.stringify({ sessionId: newId(), messages: transcript }) });
  }
  if (phase === 'config') {
    return () => ({ method: 'GET', path: '/api/v1/bot/config', headers: { authorization: 'Bearer ' + nextToken() } });
  }
  return () => ({
    method: 'POST',
    path: '/api/v1/bot/conversations',
    headers: { ...json, authorization: 'Bearer ' + nextToken() },
    body: JSON.stringify({ sessionId: newId(), messages: transcript }),
  });
}`;

const requestBuilder = new Function(`return ${REQUEST_BUILDER}`)() as (
  phase: Phase,
  tokens: string[],
  transcript: unknown,
  newId: () => string,
) => () => { method: 'GET' | 'POST'; path: string; headers: Record<string, string>; body?: string };

/** The figures kept from autocannon's result (source text: the worker uses it too). */
const SUMMARISE = `(result, duration) => {
  const statusCodes = {};
  for (const [code, { count }] of Object.entries(result.statusCodeStats || {})) statusCodes[code] = Number(count);
  return {
    rps: result.requests.total / duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes,
  };
}`;

const summarise = new Function(`return ${SUMMARISE}`)() as (result: autocannon.Result, duration: number) => LoadResult;

const autocannonPath = createRequire(import.meta.url).resolve('autocannon');

/** Plain CommonJS, evaluated in a worker: autocannon, the request builder and the data passed in. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { randomUUID } = require('node:crypto');
const autocannon = require(workerData.autocannonPath);
const requestBuilder = ${REQUEST_BUILDER};
const summarise = ${SUMMARISE};
const { url, phase, tokens, transcript, connections, duration } = workerData;
const build = requestBuilder(phase, tokens, transcript, randomUUID);
autocannon({ url, connections, duration, requests: [{ setupRequest: (request) => ({ ...request, ...build() }) }] }, (error, raw) =>
  // Outside the main thread autocannon leaves its histograms encoded.
  parentPort.postMessage(error ? { error: String(error) } : summarise(autocannon.aggregateResult([raw], { url, connections }), duration)),
);
`;

const loadInWorker = (url: string, phase: Phase, tokens: string[], duration: number) =>
  new Promise<LoadResult>((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { autocannonPath, url, phase, tokens, transcript: TRANSCRIPT, connections: CONNECTIONS, duration },
    });
    worker.once('message', (message: LoadResult | { error: string }) => {
      void worker.terminate();
      if ('error' in message) reject(new Error(message.error));
      else resolve(message);
    });
    worker.once('error', reject);
  });

const loadOnEventLoop = async (url: string, phase: Phase, tokens: string[], duration: number): Promise<LoadResult> => {
  const build = requestBuilder(phase, tokens, TRANSCRIPT, randomUUID);
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration,
    requests: [{ setupRequest: (request) => ({ ...request, ...build() }) as typeof request }],
  });
  return summarise(result, duration);
};

const measure = async (placement: Placement, url: string, phase: Phase, tokens: string[]) => {
  const load = placement === 'worker' ? loadInWorker : loadOnEventLoop;
  await load(url, phase, tokens, WARMUP_SECONDS);
  return load(url, phase, tokens, MEASURE_SECONDS);
};

// ---------------------------------------------------------------- knowledge retrieval in the service

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

/** A career context of exactly 50,000 characters: paragraphs of varied sentences. */
const longContext = () => {
  const topics = ['Rust compilers', 'Kubernetes migrations', 'payment platforms', 'mentoring engineers', 'open source', 'data pipelines', 'incident response', 'API design'];
  let text = '';
  for (let i = 0; text.length < 50_000; i += 1) {
    const topic = topics[i % topics.length]!;
    text += `In project ${i}, Ada worked on ${topic} for ${1 + (i % 5)} years. She led a team of ${3 + (i % 7)} people and shipped ${i % 4 === 0 ? 'a major release' : 'steady improvements'}. `;
    if (i % 6 === 5) text += '\n\n';
  }
  return text.slice(0, 50_000).trim();
};

const unitVector = (text: string) => {
  let seed = 0;
  for (let i = 0; i < text.length; i += 1) seed = (seed * 31 + text.charCodeAt(i)) | 0;
  const vector = Array.from({ length: EMBEDDING_DIMENSIONS }, () => ((seed = (seed * 1_103_515_245 + 12_345) | 0) % 1000) / 1000);
  const norm = Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0)) || 1;
  return vector.map((value) => value / norm);
};

/**
 * Deterministic unit vectors, computed once per text and then answered at once: the
 * provider's time is not part of the figure.
 */
const instantGateway = (): EmbeddingGateway & { texts: number } => {
  const known = new Map<string, number[]>();
  const gateway = {
    model: 'text-embedding-3-small',
    texts: 0,
    embed: async (_apiKey: string, texts: string[]) => {
      gateway.texts += texts.length;
      return {
        ok: true as const,
        vectors: texts.map((text) => {
          if (!known.has(text)) known.set(text, unitVector(text));
          return known.get(text)!;
        }),
      };
    },
  };
  return gateway;
};

const QUERIES = ['Which Rust compilers did Ada work on?', 'Tell me about Kubernetes migrations', 'Has she mentored engineers?', 'What about incident response?'];

/** Times RetrieveKnowledge over the PostgreSQL cache with the process memo, as main.ts composes it. */
const timeKnowledge = async (db: Db, botId: string) => {
  const bot = (await new PgBotRepository(db).findById(botId))!;
  const gateway = instantGateway();
  const allowAll: RateLimiter = { consume: async () => ({ allowed: true }) };
  const clock = { now: () => new Date() };
  for (const query of QUERIES) await gateway.embed('', [query]); // the gateway knows its answers beforehand
  const run = async (memo: EmbeddingMemo, runs: number) => {
    const retrieve = makeRetrieveKnowledge({
      limiter: allowAll,
      gateway,
      cache: new MemoizedEmbeddingCache(new PgEmbeddingCache(db), memo),
      clock,
    });
    const times: number[] = [];
    for (let i = 0; i < runs; i += 1) {
      const started = performance.now();
      const result = await retrieve({ bot, query: QUERIES[i % QUERIES.length]!, embeddingApiKey: 'sk-bench' });
      times.push(performance.now() - started);
      if (!result.ok || result.value.mode !== 'retrieval') throw new Error('retrieval failed');
    }
    return times.sort((a, b) => a - b);
  };

  const memo = new EmbeddingMemo();
  await run(memo, 1); // embeds and caches every chunk
  const textsBefore = gateway.texts;
  await run(memo, 50); // warm-up of the code paths
  const warm = await run(memo, KNOWLEDGE_RUNS);
  if (gateway.texts - textsBefore !== KNOWLEDGE_RUNS + 50) throw new Error('a warm retrieval embedded more than its query');
  const fromDatabase = await run(new EmbeddingMemo(0), 30); // no memo: every vector read back from PostgreSQL
  return {
    chunks: chunkText(bot.contextText).length,
    contextChars: bot.contextText.length,
    warm: { p50: percentile(warm, 50), p99: percentile(warm, 99) },
    fromDatabase: { p50: percentile(fromDatabase, 50), p99: percentile(fromDatabase, 99) },
  };
};

// ---------------------------------------------------------------- report

const fixed = (value: number, digits = 1) => value.toFixed(digits);

const row = (label: string, result: LoadResult) =>
  `    ${label.padEnd(20)} ${fixed(result.rps, 0).padStart(6)} req/s   p50 ${fixed(result.p50, 1).padStart(5)} ms   p99 ${fixed(result.p99, 1).padStart(5)} ms   ${String(result.total).padStart(6)} requests, non-2xx ${result.non2xx}, errors ${result.errors + result.timeouts}`;

const percent = (ratio: number) => `${fixed(ratio * 100)} %`;

interface Round {
  placement: Placement;
  echo: LoadResult;
  config: LoadResult;
  saves: LoadResult;
}

const runRound = async (placement: Placement, urls: { api: string; echo: string }, tokens: string[]): Promise<Round> => ({
  placement,
  echo: await measure(placement, urls.echo, 'echo', tokens),
  config: await measure(placement, urls.api, 'config', tokens),
  saves: await measure(placement, urls.api, 'conversations', tokens),
});

const isValid = (round: Round) => [round.config, round.saves].every((result) => result.non2xx === 0 && result.errors === 0 && result.timeouts === 0);

const printRound = (round: Round, title: string) => {
  console.log(`\n  ${title}`);
  console.log(row('echo (bare Express)', round.echo));
  console.log(row('config reads', round.config));
  console.log(row('conversation saves', round.saves));
  console.log(`    status codes: config ${JSON.stringify(round.config.statusCodes)}, saves ${JSON.stringify(round.saves.statusCodes)}`);
  console.log(
    `    ratios to the echo: config reads ${percent(round.config.rps / round.echo.rps)}, conversation saves ${percent(round.saves.rps / round.echo.rps)}`,
  );
  if (!isValid(round)) console.log('    INVALID: non-2xx answers, errors or timeouts while measuring (see the status codes)');
};

const verdict = (pass: boolean) => (pass ? 'PASS' : 'FAIL');

const main = async () => {
  const started = Date.now();
  console.log('bench:v1 — preparing PostgreSQL …');
  const database = await openDatabase();
  const db = new Db({ connectionString: database.url, max: 10 });
  const parsed = parseConfig({ NODE_ENV: 'test', LOG_LEVEL: 'info' });
  if (!parsed.ok) throw new Error(parsed.message);
  const discard = new Writable({ write: (_chunk, _encoding, done) => done() });
  const service = await createService({
    config: parsed.config,
    db,
    logger: createLogger('info', discard),
    sessionSecret: randomUUID() + randomUUID(),
  });
  const api = await listen(service.app);
  const echo = await listen(echoApp());

  try {
    console.log(`  PostgreSQL: ${database.kind}; creating ${BOTS} owners, bots and tokens through the API …`);
    const context = longContext();
    const bots = await inBatches(BOTS, 4, (i) => createBot(api.url, i, i === 0 ? context : 'Ada builds reliable systems in Rust.'));
    const tokens = bots.map((bot) => bot.token);
    const urls = { api: api.url, echo: echo.url };

    console.log(`  load: ${CONNECTIONS} connections, ${WARMUP_SECONDS} s warm-up + ${MEASURE_SECONDS} s per phase, two rounds`);
    const onEventLoop = await runRound('event-loop', urls, tokens);
    const inWorker = await runRound('worker', urls, tokens);
    const { rows } = await db.query<{ conversations: number; messages: number }>(
      'SELECT count(*)::int AS conversations, (SELECT count(*)::int FROM conversation_messages) AS messages FROM conversations',
    );

    console.log('  timing knowledge retrieval in the service …');
    const knowledge = await timeKnowledge(db, bots[0]!.botId);

    console.log('\nThroughput, same run, same machine (requests/s; latency p50 and p99)');
    printRound(onEventLoop, 'Round 1: autocannon in-process on the event loop, beside the servers (targets judged here)');
    printRound(inWorker, 'Round 2: autocannon in a worker thread, the servers’ thread only serving (for information)');
    console.log(`\n  stored: ${rows[0]!.conversations} conversations, ${rows[0]!.messages} messages (every save a new session, warm-ups included)`);

    console.log(
      `\nKnowledge retrieval in the service, beyond the query-embedding call (${knowledge.contextChars} characters, ${knowledge.chunks} chunks, ${EMBEDDING_DIMENSIONS} dimensions)`,
    );
    console.log(`    warm cache (memo over PostgreSQL, as served): p50 ${fixed(knowledge.warm.p50, 2)} ms, p99 ${fixed(knowledge.warm.p99, 2)} ms over ${KNOWLEDGE_RUNS} queries`);
    console.log(`    vectors read back from PostgreSQL every time (a fresh instance): p50 ${fixed(knowledge.fromDatabase.p50, 1)} ms, p99 ${fixed(knowledge.fromDatabase.p99, 1)} ms`);

    const savesRatio = onEventLoop.saves.rps / onEventLoop.echo.rps;
    const configRatio = onEventLoop.config.rps / onEventLoop.echo.rps;
    const checks = [
      { name: `conversation saves >= ${TARGETS.conversationSaves * 100} % of the echo (${percent(savesRatio)})`, pass: isValid(onEventLoop) && savesRatio >= TARGETS.conversationSaves },
      { name: `config reads >= ${TARGETS.configReads * 100} % of the echo (${percent(configRatio)})`, pass: isValid(onEventLoop) && configRatio >= TARGETS.configReads },
      { name: `knowledge retrieval in the service, p99 <= ${TARGETS.knowledgeP99Ms} ms (${fixed(knowledge.warm.p99, 2)} ms)`, pass: knowledge.warm.p99 <= TARGETS.knowledgeP99Ms },
      { name: 'every measured config read and save answered 2xx (both rounds)', pass: isValid(onEventLoop) && isValid(inWorker) },
    ];
    console.log('\nSummary');
    for (const check of checks) console.log(`  ${verdict(check.pass)}  ${check.name}`);
    console.log(`  (${fixed((Date.now() - started) / 1000)} s in all)`);
    return checks.every((check) => check.pass) ? 0 : 1;
  } finally {
    await close(api.server);
    await close(echo.server);
    await service.close();
    await db.close();
    await database.drop();
  }
};

// Explicit exit: it also ends the run should anything still hold the event loop open.
main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error('bench:v1 failed:', error);
    process.exit(1);
  },
);
