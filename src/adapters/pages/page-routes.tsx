import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import express, { Router, type Request, type RequestHandler, type Response } from 'express';
import { ownOrigin } from '../own-origin.ts';
import { pageSecurityHeaders } from './content-security.ts';
import { embedPage, type EmbedView } from './embed-page.tsx';
import { renderPage, type Assets } from './page-shell.tsx';
import { pageNamed, PAGES, type DataKey, type PageData, type PageEntry, type PageProps } from './pages.tsx';

/** Where a page's data comes from: the bodies of the API's GET endpoints, given by the composition root. */
export type PageViews = { [K in Exclude<DataKey, 'publicBot'>]: (userId: string, params: Record<string, string>) => Promise<PageData[K]> } & {
  publicBot: (botId: string) => Promise<PageData['publicBot']>;
  /** The managed widget's frame: the public view and the sites allowed to embed it. */
  embed: (botId: string) => Promise<EmbedView | null>;
};

export interface PageRouteDeps {
  views: PageViews;
  /** The session middleware: pages read who is signed in. */
  sessions: RequestHandler;
  publicUrl: string | undefined;
}

/** Built by scripts/build-assets.mjs; the same path from src/ and from a compiled dist/. */
const PUBLIC_DIR = new URL('../../../dist/public/', import.meta.url);

/** `?v=<content hash>` makes the assets cacheable for a year: a new build is a new URL. */
const versioned = (file: string) => {
  const url = new URL(file, PUBLIC_DIR);
  const version = existsSync(url) ? createHash('sha256').update(readFileSync(url)).digest('hex').slice(0, 12) : 'missing';
  return `/assets/${file}?v=${version}`;
};

const page = (name: string): PageEntry => {
  const found = pageNamed(name);
  if (!found) throw new Error(`no page named ${name}`);
  return found;
};

/** A browser asking for a page: a GET that prefers HTML to JSON, outside the API. */
const wantsPage = (req: Request) =>
  (req.method === 'GET' || req.method === 'HEAD') && req.path !== '/api' && !req.path.startsWith('/api/') && req.accepts(['json', 'html']) === 'html';

/**
 * The owner's web app and a bot's public page, under the paths decisions §9 keeps for pages,
 * one route per entry of the table of pages. Each is rendered on the server with the data it
 * shows, under a strict CSP, and hydrated in the browser, which then calls the same JSON API
 * as any client. `notFound` answers a browser's unknown page with an HTML 404; anything else
 * goes on to the API's JSON 404.
 */
export const pageRoutes = (d: PageRouteDeps): { routes: Router; notFound: RequestHandler } => {
  const router = Router();
  const assets: Assets = { script: versioned('app.js'), style: versioned('app.css') };
  const send = (res: Response, status: number, entry: PageEntry, props: PageProps) => {
    res.status(status).type('html').set('Cache-Control', 'no-store').send(renderPage(entry, props, assets));
  };
  const load = <K extends DataKey>(key: K, userId: string, params: Record<string, string>): Promise<PageData[K]> =>
    (key === 'publicBot' ? d.views.publicBot(params.botId ?? '') : d.views[key as Exclude<DataKey, 'publicBot'>](userId, params)) as Promise<PageData[K]>;

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

  // The self-hosted runtime's command in one file, for the dashboard's `curl` step: a script for
  // Node, never run by a browser (nosniff, and no page loads it).
  router.get('/runtime/careerbot-runtime.mjs', (_req, res, next) => {
    res.set({ 'Content-Type': 'text/javascript; charset=utf-8', 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'public, max-age=300' });
    res.sendFile(new URL('runtime/careerbot-runtime.mjs', PUBLIC_DIR).pathname, { cacheControl: false }, (error) => error && next());
  });

  // The managed widget's chat, framed by other sites under its own CSP (not the pages' DENY).
  router.get('/embed/:botId', embedPage({ view: d.views.embed, script: versioned('embed-frame.js') }));

  router.use(pageSecurityHeaders);

  for (const entry of PAGES) {
    if (!entry.path) continue;
    const handler: RequestHandler = async (req, res) => {
      const userId = req.session?.userId;
      if (entry.access === 'guest' && userId) return res.redirect(303, '/dashboard');
      if (entry.access === 'owner' && !userId) return res.redirect(303, `/login?callbackUrl=${encodeURIComponent(req.originalUrl)}`);
      const params = { ...req.params } as Record<string, string>;
      const props: PageProps = {};
      if (Object.keys(params).length) props.params = params;
      if (entry.query) {
        props.query = Object.fromEntries(entry.query.flatMap((name) => (typeof req.query[name] === 'string' ? [[name, req.query[name]]] : [])));
      }
      if (entry.access === 'owner') {
        props.user = { name: req.session.username ?? '', email: req.session.email ?? '' };
        props.origin = ownOrigin(req, d.publicUrl);
      }
      // The dashboard's bell is on every owner page.
      const keys: DataKey[] = [...(entry.data ?? []), ...(entry.access === 'owner' ? (['notifications'] as const) : [])];
      const values = await Promise.all(keys.map((key) => load(key, userId ?? '', params)));
      Object.assign(props, Object.fromEntries(keys.map((key, index) => [key, values[index]])));
      if (entry.orElse && keys[0] && values[0] === null) return send(res, 404, page(entry.orElse), {});
      send(res, 200, entry, props);
    };
    // Visitor pages need no session; the others read it.
    router.get(entry.path, ...(entry.access === 'anyone' ? [] : [d.sessions]), handler);
  }

  const notFoundPage = page('not-found');
  const notFound: RequestHandler = (req, res, next) => {
    if (!wantsPage(req)) return next();
    pageSecurityHeaders(req, res, () => send(res, 404, notFoundPage, {}));
  };

  return { routes: router, notFound };
};
