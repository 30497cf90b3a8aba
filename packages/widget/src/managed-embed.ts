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
import { answerFrom, STREAMING, UNREACHABLE } from './chat-answer.ts';
import { PROVIDER_NAMES } from './chat-problems.ts';
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
    const headers: Record<string, string> = { ...STREAMING };
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
      return await answerFrom(response);
    } catch (error) {
      if (signal.aborted) throw error;
      return UNREACHABLE;
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
