import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable } from '@careerbot/testkit/browser';
import { awayFromWindowEnd, SIGN_IN_WINDOW_MS } from '../support/windows.ts';
import {
  botIdOnOverview,
  expectNoProblems,
  newOwner,
  openTab,
  registerThroughPages,
  saveBotThroughEditor,
  shoot,
  signInThroughPages,
  startPagesWorld,
  tabOfOwnerWithBot,
  type PagesWorld,
} from '../support/pages.ts';

/** The error text shown for a field: its hint/error paragraph tied by aria-describedby. */
const fieldError = (page: Page, label: string) =>
  page.getByLabel(label, { exact: true }).evaluate((input) => {
    const ids = (input.getAttribute('aria-describedby') ?? '').split(' ').filter((id) => id.endsWith('-error'));
    return ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
  });

/** Each error shown for a field, one per line of its list (or its one paragraph). */
const fieldErrorItems = (page: Page, label: string) =>
  page.getByLabel(label, { exact: true }).evaluate((input) => {
    const ids = (input.getAttribute('aria-describedby') ?? '').split(' ').filter((id) => id.endsWith('-error'));
    return ids.flatMap((id) => {
      const box = document.getElementById(id);
      const items = box?.querySelectorAll('li');
      return items?.length ? [...items].map((item) => item.textContent ?? '') : [box?.textContent ?? ''];
    });
  });

const PASSWORD_HINT = '8 to 72 bytes: up to 72 plain letters, fewer with accents or emoji.';

describe.runIf(browserAvailable())('sign-in, register, the bot editor and settings, in Chromium', () => {
  let world: PagesWorld;
  beforeAll(async () => {
    world = await startPagesWorld();
  });
  afterAll(async () => world?.close());

  it('register shows each documented error in words next to its field', async () => {
    const tab = await openTab(world);
    const { page } = tab;
    const taken = newOwner('taken');
    await registerThroughPages(page, taken);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/login');

    await page.goto('/register');
    // The hint says what is enforced (bytes), and there is a way back home.
    expect(await page.getByText(PASSWORD_HINT).count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Career Bot home' }).getAttribute('href')).toBe('/');
    await page.getByLabel('Username').fill('x');
    await page.getByLabel('E-mail').fill('not-an-email');
    await page.getByLabel('Password').fill('short');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect.poll(() => fieldError(page, 'Password')).not.toBe('');
    expect(await fieldError(page, 'Username')).not.toBe('');
    expect(await fieldError(page, 'E-mail')).not.toBe('');
    expect(await page.getByLabel('Password').getAttribute('aria-invalid')).toBe('true');

    await page.getByLabel('Username').fill(`other${Date.now()}`);
    await page.getByLabel('E-mail').fill(taken.email);
    await page.getByLabel('Password').fill(taken.password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect.poll(() => fieldError(page, 'E-mail')).toBe('A user with this email already exists');

    await page.getByLabel('Username').fill(taken.username);
    await page.getByLabel('E-mail').fill(`fresh${Date.now()}@example.com`);
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect.poll(() => fieldError(page, 'Username')).toBe('A user with this username already exists');
    expectNoProblems(tab);
    await tab.context.close();
  });

  it('sign-in says wrong credentials, then how long to wait once throttled, and honours callbackUrl', async () => {
    const tab = await openTab(world);
    const { page } = tab;
    const owner = newOwner('signin');
    await registerThroughPages(page, owner);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/login');

    // The throttle counts in fixed 15-minute windows: keep all ten failures in one.
    await awayFromWindowEnd(SIGN_IN_WINDOW_MS, 30_000);
    await signInThroughPages(page, { ...owner, password: 'wrong password here' });
    await page.getByRole('alert').filter({ hasText: 'Wrong e-mail, username or password.' }).waitFor();

    // Nine more failures (ten in all) from this browser, then the page says how long to wait.
    for (let attempt = 0; attempt < 9; attempt++) {
      const csrf = (await (await page.request.get('/api/auth/csrf')).json()).csrfToken;
      await page.request.post('/api/auth/callback/credentials', {
        data: { csrfToken: csrf, email: owner.username, password: 'still wrong' },
        headers: { origin: world.app.baseUrl },
      });
    }
    await signInThroughPages(page, owner);
    const throttled = page.getByRole('alert').filter({ hasText: 'Too many failed attempts.' });
    await throttled.waitFor();
    expect(await throttled.textContent()).toMatch(/Wait \d+ (minutes|seconds) before you try again\./);

    // Another owner, sent to sign in from a dashboard page, returns to that page.
    const other = await openTab(world);
    const second = newOwner('callback');
    await registerThroughPages(other.page, second);
    await other.page.getByRole('button', { name: 'Sign out' }).click();
    await other.page.waitForURL('**/login');
    await other.page.goto('/dashboard/settings');
    expect(new URL(other.page.url()).searchParams.get('callbackUrl')).toBe('/dashboard/settings');
    await signInThroughPages(other.page, second, other.page.url());
    await other.page.waitForURL('**/dashboard/settings');
    expectNoProblems(other);
    await tab.context.close();
    await other.context.close();
  }, 90_000);

  it('the editor shows limits as the owner types and puts the API’s errors on their fields', async () => {
    const tab = await openTab(world);
    const { page } = tab;
    await registerThroughPages(page, newOwner('editor'));
    await page.goto('/dashboard/bot');
    await page.getByText('You have no bot yet.', { exact: false }).waitFor();

    const context = page.getByLabel('Career context');
    await context.fill('Ada');
    await page.getByText('49,997 characters left of 50,000.').waitFor();
    await context.fill('x'.repeat(50_002));
    await page.getByText('2 characters over the 50,000 limit.').waitFor();

    const add = page.getByRole('button', { name: 'Add a question' });
    for (let count = 0; count < 6; count++) await add.click();
    expect(await add.isDisabled()).toBe(true);
    await page.getByText('6 of 6 questions.').waitFor();
    await page.getByRole('button', { name: 'Remove question 6' }).click();
    expect(await add.isDisabled()).toBe(false);

    expect(await page.getByText('Default for OpenAI: gpt-4o-mini.').count()).toBe(1);
    // With no key of the owner's saved, visitors bring theirs (owner-key.test.ts shows the other case).
    expect(await page.getByText('Visitors chat with their own key for this provider, unless you save your own key in Settings.').count()).toBe(1);
    await page.getByLabel('LLM provider').selectOption({ label: 'Anthropic' });
    await page.getByText(/^Default for Anthropic: claude/).waitFor();
    await page.getByLabel('LLM provider').selectOption({ label: 'Azure OpenAI' });
    await page.getByText('Required for Azure OpenAI: the name of your deployment.').waitFor();

    await page.getByLabel('Name', { exact: true }).fill('Ada Lovelace');
    await page.getByRole('button', { name: 'Save bot' }).click();
    await page.getByText('Please correct the fields marked above.').waitFor();
    // Over the limit, one message says so: the counter, not the API's same words besides.
    expect(await page.getByText('2 characters over the 50,000 limit.').count()).toBe(1);
    expect(await fieldError(page, 'Career context')).toBe('');
    expect(await page.getByLabel('Career context').getAttribute('aria-invalid')).toBe('true');
    await context.fill('Ada wrote the first algorithm.');
    await page.getByRole('button', { name: 'Save bot' }).click();
    await expect.poll(() => fieldError(page, 'Deployment name')).not.toBe('');
    expect(await fieldError(page, 'Career context')).toBe('');

    const saved = await saveBotThroughEditor(page, { name: 'Ada Lovelace', context: 'Ada wrote the first algorithm.', provider: 'Azure OpenAI', model: 'my-gpt4o' });
    expect(saved).toBe('Your bot was created.');
    // The form shows what was saved, at once: the Photo section of the bot just created, and none of
    // the five questions left blank (they were not sent).
    await page.getByLabel('Photo file').waitFor();
    await page.getByText('0 of 6 questions.').waitFor();
    // Add a question puts the focus in the new question's field.
    await page.getByRole('button', { name: 'Add a question' }).click();
    await expect.poll(() => page.getByLabel('Question 1').evaluate((field) => field === document.activeElement)).toBe(true);
    // Remove question puts it in the field that took the removed one's place, or on Add a question when none is left.
    await page.getByRole('button', { name: 'Add a question' }).click();
    await page.getByLabel('Question 2').fill('Second');
    await page.getByRole('button', { name: 'Remove question 1' }).click();
    await expect.poll(() => page.getByLabel('Question 1').evaluate((field) => field === document.activeElement && (field as HTMLInputElement).value === 'Second')).toBe(true);
    await page.getByRole('button', { name: 'Remove question 1' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Add a question' }).evaluate((button) => button === document.activeElement)).toBe(true);
    await page.reload();
    expect(await page.getByLabel('Deployment name').inputValue()).toBe('my-gpt4o');
    expectNoProblems(tab);
    await tab.context.close();
  });

  it('settings save the colour, deployment mode, rate limits (or the default) and the lead e-mail switch', async () => {
    const tab = await openTab(world);
    const { page } = tab;
    await registerThroughPages(page, newOwner('settings'));
    await saveBotThroughEditor(page, { name: 'Ada', context: 'Ada wrote the first algorithm.' });
    await page.goto('/dashboard/settings');
    await page.getByLabel('Theme colour').fill('#aa3300');
    await page.getByLabel('Self-hosted', { exact: false }).check();
    await page.getByLabel('Use the default (10)').uncheck();
    await page.getByLabel('Messages per minute').fill('3');
    await page.getByLabel('E-mail me when a new lead arrives').check();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved.').waitFor();

    const overview = await (await page.request.get('/api/bots')).json();
    expect(overview.settings).toEqual({ themeColor: '#aa3300', deploymentMode: 'self_hosted', rateLimits: { perMinute: 3, perDay: 50 }, embedOrigins: [] });
    expect((await (await page.request.get('/api/account/settings')).json()).notifyLeadsEmail).toBe(true);

    await page.reload();
    await expect.poll(() => page.getByLabel('Messages per minute').inputValue()).toBe('3');
    expect(await page.getByLabel('Self-hosted', { exact: false }).isChecked()).toBe(true);
    await page.getByLabel('Use the default (10)').check();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved.').waitFor();
    expect((await (await page.request.get('/api/bots')).json()).settings.rateLimits).toEqual({ perMinute: 10, perDay: 50 });

    await page.getByLabel('Use the default (10)').uncheck();
    await page.getByLabel('Messages per minute').fill('0');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Some settings were not saved', { exact: false }).waitFor();
    expect(await fieldError(page, 'Messages per minute')).toBe('Must be at least 1');
    expect(await fieldError(page, 'Messages per day')).toBe('');

    // Both limits wrong: each field says its own, though the API lists them together.
    await page.getByLabel('Messages per minute').fill('-5');
    await page.getByLabel('Use the default (50)').uncheck();
    await page.getByLabel('Messages per day').fill('99999999999');
    // Two bad sites: one error each, apart.
    await page.getByLabel('Sites allowed to embed the chat').fill('not a site\nftp://files.example.com');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect.poll(() => fieldError(page, 'Messages per day')).toBe('Must be at most 100000');
    expect(await fieldError(page, 'Messages per minute')).toBe('Must be at least 1');
    const sites = await fieldErrorItems(page, 'Sites allowed to embed the chat');
    expect(sites).toHaveLength(2);
    expect(sites[0]).toMatch(/^Site 1 /);
    expect(sites[1]).toMatch(/^Site 2 /);
    await shoot(page, 'settings-errors');
    expectNoProblems(tab);
    await tab.context.close();
  });

  const ownerWithBot = (width: 'phone' | 'desktop', questions: string[] = []) => tabOfOwnerWithBot(world, width, { name: 'Ada', context: 'Ada wrote the first algorithm.', questions });

  it('at 375 px the switch keeps its knob, a question keeps its width, and the questions have the import box’s padding', async () => {
    const tab = await ownerWithBot('phone', ['What did Ada build, and for whom did she write the notes?', 'Who did she work with?']);
    const { page } = tab;
    await botIdOnOverview(page);
    const track = page.getByRole('switch', { name: 'Bot active' }).locator('.switch-track');
    expect(await track.evaluate((element) => element.getBoundingClientRect().width)).toBeGreaterThanOrEqual(41);
    await shoot(page, 'overview-switch');

    await page.goto('/dashboard/bot');
    const question = page.getByLabel('Question 1');
    await question.waitFor();
    const form = await page.locator('form.editor').evaluate((element) => element.getBoundingClientRect().width);
    expect(await question.evaluate((element) => element.getBoundingClientRect().width)).toBeGreaterThan(form * 0.7);
    const padding = (selector: string) => page.locator(selector).evaluate((element) => getComputedStyle(element).paddingLeft);
    expect(await padding('fieldset.questions')).toBe(await padding('fieldset.cv-import'));
    expect(await padding('fieldset.questions')).not.toBe('0px');
    await page.getByRole('button', { name: 'Remove question 1' }).scrollIntoViewIfNeeded();
    await shoot(page, 'editor-questions');
    expectNoProblems(tab);
    await tab.context.close();
  });

  it('a long token name breaks, and the dates beside it keep one line', async () => {
    const tab = await ownerWithBot('desktop');
    const { page } = tab;
    await page.goto('/dashboard/tokens');
    await page.getByLabel('Token name').fill(`Portfolio ${'x'.repeat(60)}`);
    await page.getByRole('button', { name: 'Create token' }).click();
    const created = page.getByRole('row').nth(1).getByRole('cell').nth(2);
    await created.waitFor();
    // The cell is as tall as its row; its words' own box is one line high.
    const lines = await created.evaluate((cell) => {
      const words = document.createRange();
      words.selectNodeContents(cell);
      return words.getBoundingClientRect().height / parseFloat(getComputedStyle(cell).lineHeight);
    });
    expect(lines).toBeLessThan(1.5);
    await shoot(page, 'tokens-long-name');
    expectNoProblems(tab);
    await tab.context.close();
  });
});

describe.runIf(browserAvailable())('register, throttled, in Chromium', () => {
  let world: PagesWorld;
  beforeAll(async () => {
    world = await startPagesWorld({ REGISTRATIONS_PER_ADDRESS: '1' });
  });
  afterAll(async () => world?.close());

  it('says how long to wait when too many accounts come from one address', async () => {
    await awayFromWindowEnd(SIGN_IN_WINDOW_MS, 15_000);
    const tab = await openTab(world);
    const { page } = tab;
    await registerThroughPages(page, newOwner('first'));
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/login');
    const second = newOwner('second');
    await page.goto('/register');
    await page.getByLabel('Username').fill(second.username);
    await page.getByLabel('E-mail').fill(second.email);
    await page.getByLabel('Password').fill(second.password);
    await page.getByRole('button', { name: 'Create account' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'Too many accounts were created from your network just now.' });
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/Wait \d+ (minutes|seconds) before you try again\.$/);
    expect(new URL(page.url()).pathname).toBe('/register');
    expectNoProblems(tab);
    await tab.context.close();
  }, 60_000);
});
