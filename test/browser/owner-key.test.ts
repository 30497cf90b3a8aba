import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable } from '@careerbot/testkit/browser';
import { fakeReply } from '@careerbot/testkit';
import { startHostSite, type HostSite } from '../support/host-page-server.ts';
import { botIdOnOverview, expectNoProblems, newOwner, openTab, registerThroughPages, saveBotThroughEditor, shoot, startPagesWorld, type PagesWorld } from '../support/pages.ts';

const OWNER_KEY = 'sk-owner-BROWSER-canary-0123456789abcdefWXYZ';

/** Everything a page shows and holds: its HTML, its storage and its cookies. */
const pageContents = (page: Page) =>
  page.evaluate(() => document.documentElement.outerHTML + JSON.stringify({ ...sessionStorage }) + JSON.stringify({ ...localStorage }) + document.cookie);

describe.runIf(browserAvailable())('answering with the owner’s key, in Chromium', () => {
  let world: PagesWorld;
  let site: HostSite;
  let botId: string;
  beforeAll(async () => {
    world = await startPagesWorld();
    site = await startHostSite();
  });
  afterAll(async () => {
    await site?.close();
    await world?.close();
  });

  it('the owner saves a key in Settings; recruiters on the public page and the managed widget chat with no key; the cap message appears', async () => {
    // The owner: a bot, then the key under "Answer with my key".
    const owner = await openTab(world);
    const { page } = owner;
    await registerThroughPages(page, newOwner());
    await saveBotThroughEditor(page, { name: 'Ada Lovelace', context: 'Ada wrote the first published algorithm.', questions: ['What did Ada build?'] });
    botId = await botIdOnOverview(page);
    await page.goto('/dashboard/settings');
    const section = page.getByRole('region', { name: 'Answer with my key' });
    // No key yet, and none answered: no line of zeros about it.
    await section.getByLabel('Your OpenAI API key').waitFor();
    expect(await section.getByText(/Answered with your key/).count()).toBe(0);
    await section.getByLabel('Your OpenAI API key').fill(OWNER_KEY);
    await section.getByRole('button', { name: 'Save key' }).click();
    await section.getByText('Key saved. Your bot now answers visitors who bring no key.').waitFor();
    await section.getByText(`…${OWNER_KEY.slice(-4)}`).waitFor();
    expect(await section.getByText('OpenAI', { exact: true }).count()).toBe(1);
    expect(await section.getByLabel('Your OpenAI API key').count()).toBe(0); // now "New … key"
    expect(await section.getByLabel('New OpenAI API key').inputValue()).toBe('');
    // The cap: two answers a day, for this test.
    await section.getByLabel('Messages answered with my key per day').fill('2');
    await section.getByRole('button', { name: 'Save cap' }).click();
    await section.getByText('Daily cap saved.').waitFor();
    await shoot(page, 'settings-owner-key');
    await page.reload();
    expect(await pageContents(page)).not.toContain(OWNER_KEY);
    expect(await page.getByRole('region', { name: 'Answer with my key' }).getByText(`…${OWNER_KEY.slice(-4)}`).count()).toBe(1);
    // The editor's provider hint no longer says visitors need their own key.
    await page.goto('/dashboard/bot');
    await page.getByText('Your saved key answers visitors for this provider; they may still use their own.').waitFor();
    await page.getByLabel('LLM provider').selectOption({ label: 'Anthropic' });
    await page.getByText('Visitors chat with their own key for this provider, unless you save your own key in Settings.').waitFor();

    // A recruiter on the public page: no key field in sight, and a reply.
    const recruiter = await openTab(world, 'phone');
    await recruiter.page.goto(`/b/${botId}`);
    expect(await recruiter.page.getByLabel('Your OpenAI API key').isVisible()).toBe(false);
    world.provider.respondWith(fakeReply.success('Ada wrote the first published algorithm.'));
    await recruiter.page.getByRole('button', { name: 'What did Ada build?' }).click();
    await recruiter.page.getByRole('log').getByText('Ada wrote the first published algorithm.').waitFor();
    expect(world.provider.requests.at(-1)!.headers.authorization).toBe(`Bearer ${OWNER_KEY}`);
    await shoot(recruiter.page, 'public-chat-owner-key');
    expect(await pageContents(recruiter.page)).not.toContain(OWNER_KEY);

    // Another recruiter, through the managed widget on somebody else's site.
    site.page('/managed.html', `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Ada</title></head><body><h1>Ada's portfolio</h1><script src="${world.app.baseUrl}/widget.js" data-bot-id="${botId}" async></script></body></html>`);
    const visitor = await openTab(world);
    await visitor.page.goto(`${site.url}/managed.html`);
    await visitor.page.getByRole('button', { name: /^Chat with / }).click();
    // The chat runs in the platform's frame.
    const dialog = visitor.page.frameLocator('iframe[title^="Chat with "]').getByRole('dialog');
    expect(await dialog.getByLabel('Your OpenAI API key').isVisible()).toBe(false);
    world.provider.respondWith(fakeReply.success('She worked with Charles Babbage.'));
    await dialog.getByLabel('Your message').fill('Who did she work with?');
    await visitor.page.keyboard.press('Enter');
    await dialog.getByRole('log').getByText('She worked with Charles Babbage.').waitFor();
    expect(world.provider.requests.at(-1)!.headers.authorization).toBe(`Bearer ${OWNER_KEY}`);
    await shoot(visitor.page, 'widget-managed-owner-key');

    // The cap of two is reached: the next visitor is told in words.
    await dialog.getByLabel('Your message').fill('Anything else?');
    await visitor.page.keyboard.press('Enter');
    await dialog.getByRole('alert').filter({ hasText: 'This bot has reached its limit of answers for today.' }).waitFor();
    await shoot(visitor.page, 'widget-managed-owner-key-cap');
    expect(await pageContents(visitor.page)).not.toContain(OWNER_KEY);

    // A visitor may still use their own key: it answers past the owner's cap.
    await dialog.getByText('Use your own API key').click();
    await dialog.getByLabel('Your OpenAI API key').fill('sk-visitor-own-key-0123456789');
    world.provider.respondWith(fakeReply.success('Happy to tell you more.'));
    await dialog.getByLabel('Your message').fill('Anything else?');
    await visitor.page.keyboard.press('Enter');
    await dialog.getByRole('log').getByText('Happy to tell you more.').waitFor();
    expect(world.provider.requests.at(-1)!.headers.authorization).toBe('Bearer sk-visitor-own-key-0123456789');

    // The dashboard counts the owner's answers and rings the bell.
    await page.goto('/dashboard');
    await page.getByText('Answered with your key: 2 today, 2 in the last 30 days.').waitFor();
    await page.getByRole('button', { name: /Notifications/ }).click();
    await page.getByText(/Your key answered its 2 messages for today/).waitFor();
    await shoot(page, 'dashboard-owner-key');

    // The owner removes the key: the public page asks visitors for theirs again.
    await page.goto('/dashboard/settings');
    const settings = page.getByRole('region', { name: 'Answer with my key' });
    const focused = () => page.evaluate(() => document.activeElement?.textContent?.trim() || document.activeElement?.getAttribute('aria-label') || document.activeElement?.id);
    await settings.getByRole('button', { name: 'Remove key' }).click();
    // The focus stays in the section: on Keep it, then back on Remove key, then in the field for a new key.
    await expect.poll(focused).toBe('Keep it');
    await page.keyboard.press('Enter');
    await expect.poll(focused).toBe('Remove key');
    await page.keyboard.press('Enter');
    await settings.getByRole('button', { name: 'Yes, remove it' }).click();
    await settings.getByText('Key removed.').waitFor();
    await expect.poll(() => settings.getByLabel('Your OpenAI API key').evaluate((field) => field === document.activeElement)).toBe(true);
    expect(await settings.getByText(`…${OWNER_KEY.slice(-4)}`).count()).toBe(0);
    // What the removed key answered lately is still told.
    await settings.getByText('Answered with your key: 2 today, 2 in the last 30 days.').waitFor();
    await recruiter.page.reload();
    expect(await recruiter.page.getByLabel('Your OpenAI API key').isVisible()).toBe(true);
    expect(world.app.logs.text()).not.toContain(OWNER_KEY);
    for (const tab of [owner, recruiter, visitor]) {
      expectNoProblems(tab);
      await tab.context.close();
    }
  });
});
