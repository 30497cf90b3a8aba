import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpFetch } from '../../src/adapters/llm/http-fetch.ts';

let server: http.Server;
let base: string;
const seen: { method?: string; headers: http.IncomingHttpHeaders; body: string }[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      seen.push({ method: req.method, headers: req.headers, body });
      if (req.url === '/json') {
        res.setHeader('set-cookie', ['a=1', 'b=2']);
        res.setHeader('retry-after', '7');
        res.writeHead(429, { 'content-type': 'application/json' }).end('{"error":"slow down"}');
      } else if (req.url === '/empty') res.writeHead(204).end();
      else if (req.url === '/huge') {
        res.writeHead(200);
        const chunk = Buffer.alloc(1024 * 1024, 'x');
        for (let i = 0; i < 9; i++) res.write(chunk);
        res.end();
      } else if (req.url === '/slow') setTimeout(() => res.end('late'), 5_000);
      else res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('httpFetch, the fetch handed to the provider SDKs', () => {
  it('sends the method, headers and body, and returns status, headers and body like fetch', async () => {
    const response = await httpFetch(`${base}/json`, {
      method: 'POST',
      headers: new Headers({ 'content-type': 'application/json', 'x-api-key': 'k' }),
      body: '{"q":1}',
    });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('7');
    expect(response.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(await response.json()).toEqual({ error: 'slow down' });
    expect(seen.at(-1)).toMatchObject({ method: 'POST', body: '{"q":1}', headers: { 'x-api-key': 'k' } });
  });

  it('gives a 204 no body', async () => {
    const response = await httpFetch(`${base}/empty`);
    expect(response.status).toBe(204);
    expect(response.body).toBeNull();
  });

  it('rejects with an AbortError when the signal fires, without waiting for the server', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    await expect(httpFetch(`${base}/slow`, { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
    await expect(httpFetch(`${base}/slow`, { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' });
  });

  it("rejects like fetch (TypeError 'fetch failed') when nothing listens, and refuses an oversized answer", async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await expect(httpFetch(`http://127.0.0.1:${port}/`)).rejects.toMatchObject({ name: 'TypeError', message: 'fetch failed' });
    await expect(httpFetch(`${base}/huge`)).rejects.toMatchObject({ message: 'fetch failed' });
  });
});
