/**
 * What the runtime reads of a request and what it answers, whichever server carries them: the
 * standard fetch handler (`fetch-exchange.ts`) and the Node server (`node-server.ts`) each adapt
 * their own objects to these, so that on Node no web Request, Response or stream is built for a
 * reply that is a few hundred bytes of JSON.
 */

/** A body's bytes, or too_large once more than the limit arrived. */
export type BodyBytes = { kind: 'ok'; bytes: Uint8Array } | { kind: 'too_large' };

export interface RuntimeRequest {
  method: string;
  /** The path without the query. */
  path: string;
  /** A header's value (several joined with ", "), or null. The name in lower case. */
  header(name: string): string | null;
  /** The body's bytes, read as they arrive; past `limit`, too_large. Read once. */
  bytes(limit: number): Promise<BodyBytes>;
  /** Aborted when the visitor leaves before the answer has been sent whole. */
  signal: AbortSignal;
  /** The socket's address, where the server knows it. */
  clientAddress?: string;
}

/** Where a streamed answer's text goes, as it is written. */
export interface TextSink {
  write(text: string): void;
  end(): void;
}

export type RuntimeReply =
  | { status: number; headers: Record<string, string>; body: string | null }
  /** Server-sent events: `stream` writes them into the sink and resolves once it has ended it. */
  | { status: number; headers: Record<string, string>; stream: (sink: TextSink) => Promise<void> };
