import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { ownOrigin } from '../own-origin.ts';
import { PROTOCOL, reply } from './http-errors.ts';
import { isJsonContentType } from './request-body.ts';

const parseCookies = (header: string | undefined): Map<string, string> => {
  const cookies = new Map<string, string>();
  for (const part of (header ?? '').split(';')) {
    const index = part.indexOf('=');
    if (index < 0) continue;
    const name = part.slice(0, index).trim();
    if (!name || cookies.has(name)) continue;
    try {
      cookies.set(name, decodeURIComponent(part.slice(index + 1).trim()));
    } catch {
      cookies.set(name, part.slice(index + 1).trim());
    }
  }
  return cookies;
};

/**
 * Refuses a state-changing, cookie-authenticated request whose Origin names another
 * origin than ours (or an allowed one). `Origin: null` is another origin. No Origin
 * header (curl, server-to-server) is let through: the cookie is SameSite=Lax anyway.
 */
export const requireSameOrigin =
  (options: { publicUrl: string | undefined; allowedOrigins: string[] }): RequestHandler =>
  (req: Request, res: Response, next: NextFunction) => {
    if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return next();
    const origin = req.headers.origin;
    if (origin === undefined) return next();
    if (origin === ownOrigin(req, options.publicUrl) || options.allowedOrigins.includes(origin)) return next();
    reply(res, PROTOCOL.forbiddenOrigin);
  };

/** A year of HTTPS only, sent on answers to requests that came over HTTPS (`req.secure`). */
export const HSTS = 'max-age=31536000';

/** HSTS on every answer to a request that came over HTTPS, directly or by a trusted proxy's `X-Forwarded-Proto`. */
export const strictTransportSecurity: RequestHandler = (req, res, next) => {
  if (req.secure) res.setHeader('Strict-Transport-Security', HSTS);
  next();
};

/**
 * Secure session cookies (production) over plain http: the browser is sent none, so a
 * sign-in answers 200 and does not stick. Said once, at the first such request.
 */
export const warnOnceWhenCookiesCannotStick = (logger: { warn: (details: object, message: string) => void }): RequestHandler => {
  let warned = false;
  return (req, _res, next) => {
    if (!warned && !req.secure) {
      warned = true;
      logger.warn(
        { path: req.path, forwardedProto: req.headers['x-forwarded-proto'] ?? null },
        'session cookies are Secure in production, but this request came over plain http (no X-Forwarded-Proto: https from a proxy ' +
          'that TRUST_PROXY trusts): browsers get no session cookie, so sign-in will not stick. Serve the service behind a TLS proxy ' +
          'that sets X-Forwarded-Proto, and set TRUST_PROXY to trust it (e.g. TRUST_PROXY=loopback)',
      );
    }
    next();
  };
};

/**
 * Cookie-authenticated changes take JSON only: a body of any other type (a form, `text/plain`,
 * which a cross-site page can send without a preflight) is refused with 415 before any
 * handler reads it. A change without a body (a DELETE, mark all read) needs no type.
 */
export const requireJsonBody: RequestHandler = (req, res, next) => {
  if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return next();
  const hasBody = req.headers['content-type'] !== undefined || req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
  if (!hasBody || isJsonContentType(req)) return next();
  reply(res, PROTOCOL.unsupportedMediaType);
};

/**
 * Double-submit CSRF token in the Auth.js style: the cookie holds "token|hmac(token)",
 * the form or JSON body repeats the token. The HMAC stops a cookie planted by a sibling
 * subdomain from being accepted.
 */
export class CsrfTokens {
  constructor(
    private readonly secret: string,
    readonly cookieName: string,
  ) {}

  private sign(token: string) {
    return createHmac('sha256', this.secret).update(token).digest('hex');
  }

  /** The token of a valid cookie, else null. */
  fromCookie(req: Request): string | null {
    const value = parseCookies(req.headers.cookie).get(this.cookieName);
    if (!value) return null;
    const [token, signature] = value.split('|');
    if (!token || !signature || !/^[0-9a-f]{64}$/.test(token)) return null;
    const expected = Buffer.from(this.sign(token));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given) ? token : null;
  }

  issue(res: Response, secure: boolean): string {
    const token = randomBytes(32).toString('hex');
    res.cookie(this.cookieName, `${token}|${this.sign(token)}`, { httpOnly: true, sameSite: 'lax', path: '/', secure });
    return token;
  }

  matches(req: Request, submitted: unknown): boolean {
    const token = this.fromCookie(req);
    // Checked as hex first: timingSafeEqual throws on inputs of different byte lengths.
    if (!token || typeof submitted !== 'string' || !/^[0-9a-f]{64}$/.test(submitted)) return false;
    return timingSafeEqual(Buffer.from(token), Buffer.from(submitted));
  }
}

/**
 * Where to go after sign-in: a same-origin path or URL, made absolute on our origin;
 * anything else becomes the home page, so the parameter can't redirect off-site.
 */
export const safeCallbackUrl = (callbackUrl: unknown, origin: string): string => {
  if (typeof callbackUrl !== 'string' || callbackUrl === '') return `${origin}/`;
  try {
    const resolved = new URL(callbackUrl, `${origin}/`);
    if (resolved.origin !== origin) return `${origin}/`;
    return resolved.toString();
  } catch {
    return `${origin}/`;
  }
};
