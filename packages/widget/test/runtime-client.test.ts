import { describe, expect, it } from 'vitest';
import type { Answer } from '../src/chat-widget.ts';
import { runtimeClient } from '../src/runtime-client.ts';

// The widget with `runtimeUrl` talks only to the owner's runtime: these prove what it sends
// (no token, no key, no context: a session id and the conversation) and how it reads the answers.

interface Sent {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
  credentials: RequestCredentials | undefined;
  signal: AbortSignal | null | undefined;
}

/** A fetch that records each request and answers with `reply`'s Response. */
const recording = (reply: (sent: Sent) => Response | Promise<Response>) => {
  const sent: Sent[] = [];
  const fetcher = async (url: string, init: RequestInit) => {
    const request: Sent = {
      url,
      method: init.method ?? 'GET',
      headers: Object.fromEntries(new Headers(init.headers).entries()),
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
      credentials: init.credentials,
      signal: init.signal,
    };
    sent.push(request);
    return reply(request);
  };
  return { sent, fetcher };
};

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** An event stream the test writes into event by event, and that records being cancelled. */
const eventStream = () => {
  const encoder = new TextEncoder();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const state = { cancelled: false };
  const body = new ReadableStream<Uint8Array>({
    start: (c) => void (controller = c),
    cancel: () => void (state.cancelled = true),
  });
  return {
    state,
    response: new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } }),
    send: (event: string, data: unknown) => controller.enqueue(encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`)),
    comment: () => controller.enqueue(encoder.encode(': keep-alive\n\n')),
    end: () => controller.close(),
  };
};

const SESSION = '3b1f4c1e-8a55-4f7e-9d61-0f2b8d4d9c11';
const question = [{ role: 'user' as const, content: 'What did Ada build?' }];
const streamOf = (answer: Answer) => {
  if (!answer.ok || !('stream' in answer)) throw new Error(`expected a stream, got ${JSON.stringify(answer)}`);
  return answer;
};

describe('runtimeClient', () => {
  it('reads the bot’s configuration from GET {runtimeUrl}/config, with no credentials', async () => {
    const { sent, fetcher } = recording(() => json(200, { name: 'Ada', themeColor: '#123456' }));
    const answer = await runtimeClient('https://runtime.example.com/', fetcher).config();
    expect(answer).toEqual({ found: true, config: { name: 'Ada', themeColor: '#123456' } });
    expect(sent).toEqual([{ url: 'https://runtime.example.com/config', method: 'GET', headers: {}, body: undefined, credentials: 'omit', signal: undefined }]);
  });

  it('tells a bot the runtime does not serve (404) from a runtime that does not answer', async () => {
    expect(await runtimeClient('https://r.example', recording(() => json(404, { error: 'bot_not_found' })).fetcher).config()).toEqual({
      found: false,
      reason: 'bot_not_found',
    });
    expect(await runtimeClient('https://r.example', recording(() => json(503, {})).fetcher).config()).toEqual({ found: false, reason: 'unreachable' });
    const down = runtimeClient('https://r.example', () => Promise.reject(new TypeError('Failed to fetch')));
    expect(await down.config()).toEqual({ found: false, reason: 'unreachable' });
  });

  it('posts the session id and the whole conversation to /chat, asking for a stream, and nothing else', async () => {
    const { sent, fetcher } = recording(() => json(200, { reply: 'The Analytical Engine’s first program.', conversationId: 'c1' }));
    const messages = [{ role: 'user' as const, content: 'Hi' }, { role: 'assistant' as const, content: 'Hello!' }, ...question];
    const answer = await runtimeClient('https://runtime.example.com', fetcher).chat(SESSION, messages, new AbortController().signal);
    expect(answer).toEqual({ ok: true, reply: 'The Analytical Engine’s first program.' });
    expect(sent[0]).toMatchObject({
      url: 'https://runtime.example.com/chat',
      method: 'POST',
      credentials: 'omit',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: { sessionId: SESSION, messages },
    });
    expect(Object.keys(sent[0]!.headers).sort()).toEqual(['accept', 'content-type']);
  });

  it('gives each streamed word as it arrives, before the reply is finished', async () => {
    const events = eventStream();
    const answer = streamOf(await runtimeClient('https://r.example', recording(() => events.response).fetcher).chat(SESSION, question, new AbortController().signal));
    const words = answer.stream[Symbol.asyncIterator]();
    events.comment();
    events.send('delta', { text: 'The ' });
    expect(await words.next()).toEqual({ done: false, value: 'The ' });
    events.send('delta', { text: 'Engine.' });
    expect(await words.next()).toEqual({ done: false, value: 'Engine.' });
    events.send('done', { reply: 'The Engine.' });
    events.end();
    expect((await words.next()).done).toBe(true);
  });

  it('breaks the stream on an error event, with the provider’s problem in words', async () => {
    const events = eventStream();
    const answer = streamOf(await runtimeClient('https://r.example', recording(() => events.response).fetcher).chat(SESSION, question, new AbortController().signal));
    events.send('delta', { text: 'Half' });
    events.send('error', { error: 'provider_unavailable' });
    events.end();
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const word of answer.stream) seen.push(word);
      })(),
    ).rejects.toThrow('provider_unavailable');
    expect(seen).toEqual(['Half']);
    expect(answer.broken).toEqual({ text: 'The provider stopped partway through this reply. Retry to ask it again.', retry: true });
  });

  it('Stop aborts the request it started and cancels the stream it reads', async () => {
    const events = eventStream();
    const { sent, fetcher } = recording(() => events.response);
    const stop = new AbortController();
    const answer = streamOf(await runtimeClient('https://r.example', fetcher).chat(SESSION, question, stop.signal));
    expect(sent[0]!.signal).toBe(stop.signal);
    const words = answer.stream[Symbol.asyncIterator]();
    events.send('delta', { text: 'One' });
    await words.next();
    stop.abort();
    await words.return?.();
    expect(events.state.cancelled).toBe(true);
    // A request aborted before it answered ends the chat call with the abort, not a problem to show.
    const aborted = new AbortController();
    aborted.abort();
    const pending = runtimeClient('https://r.example', (_url, init) => Promise.reject(init.signal?.reason)).chat(SESSION, question, aborted.signal);
    await expect(pending).rejects.toBe(aborted.signal.reason);
  });

  it('says each refusal of the runtime in words: blocked, limits, an unavailable bot, an unreachable runtime', async () => {
    const chat = (response: Response) => runtimeClient('https://r.example', () => Promise.resolve(response)).chat(SESSION, question, new AbortController().signal);
    expect(await chat(json(400, { error: 'blocked', reason: 'system_prompt_extraction' }))).toMatchObject({ ok: false, text: expect.stringContaining('hidden instructions') });
    const resetAt = Date.UTC(2026, 0, 1, 12, 30, 0);
    expect(await chat(json(429, { error: 'rate_limit', scope: 'short', resetAt }))).toMatchObject({ ok: false, text: expect.stringContaining('this minute’s') });
    expect(await chat(json(429, { error: 'daily_limit_reached' }))).toMatchObject({ ok: false, text: expect.stringContaining('limit of answers for today') });
    expect(await chat(json(404, { error: 'bot_not_found' }))).toEqual({ ok: false, text: 'This bot is not available.' });
    expect(await chat(json(413, { error: 'request_too_large' }))).toEqual({ ok: false, text: 'Your message is too long.' });
    const down = runtimeClient('https://r.example', () => Promise.reject(new TypeError('Failed to fetch')));
    expect(await down.chat(SESSION, question, new AbortController().signal)).toEqual({ ok: false, text: 'The chat could not be reached. Please retry.', retry: true });
  });

  it('posts the lead to /lead with the session id, and says whether the runtime took it', async () => {
    const { sent, fetcher } = recording(() => json(201, { lead: { id: 'l1' }, deduped: false }));
    expect(await runtimeClient('https://r.example', fetcher).lead(SESSION, 'recruiter@example.com')).toBe(true);
    expect(sent[0]).toMatchObject({
      url: 'https://r.example/lead',
      method: 'POST',
      credentials: 'omit',
      headers: { 'content-type': 'application/json' },
      body: { sessionId: SESSION, email: 'recruiter@example.com' },
    });
    expect(Object.keys(sent[0]!.headers)).toEqual(['content-type']);
    expect(await runtimeClient('https://r.example', recording(() => json(400, { error: 'validation_failed' })).fetcher).lead(SESSION, 'x@y.z')).toBe(false);
    expect(await runtimeClient('https://r.example', () => Promise.reject(new TypeError('offline'))).lead(SESSION, 'x@y.z')).toBe(false);
  });
});
