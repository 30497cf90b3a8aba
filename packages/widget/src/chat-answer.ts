/**
 * A chat endpoint's answer (the platform's POST /api/chat/{botId}, or a runtime's POST /chat)
 * read into what the chat widget shows: the reply's words as they stream in, the whole reply,
 * or the problem in words.
 */
import type { Answer } from './chat-widget.ts';
import { chatProblem, REPLY_CUT_OFF, type ErrorBody } from './chat-problems.ts';
import { readChatEvents, type ChatEvent } from './chat-reply.ts';
import { own, text } from './json-fields.ts';

/** The headers of a chat request that wants the reply streamed. */
export const STREAMING = { 'content-type': 'application/json', accept: 'text/event-stream' } as const;

export const answerFrom = async (response: Response): Promise<Answer> => {
  if (response.ok && response.body && response.headers.get('content-type')?.startsWith('text/event-stream')) {
    return { ok: true, stream: deltas(readChatEvents(response.body)), broken: REPLY_CUT_OFF };
  }
  const body: unknown = await response.json().catch(() => null);
  const reply = text(body, 'reply');
  if (response.ok && reply !== null) return { ok: true, reply };
  const error: ErrorBody = { error: text(body, 'error') ?? undefined, reason: text(body, 'reason') ?? undefined, scope: text(body, 'scope') ?? undefined };
  const resetAt = own(body, 'resetAt');
  if (typeof resetAt === 'number') error.resetAt = resetAt;
  return { ok: false, ...chatProblem(response.status, error) };
};

/** What the widget says when the chat endpoint cannot be reached at all. */
export const UNREACHABLE: Answer = { ok: false, text: 'The chat could not be reached. Please retry.', retry: true };

/** The reply's words from the chat events; an error event breaks the stream. */
async function* deltas(events: AsyncIterable<ChatEvent>): AsyncGenerator<string> {
  for await (const event of events) {
    if (event.type === 'delta') yield event.text;
    else if (event.type === 'error') throw new Error(event.error);
  }
}
