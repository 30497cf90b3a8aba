import cluster from 'node:cluster';
import type { Server } from 'node:http';
import type { Logger } from 'pino';
import type { Config } from './adapters/config.ts';
import { errorSummary } from './adapters/logger.ts';
import { clusterMetrics } from './adapters/metrics/metrics.ts';
import type { EmbeddedPostgres } from './adapters/persistence/embedded-postgres.ts';
import { closeServer, finalStop, onStopSignals } from './shutdown.ts';
import { listenForMetrics, masterKeysFor, openMigratedDatabase, sessionSecretFor } from './startup.ts';

/**
 * WEB_CONCURRENCY > 1: this primary opens the database (starting the embedded PostgreSQL
 * once, here), migrates, settles the session secret, and forks the workers, which share
 * the port. A worker that dies is replaced. SIGTERM or SIGINT stops every worker (each
 * drains its requests), then the database, then this process, with exit code 0.
 */
export const runPrimary = async (config: Config, logger: Logger) => {
  let embedded: EmbeddedPostgres | null = null;
  let metricsServer: Server | null = null;
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal, workers: Object.keys(cluster.workers ?? {}).length }, 'shutting down the workers');
    const workers = Object.values(cluster.workers ?? {}).filter((worker) => worker !== undefined);
    await Promise.all(
      workers.map(
        (worker) =>
          new Promise<void>((resolve) => {
            if (worker.isDead()) return resolve();
            const force = setTimeout(() => worker.process.kill('SIGKILL'), config.SHUTDOWN_TIMEOUT_MS + 5_000);
            worker.once('exit', () => (clearTimeout(force), resolve()));
            worker.process.kill('SIGTERM');
          }),
      ),
    );
    await closeServer(metricsServer);
    await finalStop(embedded, logger);
  };
  onStopSignals(shutdown);

  try {
    const database = await openMigratedDatabase(config, logger);
    embedded = database.embedded;
    const sessionSecret = await sessionSecretFor(config);
    // The workers find the database and the secret in their environment.
    const workerEnv = { DATABASE_URL: database.url, SESSION_SECRET: sessionSecret, KEY_ENCRYPTION_KEY: (await masterKeysFor(config))[0] };
    const fork = () => cluster.fork(workerEnv);
    cluster.on('exit', (worker, code, signal) => {
      if (stopping) return;
      logger.error({ workerPid: worker.process.pid, code, signal }, 'worker died; starting another');
      fork();
    });
    for (let i = 0; i < config.WEB_CONCURRENCY; i++) fork();
    if (config.METRICS_PORT !== undefined) metricsServer = await listenForMetrics(clusterMetrics(), config, logger);
    logger.info({ workers: config.WEB_CONCURRENCY }, 'workers started');
  } catch (error) {
    logger.fatal({ error: errorSummary(error), stack: (error as Error)?.stack }, 'start-up failed');
    await embedded?.stop().catch(() => undefined);
    process.exit(1);
  }
};
