import type { NextFunction, Request, Response } from 'express';

/**
 * Every page: scripts, styles, images and requests only from the service itself; no inline
 * script or style, no eval, no framing, no plugins, and forms post only to us.
 */
export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

export const pageSecurityHeaders = (_req: Request, res: Response, next: NextFunction) => {
  res.set({
    'Content-Security-Policy': PAGE_CSP,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'same-origin',
    'X-Frame-Options': 'DENY',
    'Cross-Origin-Opener-Policy': 'same-origin',
  });
  next();
};
