import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpFetch } from '@careerbot/llm/http-fetch';

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
      else if (req.url === '/bom') res.writeHead(200, { 'content-type': 'application/json', 'x-b': '2', 'x-a': '1' }).end('\uFEFF{"ok":true}');
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

  it('answers with a Response-like whose body reads once, as fetch does', async () => {
    const response = await httpFetch(`${base}/bom`);
    expect(response.ok).toBe(true);
    expect(response.url).toBe(`${base}/bom`);
    expect([...response.headers.entries()].filter(([name]) => name.startsWith('x-'))).toEqual([['x-a', '1'], ['x-b', '2']]);
    expect(response.headers.get('Content-Type')).toBe('application/json');
    // Looking at the stream (the Anthropic SDK does) does not use the body up; reading does.
    expect(response.body).not.toBeNull();
    expect(response.bodyUsed).toBe(false);
    expect(await response.clone().text()).toBe('{"ok":true}');
    expect(await response.json()).toEqual({ ok: true });
    expect(response.bodyUsed).toBe(true);
    await expect(response.text()).rejects.toThrow(TypeError);

    const streamed = await httpFetch(`${base}/bom`);
    const read = await new Response(streamed.body).text();
    expect(read).toBe('{"ok":true}');
    await expect(streamed.json()).rejects.toThrow(TypeError);
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
