import type autocannon from 'autocannon';
import { benchDatabase, cleanUp, spawnTs } from '../support/processes.ts';
import { inBatches, measure, median, printTable, seedBot, startServiceAndEcho, verdict, type Measurement } from './support/bench-kit.ts';
import { cpuMsOf, percentile, streamLoad, type StreamRun } from './support/sse-load.ts';

// npm run bench:chat — the real service (own process, real OpenAI SDK adapter) against an
// instant fake provider (own process), and a bare Express JSON echo, in one run.
// Compare the ratio, not the absolute figures: these machines are shared and noisy.

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
// Long enough for about 300 paced replies of 1.5 s over 32 streams, so that a p99 rests on a few of them.
const PACED_DURATION_S = Number(process.env.BENCH_PACED_DURATION ?? 15);
// BENCH_ONLY=streaming skips the JSON rounds, for a profile (BENCH_PROFILE) of the streaming path alone.
const JSON_ROUNDS = process.env.BENCH_ONLY !== 'streaming';
// The streams' first questions are spread over one reply's length, as visitors arrive; BENCH_SPREAD=0
// sends them all at once, so that every reply's end sends the next 32 questions in the same millisecond.
const SPREAD = process.env.BENCH_SPREAD !== '0';
const METRICS_TOKEN = 'bench-metrics-token-0123456789abcdef';
// The slow fake's pacing: its first chunk after FIRST_CHUNK_MS, the others CHUNK_MS apart.
const FIRST_CHUNK_MS = 40;
const CHUNK_MS = 10;
/** How long the slow fake takes to write a reply of `chunks` chunks. */
const replyMs = (chunks: number) => FIRST_CHUNK_MS + (chunks - 1) * CHUNK_MS;
const BOTS = 64; // each bot admits at most 1,000 chats a minute, its maximum override
const QUESTION = 'What did Ada build, and which languages does she use day to day?';
const MESSAGE = JSON.stringify({ message: QUESTION });

try {
  const databaseUrl = await benchDatabase();
  const providerUrls = await new Promise<{ openai: string }>((resolve) =>
    spawnTs('scripts/bench/support/fake-provider-process.ts', {}, (line) => resolve(JSON.parse(line))),
  );
  // For the streaming phase, a fake answering the Google and Anthropic SDKs (the JSON rounds keep
  // OpenAI on the instant fake), its first chunk after 40 ms and the others 10 ms apart, in two
  // pacings (by the bot's model):
  // - paced as providers write: a 150-word reply, a word a chunk (1.5 s), so that 32 streams are
  //   32 visitors reading, and each new reply's first word competes with the others' words;
  // - rapid: seven chunks (0.1 s), so that 32 streams are about 290 new replies a second: a stress
  //   of the path's fixed cost, where the service's one core is nearly always busy.
  const slowUrls = await new Promise<{ google: string; anthropic: string; timings: string }>((resolve) =>
    spawnTs('scripts/bench/support/fake-provider-process.ts', { FAKE_FIRST_CHUNK_MS: String(FIRST_CHUNK_MS), FAKE_CHUNK_MS: String(CHUNK_MS) }, (line) => resolve(JSON.parse(line))),
  );
  const { urls, processes } = await startServiceAndEcho(databaseUrl, {
    OPENAI_BASE_URL: providerUrls.openai,
    GEMINI_BASE_URL: slowUrls.google,
    ANTHROPIC_BASE_URL: slowUrls.anthropic,
    METRICS_TOKEN,
  });
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

  const json = JSON_ROUNDS ? await jsonRounds(service, chatOptions, echoOptions) : { ratio: 1, chatP99: 0, invalid: 0 };

  // Streaming (Accept: text/event-stream): time to the first word through the service against
  // the fake's own time to its first chunk, then streamed throughput against the JSON path.
  console.log(`\nStreaming phase (${CONNECTIONS} concurrent streams)…`);
  let streamFailures = 0;
  let nextStream = 0;
  // Each streamed question carries a tag, so that the slow fake can say when it wrote that reply's first sentence.
  const chatTarget = (bots: string[], accept: string) => () => {
    const id = `bench-${nextStream}`;
    return {
      url: `${service}/api/chat/${bots[nextStream++ % bots.length]}`,
      headers: { 'content-type': 'application/json', 'x-llm-api-key': 'sk-bench-not-a-real-key', accept },
      body: JSON.stringify({ message: `${QUESTION} (${id})` }),
      id,
    };
  };
  const fakeTimings = async () => {
    const { arrived, sentenceSent } = (await (await fetch(slowUrls.timings)).json()) as Record<'arrived' | 'sentenceSent', Record<string, number>>;
    return { arrived: new Map(Object.entries(arrived)), sentenceSent: new Map(Object.entries(sentenceSent)) };
  };
  // Each phase also reads the service's CPU time: its cost per reply, which the load of a shared machine disturbs far less than latencies.
  const phase = async (
    target: Parameters<typeof streamLoad>[0]['target'],
    firstMarker: string,
    durationS = DURATION_S,
    thenMarker?: string,
    spreadMs = 0,
  ): Promise<StreamRun & { cpuMsPerReply: number }> => {
    const cpuBefore = cpuMsOf(processes.service.pid);
    const run = await streamLoad({ connections: CONNECTIONS, durationS, target, firstMarker, thenMarker, spreadMs });
    return { ...run, cpuMsPerReply: (cpuMsOf(processes.service.pid) - cpuBefore) / run.wholeMs.length };
  };
  // The provider's own first chunk, asked directly in its wire format, against the first word through the service.
  const slowProviders = [
    {
      provider: 'google',
      model: 'gemini-2.5-flash',
      direct: (model: string) => () => ({
        url: `${slowUrls.google}/v1beta/models/${model}:streamGenerateContent?alt=sse`,
        headers: { 'content-type': 'application/json', 'x-goog-api-key': 'sk-bench-not-a-real-key' },
        body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'What did Ada build?' }] }] }),
      }),
    },
    {
      provider: 'anthropic',
      model: 'claude-haiku-4-5',
      direct: (model: string) => () => ({
        url: `${slowUrls.anthropic}/v1/messages`,
        headers: { 'content-type': 'application/json', 'x-api-key': 'sk-bench-not-a-real-key', 'anthropic-version': '2023-06-01' },
        body: JSON.stringify({ model, max_tokens: 800, stream: true, messages: [{ role: 'user', content: 'What did Ada build?' }] }),
      }),
    },
  ];
  // The streaming cleaner releases text a sentence at a time (README: its hold-back), so the first
  // word a visitor can get is the end of the first sentence: the paced fake's first sentence ends
  // with its 20th word, "week."; the rapid fake's first chunk is a whole sentence.
  const pacings = [
    { key: 'paced', name: 'paced (150 words, 1.5 s a reply)', suffix: '-paced', durationS: PACED_DURATION_S, sentenceEnd: 'week.', replyMs: replyMs(150) },
    { key: 'rapid', name: 'rapid (7 chunks, 0.1 s a reply)', suffix: '', durationS: DURATION_S, sentenceEnd: undefined, replyMs: replyMs(7) },
  ] as const;
  // The target is judged on the paced replies; the rapid ones are printed beside them.
  const addedP99: Partial<Record<(typeof pacings)[number]['key'], number>> = {};
  // BENCH_PROVIDERS=google (or anthropic) times one SDK alone, for a profile of its path.
  const only = process.env.BENCH_PROVIDERS?.split(',');
  // BENCH_PACINGS=paced (or rapid) runs one pacing alone.
  const onlyPacings = process.env.BENCH_PACINGS?.split(',');
  for (const slow of slowProviders.filter((candidate) => !only || only.includes(candidate.provider))) {
    console.log(`${slow.provider}:`);
    for (const pacing of pacings.filter((candidate) => !onlyPacings || onlyPacings.includes(candidate.key))) {
      const model = slow.model + pacing.suffix;
      const bots = (await inBatches(BOTS, () => seedBot(service, { llmProvider: slow.provider, llmModel: model }))).map((seeded) => seeded.botId);
      await streamLoad({ connections: CONNECTIONS, durationS: 2, target: chatTarget(bots, 'text/event-stream'), firstMarker: 'event: delta' });
      const spreadMs = SPREAD ? pacing.replyMs : 0;
      const fakeOwn = await phase(slow.direct(model), 'data: ', pacing.durationS, pacing.sentenceEnd, spreadMs);
      await fakeTimings(); // forgets the warm-up's
      const viaService = await phase(chatTarget(bots, 'text/event-stream'), 'event: delta', pacing.durationS, undefined, spreadMs);
      const added = (p: number) => percentile(viaService.firstWordMs, p) - percentile(fakeOwn.thenMs, p);
      // Per reply, the service's part: the question's way to the fake (sent by the visitor, read by
      // the fake) and the first words' way back (the sentence written by the fake, read by the visitor).
      const fake = await fakeTimings();
      const legs = [...viaService.firstWordAt].flatMap(([id, readAt]) => {
        const [sentAt, arrivedAt, wroteAt] = [viaService.sentAt.get(id), fake.arrived.get(id), fake.sentenceSent.get(id)];
        return sentAt === undefined || arrivedAt === undefined || wroteAt === undefined ? [] : [{ there: arrivedAt - sentAt, back: readAt - wroteAt }];
      });
      const paired = legs.map((leg) => leg.there + leg.back);
      const pairedAdded = (p: number) => percentile(paired, p);
      const leg = (name: 'there' | 'back') => legs.map((each) => each[name]);
      addedP99[pacing.key] = Math.max(addedP99[pacing.key] ?? 0, pairedAdded(99));
      streamFailures += fakeOwn.failures + viaService.failures;
      console.log(`  ${pacing.name}, ${viaService.firstWordMs.length} replies, ${viaService.repliesPerSecond.toFixed(0)} a second:`);
      console.log(`    first chunk, the fake alone:   p50 ${percentile(fakeOwn.firstWordMs, 50).toFixed(1)} ms, p99 ${percentile(fakeOwn.firstWordMs, 99).toFixed(1)} ms`);
      if (pacing.sentenceEnd) {
        console.log(`    first sentence's end, the fake alone: p50 ${percentile(fakeOwn.thenMs, 50).toFixed(1)} ms, p99 ${percentile(fakeOwn.thenMs, 99).toFixed(1)} ms`);
        console.log(`    the cleaner's wait for it (first word through the service against the fake's first chunk): p50 ${(percentile(viaService.firstWordMs, 50) - percentile(fakeOwn.firstWordMs, 50)).toFixed(1)} ms`);
      }
      console.log(`    first word through the service: p50 ${percentile(viaService.firstWordMs, 50).toFixed(1)} ms, p99 ${percentile(viaService.firstWordMs, 99).toFixed(1)} ms`);
      console.log(`    through the service against the fake alone${pacing.sentenceEnd ? ' (its sentence end)' : ''}, percentile against percentile: p50 ${added(50).toFixed(1)} ms, p99 ${added(99).toFixed(1)} ms`);
      console.log(`    time the service adds, each reply's way to the fake and back (${paired.length} replies): p50 ${pairedAdded(50).toFixed(1)} ms, p99 ${pairedAdded(99).toFixed(1)} ms${pacing.key === 'paced' ? `   (target p99 < 20 ms)  ${verdict(pairedAdded(99) < 20)}` : ''}`);
      console.log(`      of which the way there p50 ${percentile(leg('there'), 50).toFixed(1)} ms, p99 ${percentile(leg('there'), 99).toFixed(1)} ms; the way back p50 ${percentile(leg('back'), 50).toFixed(1)} ms, p99 ${percentile(leg('back'), 99).toFixed(1)} ms`);
      console.log(`    service CPU per streamed reply: ${viaService.cpuMsPerReply.toFixed(2)} ms`);
    }
  }
  // Every early call should be adopted here (one bot per question, nothing changes): a discarded one is a provider call paid twice.
  const metrics = await (await fetch(`${service}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  console.log(metrics.split('\n').filter((line) => line.startsWith('careerbot_chat_early_starts_total')).map((line) => `  ${line}`).join('\n'));
  const streamedRate = await phase(chatTarget(botIds, 'text/event-stream'), 'event: delta');
  const jsonRate = await phase(chatTarget(botIds, 'application/json'), 'reply');
  console.log(
    `instant provider: streamed ${streamedRate.repliesPerSecond.toFixed(0)} replies/s, JSON ${jsonRate.repliesPerSecond.toFixed(0)} replies/s (streamed ${((streamedRate.repliesPerSecond / jsonRate.repliesPerSecond) * 100).toFixed(0)} % of JSON)`,
  );
  console.log(`service CPU per reply (instant OpenAI provider): streamed ${streamedRate.cpuMsPerReply.toFixed(2)} ms, JSON ${jsonRate.cpuMsPerReply.toFixed(2)} ms`);
  streamFailures += streamedRate.failures + jsonRate.failures;
  // A pacing that BENCH_PACINGS left out has no figure, and no verdict.
  const paced = addedP99.paced === undefined ? 'not run' : `${addedP99.paced.toFixed(1)} ms   (target < 20 ms)  ${verdict(addedP99.paced < 20)}`;
  const rapid = addedP99.rapid === undefined ? 'not run' : `${addedP99.rapid.toFixed(1)} ms`;
  console.log(`time the service adds to the first word, worst provider's p99: paced ${paced}; rapid ${rapid}`);
  if (streamFailures > 0) console.log(`INVALID STREAMING RUN: ${streamFailures} failed requests`);
  process.exitCode = json.ratio >= 0.2 && json.chatP99 <= 50 && json.invalid === 0 && streamFailures === 0 ? 0 : 1;
} finally {
  await cleanUp();
}

/** The JSON chat against the bare echo, in alternating rounds after a warm-up. */
async function jsonRounds(
  service: string,
  chatOptions: (duration: number) => autocannon.Options,
  echoOptions: (duration: number) => autocannon.Options,
) {
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
  return { ratio, chatP99, invalid };
}
