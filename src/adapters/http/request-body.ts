import type { Request } from 'express';

export type RawBody = { kind: 'ok'; raw: Buffer } | { kind: 'too_large' };

/**
 * Reads the request body, counting the bytes actually received (Content-Length is only
 * used to refuse early, never trusted as the size). Past `limit` it keeps nothing more:
 * further chunks are discarded while the caller answers 413.
 */
export const readRawBody = (req: Request, limit: number): Promise<RawBody> => {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve({ kind: 'too_large' });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let settled = false;
    const finish = (result: RawBody) => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    req.on('data', (chunk: Buffer) => {
      if (settled) return;
      received += chunk.length;
      if (received > limit) {
        chunks.length = 0;
        finish({ kind: 'too_large' });
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => finish({ kind: 'ok', raw: Buffer.concat(chunks, received) }));
    req.on('error', (error) => {
      if (!settled) {
        settled = true;
        reject(error);
      }
    });
  });
};

export type ParsedJson = { kind: 'ok'; value: unknown } | { kind: 'invalid' };

export const parseJson = (raw: Buffer): ParsedJson => {
  const text = raw.toString('utf8');
  if (text.trim() === '') return { kind: 'invalid' };
  try {
    return { kind: 'ok', value: JSON.parse(text) };
  } catch {
    return { kind: 'invalid' };
  }
};

const mediaType = (req: Request) => (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();

export const isJsonContentType = (req: Request) => mediaType(req) === 'application/json';

export const isFormContentType = (req: Request) => mediaType(req) === 'application/x-www-form-urlencoded';

