import type { ComponentChildren } from 'preact';
import { renderToString } from 'preact-render-to-string';

export interface Assets {
  script: string;
  style: string;
}

/**
 * Every page is this shell: server-rendered by preact-render-to-string, which escapes every
 * text and attribute, so owner, visitor and lead text can only ever be text. The browser
 * app (client/main.tsx) reads `data-page` and `data-props` and renders the page into #app.
 */
export const renderPage = (page: { title: string; name: string; props?: unknown; assets: Assets; children?: ComponentChildren }) =>
  '<!doctype html>' +
  renderToString(
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${page.title} · Career Bot`}</title>
        <link rel="stylesheet" href={page.assets.style} />
        <link rel="icon" href="data:," />
        <script type="module" src={page.assets.script} />
      </head>
      <body data-page={page.name} data-props={JSON.stringify(page.props ?? {})}>
        <div id="app">{page.children}</div>
      </body>
    </html>,
  );

/** What the service is, readable with no script at all. */
export const HomeContent = () => (
  <main class="home">
    <h1>Career Bot</h1>
    <p class="lead">
      Your career, as a chat bot. Give recruiters a bot that answers from your own words, any time, and collects
      their details for you.
    </p>
    <ul class="home-points">
      <li>Write what you want your bot to know: your experience, projects, what you are looking for.</li>
      <li>Pick the model that answers: Anthropic, OpenAI, Google or Azure OpenAI. Visitors bring their own key.</li>
      <li>Share a link, or put the bot on your own site with one script tag.</li>
      <li>Read the conversations and the leads in your dashboard.</li>
    </ul>
    <p class="home-actions">
      <a class="button primary" href="/register">
        Create an account
      </a>
      <a class="button" href="/login">
        Sign in
      </a>
    </p>
  </main>
);

export const NotAvailableContent = () => (
  <main class="narrow">
    <h1>This bot is not available</h1>
    <p>The link may be wrong, or its owner has switched the bot off.</p>
    <p>
      <a href="/">Career Bot home</a>
    </p>
  </main>
);
