import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable } from '@careerbot/testkit/browser';
import { fakeReply, signedInClient, validBot } from '@careerbot/testkit';
import {
  axeViolations,
  expectNoProblems,
  focusIsVisible,
  newOwner,
  openTab,
  shoot,
  signInThroughPages,
  startPagesWorld,
  tabTo,
  WIDTHS,
  type PagesWorld,
  type Width,
} from '../support/pages.ts';
import { widgetClient } from '../support/runtime-clients.ts';

interface Visit {
  name: string;
  path: string | (() => string);
  /** What shows once the page has loaded its data. */
  ready: (page: Page) => Promise<unknown>;
  before?: (page: Page) => Promise<unknown>;
}

describe.runIf(browserAvailable())('every page at 375 and 1440 px: screenshots and axe-core, and the keyboard alone', () => {
  let world: PagesWorld;
  let owner: Awaited<ReturnType<typeof signedInClient>>;
  let botId: string;
  let conversationId: string;
  beforeAll(async () => {
    world = await startPagesWorld();
    owner = await signedInClient(world.app.baseUrl);
    botId = (await owner.client.post('/api/bots', validBot())).json.bot.id;
    const token = (await owner.client.post('/api/bots/tokens', { name: 'Portfolio site', expiresInDays: 90 })).json.token;
    const widget = widgetClient(world.app.baseUrl, token);
    conversationId = (
      await widget.post('/conversations', {
        sessionId: randomUUID(),
        messages: [
          { role: 'user', content: 'Is Ada open to remote roles?' },
          { role: 'assistant', content: 'Yes. Ada works remotely and travels to London once a month.' },
        ],
      })
    ).json.conversationId;
    await widget.post('/leads', { email: 'recruiter@example.com', conversationId, contextSummary: 'Principal engineer role, remote' });
  });
  afterAll(async () => world?.close());

  const heading = (name: string) => (page: Page) => page.getByRole('heading', { level: 1, name }).waitFor();
  const SIGNED_OUT: Visit[] = [
    { name: 'home', path: '/', ready: heading('Career Bot') },
    { name: 'login', path: '/login', ready: heading('Sign in') },
    { name: 'register', path: '/register', ready: heading('Create your account') },
    { name: 'public-chat', path: () => `/b/${botId}`, ready: (page) => page.getByRole('button', { name: 'What did Ada build?' }).waitFor() },
    { name: 'not-available', path: '/b/00000000-0000-4000-8000-000000000000', ready: heading('This bot is not available') },
    { name: 'forgot-password', path: '/forgot-password', ready: heading('Forgot your password?') },
    { name: 'reset-password', path: '/reset-password', ready: heading('Choose a new password') },
    { name: 'confirm-email', path: '/confirm-email', ready: heading('Confirm your new e-mail address') },
  ];
  const SIGNED_IN: Visit[] = [
    { name: 'dashboard', path: '/dashboard', ready: (page) => page.getByRole('switch', { name: 'Bot active' }).waitFor() },
    {
      name: 'dashboard-notifications',
      path: '/dashboard',
      ready: (page) => page.getByRole('region', { name: 'Notifications' }).getByText('New lead: recruiter@example.com').waitFor(),
      before: async (page) => {
        await page.getByRole('switch', { name: 'Bot active' }).waitFor();
        await page.getByRole('button', { name: /Notifications/ }).click();
      },
    },
    { name: 'bot-editor', path: '/dashboard/bot', ready: (page) => page.getByRole('button', { name: 'Save bot' }).waitFor() },
    { name: 'try', path: '/dashboard/try', ready: (page) => page.getByLabel('Your OpenAI API key').waitFor() },
    { name: 'conversations', path: '/dashboard/conversations', ready: (page) => page.getByRole('link', { name: 'Is Ada open to remote roles?' }).waitFor() },
    {
      name: 'transcript',
      path: () => `/dashboard/conversations/${conversationId}`,
      // Who said it shows at every width.
      ready: async (page) => {
        await page.getByText('travels to London').waitFor();
        await page.getByText(/^Visitor · /).waitFor();
        await page.getByText(/^Bot · /).waitFor();
      },
    },
    { name: 'leads', path: '/dashboard/leads', ready: (page) => page.getByRole('cell', { name: 'recruiter@example.com' }).waitFor() },
    { name: 'refused', path: '/dashboard/refused', ready: (page) => page.getByText('No message was refused in the last 30 days.').waitFor() },
    { name: 'tokens', path: '/dashboard/tokens', ready: (page) => page.getByRole('cell', { name: /^(Name: )?Portfolio site$/ }).waitFor() },
    { name: 'settings', path: '/dashboard/settings', ready: (page) => page.getByLabel('Delete conversations older than').waitFor() },
    { name: 'account', path: '/dashboard/account', ready: (page) => page.getByRole('cell', { name: 'This browser' }).waitFor() },
  ];

  const visitAll = async (page: Page, visits: Visit[], width: Width) => {
    const found: string[] = [];
    for (const visit of visits) {
      await page.goto(typeof visit.path === 'string' ? visit.path : visit.path());
      await visit.before?.(page);
      await visit.ready(page);
      await shoot(page, visit.name);
      found.push(...(await axeViolations(page)).map((violation) => `${visit.name} @${width}: ${violation}`));
      // Nothing is wider than the screen: no sideways scrolling.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      if (overflow > 0) found.push(`${visit.name} @${width}: ${overflow}px wider than the viewport`);
    }
    return found;
  };

  for (const width of Object.keys(WIDTHS) as Width[]) {
    it(`at ${WIDTHS[width].width} px: no serious or critical axe violation, no sideways scrolling`, async () => {
      const tab = await openTab(world, width, { bypassCSP: true }); // axe-core is injected inline
      const { page } = tab;
      const found = await visitAll(page, SIGNED_OUT, width);
      await signInThroughPages(page, owner);
      await page.waitForURL('**/dashboard');
      found.push(...(await visitAll(page, SIGNED_IN, width)));

      const newcomer = await openTab(world, width, { bypassCSP: true });
      const fresh = newOwner('empty');
      await newcomer.page.goto('/register');
      await newcomer.page.getByLabel('Username').fill(fresh.username);
      await newcomer.page.getByLabel('E-mail').fill(fresh.email);
      await newcomer.page.getByLabel('Password').fill(fresh.password);
      await newcomer.page.getByRole('button', { name: 'Create account' }).click();
      await newcomer.page.waitForURL('**/dashboard');
      found.push(
        ...(await visitAll(newcomer.page, [{ name: 'dashboard-no-bot', path: '/dashboard', ready: (page) => page.getByRole('heading', { name: 'What to do next' }).waitFor() }], width)),
      );
      expect(found).toEqual([]);
      expectNoProblems(tab);
      await tab.context.close();
      await newcomer.context.close();
    }, 120_000);
  }

  it('the keyboard alone registers, saves the bot, flips the switch, reads the bell, mints and revokes a token, chats and signs out', async () => {
    const tab = await openTab(world, 'desktop');
    const { page } = tab;
    const { keyboard } = page;
    const person = newOwner('keys');

    await page.goto('/register');
    await tabTo(page, page.getByLabel('Username'));
    expect(await focusIsVisible(page)).toBe(true);
    await keyboard.type(person.username);
    await tabTo(page, page.getByLabel('E-mail'));
    await keyboard.type(person.email);
    await tabTo(page, page.getByLabel('Password'));
    await keyboard.type(person.password);
    await keyboard.press('Enter');
    await page.waitForURL('**/dashboard');

    // The skip link comes first and moves the focus to the content.
    await keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    expect(await focusIsVisible(page)).toBe(true);

    await tabTo(page, page.getByRole('link', { name: 'Your bot', exact: true }));
    await keyboard.press('Enter');
    await page.waitForURL('**/dashboard/bot');
    await tabTo(page, page.getByLabel('Name', { exact: true }));
    await keyboard.type('Ada Lovelace');
    await tabTo(page, page.getByLabel('Career context'));
    await keyboard.type('Ada wrote the first published algorithm.');
    await tabTo(page, page.getByRole('button', { name: 'Add a question' }));
    await keyboard.press('Enter');
    await tabTo(page, page.getByLabel('Question 1'));
    await keyboard.type('What did Ada build?');
    await tabTo(page, page.getByRole('button', { name: 'Save bot' }));
    expect(await focusIsVisible(page)).toBe(true);
    await keyboard.press('Enter');
    await page.getByText('Your bot was created.').waitFor();
    // The keyboard's place is kept: the focus is still on Save bot, not dropped to the page.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Save bot');

    await page.goto('/dashboard');
    const toggle = page.getByRole('switch', { name: 'Bot active' });
    await tabTo(page, toggle);
    expect(await focusIsVisible(page)).toBe(true);
    await keyboard.press('Space');
    await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('false');
    await keyboard.press('Space');
    await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('true');

    const bell = page.getByRole('button', { name: /Notifications/ });
    await tabTo(page, bell, 60, 'Shift+Tab');
    await keyboard.press('Enter');
    const panel = page.getByRole('region', { name: 'Notifications' });
    await panel.waitFor();
    const focusInPanel = () => panel.evaluate((element) => element.contains(document.activeElement));
    await expect.poll(focusInPanel).toBe(true);
    await keyboard.press('Escape');
    await expect.poll(() => panel.count()).toBe(0);
    expect(await bell.evaluate((element) => element === document.activeElement)).toBe(true);
    // Esc closes it from anywhere, here from the bell itself, and Tab past it closes it too.
    await keyboard.press('Enter');
    await panel.waitFor();
    await expect.poll(focusInPanel).toBe(true);
    await keyboard.press('Shift+Tab');
    expect(await bell.evaluate((element) => element === document.activeElement)).toBe(true);
    expect(await panel.count()).toBe(1);
    await keyboard.press('Escape');
    await expect.poll(() => panel.count()).toBe(0);
    expect(await bell.evaluate((element) => element === document.activeElement)).toBe(true);
    await keyboard.press('Enter');
    await panel.waitFor();
    for (let step = 0; step < 20 && (await page.evaluate(() => !!document.activeElement?.closest('.bell'))); step++) await keyboard.press('Tab');
    await expect.poll(() => panel.count()).toBe(0);

    await page.goto('/dashboard/tokens');
    await tabTo(page, page.getByLabel('Token name'));
    await keyboard.type('Keyboard site');
    await keyboard.press('Enter');
    await page.getByText('you will not see it again', { exact: false }).waitFor();
    await tabTo(page, page.getByRole('button', { name: 'Revoke Keyboard site' }));
    await keyboard.press('Enter');
    // The focus stays in the row: on Cancel in the confirmation, back on Revoke after it, on the date once revoked.
    const focusedText = () => page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');
    await expect.poll(focusedText).toBe('Cancel');
    await keyboard.press('Enter');
    await expect.poll(focusedText).toBe('Revoke');
    await keyboard.press('Enter');
    await expect.poll(focusedText).toBe('Cancel');
    await keyboard.press('Shift+Tab');
    await expect.poll(focusedText).toBe('Yes, revoke');
    await keyboard.press('Enter');
    await page.getByText(/^Revoked /).waitFor();
    await expect.poll(focusedText).toMatch(/^Revoked /);

    world.provider.respondWith(fakeReply.success('Ada built the first algorithm.'));
    await page.goto('/dashboard/try');
    await tabTo(page, page.getByLabel('Your OpenAI API key'));
    await keyboard.type('sk-keyboard-key-0123456789');
    await tabTo(page, page.getByRole('button', { name: 'What did Ada build?' }));
    await keyboard.press('Enter');
    await page.getByRole('log').getByText('Ada built the first algorithm.').waitFor();
    // The message field takes a question and Enter sends it.
    world.provider.respondWith(fakeReply.success('She worked with Babbage.'));
    await tabTo(page, page.getByLabel('Your message'));
    await keyboard.type('Who did she work with?');
    await keyboard.press('Enter');
    await page.getByRole('log').getByText('She worked with Babbage.').waitFor();

    await tabTo(page, page.getByRole('button', { name: 'Sign out' }), 80, 'Shift+Tab');
    await keyboard.press('Enter');
    await page.waitForURL('**/login');
    expectNoProblems(tab);
    await tab.context.close();
  }, 90_000);
});
