import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpStreamFetch } from '@careerbot/llm/http-stream-fetch';

let server: http.Server;
let base: string;
/** Ends the answer of the request waiting on /held. */
let release: () => void = () => undefined;
let closedEarly = 0;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    res.on('close', () => {
      if (!res.writableFinished) closedEarly += 1;
    });
    if (req.url === '/held') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: first\n\n');
      release = () => res.end('data: last\n\n');
    } else if (req.url === '/broken') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: first\n\n', () => setTimeout(() => res.socket?.destroy(), 20));
    } else if (req.url === '/huge') {
      res.writeHead(200);
      const chunk = Buffer.alloc(1024 * 1024, 'x');
      for (let i = 0; i < 9; i++) res.write(chunk);
      res.end();
    } else if (req.url === '/refused') res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"bad key"}');
    else if (req.url === '/empty') res.writeHead(204).end();
    else res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const decoded = (bytes: Uint8Array | undefined) => Buffer.from(bytes ?? []).toString();

describe('httpStreamFetch, the fetch handed to the SDKs for streamed calls', () => {
  it('answers at the head, and the body gives each chunk while the provider is still writing', async () => {
    const response = await httpStreamFetch(`${base}/held`, { method: 'POST', body: '{}' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const reader = response.body!.getReader();
    expect(decoded((await reader.read()).value)).toBe('data: first\n\n');
    release();
    expect(decoded((await reader.read()).value)).toBe('data: last\n\n');
    expect((await reader.read()).done).toBe(true);
  });

  it('fails the read with an AbortError when the signal fires mid-answer, and closes the connection', async () => {
    const controller = new AbortController();
    const before = closedEarly;
    const response = await httpStreamFetch(`${base}/held`, { signal: controller.signal });
    const reader = response.body!.getReader();
    await reader.read();
    controller.abort();
    await expect(reader.read()).rejects.toMatchObject({ name: 'AbortError' });
    await expect.poll(() => closedEarly).toBe(before + 1);
  });

  it("fails the read like fetch (TypeError 'fetch failed') when the connection drops mid-answer", async () => {
    const response = await httpStreamFetch(`${base}/broken`);
    const reader = response.body!.getReader();
    expect(decoded((await reader.read()).value)).toBe('data: first\n\n');
    await expect(reader.read()).rejects.toMatchObject({ name: 'TypeError', message: 'fetch failed' });
  });

  it('refuses a body past the bound, with the cause the call policy recognises', async () => {
    const response = await httpStreamFetch(`${base}/huge`);
    await expect(response.text()).rejects.toMatchObject({ message: 'fetch failed', cause: { name: 'AnswerTooLargeError' } });
  });

  it('reads a refusal whole, as the SDKs do to build their errors, and gives a 204 no body', async () => {
    const refused = await httpStreamFetch(`${base}/refused`);
    expect(refused.ok).toBe(false);
    expect(await refused.json()).toEqual({ error: 'bad key' });
    expect(refused.bodyUsed).toBe(true);
    expect((await httpStreamFetch(`${base}/empty`)).body).toBeNull();
  });

  it('rejects with an AbortError when the signal fired before the head', async () => {
    await expect(httpStreamFetch(`${base}/held`, { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' });
  });
});
