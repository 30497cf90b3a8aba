/**
 * The managed widget's chat, inside the frame the platform serves at /embed/{botId} (its own
 * origin, its own strict CSP). Everything that touches the visitor's provider key happens here,
 * out of the host page's reach: the key field, its storage (this origin's sessionStorage), and
 * the chat requests, sent with the key only in the x-llm-api-key header. When the owner's key
 * answers (`ownerKeyAnswers`), the visitor needs no key and may still give their own.
 *
 * The host page's script (managed-embed.ts) draws the launcher and the frame. They speak by
 * postMessage, each checking the other's origin and window, and say nothing secret: the frame
 * says `ready` and `close`, the host page says `open` (move focus into the chat).
 */
import { renderChatWidget, type Answer } from './chat-widget.ts';
import { chatProblem, PROVIDER_NAMES, type ErrorBody } from './chat-problems.ts';
import { readChatEvents, type ChatEvent } from './chat-reply.ts';
import { own, text } from './json-fields.ts';

const texts = (value: unknown, key: string): string[] => {
  const list = own(value, key);
  return Array.isArray(list) ? list.filter((item): item is string => typeof item === 'string') : [];
};

/** The host page's origin, as its script gave it in the frame's URL; null when it is not an origin. */
const hostOrigin = (): string | null => {
  const given = new URLSearchParams(location.search).get('host');
  try {
    return given && new URL(given).origin === given ? given : null;
  } catch {
    return null;
  }
};

const start = (view: unknown) => {
  const botId = text(view, 'id') ?? '';
  const host = hostOrigin();
  const toHost = (type: 'ready' | 'close') => {
    if (host && window.parent !== window) window.parent.postMessage({ type: `careerbot:${type}` }, host);
  };
  const provider = text(view, 'llmProvider') ?? 'openai';
  const providerName = PROVIDER_NAMES[provider] ?? provider;
  const name = text(view, 'name') ?? 'Career bot';
  const image = text(view, 'image');
  const ownerKeyAnswers = own(view, 'ownerKeyAnswers') === true;

  const answer = async (question: string, _turns: unknown, credentials: { key: string; endpoint: string }, signal: AbortSignal): Promise<Answer> => {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'text/event-stream' };
    if (credentials.key) headers['x-llm-api-key'] = credentials.key;
    if (provider === 'azure' && credentials.key) headers['x-llm-azure-endpoint'] = credentials.endpoint;
    try {
      const response = await fetch(`/api/chat/${encodeURIComponent(botId)}`, {
        method: 'POST',
        credentials: 'omit',
        headers,
        body: JSON.stringify({ message: question }),
        signal,
      });
      if (response.ok && response.body && response.headers.get('content-type')?.startsWith('text/event-stream')) {
        return { ok: true, stream: deltas(readChatEvents(response.body)), broken: chatProblem(502, { error: 'provider_unavailable' }) };
      }
      const body: unknown = await response.json().catch(() => null);
      const reply = text(body, 'reply');
      if (response.ok && reply !== null) return { ok: true, reply };
      const error: ErrorBody = { error: text(body, 'error') ?? undefined, reason: text(body, 'reason') ?? undefined, scope: text(body, 'scope') ?? undefined };
      const resetAt = own(body, 'resetAt');
      if (typeof resetAt === 'number') error.resetAt = resetAt;
      return { ok: false, ...chatProblem(response.status, error) };
    } catch (error) {
      if (signal.aborted) throw error;
      return { ok: false, text: 'The chat could not be reached. Please retry.', retry: true };
    }
  };

  const widget = renderChatWidget({
    look: {
      name,
      headline: text(view, 'headline'),
      avatarUrl: image,
      themeColor: text(view, 'themeColor'),
      suggestedQuestions: texts(view, 'suggestedQuestions'),
      loadingMessages: texts(view, 'loadingMessages'),
    },
    transcriptKey: `careerbot:transcript:${botId}`,
    keyRequest: {
      label: `Your ${providerName} API key`,
      hint: ownerKeyAnswers
        ? `Optional: ${name} answers without a key of yours. To use your own ${providerName} key, enter it here; it stays in this browser tab and is sent only with your messages.`
        : `${name} answers through ${providerName}. Your key stays in this browser tab and is sent only with your messages.`,
      optional: ownerKeyAnswers,
      storageKey: `careerbot:llm-key:${provider}`,
      endpoint:
        provider === 'azure'
          ? { label: 'Your Azure OpenAI endpoint', hint: 'For example https://your-resource.openai.azure.com', storageKey: 'careerbot:azure-endpoint' }
          : undefined,
    },
    answer,
    framed: { close: () => toHost('close') },
  });
  window.addEventListener('message', (event) => {
    if (event.source !== window.parent || event.origin !== host) return;
    if (own(event.data, 'type') === 'careerbot:open') widget.open();
  });
  toHost('ready');
};

const data = document.getElementById('careerbot-bot');
if (data) start(JSON.parse(data.textContent ?? 'null'));

/** The reply's words from the chat events; an error event breaks the stream. */
async function* deltas(events: AsyncIterable<ChatEvent>): AsyncGenerator<string> {
  for await (const event of events) {
    if (event.type === 'delta') yield event.text;
    else if (event.type === 'error') throw new Error(event.error);
  }
}
