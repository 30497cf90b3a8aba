import type { Bot } from './types.ts';

export const DEFAULT_LOADING_MESSAGES = [
  'Thinking about that…',
  'Looking through the career notes…',
  'Putting an answer together…',
  'One moment, checking the details…',
];

export const DEFAULT_THEME_COLOR = '#4f46e5';

/** Chat and the v1 conversation and lead endpoints; the owner may override them per bot. */
export const DEFAULT_RATE_LIMITS = { perMinute: 10, perDay: 50 } as const;

/** The highest limits an owner may set. */
export const MAX_RATE_LIMITS = { perMinute: 1_000, perDay: 100_000 } as const;

/** The words for a bad per-bot limit: the API's validation says them, and the settings page under each field. */
export const RATE_LIMIT_WORDS = {
  whole: 'Expected a whole number',
  atLeastOne: 'Must be at least 1',
  atMost: (max: number) => `Must be at most ${max}`,
} as const;

/**
 * What is wrong with one limit, in the order and the words the API's schema gives them, for the
 * page to place each error under its own field (the API lists both limits' errors together).
 * A test holds the two to the same answers.
 */
export const rateLimitProblems = (value: number, max: number): string[] => {
  // A number that is not whole is told only that, as the schema's integer check stops there.
  if (!Number.isInteger(value)) return [RATE_LIMIT_WORDS.whole];
  if (value < 1) return [RATE_LIMIT_WORDS.atLeastOne];
  return value > max ? [RATE_LIMIT_WORDS.atMost(max)] : [];
};

/** A visitor's chat message, in code points (after trimming): longer ones are refused at the edge. */
export const CHAT_MESSAGE_MAX_CHARS = 8_000;

/** How long a message the filter refused is kept for the owner to read; the retention job deletes it after. */
export const REFUSED_MESSAGE_DAYS = 30;

/** Knowledge retrieval keeps its own limits whatever the owner sets. */
export const KNOWLEDGE_RATE_LIMITS = { perMinute: 30, perDay: 1_000 } as const;

/** The bot's overrides where it has them, else the defaults. */
export const effectiveRateLimits = (
  bot: Pick<Bot, 'rateLimits'>,
  defaults: { perMinute: number; perDay: number } = DEFAULT_RATE_LIMITS,
) => ({
  perMinute: bot.rateLimits.perMinute ?? defaults.perMinute,
  perDay: bot.rateLimits.perDay ?? defaults.perDay,
});
