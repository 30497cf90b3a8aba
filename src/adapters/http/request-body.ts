import type { Request } from 'express';
import { parseJsonText, type ParsedJson } from '@careerbot/chat-protocol';

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

export { LONE_SURROGATE_MESSAGE, type ParsedJson } from '@careerbot/chat-protocol';

export const parseJson = (raw: Buffer): ParsedJson => parseJsonText(raw.toString('utf8'));

const mediaType = (req: Request) => (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();

export const isJsonContentType = (req: Request) => mediaType(req) === 'application/json';

export const isFormContentType = (req: Request) => mediaType(req) === 'application/x-www-form-urlencoded';

