import type { NextFunction, Request, Response } from 'express';
import type { makeAuthenticateBotToken } from '../../application/authenticate-bot-token.ts';
import type { Bot } from '../../domain/types.ts';
import { bearerCredentials } from '../bearer.ts';
import { botTokenAuthErrorReply, reply } from './http-errors.ts';

/** The first v1 check: `Authorization: Bearer cbt_…` resolves to a bot, else 401. */
export const requireBotToken =
  (authenticate: ReturnType<typeof makeAuthenticateBotToken>) => async (req: Request, res: Response, next: NextFunction) => {
    const result = await authenticate(bearerCredentials(req.headers.authorization));
    if (!result.ok) return reply(res, botTokenAuthErrorReply(result.error));
    res.locals.bot = result.value.bot;
    next();
  };

export const currentBot = (res: Response): Bot => {
  const bot = res.locals.bot as Bot | undefined;
  if (!bot) throw new Error('requireBotToken must run before this handler');
  return bot;
};
