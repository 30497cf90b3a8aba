import type autocannon from 'autocannon';
import { benchDatabase, cleanUp, freePorts, spawnTs, waitForHttp } from '../support/processes.ts';
import { inBatches, measure, median, printTable, seedBot, startServiceAndEcho, verdict, type Measurement } from './support/bench-kit.ts';
import { cpuMsOf } from './support/sse-load.ts';

// npm run bench:runtime — the self-hosted runtime (its own process, the real OpenAI SDK gateway)
// against an instant fake provider and an instant stand-in of the platform's v1 API (each in its
// own process), beside the bare Express JSON echo and the platform's own chat (as bench:chat
// runs it), in alternating rounds of one run. Compare the ratios, not the absolute figures.

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const BOTS = 64;
const QUESTION = 'What did Ada build, and which languages does she use day to day?';
const SESSIONS = Array.from({ length: 256 }, () => crypto.randomUUID());

/** A helper process's first stdout line, parsed, and its pid. */
const lineOf = <T>(entry: string, env: Record<string, string>) =>
  new Promise<T & { pid: number | undefined }>((resolve) => {
    const child = spawnTs(entry, env, (line) => resolve({ ...(JSON.parse(line) as T), pid: child.pid }));
  });

try {
  const databaseUrl = await benchDatabase();
  const provider = await lineOf<{ openai: string }>('scripts/bench/support/fake-provider-process.ts', {});
  const platformStandIn = await lineOf<{ url: string }>('scripts/bench/support/fake-platform-process.ts', {});
  const { urls, processes } = await startServiceAndEcho(databaseUrl, { OPENAI_BASE_URL: provider.openai });
  const [runtimePort] = await freePorts(1);
  const runtime = `http://127.0.0.1:${runtimePort}`;
  const runtimeProcess = spawnTs('packages/runtime/src/cli.ts', {
    CAREERBOT_URL: platformStandIn.url,
    CAREERBOT_TOKEN: `cbt_${'0'.repeat(64)}`,
    LLM_PROVIDER: 'openai',
    LLM_API_KEY: 'sk-bench-not-a-real-key',
    OPENAI_BASE_URL: provider.openai,
    PORT: String(runtimePort),
    HOST: '127.0.0.1',
    MESSAGES_PER_MINUTE_PER_VISITOR: '1000000',
    MESSAGES_PER_DAY: '10000000',
    LOG_LEVEL: 'warn',
  });
  await waitForHttp(`${runtime}/healthz`);

  console.log(`Seeding ${BOTS} bots for the platform's chat…`);
  const botIds = (await inBatches(BOTS, () => seedBot(urls.service, { llmProvider: 'openai' }))).map((seeded) => seeded.botId);

  let nextBot = 0;
  let nextSession = 0;
  const platformChat = (duration: number): autocannon.Options => ({
    url: urls.service,
    connections: CONNECTIONS,
    duration,
    requests: [
      {
        method: 'POST' as const,
        headers: { 'content-type': 'application/json', 'x-llm-api-key': 'sk-bench-not-a-real-key' },
        body: JSON.stringify({ message: QUESTION }),
        setupRequest: (request) => ({ ...request, path: `/api/chat/${botIds[nextBot++ % botIds.length]}` }),
      },
    ],
  });
  const runtimeChat = (duration: number): autocannon.Options => ({
    url: `${runtime}/chat`,
    connections: CONNECTIONS,
    duration,
    requests: [
      {
        method: 'POST' as const,
        headers: { 'content-type': 'application/json' },
        setupRequest: (request) => ({
          ...request,
          body: JSON.stringify({ sessionId: SESSIONS[nextSession++ % SESSIONS.length], messages: [{ role: 'user', content: QUESTION }] }),
        }),
      },
    ],
  });
  const echo = (duration: number): autocannon.Options => ({
    url: `${urls.echo}/echo`,
    connections: CONNECTIONS,
    duration,
    method: 'POST' as const,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ sessionId: SESSIONS[0], messages: [{ role: 'user', content: QUESTION }] }),
  });

  console.log('Warming up…');
  await measure('warm-up echo', echo(3));
  await measure('warm-up runtime', runtimeChat(5));
  await measure('warm-up platform chat', platformChat(5));

  // CPU milliseconds per answered chat of each process a phase uses: what each side costs, which a
  // shared machine's load disturbs far less than throughput (the provider and the platform's
  // stand-in are the same programs in both phases, the database is the platform's alone).
  const pids = { runtime: runtimeProcess.pid, platform: processes.service.pid, provider: provider.pid, standIn: platformStandIn.pid };
  type Cpu = Record<keyof typeof pids, number>;
  const cpuNow = (): Cpu => ({ runtime: cpuMsOf(pids.runtime), platform: cpuMsOf(pids.platform), provider: cpuMsOf(pids.provider), standIn: cpuMsOf(pids.standIn) });
  const costed = async (label: string, options: autocannon.Options) => {
    const before = cpuNow();
    const measurement = await measure(label, options);
    const after = cpuNow();
    const perChat = (name: keyof Cpu) => (after[name] - before[name]) / Math.max(1, measurement.total);
    return { measurement, perChat };
  };
  const rounds: { echo: Measurement; runtime: Measurement; platform: Measurement; runtimeCpu: number; platformCpu: number; runtimeStandInCpu: number }[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const echoRound = await measure(`bare echo #${round}`, echo(DURATION_S));
    const runtimeRound = await costed(`runtime chat #${round}`, runtimeChat(DURATION_S));
    const platformRound = await costed(`platform chat #${round}`, platformChat(DURATION_S));
    rounds.push({
      echo: echoRound,
      runtime: runtimeRound.measurement,
      platform: platformRound.measurement,
      runtimeCpu: runtimeRound.perChat('runtime'),
      platformCpu: platformRound.perChat('platform'),
      runtimeStandInCpu: runtimeRound.perChat('standIn'),
    });
  }
  printTable(rounds.flatMap((round) => [round.echo, round.runtime, round.platform]));

  const echoRps = median(rounds.map((round) => round.echo.requestsPerSecond));
  const runtimeRps = median(rounds.map((round) => round.runtime.requestsPerSecond));
  const platformRps = median(rounds.map((round) => round.platform.requestsPerSecond));
  const runtimeP99 = median(rounds.map((round) => round.runtime.p99));
  const platformP99 = median(rounds.map((round) => round.platform.p99));
  const runtimeRatio = runtimeRps / echoRps;
  const platformRatio = platformRps / echoRps;
  const invalid = rounds.reduce((sum, round) => sum + round.runtime.non2xx + round.runtime.errors + round.platform.non2xx + round.platform.errors, 0);
  console.log(`\nmedians (${CONNECTIONS} connections): echo ${echoRps.toFixed(0)} req/s`);
  console.log(`  runtime  /chat: ${runtimeRps.toFixed(0)} req/s, p99 ${runtimeP99} ms, ${(runtimeRatio * 100).toFixed(1)} % of the echo`);
  console.log(`  platform chat:  ${platformRps.toFixed(0)} req/s, p99 ${platformP99} ms, ${(platformRatio * 100).toFixed(1)} % of the echo (bench:chat's ratio, this run)`);
  console.log(
    `  CPU per chat: runtime ${median(rounds.map((round) => round.runtimeCpu)).toFixed(3)} ms (and the platform's stand-in ${median(rounds.map((round) => round.runtimeStandInCpu)).toFixed(3)} ms), platform ${median(rounds.map((round) => round.platformCpu)).toFixed(3)} ms`,
  );
  console.log(`runtime ratio ≥ the platform's chat ratio: ${verdict(runtimeRatio >= platformRatio)}`);
  if (invalid > 0) console.log(`INVALID RUN: ${invalid} non-2xx answers or errors during the chat phases`);
  process.exitCode = runtimeRatio >= platformRatio && invalid === 0 ? 0 : 1;
} finally {
  await cleanUp();
}
