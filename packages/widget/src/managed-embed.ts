/**
 * The managed embed, served as /widget.js:
 *
 *   <script src="https://<platform>/widget.js" data-bot-id="<botId>" async></script>
 *
 * It reads the bot's public view, then shows the shared chat widget. When the owner's key
 * answers (`ownerKeyAnswers`), the visitor needs no key and may still give their own;
 * otherwise the visitor brings their own provider key: asked for once, kept in this tab's
 * sessionStorage, sent only in the x-llm-api-key header of the platform's chat endpoint. An unknown or inactive bot
 * renders nothing and says so once in the console.
 */
import { renderChatWidget, type Answer } from './chat-widget.ts';
import { chatProblem, PROVIDER_NAMES, type ErrorBody } from './chat-problems.ts';
import { readChatEvents, type ChatEvent } from './chat-reply.ts';
import { own, text } from './json-fields.ts';

const texts = (value: unknown, key: string): string[] => {
  const list = own(value, key);
  return Array.isArray(list) ? list.filter((item): item is string => typeof item === 'string') : [];
};

const script =
  (document.currentScript as HTMLScriptElement | null) ?? document.querySelector<HTMLScriptElement>('script[data-bot-id][src*="/widget.js"]');

const start = async (tag: HTMLScriptElement) => {
  const botId = tag.getAttribute('data-bot-id') ?? '';
  const platform = new URL(tag.src, location.href).origin;
  const unavailable = () => console.warn(`[careerbot] bot "${botId}" is not available (unknown or switched off): the chat widget is not shown.`);
  let view: unknown;
  try {
    const response = await fetch(`${platform}/api/bots/${encodeURIComponent(botId)}/public`, { credentials: 'omit' });
    if (!response.ok) return unavailable();
    view = await response.json();
  } catch {
    return unavailable();
  }
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
      const response = await fetch(`${platform}/api/chat/${encodeURIComponent(botId)}`, {
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

  renderChatWidget({
    look: {
      name,
      headline: text(view, 'headline'),
      avatarUrl: image ? new URL(image, platform).toString() : null,
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
  });
};

if (script) void start(script);
else console.warn('[careerbot] widget.js needs a data-bot-id attribute on its script tag.');

/** The reply's words from the chat events; an error event breaks the stream. */
async function* deltas(events: AsyncIterable<ChatEvent>): AsyncGenerator<string> {
  for await (const event of events) {
    if (event.type === 'delta') yield event.text;
    else if (event.type === 'error') throw new Error(event.error);
  }
}
