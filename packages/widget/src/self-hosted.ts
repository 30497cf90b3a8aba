/**
 * The self-hosted widget: the owner's own page, the owner's own model. `sendMessage` is the
 * owner's function (it calls their model from their server; the widget never sees a
 * provider key). With `dashboard.token`, and only then, the widget talks to the platform:
 * it reads the bot's configuration, saves each transcript and captures leads, so they reach
 * the owner's dashboard. Failures there never break the chat.
 */
import { buildSystemPrompt } from '@careerbot/prompt';
import { renderChatWidget, type MountedWidget, type Turn } from './chat-widget.ts';
import { own, text } from './json-fields.ts';

export { buildSystemPrompt };

import type { Personality, SelfHostedOptions } from './options.ts';

export type { Personality, SelfHostedOptions };

/** Replies after which the e-mail form is offered. */
const LEAD_AFTER_REPLIES = 2;

const uuid = (): string =>
  typeof crypto.randomUUID === 'function'
    ? crypto.randomUUID()
    : '10000000-1000-4000-8000-100000000000'.replace(/[018]/g, (c) => (Number(c) ^ (crypto.getRandomValues(new Uint8Array(1))[0]! & (15 >> (Number(c) / 4)))).toString(16));

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

/** The address that served this script: the default platform address. */
let scriptOrigin: string | undefined;
export const rememberScriptOrigin = (url: string | undefined) => {
  try {
    if (url) scriptOrigin = new URL(url, location.href).origin;
  } catch {
    // not a URL: no default
  }
};

export const mount = (element: HTMLElement | null | undefined, options: SelfHostedOptions): MountedWidget => {
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

  // One session per tab: a reload resends the same sessionId, and the platform coalesces.
  const sessionKey = `${transcriptKey}:session`;
  let sessionId: string;
  try {
    sessionId = sessionStorage.getItem(sessionKey) ?? uuid();
    sessionStorage.setItem(sessionKey, sessionId);
  } catch {
    sessionId = uuid();
  }
  let conversationId: string | null = null;

  const widget = renderChatWidget({
    look: {
      name,
      headline: options.headline ?? null,
      themeColor: options.themeColor ?? null,
      suggestedQuestions: options.suggestedQuestions ?? [],
      loadingMessages: options.loadingMessages ?? [],
    },
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
      if (!config) return;
      const list = (key: string) => {
        const value = own(config, key);
        return Array.isArray(value) && value.every((item) => typeof item === 'string') ? (value as string[]) : undefined;
      };
      const image = text(config, 'image');
      widget.setLook({
        themeColor: options.themeColor ?? text(config, 'themeColor'),
        loadingMessages: options.loadingMessages?.length ? options.loadingMessages : (list('loadingMessages') ?? []),
        headline: options.headline ?? text(config, 'headline'),
        suggestedQuestions: options.suggestedQuestions?.length ? options.suggestedQuestions : (list('suggestedQuestions') ?? []),
        avatarUrl: image ? new URL(image, apiUrl).toString() : null,
      });
    });
  }
  return widget;
};
