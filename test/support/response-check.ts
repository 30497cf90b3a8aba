import type { Answer } from '@careerbot/testkit';
import type { RequestHandler } from 'express';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { buildOpenApiDocument, DOCS_OPERATIONS, OPERATIONS, type OpenApiDocument } from '../../src/adapters/http/openapi.ts';

// Answers checked against the generated OpenAPI 3.1 document with Ajv (JSON Schema
// 2020-12, the dialect OpenAPI 3.1 embeds): the status must be documented for the
// operation, a body must match the status's schema and content type, and each documented
// response header that is present must match its schema.


interface MediaDoc {
  schema?: object;
}
interface ResponseDoc {
  content?: Record<string, MediaDoc>;
  headers?: Record<string, { schema: { type?: string } }>;
}

const mediaType = (value: string | null) => (value ?? '').split(';')[0]!.trim().toLowerCase();

/** A header value as its schema types it: Retry-After is an integer, ETag a string. */
const typedHeader = (value: string, schema: { type?: string }) =>
  (schema.type === 'integer' || schema.type === 'number') && /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;

export const openApiCheck = (document: OpenApiDocument = buildOpenApiDocument([...OPERATIONS, ...DOCS_OPERATIONS])) => {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ajvFormats.default(ajv);
  const compiled = new Map<object, ValidateFunction>();
  const validator = (schema: object) => {
    let validate = compiled.get(schema);
    if (!validate) compiled.set(schema, (validate = ajv.compile(schema)));
    return validate;
  };
  const errors = (validate: ValidateFunction) =>
    (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message}`).join('; ');

  // Literal paths first, so /api/bots/leads.csv is not taken for a parameter.
  const operations = Object.entries(document.paths)
    .flatMap(([template, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({
        name: `${method.toUpperCase()} ${template}`,
        method,
        pattern: new RegExp(`^${template.replace(/\./g, '\\.').replace(/\{\w+\}/g, '[^/]+')}$`),
        responses: (operation as { responses: Record<string, ResponseDoc> }).responses,
      })),
    )
    .sort((a, b) => Number(a.name.includes('{')) - Number(b.name.includes('{')));

  /** What is wrong with an answer (empty when it is as documented), or null when it answers no documented operation. */
  const check = (answer: Answer): string[] | null => {
    const operation = operations.find((op) => op.method === answer.method.toLowerCase() && op.pattern.test(answer.path));
    if (!operation) return null;
    const documented = operation.responses[String(answer.status)];
    if (!documented) return [`${operation.name} answered ${answer.status}, which the document does not list`];
    const problems: string[] = [];
    const where = `${operation.name} ${answer.status}`;
    for (const [name, { schema }] of Object.entries(documented.headers ?? {})) {
      const value = answer.header(name);
      if (value === null) continue;
      const validate = validator(schema);
      if (!validate(typedHeader(value, schema))) problems.push(`${where}: header ${name}: ${JSON.stringify(value)} ${errors(validate)}`);
    }
    const type = mediaType(answer.header('content-type'));
    const hasBody = answer.body !== undefined && answer.body !== '';
    const media = Object.entries(documented.content ?? {}).find(([documentedType]) => mediaType(documentedType) === type);
    if (!media) {
      if (hasBody && (documented.content || type === 'application/json')) {
        problems.push(`${where}: a ${type || 'untyped'} body, where the document says ${Object.keys(documented.content ?? {}).join(', ') || 'no body'}`);
      }
      return problems;
    }
    if (type !== 'application/json' || !media[1].schema) return problems;
    let value: unknown;
    try {
      value = JSON.parse(answer.body ?? '');
    } catch {
      return [...problems, `${where}: the body is not JSON: ${(answer.body ?? '').slice(0, 100)}`];
    }
    const validate = validator(media[1].schema);
    if (!validate(value)) problems.push(`${where}: ${JSON.stringify(value).slice(0, 200)} does not match: ${errors(validate)}`);
    return problems;
  };

  return { check };
};

/** One checker for every HttpClient of a test file: the document and its compiled schemas are built once. */
export const sharedOpenApiCheck = (() => {
  let shared: ReturnType<typeof openApiCheck> | undefined;
  return () => (shared ??= openApiCheck());
})();

/**
 * Express middleware in front of the service: every answer it gives during a test file
 * is checked; a mismatch fails the file when the app closes.
 */
export const responseCheck = () => {
  const { check } = openApiCheck();
  const problems = new Set<string>();
  let checked = 0;

  const middleware: RequestHandler = (req, res, next) => {
    // Read now: routers mounted below rewrite req.url (and so req.path) as they route.
    const path = req.path;
    const send = res.send.bind(res);
    let body: string | undefined;
    res.send = (chunk?: unknown) => {
      if (typeof chunk === 'string') body = chunk;
      else if (Buffer.isBuffer(chunk)) body = chunk.toString('utf8');
      return send(chunk);
    };
    // A streamed answer (the account export) never goes through send: keep what it writes.
    const streamed: Buffer[] = [];
    const keep = (chunk: unknown) => {
      if (typeof chunk === 'string') streamed.push(Buffer.from(chunk, 'utf8'));
      else if (Buffer.isBuffer(chunk)) streamed.push(chunk);
    };
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    res.write = ((chunk: unknown, ...rest: unknown[]) => {
      keep(chunk);
      return write(chunk, ...rest);
    }) as typeof res.write;
    res.once('finish', () => {
      const found = check({
        method: req.method,
        path,
        status: res.statusCode,
        header: (name) => {
          const value = res.getHeader(name);
          return value === undefined ? null : String(value);
        },
        body: body ?? (streamed.length ? Buffer.concat(streamed).toString('utf8') : undefined),
      });
      if (!found) return;
      checked++;
      for (const problem of found) problems.add(problem);
    });
    next();
  };

  return {
    middleware,
    /** How many answers to documented operations were checked so far. */
    checked: () => checked,
    /** Throws with every mismatch seen, so the test file fails. */
    assertClean: () => {
      if (problems.size) throw new Error(`answers that differ from the OpenAPI document:\n${[...problems].join('\n')}`);
    },
  };
};
