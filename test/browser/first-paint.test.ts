import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable } from '@careerbot/testkit/browser';
import { signedInClient, validBot } from '@careerbot/testkit';
import { cspViolations, expectNoProblems, openTab, shoot, startPagesWorld, WIDTHS, type PagesWorld } from '../support/pages.ts';

describe.runIf(browserAvailable())('the first paint, and unknown pages, in Chromium', () => {
  let world: PagesWorld;
  let owner: Awaited<ReturnType<typeof signedInClient>>;
  beforeAll(async () => {
    world = await startPagesWorld();
    owner = await signedInClient(world.app.baseUrl);
    expect((await owner.client.post('/api/bots', validBot())).status).toBe(201);
  });
  afterAll(async () => world?.close());

  it('shows an unknown page as “Page not found” with a link home, which leads home', async () => {
    const tab = await openTab(world, 'phone');
    const { page } = tab;
    const response = await page.goto('/no-such-page');
    expect(response?.status()).toBe(404);
    await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
    expect(await page.title()).toBe('Page not found · Career Bot');
    expect(await cspViolations(page)).toEqual([]);
    await shoot(page, 'not-found');

    await page.getByRole('link', { name: 'Career Bot home' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('heading', { level: 1, name: 'Career Bot' }).waitFor();
    await page.getByRole('link', { name: 'Create an account' }).waitFor();
    expectNoProblems(tab);
    await tab.context.close();
  });

  it('paints the dashboard with the owner’s bot before any script runs', async () => {
    // No JavaScript at all: what shows is what the server rendered.
    const context = await world.browser.newContext({ baseURL: world.app.baseUrl, viewport: WIDTHS.desktop, javaScriptEnabled: false });
    const session = owner.client.cookies.get('careerbot.session-token')!;
    await context.addCookies([{ name: 'careerbot.session-token', value: session, url: world.app.baseUrl }]);
    const page = await context.newPage();
    await page.goto('/dashboard');
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    await page.getByRole('heading', { level: 2, name: 'Ada Lovelace' }).waitFor();
    await page.getByRole('switch', { name: 'Bot active' }).waitFor();
    await page.getByRole('link', { name: 'Leads' }).waitFor();
    expect(await page.getByText('Loading…').count()).toBe(0);
    await shoot(page, 'dashboard-no-script');
    await context.close();
  });
});
