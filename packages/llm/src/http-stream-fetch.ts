import type http from 'node:http';
import { AnswerHeaders, AnswerTooLargeError, fetchFailed, MAX_RESPONSE_BYTES, sendRequest } from './http-fetch.ts';

/**
 * The `fetch` given to the SDKs for streamed calls: httpFetch's request over the same keep-alive
 * agents, answered as soon as the head arrives, the body a web ReadableStream fed by the socket.
 * The global fetch costs, per streamed reply, a clone of the request body, a body writer and a
 * chain of web streams (measured with bench:chat's streaming phase). It behaves like fetch where
 * the SDKs look: an aborted signal ends the call, and the body's read, with an AbortError; a
 * dropped connection fails them with TypeError('fetch failed'); a body past MAX_RESPONSE_BYTES
 * fails the same way, with the AnswerTooLargeError the call policy knows as its cause.
 */
export const httpStreamFetch = (input: string | URL | Request, init: RequestInit = {}): Promise<Response> =>
  new Promise((resolve, reject) => {
    sendRequest(input, init, reject, (response, url, method) => {
      const status = response.statusCode ?? 502;
      if (status < 200 || status > 599) {
        response.destroy();
        reject(fetchFailed(new RangeError(`status ${status} is not a response status`)));
        return;
      }
      const noBody = status === 204 || status === 304 || method === 'HEAD';
      if (noBody) response.on('error', () => undefined).resume();
      const body = noBody ? null : bodyStream(response, init.signal ?? undefined);
      resolve(new StreamedResponse(url.href, status, response.statusMessage ?? '', response.headers, body) as unknown as Response);
    });
  });

const abortError = () => new DOMException('This operation was aborted', 'AbortError');

/**
 * The answer's bytes as they arrive. Bounded: the socket is paused while the reader is a chunk
 * behind, and the body fails past MAX_RESPONSE_BYTES.
 */
function bodyStream(response: http.IncomingMessage, signal: AbortSignal | undefined): ReadableStream<Uint8Array> {
  let received = 0;
  let settled = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const fail = (error: Error) => {
        if (settled) return;
        settled = true;
        controller.error(signal?.aborted ? abortError() : error.name === 'AbortError' ? error : fetchFailed(error));
      };
      response.on('data', (chunk: Buffer) => {
        if (settled) return;
        received += chunk.length;
        if (received > MAX_RESPONSE_BYTES) {
          response.destroy(new AnswerTooLargeError());
          return;
        }
        controller.enqueue(chunk);
        if ((controller.desiredSize ?? 0) <= 0) response.pause();
      });
      response.on('end', () => {
        if (settled) return;
        settled = true;
        controller.close();
      });
      response.on('error', fail);
      // An abort after the head destroys the request; the answer may then close without an error.
      response.on('close', () => fail(new Error('the connection closed before the answer ended')));
    },
    pull() {
      response.resume();
    },
    cancel() {
      settled = true;
      response.destroy();
    },
  });
}

/** An answer whose body is still arriving, with the Response members the SDKs use. */
class StreamedResponse {
  readonly ok: boolean;
  readonly redirected = false;
  readonly type = 'basic';
  readonly headers: AnswerHeaders;

  constructor(
    readonly url: string,
    readonly status: number,
    readonly statusText: string,
    headers: http.IncomingHttpHeaders,
    readonly body: ReadableStream<Uint8Array> | null,
  ) {
    this.ok = status >= 200 && status <= 299;
    this.headers = new AnswerHeaders(headers);
  }

  get bodyUsed(): boolean {
    return this.body?.locked ?? false;
  }

  async text(): Promise<string> {
    // Decoded like fetch: UTF-8, a leading byte-order mark dropped.
    const text = Buffer.from(await this.arrayBuffer()).toString('utf8');
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  }
  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }
  async arrayBuffer(): Promise<ArrayBuffer> {
    if (this.body === null) return new ArrayBuffer(0);
    if (this.body.locked) throw new TypeError('Body is unusable: Body has already been read');
    const chunks: Uint8Array[] = [];
    const reader = this.body.getReader();
    for (let step = await reader.read(); !step.done; step = await reader.read()) chunks.push(step.value);
    const bytes = Buffer.concat(chunks);
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length) as ArrayBuffer;
  }
  async bytes(): Promise<Uint8Array> {
    return new Uint8Array(await this.arrayBuffer());
  }
  async blob(): Promise<Blob> {
    return new Blob([await this.arrayBuffer()], { type: this.headers.get('content-type') ?? '' });
  }
}
