import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import type { makeRegisterUser } from '../../application/register-user.ts';
import type { makeSignIn } from '../../application/sign-in.ts';
import { ownOrigin } from '../own-origin.ts';
import { invalidJsonReply, PROTOCOL, registerErrorReply, reply, signInErrorReply, tooLargeReply } from './http-errors.ts';
import { isFormContentType, isJsonContentType, parseJson, readRawBody } from './request-body.ts';
import { bodyRefusals, BODY_ERRORS, errorBody, errorOneOf, HEADERS, isoTimestamp, uuidString, type OperationDoc } from './operation-doc.ts';
import { credentialsBody, registerBody, signOutBody } from './schemas.ts';
import { requireSameOrigin, safeCallbackUrl, type CsrfTokens } from './security.ts';
import { jsonBody, withRequestSchemas } from './validated.ts';

declare module 'express-session' {
  interface SessionData {
    userId: string;
    username: string;
    email: string;
    /** For the owner's list of sessions (issue 24). */
    signedInAt: string;
    userAgent: string;
    address: string;
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

const csrfRefused = {
  description: 'Missing or wrong CSRF token, or a foreign Origin',
  schema: errorOneOf(['MissingCSRF', 'Forbidden']),
};
/** readAuthForm's refusals: a JSON body that is not a JSON object (400), a body over 16 KiB (413). */
const authFormRefusals = {
  400: { description: 'A JSON body that is not a JSON object', schema: errorBody(BODY_ERRORS.owner.invalidJson) },
  413: { description: 'Body over 16 KiB', schema: errorBody(BODY_ERRORS.code.tooLarge) },
};

export const authOperations: OperationDoc[] = [
  {
    method: 'post',
    path: '/api/auth/register',
    tag: 'Accounts',
    summary: 'Register an account',
    description:
      'Creates a user. The user is not signed in afterwards. `username` is trimmed and lower-cased, 3-30 of a-z 0-9 _ -, starting with a letter or digit; `email` is trimmed, lower-cased, at most 254 characters; `password` is 8 to 72 bytes. The e-mail is checked before the username.',
    security: 'none',
    body: registerBody,
    responses: {
      201: {
        description: 'Created',
        schema: z.object({ user: z.object({ id: uuidString, username: z.string(), email: z.email() }) }),
      },
      ...bodyRefusals('owner', '16 KiB'),
      409: {
        description: 'E-mail taken (checked first), username taken, or a concurrent registration won the race',
        schema: errorOneOf([
          'A user with this email already exists',
          'A user with this username already exists',
          'Email or username already exists',
        ]),
      },
      429: {
        description: 'Too many registrations from this client address in the current 15-minute window (REGISTRATIONS_PER_ADDRESS, default 10)',
        headers: HEADERS.retryAfter,
        schema: errorBody('TooManyRequests'),
      },
    },
  },
  {
    method: 'get',
    path: '/api/auth/csrf',
    tag: 'Sign-in',
    summary: 'Get a CSRF token',
    description: 'Sets the `careerbot.csrf-token` cookie (double-submit); send the token back in sign-in and sign-out bodies.',
    security: 'none',
    responses: { 200: { description: 'The token', schema: z.object({ csrfToken: z.string().regex(/^[0-9a-f]{64}$/) }) } },
  },
  {
    method: 'get',
    path: '/api/auth/providers',
    tag: 'Sign-in',
    summary: 'List sign-in providers (Auth.js shape)',
    security: 'none',
    responses: {
      200: {
        description: 'The credentials provider',
        schema: z.object({
          credentials: z.object({
            id: z.literal('credentials'),
            name: z.string(),
            type: z.literal('credentials'),
            signinUrl: z.url(),
            callbackUrl: z.url(),
          }),
        }),
      },
    },
  },
  {
    method: 'post',
    path: '/api/auth/callback/credentials',
    tag: 'Sign-in',
    summary: 'Sign in with e-mail (or username) and password',
    description:
      'The Auth.js credentials flow. JSON or form-encoded. Answers JSON `{ url }` for JSON requests and `json=true`, else redirects (302) to `callbackUrl` (same-origin only, else `/`). Sets the `careerbot.session-token` cookie (httpOnly, SameSite=Lax, 30-day rolling; Secure in production) and a fresh session id. Throttled after 10 failures per account and client address, or 100 per address, in 15 minutes.',
    security: 'none',
    body: credentialsBody,
    bodyContentTypes: ['application/json', 'application/x-www-form-urlencoded'],
    responses: {
      200: { description: 'Signed in', schema: z.object({ url: z.url().meta({ description: 'Absolute' }) }) },
      302: { description: 'Signed in (form), or failed: redirect to /login?error=CredentialsSignin' },
      ...authFormRefusals,
      401: { description: 'Wrong credentials', schema: errorBody('CredentialsSignin', { url: z.url() }) },
      403: csrfRefused,
      429: { description: 'Too many failed sign-ins', schema: errorBody('TooManyRequests'), headers: HEADERS.retryAfter },
    },
  },
  {
    method: 'get',
    path: '/api/auth/session',
    tag: 'Sign-in',
    summary: 'The current session',
    security: 'none',
    responses: {
      200: {
        description: '`{}` when not signed in',
        schema: z.union([
          z.strictObject({ user: z.object({ id: uuidString, name: z.string(), email: z.email() }), expires: isoTimestamp }),
          z.strictObject({}),
        ]),
      },
    },
  },
  {
    method: 'post',
    path: '/api/auth/signout',
    tag: 'Sign-in',
    summary: 'Sign out',
    description: 'Destroys the session in the store: the cookie stops working at once. Needs the CSRF token.',
    security: 'none',
    body: signOutBody,
    bodyContentTypes: ['application/json', 'application/x-www-form-urlencoded'],
    responses: {
      200: { description: 'Signed out', schema: z.object({ url: z.url() }) },
      302: { description: 'Signed out (form): redirect to callbackUrl' },
      ...authFormRefusals,
      403: csrfRefused,
    },
  },
];

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

export const promisify = (run: (done: (error?: unknown) => void) => void) =>
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
      req.session.signedInAt = new Date().toISOString();
      req.session.userAgent = (req.get('user-agent') ?? '').slice(0, 512);
      req.session.address = req.ip ?? 'unknown';
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
