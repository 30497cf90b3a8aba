import type { Request, RequestHandler, Response } from 'express';
import { z } from 'zod';
import { invalidJsonReply, reply, tooLargeReply, validationReply, type ErrorStyle } from './http-errors.ts';
import { LONE_SURROGATE_MESSAGE, parseJson, readRawBody } from './request-body.ts';

/**
 * The schemas a handler validates with, attached to the handler itself. The OpenAPI
 * document is generated from the same schema objects, and a test walks the served routes
 * and compares: a route can't validate with one schema and document another.
 */
export interface RequestSchemas {
  body?: z.ZodType;
  query?: z.ZodType;
}

const REQUEST_SCHEMAS = Symbol.for('careerbot.requestSchemas');

export const requestSchemasOf = (handler: unknown): RequestSchemas | undefined =>
  (handler as { [REQUEST_SCHEMAS]?: RequestSchemas } | undefined)?.[REQUEST_SCHEMAS];

export const withRequestSchemas = <H extends RequestHandler>(schemas: RequestSchemas, handler: H): H =>
  Object.assign(handler, { [REQUEST_SCHEMAS]: schemas });

/**
 * A JSON route: the body is read up to `limit` bytes (413 past it), parsed (400 on bad
 * JSON, and on a lone surrogate in any string: see `ParsedJson`) and validated with `schema` (400 with details), then handed over typed.
 */
export const jsonBody = <S extends z.ZodType>(
  options: { schema: S; limit: number; style: ErrorStyle },
  handler: (req: Request, res: Response, body: z.output<S>) => Promise<void> | void,
): RequestHandler =>
  withRequestSchemas({ body: options.schema }, async (req, res) => {
    const raw = await readRawBody(req, options.limit);
    if (raw.kind === 'too_large') return reply(res, tooLargeReply(options.style));
    const json = parseJson(raw.raw);
    if (json.kind === 'invalid') return reply(res, invalidJsonReply(options.style));
    if (json.kind === 'lone_surrogate') {
      const issue = { code: 'custom' as const, path: json.path, message: LONE_SURROGATE_MESSAGE, input: undefined };
      return reply(res, validationReply(new z.ZodError([issue]), options.style));
    }
    const parsed = options.schema.safeParse(json.value);
    if (!parsed.success) return reply(res, validationReply(parsed.error, options.style));
    await handler(req, res, parsed.data);
  });

/** A route with a validated query string (400 'Validation failed' with details otherwise). */
export const validQuery = <S extends z.ZodType>(
  schema: S,
  handler: (req: Request, res: Response, query: z.output<S>) => Promise<void> | void,
): RequestHandler =>
  withRequestSchemas({ query: schema }, async (req, res) => {
    const parsed = schema.safeParse(req.query);
    if (!parsed.success) return reply(res, validationReply(parsed.error));
    await handler(req, res, parsed.data);
  });
