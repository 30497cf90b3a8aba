import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable } from '@careerbot/testkit/browser';
import { fakeReply, HttpClient } from '@careerbot/testkit';
import {
  botIdOnOverview,
  cspViolations,
  expectNoProblems,
  newOwner,
  openTab,
  registerThroughPages,
  saveBotThroughEditor,
  shoot,
  signInThroughPages,
  startPagesWorld,
  type PagesWorld,
} from '../support/pages.ts';
import { widgetClient } from '../support/runtime-clients.ts';

const KEY_CANARY = 'sk-canary-BROWSER-journey-0123456789abcdef';

describe.runIf(browserAvailable())('a new owner’s whole journey, in Chromium', () => {
  let world: PagesWorld;
  beforeAll(async () => {
    world = await startPagesWorld();
  });
  afterAll(async () => world?.close());

  it('register → save the bot → try it → mint a token → a widget saves a conversation and a lead → counters, bell, transcript, lead, CSV → deactivate → 404 → sign out', async () => {
    const tab = await openTab(world, 'desktop');
    const { page } = tab;
    const owner = newOwner('journey');

    // The home page says what the service is and leads to an account.
    await page.goto('/');
    await expect.poll(() => page.getByRole('heading', { level: 1, name: 'Career Bot' }).isVisible()).toBe(true);
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.waitForURL('**/register');

    await registerThroughPages(page, owner);
    await page.getByRole('heading', { name: 'What to do next' }).waitFor();

    // Save the bot: the editor says it was created, then updated.
    const created = await saveBotThroughEditor(page, {
      name: 'Ada Lovelace',
      headline: 'Analytical engine programmer',
      context: 'Ada wrote the first published algorithm intended for a machine.',
      questions: ['What did Ada build?', 'Who did she work with?'],
      provider: 'OpenAI',
    });
    expect(created).toBe('Your bot was created.');
    const updated = await saveBotThroughEditor(page, { name: 'Ada Lovelace', context: 'Ada wrote the first published algorithm. She worked with Babbage.' });
    expect(updated).toBe('Your bot was updated.');
    const botId = await botIdOnOverview(page);

    // Try it: the key field names the provider; a suggested question is a button; the reply shows.
    world.provider.respondWith(fakeReply.delayed(400, fakeReply.success('Ada designed the first algorithm for a machine.')));
    await page.getByRole('link', { name: 'Try your bot' }).click();
    await page.getByLabel('Your OpenAI API key').fill(KEY_CANARY);
    await page.getByRole('button', { name: 'What did Ada build?' }).click();
    const loadingMessages: string[] = (await page.request.get('/api/bots').then((response) => response.json())).bot.loadingMessages;
    const waiting = page.locator('[role=status].waiting');
    await waiting.waitFor();
    expect(loadingMessages).toContain(await waiting.textContent());
    await page.getByRole('log', { name: 'Conversation' }).getByText('Ada designed the first algorithm for a machine.').waitFor();
    const chatCall = world.provider.requests.find((request) => request.provider === 'openai');
    expect(chatCall?.headers.authorization).toBe(`Bearer ${KEY_CANARY}`);

    // Mint a token: shown once, copyable, with a warning; then only its last four characters.
    await page.getByRole('link', { name: 'Bot tokens' }).click();
    await page.getByLabel('Token name').fill('Portfolio site');
    await page.getByLabel('Expires after (days, optional)').fill('30');
    await page.getByRole('button', { name: 'Create token' }).click();
    await page.getByText('you will not see it again', { exact: false }).waitFor();
    const token = await page.getByLabel('New token', { exact: true }).inputValue();
    expect(token.length).toBeGreaterThan(20);
    await page.getByRole('button', { name: 'Copy token' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
    await shoot(page, 'tokens-minted');
    await page.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => page.getByLabel('New token', { exact: true }).count()).toBe(0);
    const row = page.getByRole('row', { name: /Portfolio site/ });
    await expect.poll(() => row.textContent()).toContain(`…${token.slice(-4)}`);
    expect(await page.content()).not.toContain(token);

    // A widget saves a conversation and a lead with that token, through v1.
    const widget = widgetClient(world.app.baseUrl, token);
    const saved = await widget.post('/conversations', {
      sessionId: randomUUID(),
      messages: [
        { role: 'user', content: 'Is Ada open to remote roles?' },
        { role: 'assistant', content: 'Yes, Ada is open to remote roles.' },
      ],
    });
    expect(saved.status).toBe(201);
    const lead = await widget.post('/leads', {
      email: 'recruiter@example.com',
      conversationId: saved.json.conversationId,
      contextSummary: 'Hiring a principal engineer',
    });
    expect(lead.status).toBe(201);

    // The counters show what the API counts.
    await page.getByRole('link', { name: 'Overview' }).click();
    const counters = page.getByRole('region', { name: 'Counters' });
    await counters.getByText('Leads').waitFor();
    const stats = (await page.request.get('/api/bots').then((response) => response.json())).stats;
    expect(stats.totalLeads).toBe(1);
    expect(stats.totalConversations).toBeGreaterThanOrEqual(1);
    expect(await counters.textContent()).toBe(`${stats.totalConversations}Conversations${stats.totalMessages}Messages1Leads`);
    // A managed bot's owner is told why the public page's chats do not move these counters.
    expect(await page.getByText('chats on your public page and in the managed widget are answered but not counted here', { exact: false }).count()).toBe(1);

    // The bell: unread count, the notifications in words, mark one and then all as read.
    const bell = page.getByRole('button', { name: /Notifications/ });
    await expect.poll(() => bell.textContent()).toMatch(/Notifications, [1-9]\d* unread/);
    const unread = Number(/(\d+) unread/.exec((await bell.textContent())!)![1]);
    await bell.click();
    const panel = page.getByRole('region', { name: 'Notifications' });
    await panel.getByRole('link', { name: 'New lead: recruiter@example.com' }).waitFor();
    expect(await panel.getByRole('link', { name: 'New conversation' }).count()).toBeGreaterThanOrEqual(1);
    await shoot(page, 'dashboard-bell');
    await panel.getByRole('button', { name: 'Mark as read: New lead: recruiter@example.com' }).click();
    await expect.poll(() => bell.textContent()).toContain(`${unread - 1} unread`);
    await panel.getByRole('button', { name: 'Mark all as read' }).click();
    await expect.poll(() => bell.textContent()).toContain('0 unread');
    await page.keyboard.press('Escape');

    // The transcript, newest conversation first.
    await page.getByRole('link', { name: 'Conversations' }).click();
    await page.getByRole('link', { name: /Is Ada open to remote roles\?/ }).click();
    const transcript = page.getByRole('list', { name: 'Transcript' });
    await transcript.getByText('Yes, Ada is open to remote roles.').waitFor();
    expect(await transcript.getByRole('listitem').count()).toBe(2);

    // The lead, and the CSV download.
    await page.getByRole('link', { name: 'Leads' }).click();
    await page.getByRole('cell', { name: 'recruiter@example.com' }).waitFor();
    expect(await page.getByRole('cell', { name: 'Hiring a principal engineer' }).count()).toBe(1);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download CSV' }).click()]);
    const csv = await readFile((await download.path())!, 'utf8');
    expect(csv).toContain('recruiter@example.com');
    expect(csv).toContain('Hiring a principal engineer');

    // Deactivate: the switch says so, and the public page and chat answer 404.
    await page.getByRole('link', { name: 'Overview' }).click();
    const activeSwitch = page.getByRole('switch', { name: 'Bot active' });
    expect(await activeSwitch.getAttribute('aria-checked')).toBe('true');
    await activeSwitch.click();
    await expect.poll(() => activeSwitch.getAttribute('aria-checked')).toBe('false');
    expect(await page.getByText('Status: Inactive').count()).toBe(1);
    const publicPage = await page.goto(`/b/${botId}`);
    expect(publicPage?.status()).toBe(404);
    await page.getByRole('heading', { name: 'This bot is not available' }).waitFor();
    const chat = await new HttpClient(world.app.baseUrl).post(`/api/chat/${botId}`, { message: 'Hello?' }, { 'x-llm-api-key': KEY_CANARY });
    expect(chat.status).toBe(404);
    expect(chat.json).toEqual({ error: 'bot_not_found' });

    // Sign out: the dashboard asks for sign-in again, and signing in comes back to it.
    await page.goto('/dashboard');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/login');
    await page.goto('/dashboard/leads');
    expect(new URL(page.url()).pathname).toBe('/login');
    expect(new URL(page.url()).searchParams.get('callbackUrl')).toBe('/dashboard/leads');
    await signInThroughPages(page, owner, page.url());
    await page.waitForURL('**/dashboard/leads');
    await page.getByRole('cell', { name: 'recruiter@example.com' }).waitFor();

    expect(await cspViolations(page)).toEqual([]);
    expectNoProblems(tab);
    // The visitor's key never reached the service's logs.
    expect(world.app.logs.text()).not.toContain(KEY_CANARY);
    await tab.context.close();
  });
});
