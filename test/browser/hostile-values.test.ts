import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_CSP } from '../../src/adapters/pages/content-security.ts';
import { browserAvailable } from '@careerbot/testkit/browser';
import { HttpClient, signedInClient } from '@careerbot/testkit';
import { cspViolations, expectNoProblems, openTab, signInThroughPages, startPagesWorld, type PagesWorld, type Tab } from '../support/pages.ts';
import { widgetClient } from '../support/runtime-clients.ts';

/** Each one runs `window.__pwned = …` if a page ever treats it as markup, a URL or a template. */
const HOSTILE = {
  img: '<img src=x onerror="window.__pwned=1">',
  script: '"><script>window.__pwned=2</script>',
  url: 'javascript:window.__pwned=3',
  template: '{{7*7}} ${7*7}',
};
const ALL = Object.values(HOSTILE);
const LEAD_EMAIL = "o'brien+x@example.com";

/** No hostile value ran, none became an element, and each expected one shows as text. */
const expectInert = async (page: Page, shown: string[]) => {
  for (const text of shown) await page.getByText(text, { exact: false }).first().waitFor();
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  // The one inline script element is the page's JSON data block, which never runs.
  expect(await page.locator('img[src="x"], script:not([src]):not([type="application/json"]), [onerror], a[href^="javascript:"]').count()).toBe(0);
};

describe.runIf(browserAvailable())('hostile values in every field a page displays, in Chromium', () => {
  let world: PagesWorld;
  let owner: Awaited<ReturnType<typeof signedInClient>>;
  let botId: string;
  let conversationId: string;
  beforeAll(async () => {
    world = await startPagesWorld();
    owner = await signedInClient(world.app.baseUrl);
    const saved = await owner.client.post('/api/bots', {
      name: HOSTILE.img,
      headline: HOSTILE.script,
      personality: 'professional',
      contextText: ALL.join('\n'),
      suggestedQuestions: ALL,
      llmProvider: 'openai',
    });
    expect(saved.status).toBe(201);
    botId = saved.json.bot.id;
    const minted = await owner.client.post('/api/bots/tokens', { name: HOSTILE.img });
    expect(minted.status).toBe(201);
    const widget = widgetClient(world.app.baseUrl, minted.json.token);
    const conversation = await widget.post('/conversations', {
      sessionId: randomUUID(),
      messages: [
        { role: 'user', content: `${HOSTILE.script} ${HOSTILE.template}` },
        { role: 'assistant', content: `${HOSTILE.img} ${HOSTILE.url}` },
      ],
    });
    expect(conversation.status).toBe(201);
    conversationId = conversation.json.conversationId;
    const lead = await widget.post('/leads', { email: LEAD_EMAIL, conversationId, contextSummary: ALL.join(' ') });
    expect(lead.status).toBe(201);
  });
  afterAll(async () => world?.close());

  // With the CSP bypassed, only escaping stands between these values and the page.
  const signedInTab = async (options: { bypassCSP: boolean }): Promise<Tab> => {
    const tab = await openTab(world, 'desktop', options);
    await signInThroughPages(tab.page, owner);
    await tab.page.waitForURL('**/dashboard');
    return tab;
  };

  it('shows them as text on every dashboard page, in the bell and on the public page, and nothing runs', async () => {
    const tab = await signedInTab({ bypassCSP: true });
    const { page } = tab;

    await expectInert(page, [HOSTILE.img, HOSTILE.script]);
    await page.getByRole('button', { name: /Notifications/ }).click();
    await expectInert(page, [`New lead: ${LEAD_EMAIL}`]);

    await page.goto('/dashboard/bot');
    await expect.poll(() => page.getByLabel('Name', { exact: true }).inputValue()).toBe(HOSTILE.img);
    expect(await page.getByLabel('Career context').inputValue()).toBe(ALL.join('\n'));
    expect(await page.getByLabel('Question 4').inputValue()).toBe(HOSTILE.template);
    await expectInert(page, []);

    await page.goto('/dashboard/try');
    for (const question of ALL) await page.getByRole('button', { name: question, exact: true }).waitFor();
    await expectInert(page, []);

    await page.goto('/dashboard/conversations');
    await expectInert(page, [HOSTILE.script]);
    await page.goto(`/dashboard/conversations/${conversationId}`);
    await expectInert(page, [HOSTILE.template, HOSTILE.img, HOSTILE.url]);

    await page.goto('/dashboard/leads');
    await expectInert(page, [LEAD_EMAIL, HOSTILE.img, HOSTILE.template]);

    await page.goto('/dashboard/tokens');
    await page.getByRole('cell', { name: HOSTILE.img, exact: true }).waitFor();
    await expectInert(page, []);

    await page.goto(`/b/${botId}`);
    await page.getByRole('heading', { level: 1, name: HOSTILE.img }).waitFor();
    await expectInert(page, [HOSTILE.script, HOSTILE.template]);
    expect(await page.title()).toBe(`${HOSTILE.img} · Career Bot`);

    // The raw HTML the server sent carries them escaped, in text and in the JSON data block.
    const html = await (await page.request.get(`/b/${botId}`)).text();
    expect(html).not.toContain('<img src=x');
    expect(html).not.toContain('<script>window');
    expectNoProblems(tab);
    await tab.context.close();
  });

  it('every page carries a strict CSP, and Chromium enforces it: no inline script runs', async () => {
    const client = new HttpClient(world.app.baseUrl);
    for (const path of ['/', '/login', '/register', `/b/${botId}`, '/b/not-a-uuid']) {
      const response = await client.get(path);
      const csp = response.headers.get('content-security-policy') ?? '';
      expect(csp, path).toBe(PAGE_CSP);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      // Every script tag loads a file from the service, or is the page's JSON data (never run);
      // there is no inline script or style.
      const tags = response.text.match(/<script[^>]*>/g) ?? [];
      expect(tags.filter((tag) => / src="\/assets\//.test(tag))).toHaveLength(1);
      expect(tags.every((tag) => / src="\/assets\//.test(tag) || tag === '<script type="application/json" id="page-state">')).toBe(true);
      expect(response.text).not.toMatch(/<style|style="/);
    }
    for (const directive of ["default-src 'none'", "script-src 'self'", "style-src 'self'", "frame-ancestors 'none'", "base-uri 'none'"]) {
      expect(PAGE_CSP).toContain(directive);
    }
    expect(PAGE_CSP).not.toMatch(/unsafe-inline|unsafe-eval|\*/);

    const tab = await signedInTab({ bypassCSP: false });
    const { page } = tab;
    await page.goto(`/dashboard/conversations/${conversationId}`);
    await page.getByText(HOSTILE.url).waitFor();
    expect(await cspViolations(page)).toEqual([]);
    // An injected inline script is refused by the policy and reported.
    await page.addScriptTag({ content: 'window.__pwned = 4' }).catch(() => undefined);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect((await cspViolations(page)).some((violation) => violation.startsWith('script-src'))).toBe(true);
    await tab.context.close();
  });
});
