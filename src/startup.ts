// What the server and the cluster primary both do before serving: open the database
// (embedded or DATABASE_URL's) and migrate it, settle the session secret, serve /metrics.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import type { Logger } from 'pino';
import type { Config } from './adapters/config.ts';
import { startMetricsServer, type MetricsSource } from './adapters/metrics/metrics.ts';
import { migrate } from './adapters/persistence/db.ts';
import { startEmbeddedPostgres } from './adapters/persistence/embedded-postgres.ts';

const EMBEDDED_DATABASE = 'careerbot';

/** SESSION_SECRET; in development, a secret generated once and kept in DATA_DIR. */
export const sessionSecretFor = async (config: Config) => config.SESSION_SECRET ?? (await developmentSecret(config.DATA_DIR, 'session-secret'));

/** 32 random bytes as hex, generated once into `dataDir/name` (mode 0600) and read back afterwards. */
const developmentSecret = async (dataDir: string, name: string) => {
  const file = path.join(dataDir, name);
  if (existsSync(file)) return (await readFile(file, 'utf8')).trim();
  const secret = randomBytes(32).toString('hex');
  await mkdir(dataDir, { recursive: true });
  await writeFile(file, `${secret}\n`, { mode: 0o600 });
  return secret;
};

/**
 * The master keys of the owners' provider keys: KEY_ENCRYPTION_KEY (in development, one
 * generated once and kept in DATA_DIR, like the session secret), then the previous ones.
 */
export const masterKeysFor = async (config: Config) => {
  const current = config.KEY_ENCRYPTION_KEY ?? (await developmentSecret(config.DATA_DIR, 'key-encryption-key'));
  return [current, ...config.KEY_ENCRYPTION_KEY_PREVIOUS];
};

const ensureDatabase = async (serverUrl: string, name: string) => {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
};

/** DATABASE_URL, else an embedded PostgreSQL with its data in DATA_DIR. */
const openDatabase = async (config: Config, logger: Logger) => {
  if (config.DATABASE_URL) return { url: config.DATABASE_URL, embedded: null };
  const embedded = await startEmbeddedPostgres({
    dataDir: config.DATA_DIR,
    persistent: true,
    ownSignalHandling: true,
    onLog: (line) => logger.debug({ postgres: line }),
  });
  logger.info({ dataDir: path.resolve(config.DATA_DIR), databaseDir: embedded.databaseDir }, 'embedded PostgreSQL started');
  return { url: await ensureDatabase(embedded.url, EMBEDDED_DATABASE), embedded };
};

/** The database (embedded or DATABASE_URL's), migrated. */
export const openMigratedDatabase = async (config: Config, logger: Logger) => {
  const database = await openDatabase(config, logger);
  const applied = await migrate(database.url);
  if (applied.length > 0) logger.info({ applied }, 'migrations applied');
  return database;
};

export const listenForMetrics = async (source: MetricsSource, config: Config, logger: Logger) => {
  const server = await startMetricsServer(source, config.METRICS_PORT!, config.METRICS_HOST);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.METRICS_PORT;
  logger.info({ port, host: config.METRICS_HOST, url: `http://${config.METRICS_HOST}:${port}/metrics` }, 'metrics listening');
  return server;
};
