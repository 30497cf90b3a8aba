import { z } from 'zod';
import { UUID_PATTERN } from '../../domain/pagination.ts';

// How a route declares its operation for the API reference: request schemas (the same
// objects it validates with), every status it can answer with the body's zod schema,
// and response headers with their types. openapi.ts walks these declarations.

export type Security = 'none' | 'session' | 'botToken' | 'llmKey' | 'metricsToken';

export interface HeaderDoc {
  description: string;
  schema: z.ZodType;
}

export interface ResponseDoc {
  description: string;
  schema?: z.ZodType;
  contentType?: string;
  /** Other media types the same status may answer with, chosen by the request's Accept. */
  otherContent?: Record<string, z.ZodType>;
  headers?: Record<string, HeaderDoc>;
}

export interface OperationDoc {
  method: 'get' | 'post' | 'patch' | 'delete';
  path: string;
  tag: string;
  summary: string;
  description?: string;
  security: Security;
  body?: z.ZodType;
  /** Content types the body may come in; JSON by default. */
  bodyContentTypes?: string[];
  query?: z.ZodObject;
  headers?: { name: string; required: boolean; description: string }[];
  responses: Record<number, ResponseDoc>;
}

// ---------------------------------------------------------------- values

export const isoTimestamp = z.string().meta({ format: 'date-time', description: 'ISO 8601 with milliseconds and Z' });
export const uuidString = z.string().regex(UUID_PATTERN).meta({ format: 'uuid' });

// ---------------------------------------------------------------- error bodies

/** The one shape of every error body: `{ error }` (a code or a sentence), and the fields some errors add. */
export type ErrorBody = { error: string } & Record<string, unknown>;

export const errorBody = (code: string, extra: z.ZodRawShape = {}) => z.object({ error: z.literal(code), ...extra });
export const errorOneOf = (codes: [string, ...string[]]) => z.object({ error: z.enum(codes) });

const validationDetailsSchema = z.object({
  fieldErrors: z.record(z.string(), z.array(z.string())),
  formErrors: z.array(z.string()),
});

/** Register and the owner API use sentences; chat and v1 use snake_case codes (http-errors.ts). */
export const BODY_ERRORS = {
  owner: { invalidJson: 'Invalid JSON body', tooLarge: 'Request body too large', validation: 'Validation failed' },
  code: { invalidJson: 'invalid_json', tooLarge: 'request_too_large', validation: 'validation_failed' },
} as const;

const validationBody = (style: keyof typeof BODY_ERRORS) =>
  errorBody(BODY_ERRORS[style].validation, { details: validationDetailsSchema });

// ---------------------------------------------------------------- response headers

export const HEADERS = {
  retryAfter: {
    'Retry-After': {
      description: 'Seconds until a request can succeed (whole seconds, rounded up)',
      schema: z.number().int().min(0),
    },
  },
  etag: {
    ETag: {
      description: 'Strong validator of the view; changes whenever a field of the view changes',
      schema: z.string().regex(/^"[^"]*"$/),
    },
  },
  wwwAuthenticate: {
    'WWW-Authenticate': { description: 'The authentication scheme to use', schema: z.literal('Bearer') },
  },
} satisfies Record<string, Record<string, HeaderDoc>>;

// ---------------------------------------------------------------- answers many routes share

/** A JSON body route's 400 and 413, in the surface's style. */
export const bodyRefusals = (
  style: keyof typeof BODY_ERRORS,
  limit: string,
  more: { description: string; bodies: z.ZodType[] } = { description: 'Invalid JSON body, or validation failed', bodies: [] },
) => ({
  400: {
    description: more.description,
    schema: z.union([errorBody(BODY_ERRORS[style].invalidJson), validationBody(style), ...more.bodies]),
  },
  413: { description: `Body over ${limit}`, schema: errorBody(BODY_ERRORS[style].tooLarge) },
});

export const OWNER_RESPONSES = {
  unauthorized: { description: 'No valid session cookie', schema: errorBody('Unauthorized') },
  forbidden: {
    description: 'Origin header names another origin (cookie-authenticated changes only)',
    schema: errorBody('Forbidden'),
  },
  unsupportedMediaType: {
    description: 'A body whose Content-Type is not application/json (cookie-authenticated changes only)',
    schema: errorBody('unsupported_media_type'),
  },
  botNotFound: { description: 'The user has not saved a bot yet', schema: errorBody('Bot not found') },
  notFound: { description: 'Unknown id, another user’s id, or not a UUID', schema: errorBody('Not found') },
  botOrIdNotFound: {
    description: 'No bot yet, or an unknown, foreign or non-UUID id',
    schema: errorOneOf(['Bot not found', 'Not found']),
  },
  queryInvalid: { description: 'Validation failed', schema: validationBody('owner') },
} satisfies Record<string, ResponseDoc>;

export const page = (item: z.ZodType) =>
  z.object({ items: z.array(item), nextCursor: z.string().nullable().meta({ description: 'null on the last page' }) });
