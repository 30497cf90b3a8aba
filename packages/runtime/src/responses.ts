import { LONE_SURROGATE_MESSAGE, parseJsonText, validationDetails, type ErrorReply } from '@careerbot/chat-protocol';
import { z } from 'zod';
import type { RuntimeReply, RuntimeRequest } from './exchange.ts';

const JSON_HEADERS = {
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
};

export const json = (status: number, body: unknown, headers: Record<string, string> = {}): RuntimeReply => ({
  status,
  headers: { ...JSON_HEADERS, ...headers },
  body: JSON.stringify(body),
});

export const errorResponse = (reply: ErrorReply): RuntimeReply => json(reply.status, reply.body, reply.headers);

export const REFUSALS = {
  unsupportedMediaType: { status: 415, body: { error: 'unsupported_media_type' } },
  tooLarge: { status: 413, body: { error: 'request_too_large' }, headers: { connection: 'close' } },
  invalidJson: { status: 400, body: { error: 'invalid_json' } },
  notFound: { status: 404, body: { error: 'not_found' } },
  botNotFound: { status: 404, body: { error: 'bot_not_found' } },
  /** The platform has not been reached since start-up, so the bot is not known yet. */
  serviceUnavailable: { status: 503, body: { error: 'service_unavailable' }, headers: { 'retry-after': '5' } },
  originNotAllowed: { status: 403, body: { error: 'origin_not_allowed' } },
  internalError: { status: 500, body: { error: 'internal_error' } },
} satisfies Record<string, ErrorReply>;

const validationFailed = (error: z.ZodError): ErrorReply => ({
  status: 400,
  body: { error: 'validation_failed', details: validationDetails(error) },
});

const decoder = new TextDecoder();

const isJsonContentType = (request: RuntimeRequest) =>
  (request.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase() === 'application/json';

/**
 * The platform's order for a JSON body: content type (415), size (413), JSON (400 invalid_json),
 * then the schema (400 validation_failed with details; a lone surrogate anywhere is one too).
 */
export const readJsonBody = async <S extends z.ZodType>(
  request: RuntimeRequest,
  schema: S,
  limit: number,
): Promise<{ ok: true; value: z.output<S> } | { ok: false; reply: ErrorReply }> => {
  if (!isJsonContentType(request)) return { ok: false, reply: REFUSALS.unsupportedMediaType };
  const declared = Number(request.header('content-length'));
  if (Number.isFinite(declared) && declared > limit) return { ok: false, reply: REFUSALS.tooLarge };
  const bytes = await request.bytes(limit);
  if (bytes.kind === 'too_large') return { ok: false, reply: REFUSALS.tooLarge };
  const parsed = parseJsonText(decoder.decode(bytes.bytes));
  if (parsed.kind === 'invalid') return { ok: false, reply: REFUSALS.invalidJson };
  if (parsed.kind === 'lone_surrogate') {
    return { ok: false, reply: validationFailed(new z.ZodError([{ code: 'custom', path: parsed.path, message: LONE_SURROGATE_MESSAGE, input: undefined }])) };
  }
  const valid = schema.safeParse(parsed.value);
  return valid.success ? { ok: true, value: valid.data } : { ok: false, reply: validationFailed(valid.error) };
};
