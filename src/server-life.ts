import cluster from 'node:cluster';
import type { Server } from 'node:http';
import type { Logger } from 'pino';
import type { Config } from './adapters/config.ts';
import { errorSummary } from './adapters/logger.ts';
import { offerToPrimary, type ServiceMetrics } from './adapters/metrics/metrics.ts';
import { Db } from './adapters/persistence/db.ts';
import type { EmbeddedPostgres } from './adapters/persistence/embedded-postgres.ts';
import { closeServer, drainable, finalStop, onStopSignals } from './shutdown.ts';
import { listenForMetrics, openMigratedDatabase, sessionSecretFor } from './startup.ts';

/** What the composition root builds over a database: an app to listen with, its metrics, and what to close. */
export interface ComposedService {
  app: { listen: (port: number, host: string) => Server };
  metrics: ServiceMetrics;
  close: () => Promise<void>;
}

export type Compose = (db: Db, sessionSecret: string) => Promise<ComposedService>;

/**
 * One server (alone, or a cluster worker): open and migrate the database, compose the
 * service over it, listen. SIGTERM or SIGINT drains the server (see `drainable`: every answer
 * says `Connection: close`, the process goes on only while a request is in flight, up to
 * SHUTDOWN_TIMEOUT_MS), then closes the service, the pool and the embedded PostgreSQL.
 */
export const runServer = async (config: Config, logger: Logger, compose: Compose) => {
  let embedded: EmbeddedPostgres | null = null;
  let db: Db | null = null;
  let server: Server | null = null;
  let drain = async (_backstopMs: number) => {};
  let metricsServer: Server | null = null;
  let close = async () => {};

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    await drain(config.SHUTDOWN_TIMEOUT_MS);
    await closeServer(metricsServer);
    await close().catch(() => undefined);
    await db?.close().catch(() => undefined);
    await finalStop(embedded, logger);
  };
  onStopSignals(shutdown);

  try {
    const database = await openMigratedDatabase(config, logger);
    embedded = database.embedded;
    db = new Db({
      connectionString: database.url,
      max: config.DB_POOL_MAX,
      statementTimeoutMs: config.DB_STATEMENT_TIMEOUT_MS,
      queryTimeoutMs: config.DB_QUERY_TIMEOUT_MS,
      connectionTimeoutMillis: config.DB_QUERY_TIMEOUT_MS,
      onError: (error) => logger.warn({ error: errorSummary(error) }, 'idle database connection lost'),
    });
    const service = await compose(db, await sessionSecretFor(config));
    close = service.close;
    // A cluster worker offers its metrics to the primary, which serves the sum.
    if (cluster.isWorker) offerToPrimary(service.metrics);
    else if (config.METRICS_PORT !== undefined) metricsServer = await listenForMetrics(service.metrics, config, logger);
    server = service.app.listen(config.PORT, config.HOST);
    drain = drainable(server).drain;
    await new Promise<void>((resolve, reject) => {
      server!.once('listening', resolve);
      server!.once('error', reject);
    });
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.PORT;
    logger.info({ port, host: config.HOST, url: `http://localhost:${port}` }, 'listening');
  } catch (error) {
    logger.fatal({ error: errorSummary(error), stack: (error as Error)?.stack }, 'start-up failed');
    await db?.close().catch(() => undefined);
    await embedded?.stop().catch(() => undefined);
    process.exit(1);
  }
};
