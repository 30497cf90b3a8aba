import type { BodyBytes, RuntimeReply, RuntimeRequest } from './exchange.ts';

const encoder = new TextEncoder();

/** The body's bytes, counted as they arrive; past `limit`, too_large. */
const readBytes = async (body: ReadableStream<Uint8Array> | null, limit: number): Promise<BodyBytes> => {
  if (!body) return { kind: 'ok', bytes: new Uint8Array() };
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > limit) {
      await reader.cancel().catch(() => undefined);
      return { kind: 'too_large' };
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(received);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { kind: 'ok', bytes };
};

/**
 * A standard Request as the runtime reads it, and the answer back as a standard Response. The
 * visitor has left when the Request's signal aborts or when the Response's body is cancelled.
 */
export const fetchExchange = (request: Request, clientAddress: string | undefined) => {
  const left = new AbortController();
  if (request.signal.aborted) left.abort();
  else request.signal.addEventListener('abort', () => left.abort(), { once: true });
  const runtimeRequest: RuntimeRequest = {
    method: request.method,
    path: new URL(request.url).pathname,
    header: (name) => request.headers.get(name),
    bytes: (limit) => readBytes(request.body, limit),
    signal: left.signal,
    clientAddress,
  };
  const toResponse = (reply: RuntimeReply): Response => {
    if (!('stream' in reply)) return new Response(reply.body, { status: reply.status, headers: reply.headers });
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        void reply.stream({
          write: (text) => {
            if (!left.signal.aborted) controller.enqueue(encoder.encode(text));
          },
          end: () => {
            try {
              controller.close();
            } catch {
              // Already cancelled by the reader.
            }
          },
        });
      },
      cancel() {
        left.abort();
      },
    });
    return new Response(body, { status: reply.status, headers: reply.headers });
  };
  return { request: runtimeRequest, toResponse };
};
