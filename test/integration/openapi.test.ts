import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestJsonSchema } from '../../src/adapters/http/openapi.ts';
import { requestSchemasOf } from '../../src/adapters/http/validated.ts';
import { HttpClient } from '@careerbot/testkit';
import { servedRoutes } from '../support/served-routes.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

let app: TestApp;
let document: any;
beforeAll(async () => {
  app = await startTestApp();
  document = (await new HttpClient(app.baseUrl).get('/api/openapi.json')).json;
});
afterAll(async () => app?.close());

/** Pages (HTML for people) and the widget scripts are not operations of the JSON API. */
const isPage = (path: string) => path === '/' || /^\/(login|register|dashboard|b|widget\.js)(\/|$)/.test(path);
const apiRoutes = () => servedRoutes(app.express).filter((route) => !isPage(route.path));

const documented = () =>
  Object.entries(document.paths as Record<string, Record<string, unknown>>).flatMap(([path, methods]) =>
    Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
  );

describe('the OpenAPI document', () => {
  it('is what every answer of every test file is checked against (test/support/response-check.ts)', async () => {
    const before = app.responsesChecked();
    await new HttpClient(app.baseUrl).get('/healthz');
    await new HttpClient(app.baseUrl).post('/api/auth/register', { username: 'x' });
    await expect.poll(() => app.responsesChecked()).toBe(before + 2);
  });

  it('is OpenAPI 3.1 with an operation for every served route, and documents nothing that is not served', () => {
    expect(document.openapi).toBe('3.1.0');
    const served = apiRoutes().map((route) => `${route.method.toUpperCase()} ${route.path}`);
    expect(served.length).toBeGreaterThan(20);
    expect([...new Set(served)].sort()).toEqual(documented().sort());
  });

  it('documents each request body and query with exactly the schema the route validates with', () => {
    let compared = 0;
    for (const route of apiRoutes()) {
      const operation = document.paths[route.path][route.method];
      const schemas = route.handlers.map(requestSchemasOf).find(Boolean);
      if (schemas?.body) {
        const content = operation.requestBody?.content ?? {};
        expect(Object.keys(content).length, `${route.method} ${route.path} documents its body`).toBeGreaterThan(0);
        for (const { schema } of Object.values<{ schema: unknown }>(content)) {
          expect(schema, `${route.method} ${route.path} body`).toEqual(requestJsonSchema(schemas.body));
        }
        compared++;
      } else {
        expect(operation.requestBody, `${route.method} ${route.path} documents a body it does not validate`).toBeUndefined();
      }
      const queryParams = operation.parameters.filter((p: { in: string }) => p.in === 'query');
      if (schemas?.query) {
        const expected = requestJsonSchema(schemas.query) as { properties: Record<string, unknown> };
        expect(Object.fromEntries(queryParams.map((p: { name: string; schema: unknown }) => [p.name, p.schema]))).toEqual(
          expected.properties,
        );
        compared++;
      } else {
        expect(queryParams, `${route.method} ${route.path} documents a query it does not validate`).toEqual([]);
      }
    }
    expect(compared).toBeGreaterThan(8);
  });

  it('gives every operation a summary, responses with descriptions, and its error bodies', () => {
    for (const [path, methods] of Object.entries<Record<string, any>>(document.paths)) {
      for (const [method, operation] of Object.entries<any>(methods)) {
        expect(operation.summary, `${method} ${path}`).toBeTruthy();
        for (const response of Object.values<any>(operation.responses)) expect(response.description).toBeTruthy();
        if (path.startsWith('/api/') && !path.startsWith('/api/auth') && path !== '/api/openapi.json' && path !== '/api/docs') {
          const statuses = Object.keys(operation.responses).map(Number);
          expect(statuses.some((status) => status >= 400 && status < 500), `${method} ${path} documents a 4xx`).toBe(true);
        }
      }
    }
  });

  it('serves a readable HTML reference at /api/docs listing every operation', async () => {
    const response = await fetch(`${app.baseUrl}/api/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await response.text();
    for (const entry of documented()) {
      const [method, path] = entry.split(' ');
      expect(html).toContain(`${method}</span> <code>${path!.replaceAll('&', '&amp;')}</code>`);
    }
  });
});
