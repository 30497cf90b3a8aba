/**
 * npm run bench:v1 — throughput of the bot runtime API against a bare Express JSON echo,
 * in one run on this machine:
 *
 * - config reads (GET /api/v1/bot/config), rotating over many bots' tokens;
 * - conversation saves (POST /api/v1/bot/conversations), each a real insert: a new session,
 *   spread over the same bots, each with its limits at the settings maximum;
 * - the echo (scripts/bench/support/echo-server.ts) answering the very body a save sends.
 *
 * Each server runs in its own process: the service is src/main.ts as `npm start` runs it
 * (request logs on, written to /dev/null) over a fresh database from benchDatabase(), the
 * echo is a bare Express app; autocannon runs in this process. The machine is shared and
 * noisy, so after a warm-up of each phase the phases alternate (echo, config, saves) for
 * ROUNDS rounds, every round is printed, and the targets are judged on each phase's median.
 *
 * It also times knowledge retrieval inside the service, beyond the query-embedding call:
 * the RetrieveKnowledge use case, in this process, over the same PostgreSQL and a
 * 50,000-character context with a warm cache, the gateway answering instantly with
 * 1,536-dimension vectors.
 *
 * Exits 1 when a target fails, when the run is invalid (any non-2xx answer or error in any
 * phase), when a server stops, or when the run overruns its time budget.
 */
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import type autocannon from 'autocannon';
import { Db } from '../../src/adapters/persistence/db.ts';
import { EmbeddingMemo, MemoizedEmbeddingCache } from '../../src/adapters/persistence/memoized-embedding-cache.ts';
import { PgBotRepository } from '../../src/adapters/persistence/pg-bot-repository.ts';
import { PgEmbeddingCache } from '../../src/adapters/persistence/pg-embedding-cache.ts';
import type { EmbeddingGateway, RateLimiter } from '../../src/application/ports.ts';
import { makeRetrieveKnowledge } from '../../src/application/retrieve-knowledge.ts';
import { chunkText } from '../../src/domain/chunking.ts';
import { benchDatabase, cleanUp } from '../support/processes.ts';
import { inBatches, measure, median, printTable, seedBot, startServiceAndEcho, verdict, type Measurement } from './support/bench-kit.ts';

const TARGETS = { configReads: 0.4, conversationSaves: 0.2, knowledgeP99Ms: 5 };

/** Sized for a 2-core machine. */
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const WARMUP_S = 2;
/** Short phases, many rounds: the machine's speed drifts within a run, and a median of six resists it. */
const DURATION_S = Number(process.env.BENCH_DURATION ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
/** Each bot admits at most 1,000 saves a minute (the settings maximum): spread the load. */
const BOTS = 48;
const KNOWLEDGE_RUNS = 500;
const EMBEDDING_DIMENSIONS = 1_536;
/** The whole run, set-up included (about 80 s here); past it the run stops and fails. */
const TIME_BUDGET_MS = 120_000;

const TRANSCRIPT = [
  { role: 'user', content: 'Hi! Which languages does Ada use at work?' },
  { role: 'assistant', content: 'Mostly Rust and TypeScript, with some Python for data work.' },
];

// ---------------------------------------------------------------- bots and tokens, through the API

/** An owner with a saved bot, the highest limits, and a token for it. */
const seedBotWithToken = async (service: string, contextText: string) => {
  const { client, botId } = await seedBot(service, { contextText });
  const minted = await client.post('/api/bots/tokens', { name: 'bench' });
  if (minted.status !== 201) throw new Error(`minting a token: ${minted.status}`);
  return { botId, token: minted.json.token as string };
};

// ---------------------------------------------------------------- load

type Phase = 'echo' | 'config' | 'saves';
const PHASES: Phase[] = ['echo', 'config', 'saves'];

/** The body of a save: a new session every time, so every save inserts a conversation. */
const saveBody = () => JSON.stringify({ sessionId: randomUUID(), messages: TRANSCRIPT });

/** autocannon options for one phase: each request built as it is sent, tokens in turn. */
const phaseOptions = (phase: Phase, urls: { service: string; echo: string }, tokens: string[], duration: number): autocannon.Options => {
  let turn = 0;
  const bearer = () => `Bearer ${tokens[turn++ % tokens.length]}`;
  const next = (): autocannon.Request => {
    switch (phase) {
      case 'echo':
        return { method: 'POST', path: '/echo', headers: { 'content-type': 'application/json' }, body: saveBody() };
      case 'config':
        return { method: 'GET', path: '/api/v1/bot/config', headers: { authorization: bearer() } };
      case 'saves':
        return {
          method: 'POST',
          path: '/api/v1/bot/conversations',
          headers: { 'content-type': 'application/json', authorization: bearer() },
          body: saveBody(),
        };
    }
  };
  return {
    url: phase === 'echo' ? urls.echo : urls.service,
    connections: CONNECTIONS,
    duration,
    requests: [{ setupRequest: (request) => ({ ...request, ...next() }) }],
  };
};

const LABELS: Record<Phase, string> = { echo: 'echo (bare Express)', config: 'config reads', saves: 'conversation saves' };

const isClean = (m: Measurement) => m.non2xx === 0 && m.errors === 0;

// ---------------------------------------------------------------- stopping

let stopped: Promise<void> | null = null;

/** Stops the servers and drops the database, once. */
const stop = () => (stopped ??= cleanUp());

/** Ends the run at once, failed, whatever it was doing. */
const abort = (reason: string) => {
  if (stopped) return;
  console.error(`bench:v1: ${reason}; stopping`);
  void stop().finally(() => process.exit(1));
};

/** A server that stops before the run ends makes every later figure meaningless. */
const mustStayUp = (child: ChildProcess, name: string) =>
  child.once('exit', (code, signal) => {
    if (!stopped) abort(`the ${name} process stopped during the run (${signal ?? `exit code ${code}`})`);
  });

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
const percent = (ratio: number) => `${fixed(ratio * 100)} %`;

const main = async (): Promise<number> => {
  const started = Date.now();
  console.log('bench:v1 — preparing PostgreSQL …');
  const databaseUrl = await benchDatabase();
  const { urls, processes } = await startServiceAndEcho(databaseUrl);
  mustStayUp(processes.service, 'service');
  mustStayUp(processes.echo, 'echo');

  console.log(`  seeding ${BOTS} owners, bots and tokens through the API …`);
  const context = longContext();
  const bots = await inBatches(BOTS, (i) => seedBotWithToken(urls.service, i === 0 ? context : 'Ada builds reliable systems in Rust.'));
  const tokens = bots.map((bot) => bot.token);

  console.log(`  load: ${CONNECTIONS} connections; ${WARMUP_S} s warm-up per phase, then ${ROUNDS} rounds of ${DURATION_S} s per phase, alternating`);
  const warmUps = [];
  for (const phase of PHASES) warmUps.push(await measure(`warm-up ${phase}`, phaseOptions(phase, urls, tokens, WARMUP_S)));
  const rounds: Record<Phase, Measurement>[] = [];
  for (let round = 1; round <= ROUNDS; round += 1) {
    const results = {} as Record<Phase, Measurement>;
    for (const phase of PHASES) results[phase] = await measure(`${LABELS[phase]} #${round}`, phaseOptions(phase, urls, tokens, DURATION_S));
    rounds.push(results);
  }

  const db = new Db({ connectionString: databaseUrl, max: 2 });
  const counted = await db.query<{ conversations: number; messages: number }>(
    'SELECT count(*)::int AS conversations, (SELECT count(*)::int FROM conversation_messages) AS messages FROM conversations',
  );
  const stored = counted.rows[0]!;
  console.log('  timing knowledge retrieval in the service …');
  const knowledge = await timeKnowledge(db, bots[0]!.botId).finally(() => db.close());

  const everyPhase = [...warmUps, ...rounds.flatMap((round) => PHASES.map((phase) => round[phase]))];
  console.log('\nThroughput (requests/s; latency p50 and p99 in ms), phases alternating on this machine');
  printTable(everyPhase);
  for (const [index, round] of rounds.entries()) {
    console.log(
      `  round ${index + 1}: config ${percent(round.config.requestsPerSecond / round.echo.requestsPerSecond)}, saves ${percent(round.saves.requestsPerSecond / round.echo.requestsPerSecond)} of the echo`,
    );
  }
  const medianOf = (phase: Phase) => median(rounds.map((round) => round[phase].requestsPerSecond));
  const echo = medianOf('echo');
  const configRatio = medianOf('config') / echo;
  const savesRatio = medianOf('saves') / echo;
  console.log(`  medians: echo ${fixed(echo, 0)}, config ${fixed(medianOf('config'), 0)}, saves ${fixed(medianOf('saves'), 0)} req/s`);
  const unclean = everyPhase.filter((m) => !isClean(m));
  for (const m of unclean) console.log(`  INVALID: ${m.label}: status codes ${JSON.stringify(m.statusCodes)}, ${m.errors} errors`);
  console.log(`\n  stored: ${stored.conversations} conversations, ${stored.messages} messages (every save a new session, warm-up included)`);

  console.log(
    `\nKnowledge retrieval in the service, beyond the query-embedding call (${knowledge.contextChars} characters, ${knowledge.chunks} chunks, ${EMBEDDING_DIMENSIONS} dimensions)`,
  );
  console.log(`    warm cache (memo over PostgreSQL, as served): p50 ${fixed(knowledge.warm.p50, 2)} ms, p99 ${fixed(knowledge.warm.p99, 2)} ms over ${KNOWLEDGE_RUNS} queries`);
  console.log(`    vectors read back from PostgreSQL every time (a fresh instance): p50 ${fixed(knowledge.fromDatabase.p50, 1)} ms, p99 ${fixed(knowledge.fromDatabase.p99, 1)} ms`);

  const valid = unclean.length === 0;
  const checks = [
    { name: `config reads >= ${TARGETS.configReads * 100} % of the echo, medians (${percent(configRatio)})`, pass: valid && configRatio >= TARGETS.configReads },
    { name: `conversation saves >= ${TARGETS.conversationSaves * 100} % of the echo, medians (${percent(savesRatio)})`, pass: valid && savesRatio >= TARGETS.conversationSaves },
    { name: `knowledge retrieval in the service, p99 <= ${TARGETS.knowledgeP99Ms} ms (${fixed(knowledge.warm.p99, 2)} ms)`, pass: knowledge.warm.p99 <= TARGETS.knowledgeP99Ms },
    { name: 'every request of every phase answered 2xx, without errors', pass: valid },
  ];
  console.log('\nSummary');
  for (const check of checks) console.log(`  ${verdict(check.pass)}  ${check.name}`);
  console.log(`  (${fixed((Date.now() - started) / 1000)} s in all)`);
  return checks.every((check) => check.pass) ? 0 : 1;
};

const overrun = setTimeout(() => abort(`still running after ${TIME_BUDGET_MS / 1000} s`), TIME_BUDGET_MS);

// Explicit exit: it also ends the run should anything still hold the event loop open.
let code = 1;
try {
  code = await main();
} catch (error) {
  console.error('bench:v1 failed:', error);
} finally {
  clearTimeout(overrun);
  await stop();
}
process.exit(code);
