import type { NextFunction, Request, Response } from 'express';

/** Cookie-authenticated routes: 401 without a live session. */
export const requireUser = (req: Request, res: Response, next: NextFunction) => {
  if (req.session?.userId) return next();
  res.status(401).json({ error: 'Unauthorized' });
};

export const currentUserId = (req: Request): string => {
  const userId = req.session?.userId;
  if (!userId) throw new Error('requireUser must run before this handler');
  return userId;
};
