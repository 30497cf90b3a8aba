import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_CSP } from '../../src/adapters/pages/content-security.ts';
import { HttpClient, signedInClient, validBot } from '@careerbot/testkit';
import { widgetClient } from '../support/runtime-clients.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';
const DATA_BLOCK = '<script type="application/json" id="page-state">';

/** What the server rendered into #app (before the data block), and the data block, parsed. */
const splitPage = (html: string) => {
  const start = html.indexOf(DATA_BLOCK);
  expect(start, 'the page has its data block').toBeGreaterThan(0);
  const end = html.indexOf('</script>', start);
  return { markup: html.slice(html.indexOf('<div id="app">'), start), state: JSON.parse(html.slice(start + DATA_BLOCK.length, end)) };
};

describe('pages over HTTP: rendered with their data, and an HTML 404 for browsers only', () => {
  let app: TestApp;
  let owner: Awaited<ReturnType<typeof signedInClient>>;
  let botId: string;
  beforeAll(async () => {
    app = await startTestApp();
    owner = await signedInClient(app.baseUrl);
    // A headline that would end the data block, or open a comment in it, if it were not escaped.
    const saved = await owner.client.post('/api/bots', validBot({ headline: '</script><!--<script>window.__pwned=1</script>-->' }));
    expect(saved.status).toBe(201);
    botId = saved.json.bot.id;
    const minted = await owner.client.post('/api/bots/tokens', { name: 'Portfolio site' });
    const widget = widgetClient(app.baseUrl, minted.json.token);
    const conversation = await widget.post('/conversations', {
      sessionId: randomUUID(),
      messages: [
        { role: 'user', content: 'Which engine did Ada program?' },
        { role: 'assistant', content: 'The Analytical Engine.' },
      ],
    });
    expect(conversation.status).toBe(201);
    const lead = await widget.post('/leads', { email: 'recruiter@example.com', conversationId: conversation.json.conversationId, contextSummary: 'Hiring' });
    expect(lead.status).toBe(201);
  });
  afterAll(async () => app?.close());

  it('renders every dashboard page with the owner’s data in its first HTML, and the same data for hydration', async () => {
    const pages: [string, string][] = [
      ['/dashboard', '>Ada Lovelace</h2>'],
      ['/dashboard/bot', 'value="Ada Lovelace"'],
      ['/dashboard/try', 'What did Ada build?'],
      ['/dashboard/conversations', 'Which engine did Ada program?'],
      ['/dashboard/leads', 'recruiter@example.com'],
      ['/dashboard/tokens', 'Portfolio site'],
      ['/dashboard/settings', 'E-mail me when a new lead arrives'],
    ];
    for (const [path, shown] of pages) {
      const response = await owner.client.get(path, { accept: BROWSER_ACCEPT });
      expect(response.status, path).toBe(200);
      const { markup, state } = splitPage(response.text);
      expect(markup, path).toContain(shown);
      expect(markup, path).not.toContain('Loading…');
      // The bell's count is in the first paint too: a conversation and a lead.
      expect(markup, path).toMatch(/<span class="badge">2<\/span>/);
      expect(state.props.user.name, path).toBe(owner.username);
    }
    const list = await owner.client.get('/api/bots/conversations');
    const detail = await owner.client.get(`/dashboard/conversations/${list.json.items[0].id}`);
    expect(splitPage(detail.text).markup).toContain('The Analytical Engine.');
  });

  it('escapes owner text in the data block: a </script> or <!-- cannot break out, and it parses back unchanged', async () => {
    const response = await new HttpClient(app.baseUrl).get(`/b/${botId}`, { accept: BROWSER_ACCEPT });
    expect(response.status).toBe(200);
    // Two script elements, each closed once: the app and the data block.
    expect(response.text.match(/<\/script>/g)).toHaveLength(2);
    expect(response.text).not.toContain('<!--');
    const { markup, state } = splitPage(response.text);
    expect(state.page).toBe('public-chat');
    expect(state.props.publicBot.headline).toBe('</script><!--<script>window.__pwned=1</script>-->');
    expect(markup).toContain('&lt;/script>&lt;!--&lt;script>');
  });

  it('answers a browser’s unknown page with an HTML 404 that links home, under the page CSP', async () => {
    for (const path of ['/nope', '/dashboard/unknown', '/b']) {
      const response = await new HttpClient(app.baseUrl).get(path, { accept: BROWSER_ACCEPT });
      expect(response.status, path).toBe(404);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect(response.headers.get('content-security-policy')).toBe(PAGE_CSP);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.text).toContain('<title>Page not found · Career Bot</title>');
      expect(response.text).toContain('<h1>Page not found</h1>');
      expect(response.text).toContain('<a href="/">Career Bot home</a>');
    }
  });

  it('keeps the JSON 404 for API clients, anything under /api/, and anything but a GET', async () => {
    const client = new HttpClient(app.baseUrl);
    const cases: [string, string, Record<string, string>][] = [
      ['GET', '/nope', {}],
      ['GET', '/nope', { accept: 'application/json' }],
      ['GET', '/nope', { accept: 'application/json, text/html;q=0.5' }],
      ['GET', '/api/nope', { accept: BROWSER_ACCEPT }],
      ['GET', '/api/docs/nope', { accept: BROWSER_ACCEPT }],
      ['POST', '/nope', { accept: BROWSER_ACCEPT }],
    ];
    for (const [method, path, headers] of cases) {
      const response = await client.request(method, path, { headers });
      expect(response.status, `${method} ${path} ${headers.accept}`).toBe(404);
      expect(response.json, `${method} ${path} ${headers.accept}`).toEqual({ error: 'not_found' });
    }
  });
});
