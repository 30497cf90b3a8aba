import type { RequestHandler } from 'express';
import { DOCS_OPERATIONS, documentedResponses, OPERATIONS } from '../../src/adapters/http/openapi.ts';

/**
 * Checks every answer the service gives during a test file against the OpenAPI document's
 * operations (the zod schemas the document is generated from): the status must be
 * documented for that operation, and a JSON body must match the status's schema.
 */
export const responseCheck = () => {
  const problems = new Set<string>();
  let checked = 0;
  // Literal paths first, so /api/bots/leads.csv is not taken for a parameter.
  const operations = [...OPERATIONS, ...DOCS_OPERATIONS]
    .map((operation) => ({ operation, pattern: new RegExp(`^${operation.path.replace(/\{\w+\}/g, '[^/]+').replace(/\./g, '\\.')}$`) }))
    .sort((a, b) => Number(a.operation.path.includes('{')) - Number(b.operation.path.includes('{')));

  const middleware: RequestHandler = (req, res, next) => {
    // Read now: routers mounted below rewrite req.url (and so req.path) as they route.
    const path = req.path;
    const json = res.json.bind(res);
    let body: { sent: boolean; value?: unknown } = { sent: false };
    res.json = (value: unknown) => {
      body = { sent: true, value };
      return json(value);
    };
    res.once('finish', () => {
      const method = req.method.toLowerCase();
      const match = operations.find(({ operation, pattern }) => operation.method === method && pattern.test(path));
      if (!match) return;
      const { operation } = match;
      const name = `${req.method} ${operation.path}`;
      const documented = documentedResponses(operation)[res.statusCode];
      if (!documented) {
        problems.add(`${name} answered ${res.statusCode}, which the document does not list`);
        return;
      }
      if (!documented.schema || !body.sent) return;
      checked++;
      const parsed = documented.schema.safeParse(body.value);
      if (!parsed.success) {
        problems.add(`${name} ${res.statusCode}: ${JSON.stringify(body.value).slice(0, 200)} does not match: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`);
      }
    });
    next();
  };

  return {
    middleware,
    checked: () => checked,
    /** Throws with every mismatch seen, so the test file fails. */
    assertClean: () => {
      if (problems.size) throw new Error(`answers that differ from the OpenAPI document:\n${[...problems].join('\n')}`);
    },
  };
};
