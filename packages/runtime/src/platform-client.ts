import type { Fetch } from '@careerbot/llm';
import type { RuntimeLogger } from './logger.ts';

/** What one call to the platform came to. */
export type PlatformAnswer =
  | { kind: 'ok'; status: number; body: unknown; etag: string | null }
  | { kind: 'not_modified' }
  /** The platform answered no (a 4xx other than 429): retrying the same call cannot help. */
  | { kind: 'refused'; status: number; body: unknown }
  /** Down, timed out, 5xx, or its rate limit (429): the same call may work later. */
  | { kind: 'unavailable'; retryAfterMs?: number };

const PLATFORM_TIMEOUT_MS = 5_000;

const retryAfterMs = (header: string | null): number | undefined => {
  const seconds = Number(header);
  return header !== null && Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined;
};

/**
 * The platform's bot runtime API (/api/v1/bot/*), called with the bot token. Never throws; the
 * token travels only in the Authorization header of these calls.
 */
export class PlatformClient {
  constructor(
    private readonly baseUrl: string,
    private readonly token: string,
    private readonly fetch: Fetch,
    private readonly log: RuntimeLogger,
  ) {}

  config(etag: string | null): Promise<PlatformAnswer> {
    return this.call('GET', '/api/v1/bot/config', undefined, etag);
  }

  knowledge(body: { query: string; embeddingApiKey?: string }, etag: string | null = null): Promise<PlatformAnswer> {
    return this.call('POST', '/api/v1/bot/knowledge', body, etag);
  }

  saveConversation(body: { sessionId: string; messages: { role: 'user' | 'assistant'; content: string }[] }): Promise<PlatformAnswer> {
    return this.call('POST', '/api/v1/bot/conversations', body, null);
  }

  captureLead(body: { email: string; conversationId: string | null; contextSummary: string | null }): Promise<PlatformAnswer> {
    return this.call('POST', '/api/v1/bot/leads', body, null);
  }

  reportRefusal(body: { id: string; reason: string; content: string }): Promise<PlatformAnswer> {
    return this.call('POST', '/api/v1/bot/refused-messages', body, null);
  }

  private async call(method: 'GET' | 'POST', path: string, body: unknown, etag: string | null): Promise<PlatformAnswer> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.token}`, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (etag) headers['if-none-match'] = etag;
    try {
      const answer = await this.fetch(`${this.baseUrl}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(PLATFORM_TIMEOUT_MS),
      });
      if (answer.status === 304) return { kind: 'not_modified' };
      const text = await answer.text();
      const parsed = parseJson(text);
      if (answer.status === 429 || answer.status >= 500) {
        this.log('warn', 'the platform could not take a call', { path, status: answer.status });
        return { kind: 'unavailable', retryAfterMs: retryAfterMs(answer.headers.get('retry-after')) };
      }
      if (answer.status >= 400) return { kind: 'refused', status: answer.status, body: parsed };
      return { kind: 'ok', status: answer.status, body: parsed, etag: answer.headers.get('etag') };
    } catch (error) {
      this.log('warn', 'the platform cannot be reached', { path, error: error instanceof Error ? error.name : 'unknown' });
      return { kind: 'unavailable' };
    }
  }
}

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
};
