import { Router, type Request, type Response } from 'express';
import type { makeRegisterUser } from '../../application/register-user.ts';
import type { makeSignIn } from '../../application/sign-in.ts';
import { ownOrigin } from '../own-origin.ts';
import { invalidJsonReply, PROTOCOL, registerErrorReply, reply, signInErrorReply, tooLargeReply } from './http-errors.ts';
import { isFormContentType, isJsonContentType, parseJson, readRawBody } from './request-body.ts';
import { credentialsBody, registerBody, signOutBody } from './schemas.ts';
import { requireSameOrigin, safeCallbackUrl, type CsrfTokens } from './security.ts';
import { jsonBody, withRequestSchemas } from './validated.ts';

declare module 'express-session' {
  interface SessionData {
    userId: string;
    username: string;
    email: string;
  }
}

export interface AuthRouteDeps {
  registerUser: ReturnType<typeof makeRegisterUser>;
  signIn: ReturnType<typeof makeSignIn>;
  csrf: CsrfTokens;
  secureCookies: boolean;
  sessionCookieName: string;
  publicUrl: string | undefined;
  allowedOrigins: string[];
}

const AUTH_BODY_LIMIT = 16 * 1024;
const REGISTER_BODY_LIMIT = 16 * 1024;

/** Sign-in and sign-out accept JSON or a form, as Auth.js clients send either. */
const readAuthForm = async (req: Request, res: Response): Promise<Record<string, unknown> | null> => {
  const body = await readRawBody(req, AUTH_BODY_LIMIT);
  if (body.kind === 'too_large') {
    reply(res, tooLargeReply('code'));
    return null;
  }
  if (isFormContentType(req)) return Object.fromEntries(new URLSearchParams(body.raw.toString('utf8')));
  if (isJsonContentType(req)) {
    const parsed = parseJson(body.raw);
    if (parsed.kind === 'ok' && parsed.value !== null && typeof parsed.value === 'object' && !Array.isArray(parsed.value)) {
      return parsed.value as Record<string, unknown>;
    }
    reply(res, invalidJsonReply('owner'));
    return null;
  }
  return {};
};

/** JSON answers for JSON requests and for `json=true` (the Auth.js client), else redirects. */
const wantsJson = (req: Request, body: Record<string, unknown>) =>
  isJsonContentType(req) || body.json === true || body.json === 'true' || req.query.json === 'true';

const promisify = (run: (done: (error?: unknown) => void) => void) =>
  new Promise<void>((resolve, reject) => run((error) => (error ? reject(error) : resolve())));

export const authRoutes = (d: AuthRouteDeps): Router => {
  const router = Router();
  const sameOrigin = requireSameOrigin({ publicUrl: d.publicUrl, allowedOrigins: d.allowedOrigins });

  router.post(
    '/register',
    jsonBody({ schema: registerBody, limit: REGISTER_BODY_LIMIT, style: 'owner' }, async (req, res, body) => {
      const result = await d.registerUser({ ...body, clientAddress: req.ip ?? 'unknown' });
      if (!result.ok) return reply(res, registerErrorReply(result.error));
      const { id, username, email } = result.value;
      res.status(201).json({ user: { id, username, email } });
    }),
  );

  router.get('/csrf', (req, res) => {
    const csrfToken = d.csrf.fromCookie(req) ?? d.csrf.issue(res, d.secureCookies);
    res.set('Cache-Control', 'no-store').json({ csrfToken });
  });

  router.get('/providers', (req, res) => {
    const origin = ownOrigin(req, d.publicUrl);
    res.json({
      credentials: {
        id: 'credentials',
        name: 'Credentials',
        type: 'credentials',
        signinUrl: `${origin}/api/auth/signin/credentials`,
        callbackUrl: `${origin}/api/auth/callback/credentials`,
      },
    });
  });

  router.post(
    '/callback/credentials',
    sameOrigin,
    withRequestSchemas({ body: credentialsBody }, async (req, res) => {
      const form = await readAuthForm(req, res);
      if (!form) return;
      const body = credentialsBody.safeParse(form);
      const fields = body.success ? body.data : {};
      if (!d.csrf.matches(req, fields.csrfToken)) {
        reply(res, PROTOCOL.missingCsrf);
        return;
      }
      const origin = ownOrigin(req, d.publicUrl);
      const json = wantsJson(req, form);
      const result = await d.signIn({
        // No account is named with a NUL, and PostgreSQL's text cannot hold one: it reads as U+FFFD,
        // which names no account either, and the attempt is counted like any other.
        identifier: (fields.email ?? '').replaceAll('\u0000', '\ufffd'),
        password: fields.password ?? '',
        clientAddress: req.ip ?? 'unknown',
      });
      if (!result.ok) {
        const failureUrl = `${origin}/login?error=CredentialsSignin`;
        if (json || result.error.type === 'throttled') return reply(res, signInErrorReply(result.error, failureUrl));
        res.redirect(302, failureUrl);
        return;
      }
      // A fresh session id at sign-in, so an id planted before sign-in is worthless.
      await promisify((done) => req.session.regenerate(done));
      req.session.userId = result.value.id;
      req.session.username = result.value.username;
      req.session.email = result.value.email;
      await promisify((done) => req.session.save(done));
      const url = safeCallbackUrl(fields.callbackUrl, origin);
      if (json) res.json({ url });
      else res.redirect(302, url);
    }),
  );

  router.get('/session', (req, res) => {
    res.set('Cache-Control', 'no-store');
    if (!req.session?.userId) {
      res.json({});
      return;
    }
    res.json({
      user: { id: req.session.userId, name: req.session.username, email: req.session.email },
      expires: req.session.cookie.expires?.toISOString(),
    });
  });

  router.post(
    '/signout',
    sameOrigin,
    withRequestSchemas({ body: signOutBody }, async (req, res) => {
      const form = await readAuthForm(req, res);
      if (!form) return;
      const body = signOutBody.safeParse(form);
      if (!d.csrf.matches(req, body.success ? body.data.csrfToken : undefined)) {
        reply(res, PROTOCOL.missingCsrf);
        return;
      }
      // Destroyed in the store: the old cookie stops working at once.
      if (req.session) await promisify((done) => req.session.destroy(done));
      res.clearCookie(d.sessionCookieName, { path: '/', httpOnly: true, sameSite: 'lax', secure: d.secureCookies });
      const url = safeCallbackUrl(body.success ? body.data.callbackUrl : undefined, ownOrigin(req, d.publicUrl));
      if (wantsJson(req, form)) res.json({ url });
      else res.redirect(302, url);
    }),
  );

  return router;
};
