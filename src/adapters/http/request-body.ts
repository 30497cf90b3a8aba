import type { Request } from 'express';

export type RawBody = { kind: 'ok'; raw: Buffer } | { kind: 'too_large' };

/** How much of an oversized body is still read (and dropped) before the 413, and for how long. */
const DRAIN_BYTES = 1024 * 1024;
const DRAIN_MS = 2_000;

/**
 * Reads the request body, counting the bytes actually received (Content-Length is only
 * used to refuse early, never trusted as the size). Past `limit` it keeps nothing more, but
 * goes on reading and dropping what the client is still sending (up to DRAIN_BYTES more, for
 * DRAIN_MS at most) before it resolves `too_large`: closing a socket with unread bytes resets
 * the connection, and a reverse proxy still writing the body would answer 502, not our 413.
 */
export const readRawBody = (req: Request, limit: number): Promise<RawBody> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let settled = false;
    let draining: NodeJS.Timeout | null = null;
    const finish = (result: RawBody) => {
      if (settled) return;
      settled = true;
      if (draining) clearTimeout(draining);
      resolve(result);
    };
    const overflow = () => {
      chunks.length = 0;
      draining ??= setTimeout(() => finish({ kind: 'too_large' }), DRAIN_MS);
    };
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) overflow();
    req.on('data', (chunk: Buffer) => {
      if (settled) return;
      received += chunk.length;
      if (draining) {
        if (received > limit + DRAIN_BYTES) finish({ kind: 'too_large' });
        return;
      }
      if (received > limit) return overflow();
      chunks.push(chunk);
    });
    req.on('end', () => finish(draining ? { kind: 'too_large' } : { kind: 'ok', raw: Buffer.concat(chunks, received) }));
    req.on('error', (error) => {
      if (settled) return;
      settled = true;
      if (draining) clearTimeout(draining);
      reject(error);
    });
  });

/**
 * `{ kind: 'lone_surrogate', path }`: JSON's `\ud800` escapes can spell a string that is not
 * Unicode text (a lone surrogate), which PostgreSQL's jsonb refuses and its text columns would
 * store as U+FFFD. One rule for every field: such a body is refused (400 validation failed),
 * naming the first field that holds one.
 */
export type ParsedJson = { kind: 'ok'; value: unknown } | { kind: 'invalid' } | { kind: 'lone_surrogate'; path: (string | number)[] };

export const LONE_SURROGATE_MESSAGE = 'Must be Unicode text: it contains a lone surrogate (\\ud800-\\udfff)';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * JSON text can spell a lone surrogate only with a `\uD800`-`\uDFFF` escape: decoding the bytes
 * as UTF-8 turns an encoded surrogate into U+FFFD. Without such an escape the parsed value is
 * text throughout, and is not walked.
 */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

/** Where the first string or key holding a lone surrogate is, or null when every one is text. */
const loneSurrogateAt = (value: unknown): (string | number)[] | null => {
  if (typeof value === 'string') return LONE_SURROGATE.test(value) ? [] : null;
  if (value === null || typeof value !== 'object') return null;
  const entries: [string | number, unknown][] = Array.isArray(value) ? value.map((item, index) => [index, item]) : Object.entries(value);
  for (const [key, item] of entries) {
    if (typeof key === 'string' && LONE_SURROGATE.test(key)) return [key];
    const found = loneSurrogateAt(item);
    if (found) return [key, ...found];
  }
  return null;
};

export const parseJson = (raw: Buffer): ParsedJson => {
  const text = raw.toString('utf8');
  if (text.trim() === '') return { kind: 'invalid' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: 'invalid' };
  }
  const path = SURROGATE_ESCAPE.test(text) ? loneSurrogateAt(value) : null;
  return path ? { kind: 'lone_surrogate', path } : { kind: 'ok', value };
};

const mediaType = (req: Request) => (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();

export const isJsonContentType = (req: Request) => mediaType(req) === 'application/json';

export const isFormContentType = (req: Request) => mediaType(req) === 'application/x-www-form-urlencoded';

