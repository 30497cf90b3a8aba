import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Runtime } from './runtime.ts';

export interface RuntimeServer {
  server: http.Server;
  /** http://host:port, as listening. */
  url: string;
  /** Stops listening, drains the runtime (requests in flight, one last attempt at the queue), then closes every connection. */
  close(): Promise<void>;
}

const requestHeaders = (incoming: http.IncomingHttpHeaders): Headers => {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming)) {
    if (value === undefined || name.startsWith(':')) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  return headers;
};

/** The largest body any route takes (a chat's 16 KB); one byte more is enough for the handler to answer 413. */
const MAX_BODY_BYTES = 16_384;
/** How much of an oversized body is still read and dropped, so the client receives the 413 instead of a reset. */
const DRAIN_BYTES = 1024 * 1024;

/**
 * The body's bytes, at most MAX_BODY_BYTES + 1: a Uint8Array costs less to hand over than a web
 * stream. What comes past that is read and dropped (up to DRAIN_BYTES), never kept.
 */
const bodyBytes = (req: http.IncomingMessage): Promise<Uint8Array<ArrayBuffer>> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let kept = 0;
    let received = 0;
    req.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > MAX_BODY_BYTES + 1 + DRAIN_BYTES) req.destroy();
      if (kept > MAX_BODY_BYTES) return;
      const part = chunk.subarray(0, MAX_BODY_BYTES + 1 - kept);
      chunks.push(part);
      kept += part.length;
    });
    const done = () => resolve(new Uint8Array(Buffer.concat(chunks, kept)));
    req.on('end', done);
    req.on('error', reject);
    req.on('close', done);
  });

/** node:http -> Request -> the runtime's handler -> Response, a streamed body written through as it comes. */
const serve = (runtime: Runtime) => async (req: http.IncomingMessage, res: http.ServerResponse) => {
  const gone = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) gone.abort();
  });
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  const request = new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`, {
    method,
    headers: requestHeaders(req.headers),
    body: hasBody ? await bodyBytes(req) : undefined,
    signal: gone.signal,
  });
  const response = await runtime.fetch(request, { clientAddress: req.socket.remoteAddress });
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  res.writeHead(response.status, headers);
  if (!response.body) {
    res.end();
    return;
  }
  if (!response.headers.get('content-type')?.startsWith('text/event-stream')) {
    res.end(Buffer.from(await response.arrayBuffer()));
    return;
  }
  const reader = response.body.getReader();
  try {
    for (;;) {
      const next = await reader.read();
      if (next.done) break;
      if (gone.signal.aborted) {
        await reader.cancel();
        break;
      }
      if (!res.write(next.value)) await new Promise((resolve) => res.once('drain', resolve).once('close', resolve));
    }
  } finally {
    res.end();
  }
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
