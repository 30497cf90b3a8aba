import express, { type ErrorRequestHandler, type Express, type RequestHandler } from 'express';
import session from 'express-session';
import type { Logger } from 'pino';
import { errorSummary } from '../logger.ts';
import { accountLinkRoutes, accountManagementRoutes, type AccountRouteDeps } from './account-routes.ts';
import { authRoutes, type AuthRouteDeps } from './auth-routes.ts';
import { botRoutes, type BotRouteDeps } from './bot-routes.ts';
import { chatRoutes } from './chat-routes.ts';
import { PROTOCOL, reply, undecodablePathReply } from './http-errors.ts';
import { importRoutes, type ImportRouteDeps } from './import-routes.ts';
import { insightsRoutes, type InsightsRouteDeps } from './insights-routes.ts';
import { ownerPhotoRoutes, publicPhotoRoutes, type PhotoRouteDeps } from './photo-routes.ts';
import { renderDocsPage } from './api-docs-page.ts';
import { buildOpenApiDocument, DOCS_OPERATIONS, OPERATIONS } from './openapi.ts';
import { requireUser } from './owner-auth.ts';
import { ownerKeyRoutes, type OwnerKeyRouteDeps } from './owner-key-routes.ts';
import { accountRoutes, botListRoutes, notificationRoutes, type OwnerRouteDeps } from './owner-routes.ts';
import { publicCors } from './public-cors.ts';
import { requestLog } from './request-log.ts';
import { avatarRoutes, publicBotRoutes, runtimeRoutes, type RuntimeRouteDeps } from './runtime-routes.ts';
import { CsrfTokens, requireJsonBody, requireSameOrigin, strictTransportSecurity, warnOnceWhenCookiesCannotStick } from './security.ts';
import { tokenRoutes, type TokenRouteDeps } from './token-routes.ts';

export interface AppOptions {
  logger: Logger;
  sessionStore: session.Store;
  sessionSecret: string;
  sessionCookieName: string;
  /** Secure cookies (production). */
  secureCookies: boolean;
  publicUrl: string | undefined;
  allowedOrigins: string[];
  trustProxy: boolean | number | string;
  /** Database reachable and migrations applied. */
  isReady: () => Promise<boolean>;
  /** From the metrics adapter: `count` sees every request; `serve` answers GET /metrics to a bearer of METRICS_TOKEN. */
  metrics: { count: RequestHandler; serve: RequestHandler };
  /** A dependency (the database) is down for now: answered 503, retryable. */
  isServiceUnavailable: (error: unknown) => error is Error;
  /**
   * The pages, built by the composition root with this app's session middleware and use
   * cases: their routes, and the HTML 404 a browser gets for an unknown page (it passes
   * anything else on to the JSON 404).
   */
  pages: (shared: { sessions: RequestHandler; useCases: UseCases }) => { routes: RequestHandler; notFound: RequestHandler };
}

export type UseCases = Omit<AuthRouteDeps, 'csrf' | 'secureCookies' | 'sessionCookieName' | 'publicUrl' | 'allowedOrigins'> &
  BotRouteDeps &
  Parameters<typeof chatRoutes>[0] &
  TokenRouteDeps &
  RuntimeRouteDeps &
  OwnerRouteDeps &
  OwnerKeyRouteDeps &
  ImportRouteDeps &
  PhotoRouteDeps &
  InsightsRouteDeps &
  AccountRouteDeps;

export const SESSION_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;

const isClientError = (error: unknown): error is { status: number } => {
  const status = (error as { status?: unknown })?.status;
  return typeof status === 'number' && status >= 400 && status < 500;
};

const errorHandler =
  (isServiceUnavailable: AppOptions['isServiceUnavailable']): ErrorRequestHandler =>
  (error, req, res, _next) => {
    if (res.headersSent) {
      req.log?.error({ error: errorSummary(error), stack: (error as Error)?.stack }, 'error after the response started');
      res.destroy();
      return;
    }
    if (isServiceUnavailable(error)) {
      req.log?.warn({ error: errorSummary(error.cause ?? error) }, 'database unavailable');
      reply(res, PROTOCOL.serviceUnavailable);
      return;
    }
    if (error instanceof URIError) {
      reply(res, undecodablePathReply(req.path));
      return;
    }
    if (isClientError(error)) {
      reply(res, { ...PROTOCOL.badRequest, status: error.status });
      return;
    }
    req.log?.error({ error: errorSummary(error), stack: (error as Error)?.stack }, 'unexpected failure');
    reply(res, PROTOCOL.internalError);
  };

export const buildApp = (useCases: UseCases, options: AppOptions): Express => {
  const app = express();
  app.disable('x-powered-by');
  // No automatic ETag hashing of every body: the config view sets its own validator.
  app.set('etag', false);
  app.set('trust proxy', options.trustProxy);
  app.use(requestLog(options.logger));
  app.use(strictTransportSecurity);
  app.use(options.metrics.count);

  app.get('/metrics', options.metrics.serve);
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    if (await options.isReady()) res.json({ status: 'ready' });
    else reply(res, PROTOCOL.serviceUnavailable);
  });

  // The public hot paths first, so they skip matching every cookie route below.
  app.use('/api/chat', publicCors, chatRoutes(useCases));
  app.use('/api/v1', publicCors);
  app.use('/api/v1/bot', runtimeRoutes(useCases));
  app.use('/api/avatars', publicCors, publicPhotoRoutes(useCases), avatarRoutes(useCases));
  app.use('/api/bots/:botId/public', publicCors, publicBotRoutes(useCases));

  const sessions = session({
    name: options.sessionCookieName,
    secret: options.sessionSecret,
    store: options.sessionStore,
    resave: false,
    saveUninitialized: false,
    rolling: true,
    cookie: {
      httpOnly: true,
      sameSite: 'lax',
      secure: options.secureCookies,
      path: '/',
      maxAge: SESSION_LIFETIME_MS,
    },
  });
  const sameOrigin = requireSameOrigin({ publicUrl: options.publicUrl, allowedOrigins: options.allowedOrigins });
  const csrf = new CsrfTokens(options.sessionSecret, `${options.sessionCookieName.replace(/session-token$/, '')}csrf-token`);

  if (options.secureCookies) app.use('/api/auth', warnOnceWhenCookiesCannotStick(options.logger));
  app.use(
    '/api/auth',
    sessions,
    authRoutes({
      ...useCases,
      csrf,
      secureCookies: options.secureCookies,
      sessionCookieName: options.sessionCookieName,
      publicUrl: options.publicUrl,
      allowedOrigins: options.allowedOrigins,
    }),
  );
  const accountWeb = { publicUrl: options.publicUrl, sessionCookieName: options.sessionCookieName, secureCookies: options.secureCookies };
  app.use('/api/auth', sessions, sameOrigin, accountLinkRoutes(useCases, accountWeb));
  // Cookie-authenticated: the session, then the Origin check and JSON-only bodies for changes.
  const owner = [sessions, requireUser, sameOrigin, requireJsonBody];
  // A CV upload's body is the file itself, so it skips the JSON-only check.
  app.use('/api/bots/import', sessions, requireUser, sameOrigin, importRoutes(useCases));
  app.use('/api/bots/avatar', sessions, requireUser, sameOrigin, ownerPhotoRoutes(useCases));
  app.use('/api/bots/tokens', ...owner, tokenRoutes(useCases));
  app.use('/api/bots/insights', ...owner, insightsRoutes(useCases));
  app.use('/api/bots', ...owner, botRoutes(useCases), botListRoutes(useCases));
  app.use('/api/notifications', ...owner, notificationRoutes(useCases));
  app.use('/api/account/llm-key', ...owner, ownerKeyRoutes(useCases));
  app.use('/api/account', ...owner, accountRoutes(useCases), accountManagementRoutes(useCases, accountWeb));

  const openApi = buildOpenApiDocument([...OPERATIONS, ...DOCS_OPERATIONS]);
  const docsPage = renderDocsPage(openApi);
  app.get('/api/openapi.json', (_req, res) => {
    res.json(openApi);
  });
  app.get('/api/docs', (_req, res) => {
    res.type('html').set('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'").send(docsPage);
  });

  const pages = options.pages({ sessions, useCases });
  app.use(pages.routes);

  app.use(pages.notFound, (_req, res) => reply(res, PROTOCOL.notFound));
  app.use(errorHandler(options.isServiceUnavailable));
  return app;
};
