/**
 * The self-hosted widget: the owner's own page, the owner's own model. `sendMessage` is the
 * owner's function (it calls their model from their server; the widget never sees a
 * provider key). With `dashboard.token`, and only then, the widget talks to the platform:
 * it reads the bot's configuration, saves each transcript and captures leads, so they reach
 * the owner's dashboard. Failures there never break the chat. With `runtimeUrl` instead, the
 * owner's runtime answers (runtime-widget.ts) and the page holds no context, token or key.
 */
import { buildSystemPrompt } from '@careerbot/prompt';
import { LEAD_AFTER_REPLIES, renderChatWidget, type MountedWidget, type Turn } from './chat-widget.ts';
import { lookFromConfig, lookFromOptions } from './config-look.ts';
import { own } from './json-fields.ts';
import { mountWithRuntime } from './runtime-widget.ts';
import { tabSessionId } from './tab-session.ts';

export { buildSystemPrompt };

import type { MountOptions, Personality, RuntimeOptions, SelfHostedOptions } from './options.ts';

export type { MountOptions, Personality, RuntimeOptions, SelfHostedOptions };

const isAsyncIterable = (value: unknown): value is AsyncIterable<string> =>
  typeof value === 'object' && value !== null && typeof (value as AsyncIterable<string>)[Symbol.asyncIterator] === 'function';

/** The platform's v1 API with a bot token; every failure resolves to null. */
const platform = (apiUrl: string, token: string) => {
  const warned = new Set<number>();
  const call = async (method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> => {
    try {
      const response = await fetch(`${apiUrl.replace(/\/+$/, '')}/api/v1/bot${path}`, {
        method,
        credentials: 'omit',
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if ((response.status === 401 || response.status === 429) && !warned.has(response.status)) {
        warned.add(response.status);
        console.warn(
          response.status === 401
            ? '[careerbot] the platform refused the bot token (401): transcripts and leads are not saved.'
            : '[careerbot] the platform rate-limited this bot (429): some transcripts or leads were not saved.',
        );
      }
      return response.ok ? await response.json() : null;
    } catch {
      return null;
    }
  };
  return {
    config: () => call('GET', '/config'),
    saveConversation: (sessionId: string, messages: readonly Turn[]) => call('POST', '/conversations', { sessionId, messages }),
    captureLead: (email: string, conversationId: string | null) =>
      call('POST', '/leads', conversationId ? { email, conversationId } : { email }),
  };
};

const withRuntime = (options: MountOptions): options is RuntimeOptions => typeof options?.runtimeUrl === 'string';

/** The address that served this script: the default platform address. */
let scriptOrigin: string | undefined;
export const rememberScriptOrigin = (url: string | undefined) => {
  try {
    if (url) scriptOrigin = new URL(url, location.href).origin;
  } catch {
    // not a URL: no default
  }
};

export const mount = (element: HTMLElement | null | undefined, options: MountOptions): MountedWidget => {
  if (withRuntime(options)) return mountWithRuntime(element, options);
  if (typeof options?.sendMessage !== 'function') throw new TypeError('careerbot mount: options.sendMessage must be a function');
  const name = String(options.name ?? '').trim() || 'My career bot';
  const system = buildSystemPrompt({
    name,
    headline: options.headline ?? null,
    personality: options.personality ?? 'professional',
    contextText: String(options.context ?? ''),
  });
  const transcriptKey = `careerbot:self-hosted:${name}`;
  const token = options.dashboard?.token?.trim();
  const apiUrl = options.dashboard?.apiUrl ?? scriptOrigin;
  const dashboard = token && apiUrl ? platform(apiUrl, token) : null;

  const sessionId = tabSessionId(`${transcriptKey}:session`);
  let conversationId: string | null = null;

  const widget = renderChatWidget({
    look: lookFromOptions(options, name),
    transcriptKey,
    container: element ?? document.body,
    answer: async (question, turns, _credentials, signal) => {
      try {
        const reply = await options.sendMessage({ system, messages: [...turns, { role: 'user', content: question }], signal });
        if (isAsyncIterable(reply)) return { ok: true, stream: reply, broken: { text: 'The bot stopped midway. Please retry.', retry: true } };
        if (typeof reply !== 'string' || !reply.trim()) return { ok: false, text: 'The bot gave no answer. Please retry.', retry: true };
        return { ok: true, reply };
      } catch {
        return { ok: false, text: 'The bot could not answer right now. Please retry.', retry: true };
      }
    },
    afterTurn: dashboard
      ? (turns) => {
          void dashboard.saveConversation(sessionId, turns).then((saved) => {
            const id = own(saved, 'conversationId');
            if (typeof id === 'string') conversationId = id;
          });
        }
      : undefined,
    lead:
      dashboard && options.captureLead
        ? {
            afterReplies: LEAD_AFTER_REPLIES,
            submit: async (email) => {
              const saved = await dashboard.captureLead(email, conversationId);
              return own(saved, 'lead') !== undefined;
            },
          }
        : undefined,
  });

  // The platform's configuration fills what the props leave out; props win.
  if (dashboard) {
    void dashboard.config().then((config) => {
      if (config) widget.setLook(lookFromConfig(config, options, apiUrl));
    });
  }
  return widget;
};
