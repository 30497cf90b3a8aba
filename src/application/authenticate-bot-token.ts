import { hashBotToken, isBotToken } from '../domain/bot-token.ts';
import { err, ok, type Result } from '../domain/result.ts';
import type { Bot } from '../domain/types.ts';
import type { BotTokenRepository, Clock } from './ports.ts';

export type BotTokenAuthError = { type: 'missing_bot_token' } | { type: 'invalid_bot_token' };

const TOUCH_INTERVAL_MS = 60_000;
const MAX_REMEMBERED_TOUCHES = 10_000;

/**
 * Resolves a presented bot token (null when none was presented) to its bot, active or not: each v1 endpoint
 * decides what an inactive bot gets. The token and its bot are read on every request, in
 * one round trip, so a revocation or a settings change takes effect at once.
 *
 * The last use is written at most once a minute (the repository guarantees it across
 * instances); this process also remembers when it last wrote it, and skips the round trip
 * within the minute.
 */
export const makeAuthenticateBotToken = (d: { tokens: BotTokenRepository; clock: Clock }) => {
  const touchedAt = new Map<string, number>();
  const touchAtMostOnceAMinute = async (tokenId: string, now: Date) => {
    const last = touchedAt.get(tokenId);
    if (last !== undefined && now.getTime() - last < TOUCH_INTERVAL_MS) return;
    if (touchedAt.size >= MAX_REMEMBERED_TOUCHES) touchedAt.clear();
    touchedAt.set(tokenId, now.getTime());
    await d.tokens.touch(tokenId, now);
  };

  return async (token: string | null): Promise<Result<{ bot: Bot; tokenId: string }, BotTokenAuthError>> => {
    // Anything that is not shaped like a bot token counts as no token at all.
    if (!token || !isBotToken(token)) return err({ type: 'missing_bot_token' });
    const now = d.clock.now();
    const found = await d.tokens.findUsable(hashBotToken(token), now);
    if (!found) return err({ type: 'invalid_bot_token' });
    await touchAtMostOnceAMinute(found.tokenId, now);
    return ok({ bot: found.bot, tokenId: found.tokenId });
  };
};
