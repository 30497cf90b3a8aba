import type { NextFunction, Request, Response } from 'express';
import { PROTOCOL, reply } from './http-errors.ts';

/** Cookie-authenticated routes: 401 without a live session. */
export const requireUser = (req: Request, res: Response, next: NextFunction) => {
  if (req.session?.userId) return next();
  reply(res, PROTOCOL.unauthorized);
};

export const currentUserId = (req: Request): string => {
  const userId = req.session?.userId;
  if (!userId) throw new Error('requireUser must run before this handler');
  return userId;
};
