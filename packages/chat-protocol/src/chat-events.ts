import type { StreamingReplyCleaner } from '@careerbot/guardrails';

/** What a streamed reply says, in order: deltas of the cleaned reply, then `done` or `error`. */
export type ChatStreamEvent =
  | { type: 'delta'; text: string }
  | { type: 'done'; reply: string; conversationId?: string }
  | { type: 'error'; error: 'provider_unavailable' };

/**
 * The events of a reply being written: `first` and `rest` as the provider sends them, through the
 * streaming reply cleaner. The deltas joined equal `done.reply`; a provider failing mid-answer ends
 * them with `error`.
 */
export async function* cleanedEvents(first: string, rest: AsyncIterable<string>, cleaner: StreamingReplyCleaner): AsyncGenerator<ChatStreamEvent> {
  const delta = (text: string): ChatStreamEvent[] => (text === '' ? [] : [{ type: 'delta', text }]);
  yield* delta(cleaner.push(first));
  try {
    for await (const text of rest) yield* delta(cleaner.push(text));
  } catch {
    yield { type: 'error', error: 'provider_unavailable' };
    return;
  }
  const end = cleaner.end();
  yield* delta(end.delta);
  yield { type: 'done', reply: end.reply };
}

/** A comment line every this many milliseconds of silence keeps proxies from closing a slow stream. */
export const SSE_HEARTBEAT_MS = 15_000;

export const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  'x-accel-buffering': 'no',
} as const;

/** Whether an Accept header asks for server-sent events. */
export const wantsEventStream = (accept: string | null | undefined) => /(^|,)\s*text\/event-stream\s*(;|,|$)/i.test(accept ?? '');

/** One event as its SSE lines: `event: <type>` and its data, the type left out, as JSON. */
export const sseFrame = (event: ChatStreamEvent): string => {
  const { type, ...data } = event;
  return `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
};

const HEARTBEAT = ': still writing\n\n';

/**
 * Writes `events` as SSE through `write`, with a comment line after every `heartbeatMs` of
 * silence, and stops early (leaving `events`, which aborts the provider call) once `left` says
 * the visitor is gone. `end` is called however it ends.
 */
export async function writeEventStream(
  events: AsyncIterable<ChatStreamEvent>,
  sink: { write(text: string): void; end(): void; left(): boolean },
  heartbeatMs = SSE_HEARTBEAT_MS,
): Promise<void> {
  // One timer, restarted by each event (Node's timers restart in place; elsewhere, a new one).
  let heartbeat = setInterval(() => sink.write(HEARTBEAT), heartbeatMs);
  const restart = () => {
    if (typeof heartbeat === 'object' && heartbeat !== null && 'refresh' in heartbeat) heartbeat.refresh();
    else {
      clearInterval(heartbeat);
      heartbeat = setInterval(() => sink.write(HEARTBEAT), heartbeatMs);
    }
  };
  try {
    for await (const event of events) {
      if (sink.left()) break;
      restart();
      sink.write(sseFrame(event));
    }
  } finally {
    clearInterval(heartbeat);
    sink.end();
  }
}
