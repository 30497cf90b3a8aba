// The benchmarks' measuring and seeding: autocannon runs, their table, the service and the echo.
import { randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { signedInClient, validBot } from '@careerbot/testkit';
import { freePorts, spawnService, spawnTs, waitForHttp } from '../../support/processes.ts';

export interface Measurement {
  label: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  total: number;
  /** Answers per HTTP status, to tell what went wrong when non2xx is not 0. */
  statusCodes: Record<string, number>;
}

export const measure = async (
  label: string,
  options: autocannon.Options,
): Promise<Measurement> => {
  const result = await autocannon(options);
  return {
    label,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    total: result.requests.total,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, stats]) => [code, stats.count ?? 0])),
  };
};

export const printTable = (rows: Measurement[]) => {
  const pad = (text: string | number, width: number) => String(text).padStart(width);
  console.log(`${'phase'.padEnd(28)}${pad('req/s', 10)}${pad('p50 ms', 9)}${pad('p99 ms', 9)}${pad('requests', 10)}${pad('non-2xx', 9)}${pad('errors', 8)}`);
  for (const row of rows) {
    console.log(
      `${row.label.padEnd(28)}${pad(row.requestsPerSecond.toFixed(0), 10)}${pad(row.p50, 9)}${pad(row.p99, 9)}${pad(row.total, 10)}${pad(row.non2xx, 9)}${pad(row.errors, 8)}`,
    );
  }
};

export const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL');

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/**
 * The real service (`src/main.ts`, request logs on as in production, written to /dev/null)
 * and the bare Express JSON echo, each in its own process, both answering.
 */
export const startServiceAndEcho = async (databaseUrl: string, env: Record<string, string> = {}) => {
  const [servicePort, echoPort] = await freePorts(2);
  const urls = { service: `http://127.0.0.1:${servicePort}`, echo: `http://127.0.0.1:${echoPort}` };
  const service = spawnService({
    DATABASE_URL: databaseUrl,
    PORT: String(servicePort),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    REGISTRATIONS_PER_ADDRESS: '1000000', // the benchmarks sign up many owners from one address
    DATA_DIR: await mkdtemp(path.join(tmpdir(), 'careerbot-bench-data-')),
    ...env,
  });
  const echo = spawnTs('scripts/bench/support/echo-server.ts', { PORT: String(echoPort) });
  await Promise.all([waitForHttp(`${urls.service}/readyz`), waitForHttp(`${urls.echo}/echo`)]);
  return { urls, processes: { service, echo } };
};

/** An owner, signed in, with a saved bot at the highest rate limits (1,000 a minute, 100,000 a day). */
export const seedBot = async (service: string, bot: Record<string, unknown> = {}) => {
  const { client } = await signedInClient(service, `bench${randomBytes(5).toString('hex')}`);
  const saved = await client.post('/api/bots', validBot(bot));
  const limits = await client.patch('/api/bots/settings', { rateLimits: { perMinute: 1_000, perDay: 100_000 } });
  if (saved.status !== 201 || limits.status !== 200) throw new Error(`seeding a bot: save ${saved.status}, settings ${limits.status}`);
  return { client, botId: saved.json.bot.id as string };
};

/** `count` results of `make(i)`, eight at a time (bcrypt makes sign-up the slow part). */
export const inBatches = async <T>(count: number, make: (i: number) => Promise<T>): Promise<T[]> => {
  const results: T[] = [];
  for (let first = 0; first < count; first += 8) {
    results.push(...(await Promise.all(Array.from({ length: Math.min(8, count - first) }, (_, i) => make(first + i)))));
  }
  return results;
};
