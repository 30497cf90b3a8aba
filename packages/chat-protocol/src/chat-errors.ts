import type { BlockReason } from '@careerbot/guardrails';

/** A refusal as HTTP says it. */
export interface ErrorReply {
  status: number;
  body: { error: string } & Record<string, unknown>;
  headers?: Record<string, string>;
}

/** Why a chat message got no reply: the platform's chat and the self-hosted runtime answer these alike. */
export type ChatError =
  | { type: 'bot_not_found' }
  | { type: 'rate_limit'; scope: 'short' | 'long'; resetAt: number }
  | { type: 'blocked'; reason: BlockReason }
  | { type: 'missing_llm_key' }
  | { type: 'owner_key_daily_cap'; resetAt: number }
  | { type: 'invalid_llm_key' }
  | { type: 'provider_rate_limit'; retryAfterSeconds?: number }
  | { type: 'provider_unavailable' };

const unreachable = (value: never): never => {
  throw new Error(`unmapped error: ${JSON.stringify(value)}`);
};

/** Whole seconds until `resetAt` (epoch milliseconds), at least 1. */
export const retryAfterSeconds = (resetAt: number, now: number) => String(Math.max(1, Math.ceil((resetAt - now) / 1000)));

/** Our own limiter's 429: chat says `rate_limit`, v1 says `rate_limited`. */
export const limitReply = (code: 'rate_limit' | 'rate_limited', limit: { scope: string; resetAt: number }, now: number): ErrorReply => ({
  status: 429,
  body: { error: code, scope: limit.scope, resetAt: limit.resetAt },
  headers: { 'Retry-After': retryAfterSeconds(limit.resetAt, now) },
});

/** The provider's 429; its Retry-After is passed on when it sent one. */
export const providerRateLimitReply = (retryAfter: number | undefined): ErrorReply => ({
  status: 429,
  body: { error: 'provider_rate_limit' },
  headers: retryAfter ? { 'Retry-After': String(retryAfter) } : undefined,
});

export const chatErrorReply = (error: ChatError, now: number): ErrorReply => {
  switch (error.type) {
    case 'bot_not_found':
      return { status: 404, body: { error: 'bot_not_found' } };
    case 'rate_limit':
      return limitReply('rate_limit', error, now);
    case 'blocked':
      return { status: 400, body: { error: 'blocked', reason: error.reason } };
    case 'missing_llm_key':
    case 'invalid_llm_key':
      return { status: 400, body: { error: error.type } };
    case 'owner_key_daily_cap':
      return {
        status: 429,
        body: { error: 'daily_limit_reached', resetAt: error.resetAt },
        headers: { 'Retry-After': retryAfterSeconds(error.resetAt, now) },
      };
    case 'provider_rate_limit':
      return providerRateLimitReply(error.retryAfterSeconds);
    case 'provider_unavailable':
      return { status: 502, body: { error: 'provider_unavailable' } };
    default:
      return unreachable(error);
  }
};
