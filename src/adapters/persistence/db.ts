import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { ServiceUnavailableError } from './service-unavailable.ts';

export const SQL_DIR = fileURLToPath(new URL('../../../sql/', import.meta.url));

/**
 * A statement each connection parses and plans once, then only binds and runs: for the hot
 * paths, where parsing and planning cost PostgreSQL more than running the statement. Only for
 * constant SQL whose plan does not depend on the parameters' values, since PostgreSQL may
 * settle on one generic plan for all of them.
 */
export interface PreparedStatement {
  name: string;
  text: string;
}

export const prepared = (name: string, text: string): PreparedStatement => ({ name, text });

/** What repositories run their SQL on: the pool, or one transaction's client. */
export interface Queryable {
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(
    statement: string | PreparedStatement,
    params?: unknown[],
  ): Promise<pg.QueryResult<R>>;
}

/** Plain text goes as is: pg copies a config object on every query, a measurable cost here. */
const run = <R extends pg.QueryResultRow>(on: pg.Pool | pg.PoolClient, statement: string | PreparedStatement, params?: unknown[]) =>
  typeof statement === 'string' ? on.query<R>(statement, params) : on.query<R>({ ...statement, values: params });

const CONNECTION_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '53300', // too_many_connections
  '57014', // query_canceled: statement_timeout, a statement that took too long
]);

const isConnectionError = (error: unknown): boolean => {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (CONNECTION_ERROR_CODES.has(code) || code.startsWith('08'))) return true;
  return /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|connect ECONNREFUSED|Cannot use a pool after calling end|Query read timeout/i.test(
    error.message,
  );
};

const translate = (error: unknown): unknown => (isConnectionError(error) ? new ServiceUnavailableError(error) : error);

export interface PoolOptions {
  connectionString: string;
  max?: number;
  connectionTimeoutMillis?: number;
  /** PostgreSQL cancels a statement that runs longer (`statement_timeout`). */
  statementTimeoutMs?: number;
  /**
   * The client gives up on a query with no answer after this long, for a server that hangs
   * (frozen, or cut off without a reset) and so cancels nothing itself.
   */
  queryTimeoutMs?: number;
  onError?: (error: Error) => void;
}

/**
 * The pool, with connection failures and timeouts turned into ServiceUnavailableError (answered 503)
 * and idle-client errors reported instead of crashing the process.
 */
export class Db implements Queryable {
  readonly pool: pg.Pool;

  constructor(options: PoolOptions) {
    this.pool = new pg.Pool({
      connectionString: options.connectionString,
      max: options.max ?? 10,
      connectionTimeoutMillis: options.connectionTimeoutMillis ?? 5_000,
      idleTimeoutMillis: 30_000,
      statement_timeout: options.statementTimeoutMs,
      query_timeout: options.queryTimeoutMs,
    });
    this.pool.on('error', (error) => options.onError?.(error));
  }

  async query<R extends pg.QueryResultRow = pg.QueryResultRow>(
    statement: string | PreparedStatement,
    params?: unknown[],
  ): Promise<pg.QueryResult<R>> {
    try {
      return await run<R>(this.pool, statement, params);
    } catch (error) {
      throw translate(error);
    }
  }

  async transaction<T>(work: (client: Queryable) => Promise<T>): Promise<T> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw translate(error);
    }
    // A checked-out client has no 'error' listener; a connection lost between two
    // queries would otherwise crash the process.
    let lostConnection: unknown = null;
    const onClientError = (error: Error) => (lostConnection = error);
    client.on('error', onClientError);
    const tx: Queryable = {
      query: async (statement, params) => {
        try {
          return await run(client, statement, params);
        } catch (error) {
          throw translate(error);
        }
      },
    };
    let broken = false;
    try {
      await tx.query('BEGIN');
      const result = await work(tx);
      await tx.query('COMMIT');
      return result;
    } catch (error) {
      broken = error instanceof ServiceUnavailableError;
      if (!broken) await client.query('ROLLBACK').catch(() => (broken = true));
      throw error;
    } finally {
      client.removeListener('error', onClientError);
      client.release(broken || lostConnection !== null);
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

// ---------------------------------------------------------------- migrations

/** Any fixed 64-bit number; every instance must use the same one. */
const MIGRATION_LOCK_KEY = 7_351_920_416_221n;

export const migrationFiles = async (dir = SQL_DIR): Promise<string[]> =>
  (await readdir(dir)).filter((name) => /^\d+_.+\.sql$/.test(name)).sort();

/**
 * Applies pending migrations in order, each in its own transaction, under an advisory
 * lock so instances starting at once wait for each other instead of racing.
 */
export const migrate = async (connectionString: string, dir = SQL_DIR): Promise<string[]> => {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY.toString()]);
    await client.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const { rows } = await client.query<{ version: string }>('SELECT version FROM schema_migrations');
    const applied = new Set(rows.map((row) => row.version));
    const newlyApplied: string[] = [];
    for (const file of await migrationFiles(dir)) {
      if (applied.has(file)) continue;
      const sql = await readFile(path.join(dir, file), 'utf8');
      await client.query('BEGIN');
      try {
        await client.query(sql);
        await client.query('INSERT INTO schema_migrations (version) VALUES ($1)', [file]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw new Error(`migration ${file} failed: ${(error as Error).message}`, { cause: error });
      }
      newlyApplied.push(file);
    }
    return newlyApplied;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY.toString()]).catch(() => undefined);
    await client.end();
  }
};

/** Ready means: the database answers and every migration file is recorded as applied. */
export const isReady = async (db: Queryable, expected: string[]): Promise<boolean> => {
  try {
    const { rows } = await db.query<{ version: string }>('SELECT version FROM schema_migrations');
    const applied = new Set(rows.map((row) => row.version));
    return expected.every((file) => applied.has(file));
  } catch {
    return false;
  }
};
