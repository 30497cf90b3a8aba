import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import express, { Router, type Request, type RequestHandler, type Response } from 'express';
import type { makeGetPublicBot } from '../../application/get-bot-config.ts';
import { withAvatarUrl } from '../http/runtime-routes.ts';
import { ownOrigin } from '../http/security.ts';
import { pageSecurityHeaders } from './content-security.ts';
import { HomeContent, NotAvailableContent, renderPage, type Assets } from './page-shell.tsx';

export interface PageRouteDeps {
  getPublicBot: ReturnType<typeof makeGetPublicBot>;
}

export interface PageOptions {
  /** The session middleware: pages read who is signed in. */
  sessions: RequestHandler;
  publicUrl: string | undefined;
}

/** Built by scripts/build-assets.mjs; the same path from src/ and from a compiled dist/. */
export const PUBLIC_DIR = new URL('../../../dist/public/', import.meta.url);

/** `?v=<content hash>` makes the assets cacheable for a year: a new build is a new URL. */
const versioned = (file: string) => {
  const url = new URL(file, PUBLIC_DIR);
  const version = existsSync(url) ? createHash('sha256').update(readFileSync(url)).digest('hex').slice(0, 12) : 'missing';
  return `/assets/${file}?v=${version}`;
};

/** The dashboard's sections: path under /dashboard -> page name and title. */
const DASHBOARD_PAGES: Record<string, { name: string; title: string }> = {
  '': { name: 'overview', title: 'Dashboard' },
  '/bot': { name: 'bot', title: 'Your bot' },
  '/try': { name: 'try', title: 'Try your bot' },
  '/conversations': { name: 'conversations', title: 'Conversations' },
  '/leads': { name: 'leads', title: 'Leads' },
  '/tokens': { name: 'tokens', title: 'Bot tokens' },
  '/settings': { name: 'settings', title: 'Settings' },
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The owner's web app and a bot's public page, under the paths decisions §9 keeps for pages.
 * Pages are shells with a strict CSP; the browser app calls the same JSON API as any client.
 */
export const pageRoutes = (d: PageRouteDeps, options: PageOptions): Router => {
  const router = Router();
  const assets: Assets = { script: versioned('app.js'), style: versioned('app.css') };
  const send = (res: Response, status: number, page: Parameters<typeof renderPage>[0]) => {
    res.status(status).type('html').set('Cache-Control', 'no-store').send(renderPage(page));
  };
  const signedIn = (req: Request) => !!req.session?.userId;
  const toLogin = (req: Request, res: Response) => res.redirect(303, `/login?callbackUrl=${encodeURIComponent(req.originalUrl)}`);

  router.use(
    '/assets',
    express.static(new URL(PUBLIC_DIR).pathname, {
      index: false,
      fallthrough: true,
      setHeaders: (res, _path) => {
        res.set('X-Content-Type-Options', 'nosniff');
        res.set('Cache-Control', 'public, max-age=31536000, immutable');
      },
    }),
  );

  // The embeds load from any site: CORS-open (an ES module import needs it) and readable
  // cross-origin; cached briefly, since the snippet's URL never changes.
  const embedHeaders = (res: Response) =>
    res.set({
      'Access-Control-Allow-Origin': '*',
      'Cross-Origin-Resource-Policy': 'cross-origin',
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'public, max-age=300',
    });
  router.get('/widget.js', (_req, res, next) => {
    embedHeaders(res);
    res.sendFile(new URL('widget.js', PUBLIC_DIR).pathname, { cacheControl: false }, (error) => error && next());
  });
  router.use(
    '/widget',
    express.static(new URL('widget/', PUBLIC_DIR).pathname, { index: false, cacheControl: false, setHeaders: (res) => embedHeaders(res as Response) }),
  );

  router.use(pageSecurityHeaders);

  router.get('/', options.sessions, (req, res) => {
    if (signedIn(req)) return res.redirect(303, '/dashboard');
    send(res, 200, { title: 'Your career, as a chat bot', name: 'home', assets, children: <HomeContent /> });
  });

  router.get('/login', options.sessions, (req, res) => {
    const callbackUrl = typeof req.query.callbackUrl === 'string' ? req.query.callbackUrl : '/dashboard';
    if (signedIn(req)) return res.redirect(303, '/dashboard');
    const error = typeof req.query.error === 'string' ? req.query.error : null;
    send(res, 200, { title: 'Sign in', name: 'login', assets, props: { callbackUrl, error } });
  });

  router.get('/register', options.sessions, (req, res) => {
    if (signedIn(req)) return res.redirect(303, '/dashboard');
    send(res, 200, { title: 'Create your account', name: 'register', assets });
  });

  const dashboard = (title: string, name: string, extra: Record<string, unknown> = {}): RequestHandler =>
    (req, res) => {
      if (!signedIn(req)) return toLogin(req, res);
      const user = { name: req.session.username, email: req.session.email };
      send(res, 200, { title, name, assets, props: { user, origin: ownOrigin(req, options.publicUrl), ...extra } });
    };
  for (const [path, page] of Object.entries(DASHBOARD_PAGES)) {
    router.get(`/dashboard${path}`, options.sessions, dashboard(page.title, page.name));
  }
  router.get('/dashboard/conversations/:id', options.sessions, (req, res, next) =>
    dashboard('Conversation', 'conversation', { conversationId: String(req.params.id) })(req, res, next),
  );

  router.get('/b/:botId', async (req, res) => {
    const botId = String(req.params.botId);
    const found = UUID.test(botId) ? await d.getPublicBot(botId) : null;
    if (!found?.ok) {
      return send(res, 404, { title: 'Bot not available', name: 'unavailable', assets, children: <NotAvailableContent /> });
    }
    const { view, llmProvider } = found.value;
    send(res, 200, { title: view.name, name: 'public-chat', assets, props: { bot: withAvatarUrl(view), provider: llmProvider } });
  });

  return router;
};
