import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BodyBytes } from './exchange.ts';
import type { Runtime } from './runtime.ts';

export interface RuntimeServer {
  server: http.Server;
  /** http://host:port, as listening. */
  url: string;
  /** Stops listening, drains the runtime (requests in flight, one last attempt at the queue), then closes every connection. */
  close(): Promise<void>;
}

/** The largest body any route takes (a chat's 16 KB). */
const MAX_BODY_BYTES = 16_384;
/** How much of an oversized body is still read and dropped, so the client receives the 413 instead of a reset. */
const DRAIN_BYTES = 1024 * 1024;

/**
 * The body's bytes, counted as they arrive: past `limit`, too_large, and what comes after is read
 * and dropped (up to DRAIN_BYTES, so that the client receives the 413 instead of a reset), never kept.
 */
const bodyBytes = (req: http.IncomingMessage, limit: number): Promise<BodyBytes> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    req.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > limit + DRAIN_BYTES) req.destroy();
      else if (received <= limit) chunks.push(chunk);
    });
    const done = () => resolve(received > limit ? { kind: 'too_large' } : { kind: 'ok', bytes: Buffer.concat(chunks, received) });
    req.on('end', done);
    req.on('error', reject);
    req.on('close', done);
  });

/** A header as the runtime reads it: several values joined, as Headers.get does. */
const headerOf = (req: http.IncomingMessage, name: string): string | null => {
  const value = req.headers[name];
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(', ') : value;
};

/**
 * An abort signal for a visitor who leaves before the answer is whole, made when first asked for:
 * most answers (JSON) never ask.
 */
const visitorLeft = (res: http.ServerResponse) => {
  let controller: AbortController | undefined;
  return {
    get signal(): AbortSignal {
      if (controller) return controller.signal;
      const made = new AbortController();
      controller = made;
      if (res.destroyed && !res.writableFinished) made.abort();
      else
        res.on('close', () => {
          if (!res.writableFinished) made.abort();
        });
      return made.signal;
    },
  };
};

/**
 * node:http -> the runtime -> node:http, with no web Request, Response or stream in between: a
 * JSON answer is written in one call, a streamed one as its events come.
 */
const serve = (runtime: Runtime) => async (req: http.IncomingMessage, res: http.ServerResponse) => {
  const left = visitorLeft(res);
  const url = req.url ?? '/';
  const query = url.indexOf('?');
  const reply = await runtime.handle({
    method: req.method ?? 'GET',
    path: query < 0 ? url : url.slice(0, query),
    header: (name) => headerOf(req, name),
    bytes: (limit) => bodyBytes(req, Math.min(limit, MAX_BODY_BYTES)),
    get signal() {
      return left.signal;
    },
    clientAddress: req.socket.remoteAddress,
  });
  if (!('stream' in reply)) {
    res.writeHead(reply.status, reply.headers).end(reply.body ?? undefined);
    return;
  }
  res.writeHead(reply.status, reply.headers);
  // The headers leave now, and in the same packet as the first words when those are ready in this tick.
  res.socket?.cork();
  res.flushHeaders();
  process.nextTick(() => res.socket?.uncork());
  await reply.stream({
    write: (text) => {
      if (!res.destroyed) res.write(text);
    },
    end: () => res.end(),
  });
};

/** Listens on `port` and `host` with the runtime's handler. */
export const startRuntimeServer = async (runtime: Runtime, options: { port: number; host: string }): Promise<RuntimeServer> => {
  const handle = serve(runtime);
  const server = http.createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(res.headersSent ? undefined : JSON.stringify({ error: 'internal_error' }));
    });
  });
  // Shorter than the keep-alive of common proxies, and long enough for a slow visitor's body.
  server.keepAliveTimeout = 5_000;
  server.requestTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    server,
    url: `http://${host}:${address.port}`,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await runtime.drain();
      server.closeAllConnections();
      await closed;
    },
  };
};
