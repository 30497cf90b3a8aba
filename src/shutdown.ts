// How the server and the cluster primary stop: on SIGINT or SIGTERM, close what they
// opened, stop the embedded PostgreSQL last, and exit with code 0.
import type { Server, ServerResponse } from 'node:http';
import net from 'node:net';
import type { Logger } from 'pino';
import { errorSummary } from './adapters/logger.ts';
import type { EmbeddedPostgres } from './adapters/persistence/embedded-postgres.ts';

/**
 * A server that can drain: once `drain` is called, every response still to be written says
 * `Connection: close`, a request that arrives on a socket already open is still answered (with
 * `Connection: close`), and no new connection is accepted. `drain` resolves when the last socket
 * has closed; at `backstopMs` every socket still open is cut.
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
  });
  return {
    drain: (backstopMs: number) =>
      new Promise<void>((resolve) => {
        draining = true;
        for (const response of inFlight) if (!response.headersSent) response.setHeader('Connection', 'close');
        const force = setTimeout(() => server.closeAllConnections(), backstopMs);
        force.unref();
        // Stop accepting, but leave idle kept-alive sockets to their client: closing one races with
        // a request the client (a proxy's upstream pool) is sending on it that instant, and a proxy
        // does not resend a POST (a 502). A request that arrives on one is answered with
        // `Connection: close`; an idle one closes when its client drops it (nginx after 4 s) or
        // at Node's keep-alive timeout (5 s). http.Server#close would close them at once.
        net.Server.prototype.close.call(server, () => (clearTimeout(force), resolve()));
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

