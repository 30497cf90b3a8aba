import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A local HTTP server that speaks enough of each provider's wire format for the real SDKs:
 *
 * - OpenAI:    POST /v1/chat/completions (or /chat/completions), POST /v1/embeddings
 * - Azure:     POST /openai/deployments/{deployment}/chat/completions?api-version=...
 * - Anthropic: POST /v1/messages (400 to temperature/top_p/top_k, as API version 2026-10-21 does)
 * - Google:    POST /v1beta/models/{model}:generateContent (and :streamGenerateContent?alt=sse)
 *
 * A request that asks for a stream (`"stream": true`, or Google's streamGenerateContent) gets a
 * success as server-sent events in that provider's format, a word per event, `chunkDelayMs` apart
 * when `fakeReply.stream` says so; `breakAfter` resets the connection after that many events.
 *
 * Every request takes the next reply of the sequence given to `respondWith`; the last one
 * repeats. With no sequence it answers at once with a success (`defaultReply`).
 */

export type FakeProviderKind = 'openai' | 'azure' | 'anthropic' | 'google' | 'embeddings' | 'unknown';

export interface RecordedRequest {
  provider: FakeProviderKind;
  method: string;
  /** Path and query, as received. */
  url: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  /** Parsed JSON, or the raw text when the body is not JSON. */
  body: unknown;
  /** `body.model`, the Azure deployment, or the model in Google's path. */
  model: string | undefined;
}

export type FakeReply =
  | { type: 'success'; text: string; delayMs?: number }
  | { type: 'stream'; chunks: string[]; chunkDelayMs: number; breakAfter?: number; delayMs?: number }
  | { type: 'status'; status: number; retryAfter?: string; delayMs?: number }
  | { type: 'invalid_json'; delayMs?: number }
  | { type: 'wrong_shape'; delayMs?: number }
  | { type: 'connection_reset'; delayMs?: number };

export const DEFAULT_FAKE_REPLY_TEXT = 'Hello from the fake provider.';

export const fakeReply = {
  /** 200 with this text (embeddings requests get vectors; the text is ignored). */
  success: (text: string = DEFAULT_FAKE_REPLY_TEXT): FakeReply => ({ type: 'success', text }),
  /** An error status in the provider's error format, with an optional `retry-after` header. */
  status: (status: number, options: { retryAfter?: number | string } = {}): FakeReply =>
    options.retryAfter === undefined
      ? { type: 'status', status }
      : { type: 'status', status, retryAfter: String(options.retryAfter) },
  /** 200, `content-type: application/json`, and a body that is not JSON. */
  invalidJson: (): FakeReply => ({ type: 'invalid_json' }),
  /** 200 with valid JSON of the wrong shape. */
  wrongShape: (): FakeReply => ({ type: 'wrong_shape' }),
  /** Reads the request, then resets the TCP connection without answering. */
  connectionReset: (): FakeReply => ({ type: 'connection_reset' }),
  /** Streamed (to a streaming request) as these chunks, `chunkDelayMs` apart; `breakAfter` chunks, then a reset connection. */
  stream: (chunks: string[], options: { chunkDelayMs?: number; breakAfter?: number } = {}): FakeReply => ({
    type: 'stream',
    chunks,
    chunkDelayMs: options.chunkDelayMs ?? 0,
    ...(options.breakAfter === undefined ? {} : { breakAfter: options.breakAfter }),
  }),
  /** `reply`, sent after `delayMs`. */
  delayed: (delayMs: number, reply: FakeReply = fakeReply.success()): FakeReply => ({ ...reply, delayMs }),
};

export interface FakeLlmProvider {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  readonly url: string;
  /** Base URLs to hand to each adapter (OpenAI's includes `/v1`, like the real one). */
  readonly baseUrls: { openai: string; anthropic: string; google: string; azureEndpoint: string };
  /** Every request received, oldest first (empty when recording is off). */
  readonly requests: readonly RecordedRequest[];
  /** Streams whose client closed the connection before the last event. */
  readonly streamsClosedByClient: number;
  respondWith(...replies: FakeReply[]): void;
  /** Forgets recorded requests and the reply sequence. */
  reset(): void;
  close(): Promise<void>;
}

export interface FakeLlmProviderOptions {
  /** Off for benchmarks: nothing is kept per request. Default true. */
  recordRequests?: boolean;
  /** The answer when no sequence is set. Default: an immediate success. */
  defaultReply?: FakeReply;
  /** The answer to a request, when no sequence is set, before `defaultReply`: by model, say. */
  replyFor?: (request: RecordedRequest) => FakeReply | undefined;
  /** Told as each request has been read, and as each chunk of a streamed reply is written: for a benchmark that times the paths around them. */
  onRequest?: (request: RecordedRequest) => void;
  onChunkWritten?: (request: RecordedRequest, chunk: string) => void;
}

export async function startFakeLlmProvider(options: FakeLlmProviderOptions = {}): Promise<FakeLlmProvider> {
  const recordRequests = options.recordRequests ?? true;
  const defaultReply = options.defaultReply ?? fakeReply.success();
  const requests: RecordedRequest[] = [];
  let sequence: FakeReply[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let streamsClosedByClient = 0;

  const nextReply = (request: RecordedRequest): FakeReply => {
    if (sequence.length > 1) return sequence.shift() as FakeReply;
    return sequence[0] ?? options.replyFor?.(request) ?? defaultReply;
  };

  const server = createServer((req, res) => {
    readBody(req).then(
      (rawBody) => {
        const request = describeRequest(req, rawBody);
        options.onRequest?.(request);
        if (recordRequests) requests.push(request);
        const reply = refusal(request) ?? nextReply(request);
        const answer = () => {
          if (!isStreaming(request) || (reply.type !== 'success' && reply.type !== 'stream')) {
            send(req, res, request, reply.type === 'stream' ? fakeReply.success(reply.chunks.join('')) : reply);
            return;
          }
          const chunks = reply.type === 'stream' ? reply : { chunks: reply.text.split(/(?<= )/), chunkDelayMs: 0 };
          sendStream(req, res, request, chunks, timers, () => (streamsClosedByClient += 1), options.onChunkWritten);
        };
        if (!reply.delayMs) {
          answer();
          return;
        }
        const timer = setTimeout(() => {
          timers.delete(timer);
          answer();
        }, reply.delayMs);
        timers.add(timer);
        res.on('close', () => {
          clearTimeout(timer);
          timers.delete(timer);
        });
      },
      () => req.socket.destroy(),
    );
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;

  return {
    url,
    baseUrls: { openai: `${url}/v1`, anthropic: url, google: url, azureEndpoint: url },
    requests,
    get streamsClosedByClient() {
      return streamsClosedByClient;
    },
    respondWith(...replies) {
      sequence = [...replies];
    },
    reset() {
      requests.length = 0;
      sequence = [];
      streamsClosedByClient = 0;
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const MAX_BODY_BYTES = 8 * 1024 * 1024;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) reject(new Error('request body too large'));
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

const AZURE_CHAT_PATH = /^\/openai\/deployments\/([^/]+)\/chat\/completions$/;
const AZURE_EMBEDDINGS_PATH = /^\/openai\/deployments\/([^/]+)\/embeddings$/;
const GOOGLE_PATH = /^\/v1(?:beta)?\/models\/([^/:]+):(?:generateContent|streamGenerateContent)$/;

function describeRequest(req: IncomingMessage, rawBody: string): RecordedRequest {
  const url = req.url ?? '/';
  const parsedUrl = new URL(url, 'http://fake.invalid');
  const path = parsedUrl.pathname;
  const body = parseJson(rawBody);
  const bodyModel = stringField(body, 'model');
  const post = req.method === 'POST';

  let provider: FakeProviderKind = 'unknown';
  let model = bodyModel;
  const azureChat = AZURE_CHAT_PATH.exec(path);
  const azureEmbeddings = AZURE_EMBEDDINGS_PATH.exec(path);
  const google = GOOGLE_PATH.exec(path);
  if (!post) provider = 'unknown';
  else if (path === '/v1/chat/completions' || path === '/chat/completions') provider = 'openai';
  else if (path === '/v1/embeddings' || path === '/embeddings') provider = 'embeddings';
  else if (path === '/v1/messages') provider = 'anthropic';
  else if (azureChat) {
    provider = 'azure';
    model = decodeURIComponent(azureChat[1] ?? '');
  } else if (azureEmbeddings) {
    provider = 'embeddings';
    model = decodeURIComponent(azureEmbeddings[1] ?? '');
  } else if (google) {
    provider = 'google';
    model = decodeURIComponent(google[1] ?? '');
  }

  return {
    provider,
    method: req.method ?? 'GET',
    url,
    path,
    query: Object.fromEntries(parsedUrl.searchParams),
    headers: req.headers,
    body,
    model,
  };
}

/** What the real provider would refuse whatever the test programmed. */
function refusal(request: RecordedRequest): FakeReply | null {
  if (request.provider === 'unknown') return fakeReply.status(404);
  if (request.provider === 'anthropic' && rejectsSamplingParameters(request)) return fakeReply.status(400);
  return null;
}

/** Anthropic API version 2026-10-21 (sent by @anthropic-ai/sdk 1.x) answers 400 to any of these. */
function rejectsSamplingParameters(request: RecordedRequest): boolean {
  const version = request.headers['anthropic-version'];
  if (typeof version !== 'string' || version < '2026-10-21') return false;
  const body = request.body;
  if (typeof body !== 'object' || body === null) return false;
  return ['temperature', 'top_p', 'top_k'].some((name) => name in body);
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function stringField(value: unknown, key: string): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const field = (value as Record<string, unknown>)[key];
  return typeof field === 'string' ? field : undefined;
}

function send(req: IncomingMessage, res: ServerResponse, request: RecordedRequest, reply: FakeReply): void {
  switch (reply.type) {
    case 'success':
      return sendJson(res, 200, successBody(request, reply.text));
    case 'status': {
      const headers: Record<string, string> = reply.retryAfter === undefined ? {} : { 'retry-after': reply.retryAfter };
      return sendJson(res, reply.status, errorBody(request.provider, reply.status, reply.retryAfter), headers);
    }
    case 'invalid_json':
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"choices": [{"message": {"content": "cut off');
      return;
    case 'wrong_shape':
      return sendJson(res, 200, { unexpected: true, choices: 'none', content: 42, candidates: {} });
    case 'connection_reset':
      req.socket.resetAndDestroy();
      return;
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const payload = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(payload),
    ...headers,
  });
  res.end(payload);
}

function successBody(request: RecordedRequest, text: string): unknown {
  const model = request.model ?? 'fake-model';
  switch (request.provider) {
    case 'openai':
    case 'azure':
      return {
        id: 'chatcmpl-fake',
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model,
        choices: [
          { index: 0, message: { role: 'assistant', content: text, refusal: null }, logprobs: null, finish_reason: 'stop' },
        ],
        usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
      };
    case 'anthropic':
      return {
        id: 'msg_fake',
        type: 'message',
        role: 'assistant',
        model,
        content: [{ type: 'text', text }],
        stop_reason: 'end_turn',
        stop_sequence: null,
        usage: { input_tokens: 10, output_tokens: 10 },
      };
    case 'google':
      return {
        candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP', index: 0 }],
        usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 10, totalTokenCount: 20 },
        modelVersion: model,
      };
    case 'embeddings':
      return embeddingsBody(request, model);
    case 'unknown':
      return { error: 'not_found' };
  }
}

/** Items come back in reverse order, each with its `index`, so clients must not rely on order. */
function embeddingsBody(request: RecordedRequest, model: string): unknown {
  const body = request.body as { input?: unknown; encoding_format?: unknown } | undefined;
  const inputs = typeof body?.input === 'string' ? [body.input] : Array.isArray(body?.input) ? body.input : [];
  const base64 = body?.encoding_format === 'base64';
  const data = inputs.map((input, index) => {
    const vector = fakeEmbedding(typeof input === 'string' ? input : JSON.stringify(input));
    return { object: 'embedding', index, embedding: base64 ? float32Base64(vector) : vector };
  });
  return {
    object: 'list',
    data: data.reverse(),
    model,
    usage: { prompt_tokens: inputs.length, total_tokens: inputs.length },
  };
}

function float32Base64(vector: number[]): string {
  return Buffer.from(new Float32Array(vector).buffer).toString('base64');
}

function errorBody(provider: FakeProviderKind, status: number, retryAfter: string | undefined): unknown {
  const message = `fake provider error ${status}`;
  switch (provider) {
    case 'anthropic':
      return { type: 'error', error: { type: anthropicErrorType(status), message } };
    case 'google': {
      const details = retryAfter === undefined
        ? []
        : [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: `${retryAfter}s` }];
      return { error: { code: status, message, status: googleErrorStatus(status), details } };
    }
    default:
      return { error: { message, type: 'fake_error', param: null, code: String(status) } };
  }
}

function anthropicErrorType(status: number): string {
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 429) return 'rate_limit_error';
  if (status === 529) return 'overloaded_error';
  return status >= 500 ? 'api_error' : 'invalid_request_error';
}

function googleErrorStatus(status: number): string {
  if (status === 401) return 'UNAUTHENTICATED';
  if (status === 403) return 'PERMISSION_DENIED';
  if (status === 404) return 'NOT_FOUND';
  if (status === 429) return 'RESOURCE_EXHAUSTED';
  if (status === 503) return 'UNAVAILABLE';
  return status >= 500 ? 'INTERNAL' : 'INVALID_ARGUMENT';
}

export const FAKE_EMBEDDING_DIMENSIONS = 64;

const STOP_WORDS = new Set([
  'a', 'an', 'and', 'are', 'as', 'at', 'be', 'by', 'did', 'do', 'does', 'for', 'from', 'has', 'have', 'he',
  'her', 'his', 'how', 'i', 'in', 'is', 'it', 'its', 'of', 'on', 'or', 'she', 'that', 'the', 'their', 'they',
  'this', 'to', 'was', 'were', 'what', 'when', 'where', 'which', 'who', 'with', 'you', 'your',
]);

/**
 * A deterministic, L2-normalised bag-of-words vector: each word (lower-cased, stop words
 * dropped, a plural `s` removed) adds 1 to the dimension its FNV-1a hash picks. Texts that
 * share words have a high cosine similarity. A text without words maps to the first axis.
 */
export function fakeEmbedding(text: string): number[] {
  const vector = new Array<number>(FAKE_EMBEDDING_DIMENSIONS).fill(0);
  for (const word of words(text)) {
    const dimension = fnv1a(word) % FAKE_EMBEDDING_DIMENSIONS;
    vector[dimension] = (vector[dimension] ?? 0) + 1;
  }
  const length = Math.hypot(...vector);
  if (length === 0) {
    vector[0] = 1;
    return vector;
  }
  return vector.map((value) => value / length);
}

function words(text: string): string[] {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '' && !STOP_WORDS.has(word))
    .map((word) => (word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word));
}

function fnv1a(word: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < word.length; i++) {
    hash ^= word.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

function isStreaming(request: RecordedRequest): boolean {
  if (request.provider === 'google') return request.path.endsWith(':streamGenerateContent');
  const body = request.body;
  return typeof body === 'object' && body !== null && (body as { stream?: unknown }).stream === true;
}

/** The events of a streamed success in the provider's wire format, one per chunk, then the closing ones. */
function streamEvents(request: RecordedRequest, chunks: string[]): { opening: string[]; perChunk: string[]; closing: string[] } {
  const model = request.model ?? 'fake-model';
  const data = (value: unknown) => `data: ${JSON.stringify(value)}\n\n`;
  const named = (event: string, value: unknown) => `event: ${event}\n${data(value)}`;
  switch (request.provider) {
    case 'anthropic':
      return {
        opening: [
          named('message_start', {
            type: 'message_start',
            message: { id: 'msg_fake', type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } },
          }),
          named('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
        ],
        perChunk: chunks.map((text) => named('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } })),
        closing: [
          named('content_block_stop', { type: 'content_block_stop', index: 0 }),
          named('message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 10 } }),
          named('message_stop', { type: 'message_stop' }),
        ],
      };
    case 'google':
      return {
        opening: [],
        perChunk: chunks.map((text) => data({ candidates: [{ content: { role: 'model', parts: [{ text }] }, index: 0 }], modelVersion: model })),
        closing: [data({ candidates: [{ content: { role: 'model', parts: [{ text: '' }] }, finishReason: 'STOP', index: 0 }], modelVersion: model })],
      };
    default: {
      const chunk = (delta: unknown, finish: string | null) =>
        data({ id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] });
      return {
        opening: [chunk({ role: 'assistant', content: '' }, null)],
        perChunk: chunks.map((text) => chunk({ content: text }, null)),
        closing: [chunk({}, 'stop'), 'data: [DONE]\n\n'],
      };
    }
  }
}

function sendStream(
  req: IncomingMessage,
  res: ServerResponse,
  request: RecordedRequest,
  reply: { chunks: string[]; chunkDelayMs: number; breakAfter?: number },
  timers: Set<NodeJS.Timeout>,
  closedByClient: () => void,
  written?: (request: RecordedRequest, chunk: string) => void,
): void {
  const { opening, perChunk, closing } = streamEvents(request, reply.chunks);
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const event of opening) res.write(event);
  let sent = 0;
  let finished = false;
  // Each chunk is due at its own time from the first, as a provider writing at a steady rate: a
  // timer that fires late delays that chunk only, not every chunk after it.
  const started = performance.now();
  res.on('close', () => {
    if (!finished) closedByClient();
  });
  const next = () => {
    if (res.destroyed) return;
    if (reply.breakAfter !== undefined && sent >= reply.breakAfter) {
      finished = true;
      req.socket.resetAndDestroy();
      return;
    }
    if (sent < perChunk.length) {
      res.write(perChunk[sent]);
      written?.(request, reply.chunks[sent]!);
      sent += 1;
      if (reply.chunkDelayMs === 0) return next();
      const timer = setTimeout(
        () => {
          timers.delete(timer);
          next();
        },
        Math.max(0, started + sent * reply.chunkDelayMs - performance.now()),
      );
      timers.add(timer);
      return;
    }
    finished = true;
    for (const event of closing) res.write(event);
    res.end();
  };
  next();
}
