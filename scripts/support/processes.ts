// What the scripts that start the service (the benchmarks, the production smoke) share:
// free ports, child processes stopped at the end, a fresh migrated database.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { migrate } from '../../src/adapters/persistence/db.ts';
import { startEmbeddedPostgres } from '../../src/adapters/persistence/embedded-postgres.ts';

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

/** `node <args>` in its own process, named by the entry it runs; stdout lines go to `onLine`. */
const spawnNode = (entry: string, args: string[], env: Record<string, string>, onLine?: (line: string) => void) => {
  // BENCH_PROFILE=dir writes a CPU profile of the service and runtime processes there (one file each, named by pid), for a look at hot spots.
  const profiled = entry === 'src/main.ts' || entry === 'packages/runtime/src/cli.ts';
  const profile = process.env.BENCH_PROFILE && profiled ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
  const child = spawn(process.execPath, [...profile, ...args], {
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

/** A TypeScript entry point in its own process, run through tsx; stdout lines go to `onLine`. */
export const spawnTs = (entry: string, env: Record<string, string>, onLine?: (line: string) => void) =>
  spawnNode(entry, ['--import', 'tsx', entry], env, onLine);

/**
 * The service in its own process: through tsx, as `npm start` runs it, or, with
 * BENCH_SERVICE=built, the compiled `dist/main.js`, as the container image runs it in production
 * (built first by `npm run build`).
 */
export const spawnService = (env: Record<string, string>, onLine?: (line: string) => void) =>
  process.env.BENCH_SERVICE === 'built' ? spawnNode('src/main.ts', ['dist/main.js'], env, onLine) : spawnTs('src/main.ts', env, onLine);

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
