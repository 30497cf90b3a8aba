import type { NextFunction, Request, Response } from 'express';

/**
 * Chat, the v1 runtime API and the avatar are called from any site's widget: any origin,
 * never credentials. Cookie-authenticated routes do not use this.
 */
export const publicCors = (req: Request, res: Response, next: NextFunction) => {
  res.set({
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
    'Access-Control-Allow-Headers':
      'Content-Type, Authorization, x-llm-api-key, x-llm-azure-endpoint, x-llm-azure-api-version',
    'Access-Control-Expose-Headers': 'Retry-After, ETag, x-request-id',
  });
  if (req.method === 'OPTIONS') {
    res.set('Access-Control-Max-Age', '86400').status(204).end();
    return;
  }
  next();
};
