import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { migrate } from '../../src/adapters/persistence/db.ts';
import { startEmbeddedPostgres } from '../../src/adapters/persistence/embedded-postgres.ts';
import { signedInClient, validBot } from '../../test/support/http-client.ts';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** `count` different free ports: each is held until all are found, so no two are the same. */
export const freePorts = async (count: number): Promise<number[]> => {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () => new Promise<net.Server>((resolve) => {
        const server = net.createServer();
        server.listen(0, '127.0.0.1', () => resolve(server));
      }),
    ),
  );
  const ports = servers.map((server) => (server.address() as net.AddressInfo).port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
};

const children: ChildProcess[] = [];
const cleanups: (() => Promise<void>)[] = [];

export const cleanUp = async () => {
  for (const child of children) child.kill('SIGTERM');
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
};

/** A TypeScript entry point in its own process; stdout lines go to `onLine`. */
export const spawnTs = (entry: string, env: Record<string, string>, onLine?: (line: string) => void) => {
  // BENCH_PROFILE=dir writes a CPU profile of the service process there, for a look at hot spots.
  const profile = process.env.BENCH_PROFILE && entry === 'src/main.ts' ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', entry], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', onLine ? 'pipe' : 'ignore', 'inherit'],
  });
  children.push(child);
  if (onLine) {
    let buffer = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      let index;
      while ((index = buffer.indexOf('\n')) >= 0) {
        onLine(buffer.slice(0, index));
        buffer = buffer.slice(index + 1);
      }
    });
  }
  return child;
};

export const waitForHttp = async (url: string, timeoutMs = 60_000) => {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} did not come up`);
};

/** A fresh database: on DATABASE_URL/TEST_DATABASE_URL's server, else an embedded PostgreSQL. */
export const benchDatabase = async (): Promise<string> => {
  let serverUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  if (!serverUrl) {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'careerbot-bench-'));
    // Our own stop (cleanUp) ends it; the package's exit hook would force exit code 0.
    const embedded = await startEmbeddedPostgres({ dataDir, persistent: false, ownSignalHandling: true });
    cleanups.push(async () => {
      await embedded.stop();
      await rm(dataDir, { recursive: true, force: true });
    });
    serverUrl = embedded.url;
  }
  const name = `careerbot_bench_${Date.now()}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  cleanups.push(async () => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.end();
  });
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  await migrate(url.toString());
  return url.toString();
};

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
  const service = spawnTs('src/main.ts', {
    DATABASE_URL: databaseUrl,
    PORT: String(servicePort),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    REGISTRATIONS_PER_ADDRESS: '1000000', // the benchmarks sign up many owners from one address
    DATA_DIR: await mkdtemp(path.join(tmpdir(), 'careerbot-bench-data-')),
    ...env,
  });
  const echo = spawnTs('scripts/support/echo-server.ts', { PORT: String(echoPort) });
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
