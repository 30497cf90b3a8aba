import type { RequestHandler } from 'express';
import { renderToString } from 'preact-render-to-string';
import { scriptJson } from './page-state.ts';

/** The id of the JSON block that hands the frame's script the bot's public view. */
export const EMBED_BOT_ID = 'careerbot-bot';

/** A bot the embed can show: its public view (as GET /api/bots/{botId}/public answers) and the sites allowed to frame it. */
export interface EmbedView {
  bot: { name: string } & Record<string, unknown>;
  embedOrigins: string[];
}

/**
 * The embed page's policy: only our own script, styles, images and requests, no inline script,
 * no forms, and framed only by the sites the owner listed (any site when the list is empty).
 */
export const embedCsp = (embedOrigins: readonly string[]) =>
  [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${embedOrigins.length ? embedOrigins.join(' ') : '*'}`,
  ].join('; ');

const html = (title: string, script: string | null, bot: EmbedView['bot'] | null) =>
  '<!doctype html>' +
  renderToString(
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{title}</title>
        <link rel="icon" href="data:," />
        {script && <script defer src={script} />}
      </head>
      <body>
        {bot ? <script type="application/json" id={EMBED_BOT_ID} dangerouslySetInnerHTML={{ __html: scriptJson(bot) }} /> : <p>This chat is not available.</p>}
      </body>
    </html>,
  );

/**
 * GET /embed/{botId}: the managed widget's chat, in a frame on the platform's origin, so the
 * visitor's key (its field, its storage, the chat requests) is out of the host page's reach.
 * The host page's script (/widget.js) only draws the launcher and this frame.
 */
export const embedPage =
  (d: { view: (botId: string) => Promise<EmbedView | null>; script: string }): RequestHandler =>
  async (req, res) => {
    const view = await d.view(String(req.params.botId));
    res.status(view ? 200 : 404).type('html').set({
      'Content-Security-Policy': embedCsp(view?.embedOrigins ?? []),
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'same-origin',
      // The page's CSP follows the owner's list, which may change at any time.
      'Cache-Control': 'no-store',
    });
    res.send(view ? html(`Chat with ${view.bot.name}`, d.script, view.bot) : html('Chat not available', null, null));
  };
