/**
 * The owner's self-hosted runtime (`careerbot-runtime`), as the widget calls it: GET /config,
 * POST /chat (streamed) and POST /lead. The runtime holds the provider key, the bot token and
 * the career context; the page sends only the visitor's words, a session id and an e-mail.
 */
import { answerFrom, STREAMING, UNREACHABLE } from './chat-answer.ts';
import type { Answer, Turn } from './chat-widget.ts';

export type RuntimeConfig = { found: true; config: unknown } | { found: false; reason: 'bot_not_found' | 'unreachable' };

export interface RuntimeClient {
  /** The bot's public view: name, headline, theme colour, avatar, suggested questions, loading messages. */
  config(): Promise<RuntimeConfig>;
  /** Sends the conversation, ending with the visitor's question; the reply streams. */
  chat(sessionId: string, messages: readonly Turn[], signal: AbortSignal): Promise<Answer>;
  /** Whether the runtime took the e-mail. */
  lead(sessionId: string, email: string): Promise<boolean>;
}

type Fetch = (input: string, init: RequestInit) => Promise<Response>;

export const runtimeClient = (runtimeUrl: string, fetcher: Fetch = (input, init) => fetch(input, init)): RuntimeClient => {
  const base = runtimeUrl.trim().replace(/\/+$/, '');
  const post = (path: string, body: unknown, init: RequestInit = {}) =>
    fetcher(`${base}${path}`, { method: 'POST', credentials: 'omit', headers: STREAMING, body: JSON.stringify(body), ...init });
  return {
    async config() {
      try {
        const response = await fetcher(`${base}/config`, { method: 'GET', credentials: 'omit' });
        if (response.ok) return { found: true, config: await response.json() };
        return { found: false, reason: response.status === 404 ? 'bot_not_found' : 'unreachable' };
      } catch {
        return { found: false, reason: 'unreachable' };
      }
    },
    async chat(sessionId, messages, signal) {
      try {
        return await answerFrom(await post('/chat', { sessionId, messages }, { signal }));
      } catch (error) {
        if (signal.aborted) throw error;
        return UNREACHABLE;
      }
    },
    async lead(sessionId, email) {
      try {
        return (await post('/lead', { sessionId, email }, { headers: { 'content-type': 'application/json' } })).ok;
      } catch {
        return false;
      }
    },
  };
};
