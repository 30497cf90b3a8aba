import type autocannon from 'autocannon';
import { benchDatabase, cleanUp, spawnTs } from '../support/processes.ts';
import { inBatches, measure, median, printTable, seedBot, startServiceAndEcho, verdict, type Measurement } from './support/bench-kit.ts';

// npm run bench:chat — the real service (own process, real OpenAI SDK adapter) against an
// instant fake provider (own process), and a bare Express JSON echo, in one run.
// Compare the ratio, not the absolute figures: these machines are shared and noisy.

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const BOTS = 64; // each bot admits at most 1,000 chats a minute, its maximum override
const MESSAGE = JSON.stringify({ message: 'What did Ada build, and which languages does she use day to day?' });

try {
  const databaseUrl = await benchDatabase();
  const providerUrls = await new Promise<{ openai: string }>((resolve) =>
    spawnTs('scripts/bench/support/fake-provider-process.ts', {}, (line) => resolve(JSON.parse(line))),
  );
  const { urls } = await startServiceAndEcho(databaseUrl, { OPENAI_BASE_URL: providerUrls.openai });
  const { service, echo } = urls;

  console.log(`Seeding ${BOTS} bots…`);
  const botIds = (await inBatches(BOTS, () => seedBot(service, { llmProvider: 'openai' }))).map((seeded) => seeded.botId);

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

  // Long enough for the JIT to settle on the chat path (shorter, the first round's p99 is
  // the warm-up's), and for each pooled connection to have prepared its statements.
  console.log('Warming up…');
  await measure('warm-up echo', echoOptions(3));
  await measure('warm-up chat', chatOptions(6));

  // Alternating rounds, judged on medians: the machine's speed drifts within a run.
  const rounds: { echo: Measurement; chat: Measurement }[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const echoRound = await measure(`bare echo #${round}`, echoOptions(DURATION_S));
    const chatRound = await measure(`chat #${round}`, chatOptions(DURATION_S));
    rounds.push({ echo: echoRound, chat: chatRound });
  }
  const health = await measure('service GET /healthz', { url: `${service}/healthz`, connections: CONNECTIONS, duration: 3 });
  printTable([...rounds.flatMap((round) => [round.echo, round.chat]), health]);

  for (const [i, round] of rounds.entries()) {
    const share = (round.chat.requestsPerSecond / round.echo.requestsPerSecond) * 100;
    console.log(`  round ${i + 1}: chat ${share.toFixed(1)} % of the echo, chat p99 ${round.chat.p99} ms`);
  }
  const echoRps = median(rounds.map((round) => round.echo.requestsPerSecond));
  const chatRps = median(rounds.map((round) => round.chat.requestsPerSecond));
  const chatP99 = median(rounds.map((round) => round.chat.p99));
  const ratio = chatRps / echoRps;
  const invalid = rounds.reduce((sum, round) => sum + round.chat.non2xx + round.chat.errors, 0);
  console.log(`\nmedians (${CONNECTIONS} connections): echo ${echoRps.toFixed(0)} req/s, chat ${chatRps.toFixed(0)} req/s, chat p99 ${chatP99} ms`);
  console.log(`chat / echo throughput: ${(ratio * 100).toFixed(1)} %   (target ≥ 20 %)  ${verdict(ratio >= 0.2)}`);
  console.log(`chat p99: ${chatP99} ms   (target ≤ 50 ms)  ${verdict(chatP99 <= 50)}`);
  if (invalid > 0) console.log(`INVALID RUN: ${invalid} non-2xx answers or errors during the chat phases`);
  process.exitCode = ratio >= 0.2 && chatP99 <= 50 && invalid === 0 ? 0 : 1;
} finally {
  await cleanUp();
}
