import type { EmbeddingResponse, LlmResponse, LlmStreamResponse, LlmTextStream } from './ports.ts';

/**
 * What went wrong with one provider call, independent of the SDK. `retryable` is true
 * only for connection errors and 5xx answers; never for 4xx, timeouts or bad answers.
 */
export type ProviderFailure =
  | { kind: 'unauthorized' }
  | { kind: 'rate_limited'; retryAfterSeconds?: number }
  | { kind: 'unavailable'; retryable: boolean };

export type CallOutcome<T> = { ok: true; value: T } | { ok: false; failure: ProviderFailure };

/** Thrown by an adapter when the provider answered 200 with something it cannot use. */
export class MalformedAnswerError extends Error {
  constructor(provider: string) {
    super(`${provider} returned an answer of an unexpected shape`);
    this.name = 'MalformedAnswerError';
  }
}

/**
 * The key an SDK client kept between requests is made with (the SDKs require one): every request
 * overrides it with the caller's own, in its headers, so no caller's key is kept in a client.
 */
export const KEY_SENT_PER_REQUEST = 'the-caller-s-key-is-sent-with-each-request';

/** The header that carries the caller's key, for OpenAI and Anthropic alike (@anthropic-ai/sdk 1.x sends a bearer token too). */
export const bearerHeader = (apiKey: string) => ({ authorization: `Bearer ${apiKey}` });

const UNAVAILABLE: ProviderFailure = { kind: 'unavailable', retryable: false };
const RETRYABLE: ProviderFailure = { kind: 'unavailable', retryable: true };

/**
 * Runs `attempt` under one deadline of `timeoutMs` that covers the retry too, and retries
 * once when `classify` says the failure is retryable and the deadline has not passed.
 * `attempt` must pass the signal to the SDK so an abandoned attempt stops its I/O; the
 * deadline is enforced here as well, so an SDK that ignores the signal cannot overrun it.
 */
export async function callWithPolicy<T>(
  timeoutMs: number,
  attempt: (signal: AbortSignal) => Promise<T>,
  classify: (error: unknown) => ProviderFailure,
): Promise<CallOutcome<T>> {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), timeoutMs);
  try {
    return await attemptAtMostTwice(deadline.signal, attempt, classify);
  } finally {
    clearTimeout(timer);
  }
}

async function attemptAtMostTwice<T>(
  signal: AbortSignal,
  attempt: (signal: AbortSignal) => Promise<T>,
  classify: (error: unknown) => ProviderFailure,
): Promise<CallOutcome<T>> {
  const first = await attemptOnce(signal, attempt, classify);
  if (first.ok || !isRetryable(first.failure)) return first;
  return attemptOnce(signal, attempt, classify);
}

async function attemptOnce<T>(
  signal: AbortSignal,
  attempt: (signal: AbortSignal) => Promise<T>,
  classify: (error: unknown) => ProviderFailure,
): Promise<CallOutcome<T>> {
  try {
    return { ok: true, value: await raceAgainst(signal, () => attempt(signal)) };
  } catch (error) {
    return { ok: false, failure: signal.aborted || isOversizedAnswer(error) ? UNAVAILABLE : safeClassify(classify, error) };
  }
}

/** An answer refused for its size (httpFetch's AnswerTooLargeError), however the SDK wrapped it. */
function isOversizedAnswer(error: unknown): boolean {
  return causeChain(error).some((link) => stringProperty(link, 'name') === 'AnswerTooLargeError');
}

function isRetryable(failure: ProviderFailure): boolean {
  return failure.kind === 'unavailable' && failure.retryable;
}

function raceAgainst<T>(signal: AbortSignal, work: () => Promise<T>): Promise<T> {
  if (signal.aborted) return Promise.reject(new DeadlineExceededError());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new DeadlineExceededError());
    signal.addEventListener('abort', onAbort, { once: true });
    Promise.resolve().then(work).then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

class DeadlineExceededError extends Error {
  constructor() {
    super('provider call exceeded its deadline');
    this.name = 'DeadlineExceededError';
  }
}

function safeClassify(classify: (error: unknown) => ProviderFailure, error: unknown): ProviderFailure {
  try {
    return classify(error);
  } catch {
    return UNAVAILABLE;
  }
}

export function failureForStatus(status: number, retryAfterSeconds?: number): ProviderFailure {
  if (status === 401 || status === 403) return { kind: 'unauthorized' };
  if (status === 429) {
    return retryAfterSeconds === undefined ? { kind: 'rate_limited' } : { kind: 'rate_limited', retryAfterSeconds };
  }
  return status >= 500 ? RETRYABLE : UNAVAILABLE;
}

/** For errors that carry no HTTP status: retryable only when the connection failed. */
export function failureForUnknownError(error: unknown): ProviderFailure {
  return isConnectionError(error) ? RETRYABLE : UNAVAILABLE;
}

const CONNECTION_ERROR_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
]);
const CONNECTION_ERROR_MESSAGES = ['socket hang up', 'fetch failed', 'other side closed', 'econnreset', 'econnrefused'];

/**
 * True for a refused, reset or dropped connection anywhere in the `cause` chain, and false
 * for timeouts and aborts (which must not be retried).
 */
export function isConnectionError(error: unknown): boolean {
  const chain = causeChain(error);
  if (chain.some(isTimeoutOrAbort)) return false;
  return chain.some((link) => {
    const code = stringProperty(link, 'code');
    if (code !== undefined && CONNECTION_ERROR_CODES.has(code)) return true;
    const message = stringProperty(link, 'message')?.toLowerCase() ?? '';
    return CONNECTION_ERROR_MESSAGES.some((fragment) => message.includes(fragment));
  });
}

function isTimeoutOrAbort(link: unknown): boolean {
  const name = stringProperty(link, 'name');
  const code = stringProperty(link, 'code');
  return (
    name === 'AbortError' ||
    name === 'TimeoutError' ||
    code === 'ABORT_ERR' ||
    code === 'ETIMEDOUT' ||
    code === 'UND_ERR_CONNECT_TIMEOUT' ||
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT'
  );
}

function causeChain(error: unknown): unknown[] {
  const chain: unknown[] = [];
  let link: unknown = error;
  while (link !== undefined && link !== null && chain.length < 8 && !chain.includes(link)) {
    chain.push(link);
    link = typeof link === 'object' ? (link as { cause?: unknown }).cause : undefined;
  }
  return chain;
}

function stringProperty(value: unknown, key: string): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const property = (value as Record<string, unknown>)[key];
  return typeof property === 'string' ? property : undefined;
}

/**
 * Seconds to wait from a `retry-after` header (delta seconds or an HTTP date), or from
 * `retry-after-ms`, rounded up to whole seconds; undefined when absent or unreadable.
 */
export function retryAfterSecondsFromHeaders(
  headers: { get(name: string): string | null } | undefined,
  now: Date = new Date(),
): number | undefined {
  if (!headers) return undefined;
  const seconds = parseRetryAfter(headers.get('retry-after'), now);
  if (seconds !== undefined) return seconds;
  const milliseconds = Number(headers.get('retry-after-ms') ?? '');
  const hasMilliseconds = headers.get('retry-after-ms') !== null && Number.isFinite(milliseconds);
  return hasMilliseconds && milliseconds >= 0 ? Math.ceil(milliseconds / 1000) : undefined;
}

export function parseRetryAfter(value: string | null | undefined, now: Date = new Date()): number | undefined {
  const trimmed = value?.trim();
  if (!trimmed) return undefined;
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.ceil(Number(trimmed));
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now.getTime()) / 1000));
}

function toLlmFailure(failure: ProviderFailure): Extract<LlmResponse, { ok: false }> {
  switch (failure.kind) {
    case 'unauthorized':
      return { ok: false, error: 'invalid_llm_key' };
    case 'rate_limited':
      return withRetryAfter({ ok: false, error: 'provider_rate_limit' }, failure.retryAfterSeconds);
    case 'unavailable':
      return { ok: false, error: 'provider_unavailable' };
  }
}

export function toEmbeddingFailure(failure: ProviderFailure): EmbeddingResponse {
  switch (failure.kind) {
    case 'unauthorized':
      return { ok: false, error: 'invalid_embedding_key' };
    case 'rate_limited':
      return withRetryAfter({ ok: false, error: 'provider_rate_limit' }, failure.retryAfterSeconds);
    case 'unavailable':
      return { ok: false, error: 'provider_unavailable' };
  }
}

function withRetryAfter<T extends object>(response: T, retryAfterSeconds: number | undefined): T {
  return retryAfterSeconds === undefined ? response : { ...response, retryAfterSeconds };
}

/** Runs a provider call and turns it into an LlmResponse; never throws. */
export async function completeWithPolicy(
  timeoutMs: number,
  attempt: (signal: AbortSignal) => Promise<string>,
  classify: (error: unknown) => ProviderFailure,
): Promise<LlmResponse> {
  try {
    const outcome = await callWithPolicy(timeoutMs, attempt, classify);
    return outcome.ok ? { ok: true, text: outcome.value } : toLlmFailure(outcome.failure);
  } catch {
    return { ok: false, error: 'provider_unavailable' };
  }
}

/** The non-blank text of an answer, or a MalformedAnswerError. */
export function requireText(provider: string, text: string | null | undefined): string {
  if (text === null || text === undefined || text.trim() === '') throw new MalformedAnswerError(provider);
  return text;
}

// ------------------------------------------------------------------ streaming

/**
 * Opens a streamed provider call and waits for its first text. `timeoutMs` bounds the wait for
 * the first text (a retryable failure before it is retried once within the same deadline) and
 * then every silence between texts. `callerSignal` (the visitor left) aborts the call at any
 * time, as does leaving the returned `rest` early. Never throws.
 */
export async function streamWithPolicy(
  timeoutMs: number,
  open: (signal: AbortSignal) => Promise<AsyncIterable<string>>,
  classify: (error: unknown) => ProviderFailure,
  callerSignal: AbortSignal,
): Promise<LlmStreamResponse> {
  try {
    const deadline = Date.now() + timeoutMs;
    let outcome = await openOnce(deadline, timeoutMs, open, classify, callerSignal);
    if (!outcome.ok && isRetryable(outcome.failure) && !callerSignal.aborted && Date.now() < deadline) {
      outcome = await openOnce(deadline, timeoutMs, open, classify, callerSignal);
    }
    return outcome.ok ? { ok: true, stream: outcome.value } : toLlmFailure(outcome.failure);
  } catch {
    return { ok: false, error: 'provider_unavailable' };
  }
}

async function openOnce(
  deadline: number,
  timeoutMs: number,
  open: (signal: AbortSignal) => Promise<AsyncIterable<string>>,
  classify: (error: unknown) => ProviderFailure,
  callerSignal: AbortSignal,
): Promise<CallOutcome<LlmTextStream>> {
  const call = new AbortController();
  const onCallerAbort = () => call.abort(new DeadlineExceededError());
  if (callerSignal.aborted) call.abort();
  else callerSignal.addEventListener('abort', onCallerAbort, { once: true });
  const release = () => callerSignal.removeEventListener('abort', onCallerAbort);
  try {
    const texts = await withinMs(deadline - Date.now(), call, () => open(call.signal));
    const iterator = texts[Symbol.asyncIterator]();
    const first = await nextText(iterator, { step: (work) => withinMs(deadline - Date.now(), call, work) });
    if (first === undefined) throw new MalformedAnswerError('stream');
    return { ok: true, value: { first, rest: restOf(iterator, timeoutMs, call, release) } };
  } catch (error) {
    const failure = call.signal.aborted || isOversizedAnswer(error) ? UNAVAILABLE : safeClassify(classify, error);
    call.abort();
    release();
    return { ok: false, failure };
  }
}

async function* restOf(
  iterator: AsyncIterator<string>,
  timeoutMs: number,
  call: AbortController,
  release: () => void,
): AsyncGenerator<string> {
  let ended = false;
  const silence = silenceWatch(timeoutMs, call);
  try {
    for (;;) {
      const text = await nextText(iterator, silence);
      if (text === undefined) break;
      yield text;
    }
    ended = true;
  } finally {
    silence.stop();
    // Failed, or left early by the visitor: this stops the provider's I/O. A stream that ended has
    // none left, and aborting it would cost an AbortError and its stack per reply for nothing.
    if (!ended) call.abort();
    release();
  }
}

/** Waits for one step of a stream, failing when its silence lasts too long or its call is aborted. */
interface StepWatch {
  step<T>(work: () => Promise<T>): Promise<T>;
}

/** The next non-empty text, or undefined at the end; throws when the watch gives up on a step. */
async function nextText(iterator: AsyncIterator<string>, watch: StepWatch): Promise<string | undefined> {
  for (;;) {
    const step = await watch.step(() => iterator.next());
    if (step.done) return undefined;
    if (step.value !== '') return step.value;
  }
}

/**
 * The silence allowed between the texts of a stream: one timer for the whole stream, restarted as
 * each step starts (in place, where the runtime's timers can), and one listener on the call's
 * signal that fails the step being waited for: not a timer, a listener and a race per chunk.
 */
function silenceWatch(ms: number, call: AbortController): StepWatch & { stop(): void } {
  const expire = () => call.abort(new DeadlineExceededError());
  let timer = setTimeout(expire, ms);
  let failStep: ((error: Error) => void) | undefined;
  const onAbort = () => failStep?.(new DeadlineExceededError());
  call.signal.addEventListener('abort', onAbort, { once: true });
  return {
    step<T>(work: () => Promise<T>): Promise<T> {
      if (call.signal.aborted) return Promise.reject(new DeadlineExceededError());
      if (typeof timer === 'object' && timer !== null && 'refresh' in timer) timer.refresh();
      else {
        clearTimeout(timer);
        timer = setTimeout(expire, ms);
      }
      return new Promise<T>((resolve, reject) => {
        failStep = reject;
        work().then(resolve, reject);
      });
    },
    stop() {
      clearTimeout(timer);
      call.signal.removeEventListener('abort', onAbort);
    },
  };
}

function withinMs<T>(ms: number, call: AbortController, work: () => Promise<T>): Promise<T> {
  const timer = setTimeout(() => call.abort(new DeadlineExceededError()), Math.max(0, ms));
  return raceAgainst(call.signal, work).finally(() => clearTimeout(timer));
}

/** The texts of an SDK's stream of events. */
export async function* textsOf<T>(events: AsyncIterable<T>, text: (event: T) => string | null | undefined): AsyncGenerator<string> {
  for await (const event of events) yield text(event) ?? '';
}
