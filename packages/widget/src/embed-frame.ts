/**
 * The managed widget's chat, inside the frame the platform serves at /embed/{botId} (its own
 * origin, its own strict CSP). Everything that touches the visitor's provider key happens here,
 * out of the host page's reach: the key field, its storage (this origin's sessionStorage), and
 * the chat requests, sent with the key only in the x-llm-api-key header. When the owner's key
 * answers (`ownerKeyAnswers`), the visitor needs no key and may still give their own.
 *
 * The host page's script (managed-embed.ts) draws the launcher and the frame. They speak by
 * postMessage, each checking the other's origin and window, and say nothing secret: the frame
 * says `ready` and `close`, the host page says `open` (move focus into the chat), and, while the
 * frame covers the page, `focus-first` and `focus-last` when Tab leaves the frame at one end (the
 * focus wraps to the chat's other end).
 */
import { renderChatWidget, type Answer } from './chat-widget.ts';
import { answerFrom, STREAMING, UNREACHABLE } from './chat-answer.ts';
import { PROVIDER_NAMES } from './chat-problems.ts';
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
    const headers: Record<string, string> = { ...STREAMING };
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
      return await answerFrom(response);
    } catch (error) {
      if (signal.aborted) throw error;
      return UNREACHABLE;
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
    const type = own(event.data, 'type');
    if (type === 'careerbot:open') widget.open();
    else if (type === 'careerbot:focus-first') widget.focusEdge('first');
    else if (type === 'careerbot:focus-last') widget.focusEdge('last');
  });
  toHost('ready');
};

const data = document.getElementById('careerbot-bot');
if (data) start(JSON.parse(data.textContent ?? 'null'));
