import type { Bot, LlmProvider } from './types.ts';

export const DEFAULT_MODELS: Record<Exclude<LlmProvider, 'azure'>, string> = {
  anthropic: 'claude-haiku-4-5',
  openai: 'gpt-4o-mini',
  google: 'gemini-2.5-flash',
};

export const DEFAULT_LOADING_MESSAGES = [
  'Thinking about that…',
  'Looking through the career notes…',
  'Putting an answer together…',
  'One moment, checking the details…',
];

export const DEFAULT_THEME_COLOR = '#4f46e5';

/** Chat and the v1 conversation and lead endpoints; the owner may override them per bot. */
export const DEFAULT_RATE_LIMITS = { perMinute: 10, perDay: 50 } as const;

/** Knowledge retrieval keeps its own limits whatever the owner sets. */
export const KNOWLEDGE_RATE_LIMITS = { perMinute: 30, perDay: 1_000 } as const;

export const effectiveRateLimits = (bot: Pick<Bot, 'rateLimits'>) => ({
  perMinute: bot.rateLimits.perMinute ?? DEFAULT_RATE_LIMITS.perMinute,
  perDay: bot.rateLimits.perDay ?? DEFAULT_RATE_LIMITS.perDay,
});
