// How the server and the cluster primary stop: on SIGINT or SIGTERM, close what they
// opened, stop the embedded PostgreSQL last, and exit with code 0.
import type { Server } from 'node:http';
import type { Logger } from 'pino';
import { errorSummary } from './adapters/logger.ts';
import type { EmbeddedPostgres } from './adapters/persistence/embedded-postgres.ts';

/** How long requests in flight may take to finish once a stop is asked for. */
export const SHUTDOWN_GRACE_MS = 10_000;

export const closeServer = async (server: Server | null) => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
};

/** Last of a shutdown: the embedded PostgreSQL if we started it, then exit code 0. */
export const finalStop = async (embedded: EmbeddedPostgres | null, logger: Logger) => {
  await embedded?.stop().catch((error) => logger.error({ error: errorSummary(error) }, 'stopping embedded PostgreSQL'));
  logger.info('stopped');
  process.exit(0);
};

/** SIGINT (Ctrl-C) and SIGTERM (a supervisor) both stop the process cleanly, once. */
export const onStopSignals = (shutdown: (signal: string) => Promise<void>) => {
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
};

