import { PERSONALITIES } from '@careerbot/prompt';
import { z } from 'zod';
import type { PlatformAnswer, PlatformClient } from './platform-client.ts';
import { RevalidatingCache, type CacheRead, type Revalidation } from './revalidating-cache.ts';

/** The platform's config view (GET /api/v1/bot/config), as far as the runtime reads it. */
const configView = z.object({
  id: z.string(),
  name: z.string(),
  headline: z.string().nullable(),
  personality: z.enum(PERSONALITIES),
  themeColor: z.string(),
  image: z.string(),
  suggestedQuestions: z.array(z.string()),
  loadingMessages: z.array(z.string()),
  isActive: z.boolean(),
});
export type BotConfig = z.infer<typeof configView>;

const fullContext = z.object({ mode: z.literal('full_context'), context: z.string() });
const retrieved = z.object({ mode: z.literal('retrieval'), chunks: z.array(z.string()) });

/** Any query does for the whole context: the platform ignores it in full_context mode. */
const FULL_CONTEXT_QUERY = 'the whole context';

/** A revoked or expired token (401), or an inactive bot (404): the bot is not to be served. */
const isGone = (answer: PlatformAnswer) => answer.kind === 'refused' && (answer.status === 401 || answer.status === 404);

const revalidation = <T>(answer: PlatformAnswer, schema: z.ZodType<T>): Revalidation<T> => {
  if (answer.kind === 'not_modified') return { kind: 'not_modified' };
  if (isGone(answer)) return { kind: 'gone' };
  if (answer.kind !== 'ok') return { kind: 'unreachable' };
  const parsed = schema.safeParse(answer.body);
  return parsed.success ? { kind: 'changed', value: parsed.data, etag: answer.etag } : { kind: 'unreachable' };
};

export type Knowledge = { kind: 'text'; text: string } | { kind: 'gone' } | { kind: 'unknown' };

/**
 * What the runtime knows of its bot, from the platform: the config view and the knowledge,
 * each cached and revalidated with its ETag, served from the last known copy while the platform
 * cannot be reached. With an embedding key, knowledge is retrieved per question, and the whole
 * context stands in when retrieval cannot be had.
 */
export class BotSource {
  private readonly config: RevalidatingCache<BotConfig>;
  private readonly context: RevalidatingCache<string>;

  constructor(
    private readonly platform: PlatformClient,
    private readonly embeddingApiKey: string | undefined,
    freshMs: number,
    now: () => number,
    private readonly onRetrievalFallback: (reason: string) => void,
  ) {
    this.config = new RevalidatingCache((etag) => platform.config(etag).then((answer) => revalidation(answer, configView)), freshMs, now);
    this.context = new RevalidatingCache(
      (etag) =>
        platform
          .knowledge({ query: FULL_CONTEXT_QUERY }, etag)
          .then((answer) => revalidation(answer, fullContext))
          .then((found): Revalidation<string> => (found.kind === 'changed' ? { ...found, value: found.value.context } : found)),
      freshMs,
      now,
    );
  }

  /** The bot's config; an inactive bot reads as gone. */
  async bot(): Promise<CacheRead<BotConfig>> {
    const read = await this.config.read();
    return read.kind === 'value' && !read.value.isActive ? { kind: 'gone' } : read;
  }

  /** Asks the platform for both, so the first visitor finds them cached. */
  async warm(): Promise<void> {
    await Promise.all([this.config.read(), this.context.read()]);
  }

  async knowledgeFor(question: string): Promise<Knowledge> {
    if (this.embeddingApiKey) {
      const answer = await this.platform.knowledge({ query: question, embeddingApiKey: this.embeddingApiKey });
      if (isGone(answer)) return { kind: 'gone' };
      const chunks = answer.kind === 'ok' ? retrieved.safeParse(answer.body) : null;
      if (chunks?.success) {
        void this.context.read();
        return { kind: 'text', text: chunks.data.chunks.join('\n\n') };
      }
      this.onRetrievalFallback(answer.kind === 'refused' ? `the platform refused retrieval (${answer.status})` : 'the platform could not retrieve');
    }
    const read = await this.context.read();
    return read.kind === 'value' ? { kind: 'text', text: read.value } : read;
  }
}
