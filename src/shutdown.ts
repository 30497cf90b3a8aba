// How the server and the cluster primary stop: on SIGINT or SIGTERM, close what they
// opened, stop the embedded PostgreSQL last, and exit with code 0.
import type { Server, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { errorSummary } from './adapters/logger.ts';
import type { EmbeddedPostgres } from './adapters/persistence/embedded-postgres.ts';

/**
 * A server that can drain: once `drain` is called, every response still to be written says
 * `Connection: close`, a request that arrives on a socket already open is still answered (with
 * `Connection: close`), and each socket closes as soon as it is idle. `drain` resolves when the
 * last socket has closed; at `backstopMs` every socket still open is cut.
 */
export const drainable = (server: Server) => {
  let draining = false;
  const inFlight = new Set<ServerResponse>();
  // Before the app's own listener, so the header is set before any handler writes.
  server.prependListener('request', (_request, response: ServerResponse) => {
    if (draining) response.setHeader('Connection', 'close');
    else {
      inFlight.add(response);
      response.once('close', () => inFlight.delete(response));
    }
    // A response whose headers left before the drain said keep-alive: close its socket once idle.
    response.once('finish', () => draining && setImmediate(() => server.closeIdleConnections()));
  });
  return {
    drain: (backstopMs: number) =>
      new Promise<void>((resolve) => {
        draining = true;
        for (const response of inFlight) if (!response.headersSent) response.setHeader('Connection', 'close');
        const force = setTimeout(() => server.closeAllConnections(), backstopMs);
        force.unref();
        server.close(() => (clearTimeout(force), resolve()));
        server.closeIdleConnections();
      }),
  };
};

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

