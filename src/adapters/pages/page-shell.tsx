import { renderToString } from 'preact-render-to-string';
import { PAGE_STATE_ID, scriptJson } from './page-state.ts';
import { pageTitle, pageTree, type PageEntry, type PageProps } from './pages.tsx';

export interface Assets {
  script: string;
  style: string;
}

/**
 * Every page is this shell around its tree, rendered to a string by preact-render-to-string,
 * which escapes every text and attribute, so owner, visitor and lead text can only ever be
 * text. The props it was rendered with follow as a JSON data block (escaped by scriptJson;
 * the CSP lets no inline script run, and this one is data): the browser app
 * (client/main.tsx) hydrates the same tree from them.
 */
export const renderPage = (page: PageEntry, props: PageProps, assets: Assets) =>
  '<!doctype html>' +
  renderToString(
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${pageTitle(page, props)} · Career Bot`}</title>
        <link rel="stylesheet" href={assets.style} />
        <link rel="icon" href="data:," />
        <script type="module" src={assets.script} />
      </head>
      <body>
        <div id="app" dangerouslySetInnerHTML={{ __html: renderToString(<>{pageTree(page, props)}</>) }} />
        <script type="application/json" id={PAGE_STATE_ID} dangerouslySetInnerHTML={{ __html: scriptJson({ page: page.name, props }) }} />
      </body>
    </html>,
  );
