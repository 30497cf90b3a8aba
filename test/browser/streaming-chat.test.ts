import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable } from '@careerbot/testkit/browser';
import { fakeReply, signedInClient, validBot } from '@careerbot/testkit';
import { expectNoProblems, openTab, shoot, startPagesWorld, type PagesWorld, type Tab } from '../support/pages.ts';

const KEY_CANARY = 'sk-canary-STREAM-visitor-key-9876543210fedcba';
const ORDINALS = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen'];
const SLOW_SENTENCES = ORDINALS.map((ordinal) => `Ada wrote sentence ${ordinal} of her notes. `);

describe.runIf(browserAvailable())('streamed replies on the platform’s chat surfaces, in Chromium', () => {
  let world: PagesWorld;
  let owner: Awaited<ReturnType<typeof signedInClient>>;
  let botId: string;
  beforeAll(async () => {
    world = await startPagesWorld();
    owner = await signedInClient(world.app.baseUrl);
    botId = (await owner.client.post('/api/bots', validBot())).json.bot.id;
    // More messages than the default 10 a minute are asked here, by one visitor.
    expect((await owner.client.patch('/api/bots/settings', { rateLimits: { perMinute: 100, perDay: 1000 } })).status).toBe(200);
  });
  afterAll(async () => world?.close());

  /** The public page, or "Try your bot" signed in as the owner, with the visitor's key typed in. */
  const openSurface = async (surface: 'public page' | 'Try your bot'): Promise<Tab> => {
    const tab = await openTab(world, 'desktop');
    if (surface === 'Try your bot') {
      await tab.context.addCookies(
        [...owner.client.cookies].map(([name, value]) => ({ name, value, url: world.app.baseUrl })),
      );
      await tab.page.goto('/dashboard/try');
    } else {
      await tab.page.goto(`/b/${botId}`);
    }
    await tab.page.getByLabel('Your OpenAI API key').fill(KEY_CANARY);
    return tab;
  };

  const ask = async (tab: Tab, question: string) => {
    await tab.page.getByLabel('Your message').fill(question);
    await tab.page.getByRole('button', { name: 'Send' }).click();
  };

  it.each(['public page', 'Try your bot'] as const)('on the %s, the first words show before the provider has finished, and the reply is announced once', async (surface) => {
    const tab = await openSurface(surface);
    world.provider.respondWith(fakeReply.stream(SLOW_SENTENCES, { chunkDelayMs: 150 }));
    await ask(tab, 'What did Ada write?');
    const log = tab.page.getByRole('log', { name: 'Conversation' });
    await log.getByText('sentence one of', { exact: false }).first().waitFor();
    // The fake writes its last sentence 15 × 150 ms after its first; the visitor read the first
    // words before it (an order of events, not a timing: a slow machine cannot make it pass).
    expect(await log.textContent()).not.toContain('sentence sixteen');
    expect(await tab.page.getByRole('button', { name: 'Stop' }).isVisible()).toBe(true);
    expect(await tab.page.locator('[role=status][aria-live=polite]').first().textContent()).toBe('');
    await shoot(tab.page, `streaming-${surface === 'public page' ? 'public' : 'try'}-midway`);
    await tab.page.getByRole('button', { name: 'Send' }).waitFor();
    const whole = SLOW_SENTENCES.join('').trim();
    expect(await tab.page.locator('[role=status][aria-live=polite]').first().textContent()).toBe(whole);
    expect(await log.getAttribute('aria-live')).toBe('off');
    expectNoProblems(tab);
    await tab.context.close();
  });

  it('Stop ends the reply, and the provider call is closed', async () => {
    const tab = await openSurface('public page');
    world.provider.reset();
    world.provider.respondWith(fakeReply.stream(SLOW_SENTENCES, { chunkDelayMs: 200 }));
    await ask(tab, 'What did Ada write?');
    const log = tab.page.getByRole('log', { name: 'Conversation' });
    await log.getByText('sentence one of', { exact: false }).first().waitFor();
    await tab.page.getByRole('button', { name: 'Stop' }).click();
    await log.getByText('(stopped)').waitFor();
    expect(await log.getByText('(interrupted)').count()).toBe(0);
    await expect.poll(() => world.provider.streamsClosedByClient, { timeout: 3000 }).toBe(1);
    expect(await log.textContent()).not.toContain('sentence sixteen');
    expectNoProblems(tab);
    await tab.context.close();
  });

  it('a reply the provider cuts off midway is marked (interrupted), not (stopped) as if the visitor had pressed Stop', async () => {
    const tab = await openSurface('public page');
    world.provider.reset();
    world.provider.respondWith(fakeReply.stream(SLOW_SENTENCES, { chunkDelayMs: 50, breakAfter: 3 }));
    await ask(tab, 'What did Ada write?');
    const log = tab.page.getByRole('log', { name: 'Conversation' });
    await log.getByText('(interrupted)').waitFor();
    expect(await log.textContent()).toContain('sentence one of');
    expect(await log.getByText('(stopped)').count()).toBe(0);
    await tab.page.getByRole('alert').waitFor();
    await shoot(tab.page, 'streaming-interrupted');
    await tab.context.close();
  });

  it('renders a markdown reply as a list and a link that opens in a new tab without an opener', async () => {
    const tab = await openSurface('public page');
    world.provider.respondWith(fakeReply.stream(['She knows **three** things well:\n', '- Go\n- SQL\n', '- payments\n\nSee [her site](https://ada.example/work) for more.']));
    await ask(tab, 'What does she know?');
    const log = tab.page.getByRole('log', { name: 'Conversation' });
    const link = log.getByRole('link', { name: 'her site' });
    await link.waitFor();
    expect(await log.locator('ul > li').allTextContents()).toEqual(['Go', 'SQL', 'payments']);
    expect(await log.locator('strong').first().textContent()).toBe('three');
    expect(await link.getAttribute('href')).toBe('https://ada.example/work');
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
    // The live region reads what the eye reads, not the markdown's asterisks and dashes.
    await tab.page.getByRole('button', { name: 'Send' }).waitFor();
    expect(await tab.page.locator('[role=status][aria-live=polite]').first().textContent()).toBe('She knows three things well:\nGo\nSQL\npayments\nSee her site for more.');
    await shoot(tab.page, 'streaming-markdown');
    expectNoProblems(tab);
    await tab.context.close();
  });

  it('a hostile reply (raw HTML, an onerror image, a javascript: link) runs nothing and stays text', async () => {
    const tab = await openSurface('public page');
    await tab.page.evaluate(() => ((window as unknown as { pwned: number }).pwned = 0));
    world.provider.respondWith(
      fakeReply.stream([
        'Here it is <img src=x onerror="window.pwned=1;alert(1)"> and ',
        '<script>window.pwned=2</script> then ',
        '[click me](javascript:window.pwned=3) and <b>bold?</b> done.',
      ]),
    );
    await ask(tab, 'Anything?');
    const log = tab.page.getByRole('log', { name: 'Conversation' });
    await log.getByText('done.', { exact: false }).waitFor();
    await tab.page.getByRole('button', { name: 'Send' }).waitFor();
    await log.getByText('click me').click();
    expect(await tab.page.evaluate(() => (window as unknown as { pwned: number }).pwned)).toBe(0);
    expect(await log.locator('img, script, b, a').count()).toBe(0);
    expect(await log.textContent()).toContain('<img src=x onerror=');
    expectNoProblems(tab);
    await tab.context.close();
  });
  it.each(['public page', 'Try your bot'] as const)('on the %s, a reload finds the conversation again, and Start over clears it for good', async (surface) => {
    const tab = await openSurface(surface);
    world.provider.reset();
    world.provider.respondWith(fakeReply.stream(['She led the **payments** team.']));
    await ask(tab, 'What did Ada lead?');
    const log = tab.page.getByRole('log', { name: 'Conversation' });
    await log.locator('strong', { hasText: 'payments' }).waitFor();
    await tab.page.getByRole('button', { name: 'Send' }).waitFor();
    world.provider.respondWith(fakeReply.stream(SLOW_SENTENCES, { chunkDelayMs: 200 }));
    await ask(tab, 'And her notes?');
    await log.getByText('sentence one of', { exact: false }).first().waitFor();
    await tab.page.getByRole('button', { name: 'Stop' }).click();
    await log.getByText('(stopped)').waitFor();

    await tab.page.reload();
    // Both turns come back as the visitor left them: the markdown drawn again, the stopped reply still marked.
    await log.locator('strong', { hasText: 'payments' }).waitFor();
    expect(await log.getByText('What did Ada lead?').count()).toBe(1);
    expect(await log.getByText('And her notes?').count()).toBe(1);
    expect(await log.getByText('(stopped)').count()).toBe(1);
    await shoot(tab.page, `transcript-after-reload-${surface === 'public page' ? 'public' : 'try'}`);

    await tab.page.getByRole('button', { name: 'Start over' }).click();
    expect(await log.getByText('What did Ada lead?').count()).toBe(0);
    await expect.poll(() => tab.page.getByLabel('Your message').evaluate((field) => field === document.activeElement)).toBe(true);
    await tab.page.reload();
    await log.getByText('Ask', { exact: false }).first().waitFor();
    expect(await log.getByText('What did Ada lead?').count()).toBe(0);
    expect(await tab.page.getByRole('button', { name: 'Start over' }).count()).toBe(0);
    expectNoProblems(tab);
    await tab.context.close();
  });
  it('Stop pressed before the first word cancels the question once: it goes back into the field and is not sent again', async () => {
    const tab = await openSurface('public page');
    world.provider.reset();
    world.provider.respondWith(fakeReply.delayed(1500, fakeReply.stream(['Too late.'])), fakeReply.stream(['Here is the second answer.']));
    await ask(tab, 'Slow question');
    await tab.page.getByRole('button', { name: 'Stop' }).click();
    await tab.page.getByRole('button', { name: 'Send' }).waitFor();
    expect(await tab.page.getByLabel('Your message').inputValue()).toBe('Slow question');
    // The next question's answer arrives after anything the Stop might have sent again.
    await ask(tab, 'Second question');
    const log = tab.page.getByRole('log', { name: 'Conversation' });
    await log.getByText('Here is the second answer.').waitFor();
    const asked = world.provider.requests
      .filter((request) => request.path.endsWith('/chat/completions'))
      .map((request) => JSON.stringify(request.body));
    expect(asked.filter((body) => body.includes('Slow question'))).toHaveLength(1);
    expect(asked.filter((body) => body.includes('Second question'))).toHaveLength(1);
    expect(await log.textContent()).not.toContain('Too late.');
    expectNoProblems(tab);
    await tab.context.close();
  });

  it('a reload while a reply is written keeps the question and the words so far, marked (interrupted); a reload before any word puts the question back in the field', async () => {
    const tab = await openSurface('public page');
    world.provider.reset();
    world.provider.respondWith(fakeReply.stream(SLOW_SENTENCES, { chunkDelayMs: 200 }));
    await ask(tab, 'What are her notes?');
    const log = tab.page.getByRole('log', { name: 'Conversation' });
    await log.getByText('sentence one of', { exact: false }).first().waitFor();
    await tab.page.reload();
    await log.getByText('(interrupted)').waitFor();
    expect(await log.getByText('What are her notes?').count()).toBe(1);
    expect(await log.textContent()).toContain('sentence one of');

    world.provider.respondWith(fakeReply.delayed(5000, fakeReply.stream(['Never read.'])));
    await ask(tab, 'A question left waiting');
    await tab.page.getByRole('button', { name: 'Stop' }).waitFor();
    await tab.page.reload();
    await expect.poll(() => tab.page.getByLabel('Your message').inputValue()).toBe('A question left waiting');
    expect(await log.getByText('A question left waiting').count()).toBe(0);
    expect(await log.getByText('What are her notes?').count()).toBe(1);
    await tab.context.close();
  });
  it.each(['public page', 'Try your bot'] as const)('on the %s, the key field sits in a form of its own, so Chromium does not warn about a password field outside one', async (surface) => {
    const tab = await openSurface(surface);
    // Chromium warns as the page loads: the reload below shows whether it still does.
    const warnings: string[] = [];
    tab.page.on('console', (message) => {
      if (message.text().includes('Password field is not contained in a form')) warnings.push(message.text());
    });
    await tab.page.getByLabel('Your OpenAI API key').press('Enter');
    // Enter in the key field submits nothing: the page stays where it is, with the key.
    expect(await tab.page.getByLabel('Your OpenAI API key').inputValue()).toBe(KEY_CANARY);
    await tab.page.reload();
    await tab.page.getByLabel('Your OpenAI API key').waitFor();
    expect(warnings).toEqual([]);
    expectNoProblems(tab);
    await tab.context.close();
  });
});
