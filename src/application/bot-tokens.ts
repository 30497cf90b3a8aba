import { hashBotToken, lastFourOf, newBotToken } from '../domain/bot-token.ts';
import { err, ok, type Result } from '../domain/result.ts';
import type { BotTokenInfo } from '../domain/types.ts';
import type { BotRepository, BotTokenRepository, Clock } from './ports.ts';

const DAY_MS = 86_400_000;

export interface MintBotTokenInput {
  name: string;
  /** No expiry when absent. */
  expiresInDays?: number | null;
}

export type BotTokenError = { type: 'bot_not_found' } | { type: 'token_not_found' };

/** The owner's bot tokens: minted (the token is returned this once), listed, revoked. */
export const makeMintBotToken =
  (d: { bots: BotRepository; tokens: BotTokenRepository; clock: Clock }) =>
  async (
    userId: string,
    input: MintBotTokenInput,
  ): Promise<Result<{ token: string; info: BotTokenInfo }, { type: 'bot_not_found' }>> => {
    const bot = await d.bots.findByUserId(userId);
    if (!bot) return err({ type: 'bot_not_found' });
    const now = d.clock.now();
    const token = newBotToken();
    const info = await d.tokens.create(
      {
        botId: bot.id,
        name: input.name,
        tokenHash: hashBotToken(token),
        lastFour: lastFourOf(token),
        expiresAt: input.expiresInDays ? new Date(now.getTime() + input.expiresInDays * DAY_MS) : null,
      },
      now,
    );
    return ok({ token, info });
  };

export const makeListBotTokens =
  (d: { bots: BotRepository; tokens: BotTokenRepository }) =>
  async (userId: string): Promise<Result<BotTokenInfo[], { type: 'bot_not_found' }>> => {
    const bot = await d.bots.findByUserId(userId);
    return bot ? ok(await d.tokens.listForBot(bot.id)) : err({ type: 'bot_not_found' });
  };

/** Takes effect on the token's next request: authentication reads the token row every time. */
export const makeRevokeBotToken =
  (d: { bots: BotRepository; tokens: BotTokenRepository; clock: Clock }) =>
  async (userId: string, tokenId: string): Promise<Result<void, BotTokenError>> => {
    const bot = await d.bots.findByUserId(userId);
    if (!bot) return err({ type: 'bot_not_found' });
    return (await d.tokens.revoke(bot.id, tokenId, d.clock.now())) ? ok(undefined) : err({ type: 'token_not_found' });
  };
