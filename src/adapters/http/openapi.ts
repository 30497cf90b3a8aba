import { z } from 'zod';
import { authOperations } from './auth-routes.ts';
import { accountOperations } from './account-routes.ts';
import { botOperations } from './bot-routes.ts';
import { chatOperations } from './chat-routes.ts';
import { errorBody, HEADERS, type HeaderDoc, type OperationDoc, type ResponseDoc, type Security } from './operation-doc.ts';
import { importOperations } from './import-routes.ts';
import { insightsOperations } from './insights-routes.ts';
import { photoOperations } from './photo-routes.ts';
import { ownerKeyOperations } from './owner-key-routes.ts';
import { ownerOperations } from './owner-routes.ts';
import { runtimeOperations } from './runtime-routes.ts';
import { tokenOperations } from './token-routes.ts';

// The API reference, generated: each route module declares its operations (request
// schemas, statuses, bodies, headers) next to its handlers; this file walks those
// declarations into OpenAPI 3.1. A test checks them against the routes actually served.

export type { OperationDoc, ResponseDoc } from './operation-doc.ts';

/** The routes build-app.ts serves itself: probes, metrics and this reference. */
const serviceOperations: OperationDoc[] = [
  {
    method: 'get',
    path: '/metrics',
    tag: 'Operations',
    summary: 'Prometheus metrics (for a bearer of METRICS_TOKEN)',
    description:
      'Requests by route template and status with latency histograms, provider calls by provider and outcome, rate-limit refusals, blocked messages by category, the database pool and lead e-mails. Served here only with `Authorization: Bearer <METRICS_TOKEN>`; anyone else gets the ordinary 404. `METRICS_PORT` serves the same on its own loopback listener.',
    security: 'metricsToken',
    responses: {
      200: { description: 'The Prometheus text format', contentType: 'text/plain; version=0.0.4; charset=utf-8', schema: z.string() },
      404: { description: 'No METRICS_TOKEN configured, or not its bearer', schema: errorBody('not_found') },
    },
  },
  {
    method: 'get',
    path: '/healthz',
    tag: 'Operations',
    summary: 'Process up',
    security: 'none',
    responses: { 200: { description: 'Up', schema: z.object({ status: z.literal('ok') }) } },
  },
  {
    method: 'get',
    path: '/readyz',
    tag: 'Operations',
    summary: 'Database reachable and migrations applied',
    security: 'none',
    responses: {
      200: { description: 'Ready', schema: z.object({ status: z.literal('ready') }) },
      503: { description: 'Not ready', schema: errorBody('service_unavailable'), headers: HEADERS.retryAfter },
    },
  },
];

export const OPERATIONS: OperationDoc[] = [
  ...authOperations,
  ...accountOperations,
  ...botOperations,
  ...chatOperations,
  ...ownerOperations,
  ...ownerKeyOperations,
  ...importOperations,
  ...photoOperations,
  ...insightsOperations,
  ...tokenOperations,
  ...runtimeOperations,
  ...serviceOperations,
];

export const DOCS_OPERATIONS: OperationDoc[] = [
  {
    method: 'get',
    path: '/api/openapi.json',
    tag: 'Operations',
    summary: 'This document (OpenAPI 3.1)',
    security: 'none',
    responses: { 200: { description: 'The OpenAPI document', schema: z.looseObject({ openapi: z.literal('3.1.0') }) } },
  },
  {
    method: 'get',
    path: '/api/docs',
    tag: 'Operations',
    summary: 'A readable reference generated from the OpenAPI document',
    security: 'none',
    responses: { 200: { description: 'HTML', contentType: 'text/html; charset=utf-8', schema: z.string() } },
  },
];

// ---------------------------------------------------------------- generation

const jsonSchema = (schema: z.ZodType, io: 'input' | 'output') => {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
};

/** The JSON Schema of what a client sends (io: input), as OpenAPI 3.1 embeds it. */
export const requestJsonSchema = (schema: z.ZodType) => jsonSchema(schema, 'input');

const SECURITY: Record<Exclude<Security, 'none'>, object> = {
  session: { type: 'apiKey', in: 'cookie', name: 'careerbot.session-token', description: 'Session cookie from sign-in' },
  botToken: { type: 'http', scheme: 'bearer', description: 'Bot token: cbt_ followed by 64 lowercase hex characters' },
  llmKey: {
    type: 'apiKey',
    in: 'header',
    name: 'x-llm-api-key',
    description: 'The caller’s own LLM provider key; never stored. Optional: without it the owner’s stored key answers when the owner switched it on',
  },
  metricsToken: { type: 'http', scheme: 'bearer', description: 'The operator’s METRICS_TOKEN' },
};

/** What any /api route may answer besides its own statuses. */
const COMMON_RESPONSES: Record<number, ResponseDoc> = {
  500: { description: 'Unexpected failure (no details are given)', schema: errorBody('internal_error') },
  503: { description: 'Database unreachable; retry later', schema: errorBody('service_unavailable'), headers: HEADERS.retryAfter },
};

/** Every answer an operation documents, its own and the API-wide 500 and 503. */
const documentedResponses = (operation: OperationDoc): Record<number, ResponseDoc> => ({
  ...operation.responses,
  ...(operation.path.startsWith('/api') ? COMMON_RESPONSES : {}),
});

const parameters = (operation: OperationDoc) => {
  const pathParams = [...operation.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  const queryShape = operation.query ? (requestJsonSchema(operation.query) as { properties?: Record<string, object> }) : {};
  const queryParams = Object.entries(queryShape.properties ?? {}).map(([name, schema]) => ({
    name,
    in: 'query',
    required: false,
    schema,
    ...('description' in schema ? { description: (schema as { description: string }).description } : {}),
  }));
  const headers = (operation.headers ?? []).map((header) => ({ ...header, in: 'header', schema: { type: 'string' } }));
  return [...pathParams, ...queryParams, ...headers];
};

const responseHeaders = (headers: Record<string, HeaderDoc>) =>
  Object.fromEntries(
    Object.entries(headers).map(([name, { description, schema }]) => [name, { description, schema: jsonSchema(schema, 'output') }]),
  );

const responses = (operation: OperationDoc) =>
  Object.fromEntries(
    Object.entries(documentedResponses(operation)).map(([status, doc]) => [
      status,
      {
        description: doc.description,
        ...(doc.headers && { headers: responseHeaders(doc.headers) }),
        ...(doc.schema && {
          content: {
            [doc.contentType ?? 'application/json']: { schema: jsonSchema(doc.schema, 'output') },
            ...Object.fromEntries(Object.entries(doc.otherContent ?? {}).map(([type, schema]) => [type, { schema: jsonSchema(schema, 'output') }])),
          },
        }),
      },
    ]),
  );

const operationId = (operation: OperationDoc) =>
  `${operation.method}${operation.path.replace(/[^A-Za-z0-9]+(\w)?/g, (_m, c: string = '') => c.toUpperCase())}`;

export const buildOpenApiDocument = (operations: OperationDoc[]) => {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const operation of operations) {
    paths[operation.path] ??= {};
    paths[operation.path]![operation.method] = {
      tags: [operation.tag],
      summary: operation.summary,
      ...(operation.description && { description: operation.description }),
      operationId: operationId(operation),
      // The visitor's key may be left out: the owner's key then answers, if switched on.
      security: operation.security === 'none' ? [] : operation.security === 'llmKey' ? [{ llmKey: [] }, {}] : [{ [operation.security]: [] }],
      parameters: parameters(operation),
      ...(operation.body && {
        requestBody: {
          required: true,
          content: Object.fromEntries(
            (operation.bodyContentTypes ?? ['application/json']).map((type) => [type, { schema: requestJsonSchema(operation.body!) }]),
          ),
        },
      }),
      responses: responses(operation),
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Career Bot Platform API',
      version: '1.0.0',
      description:
        'Accounts and sign-in (Auth.js credentials shapes), the owner’s bot and dashboard (session cookie), visitor chat (the caller’s own LLM key), and the bot runtime API for self-hosted widgets (`/api/v1/bot/*`, bot token). Timestamps are ISO 8601 with milliseconds and Z. Lists are cursor-paginated newest first: pass `nextCursor` back as `cursor` until it is null.',
    },
    tags: [...new Set(operations.map((operation) => operation.tag))].map((name) => ({ name })),
    paths,
    components: { securitySchemes: SECURITY },
  };
};

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;
