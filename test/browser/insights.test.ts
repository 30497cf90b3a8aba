import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable } from '@careerbot/testkit/browser';
import { axeViolations, botIdOnOverview, expectNoProblems, newOwner, openTab, registerThroughPages, saveBotThroughEditor, shoot, startPagesWorld, tabOfOwnerWithBot, type PagesWorld } from '../support/pages.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

describe.runIf(browserAvailable())('the insights page, in Chromium', () => {
  let world: PagesWorld;
  beforeAll(async () => {
    world = await startPagesWorld();
  });
  afterAll(async () => world?.close());

  it('charts with their table, the top questions leading to the conversations, refusals; at 375 and 1440 px, axe clean', async () => {
    const owner = newOwner('insights');
    const setup = await openTab(world, 'desktop', { bypassCSP: true });
    await registerThroughPages(setup.page, owner);
    await saveBotThroughEditor(setup.page, { name: 'Grace Hopper', context: 'Grace wrote the first compiler.' });
    const botId = await botIdOnOverview(setup.page);
    // A week of conversations through the tables the runtime API writes, a lead, and a refusal.
    let firstId = '';
    for (let i = 0; i < 12; i++) {
      const at = new Date(Date.now() - (i % 7) * DAY_MS - 1000);
      const { rows } = await world.app.db.query<{ id: string }>(
        `INSERT INTO conversations (bot_id, session_id, message_count, started_at, last_message_at) VALUES ($1, gen_random_uuid(), 2, $2, $2) RETURNING id`,
        [botId, at],
      );
      const question = i % 3 === 0 ? 'Is Grace open to remote roles?' : 'What did Grace build?';
      await world.app.db.query(`INSERT INTO conversation_messages (conversation_id, position, role, content, created_at) VALUES ($1, 0, 'user', $2, $3), ($1, 1, 'assistant', 'A-0.', $3)`, [rows[0]!.id, question, at]);
      if (i === 0) firstId = rows[0]!.id;
    }
    await world.app.db.query(`INSERT INTO leads (bot_id, conversation_id, email, captured_at) VALUES ($1, $2, 'r@example.com', now())`, [botId, firstId]);
    await world.app.db.query(`INSERT INTO bot_refusals_daily (bot_id, day, reason, count) VALUES ($1, current_date, 'prompt_injection', 3)`, [botId]);

    // The overview's summary leads to the page.
    await setup.page.goto('/dashboard');
    await setup.page.getByText('12 conversations, 1 lead; 8.3% of conversations ended in a lead.', { exact: false }).waitFor();
    await setup.page.getByRole('link', { name: 'See the insights' }).click();
    await setup.page.waitForURL('**/dashboard/insights');
    await setup.page.getByRole('heading', { name: 'What visitors ask first' }).waitFor();
    const found: string[] = [];
    for (const width of ['phone', 'desktop'] as const) {
      const tab = width === 'desktop' ? setup : await openTab(world, width, { bypassCSP: true });
      const { page } = tab;
      if (width === 'phone') {
        await page.context().addCookies(await setup.context.cookies());
      }
      await page.goto('/dashboard/insights');
      await page.getByRole('heading', { name: 'What visitors ask first' }).waitFor();
      expect(await page.locator('.stat').first().textContent()).toContain('12');
      expect(await page.getByRole('listitem').filter({ hasText: 'What did Grace build?' }).textContent()).toContain('8 conversations');
      expect(await page.getByRole('row', { name: /Tried to give the bot new instructions/ }).textContent()).toContain('3');
      // The charts are pictures for the eye; the table says the same to a screen reader.
      expect(await page.locator('.chart svg').first().getAttribute('aria-hidden')).toBe('true');
      await page.getByText('The numbers per day, as a table').click();
      expect(await page.getByRole('table', { name: /per day/ }).getByRole('row').count()).toBe(31);
      await shoot(page, 'insights');
      found.push(...(await axeViolations(page)).map((v) => `@${width}: ${v}`));
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      if (overflow > 0) found.push(`@${width}: ${overflow}px wider than the viewport`);
      expectNoProblems(tab);
      if (width === 'phone') await tab.context.close();
    }
    expect(found).toEqual([]);

    // 90 days, then through to a conversation.
    await setup.page.getByRole('button', { name: 'Last 90 days' }).click();
    await setup.page.getByRole('region', { name: 'Totals, last 90 days' }).waitFor();
    await setup.page.getByText('The numbers per day, as a table').click();
    await expect.poll(() => setup.page.getByRole('table', { name: /per day.*last 90 days/ }).getByRole('row').count()).toBe(91);
    await setup.page.getByRole('link', { name: 'Conversation 1 that opened with: Is Grace open to remote roles?' }).click();
    await setup.page.waitForURL(`**/dashboard/conversations/${firstId}`);
    await setup.page.getByText('Is Grace open to remote roles?').first().waitFor();
    await setup.context.close();
  });

  it('a bot with no chats yet: no flat charts, and the lists say only a self-hosted widget records chats and leads', async () => {
    const tab = await tabOfOwnerWithBot(world, 'desktop', { name: 'Grace Hopper', context: 'Grace wrote the first compiler.' });
    const { page } = tab;
    await page.goto('/dashboard/insights');
    await page.getByRole('heading', { name: 'What visitors ask first' }).waitFor();
    // No flat charts and table of zeros: one sentence says why there is nothing to chart.
    await page.getByText('Nothing to chart: no conversation was recorded in the last 30 days.', { exact: false }).waitFor();
    expect(await page.locator('.chart').count()).toBe(0);
    expect(await page.getByText('The numbers per day, as a table').count()).toBe(0);
    await shoot(page, 'empty-insights');
    for (const path of ['/dashboard/conversations', '/dashboard/leads']) {
      await page.goto(path);
      await page.getByText('Chats on your public page and in the managed widget are not recorded.', { exact: false }).waitFor();
      expect(await page.getByRole('link', { name: 'Set up a self-hosted widget' }).getAttribute('href')).toBe('/dashboard/tokens');
      await shoot(page, `empty-${path.split('/').at(-1)}`);
    }
    await page.goto('/');
    expect(await page.locator('main').textContent()).not.toContain('collects their details');
    expect(await page.locator('main').textContent()).not.toContain('Visitors bring their own key.');
    expectNoProblems(tab);
    await tab.context.close();
  });
});
