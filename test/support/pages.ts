import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { launchBrowser } from '@careerbot/testkit/browser';
import { screenshotPath } from './screenshots.ts';
import { type FakeLlmProvider, startFakeLlmProvider } from '@careerbot/testkit';
import { startTestApp, type TestApp } from './test-app.ts';

export const WIDTHS = {
  phone: { width: 375, height: 812 },
  desktop: { width: 1440, height: 900 },
} as const;
export type Width = keyof typeof WIDTHS;

export interface PagesWorld {
  app: TestApp;
  provider: FakeLlmProvider;
  browser: Browser;
  close(): Promise<void>;
}

/** The real service (its Express app on this file's database) with the fake provider, and Chromium. */
export const startPagesWorld = async (env: Record<string, string> = {}, browserOptions: Parameters<typeof launchBrowser>[0] = {}): Promise<PagesWorld> => {
  const provider = await startFakeLlmProvider();
  const app = await startTestApp({
    env: {
      OPENAI_BASE_URL: provider.baseUrls.openai,
      ANTHROPIC_BASE_URL: provider.baseUrls.anthropic,
      GEMINI_BASE_URL: provider.baseUrls.google,
      LLM_TIMEOUT_MS: '3000',
      ...env,
    },
  });
  const browser = await launchBrowser(browserOptions);
  return {
    app,
    provider,
    browser,
    close: async () => {
      await browser.close();
      await app.close();
      await provider.close();
    },
  };
};

export interface Tab {
  context: BrowserContext;
  page: Page;
  /** Uncaught page errors, failed console errors and CSP violations seen so far. */
  problems: string[];
  /** Dialogs opened (alert, confirm): a hostile value that ran would open one. */
  dialogs: string[];
}

/** A fresh browser profile (no cookies, empty storage) at one width. */
export const openTab = async (world: PagesWorld, width: Width = 'desktop', options: { bypassCSP?: boolean } = {}): Promise<Tab> => {
  const context = await world.browser.newContext({
    baseURL: world.app.baseUrl,
    viewport: WIDTHS[width],
    bypassCSP: options.bypassCSP ?? false,
  });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: world.app.baseUrl });
  const page = await context.newPage();
  const problems: string[] = [];
  const dialogs: string[] = [];
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    // Error answers the page handles itself are logged by Chromium as failed loads; not a problem.
    if (message.type() === 'error' && !/^Failed to load resource: the server responded with a status of [45]\d\d/.test(message.text())) {
      problems.push(`console: ${message.text()}`);
    }
  });
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await page.addInitScript({ content: DEEP_ACTIVE });
  // Content-Security-Policy violations are reported to the page; collect them.
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      (window as unknown as { __cspViolations: string[] }).__cspViolations ??= [];
      (window as unknown as { __cspViolations: string[] }).__cspViolations.push(`${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  return { context, page, problems, dialogs };
};

export const cspViolations = (page: Page): Promise<string[]> =>
  page.evaluate(() => (window as unknown as { __cspViolations?: string[] }).__cspViolations ?? []);

/** A full-page screenshot under test-artifacts/screenshots, named by page and width. */
export const shoot = async (page: Page, name: string) => {
  const width = page.viewportSize()?.width ?? 0;
  await page.screenshot({ path: await screenshotPath(`${name}-${width}`), fullPage: true });
};

export interface Owner {
  username: string;
  email: string;
  password: string;
}

let owners = 0;
export const newOwner = (prefix = 'owner'): Owner => {
  const id = `${prefix}${process.pid}${++owners}${Math.random().toString(36).slice(2, 6)}`;
  return { username: id, email: `${id}@example.com`, password: 'correct horse battery staple' };
};

/** Register through /register; the page signs the new owner in and lands on the dashboard. */
export const registerThroughPages = async (page: Page, owner: Owner) => {
  await page.goto('/register');
  await page.getByLabel('Username').fill(owner.username);
  await page.getByLabel('E-mail').fill(owner.email);
  await page.getByLabel('Password').fill(owner.password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL('**/dashboard');
};

export const signInThroughPages = async (page: Page, owner: Owner, start = '/login') => {
  await page.goto(start);
  await page.getByLabel('E-mail or username').fill(owner.username);
  await page.getByLabel('Password').fill(owner.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
};

export interface BotFieldsInput {
  name: string;
  headline?: string;
  context: string;
  questions?: string[];
  provider?: 'OpenAI' | 'Anthropic' | 'Google Gemini' | 'Azure OpenAI';
  model?: string;
}

/** Fill the bot editor and save; returns the status message the page shows. */
export const saveBotThroughEditor = async (page: Page, bot: BotFieldsInput): Promise<string> => {
  await page.goto('/dashboard/bot');
  await page.getByLabel('Name', { exact: true }).fill(bot.name);
  if (bot.headline !== undefined) await page.getByLabel('Headline (optional)').fill(bot.headline);
  await page.getByLabel('Career context').fill(bot.context);
  const existing = await page.getByLabel(/^Question \d$/).count();
  for (let index = existing; index < (bot.questions?.length ?? 0); index++) {
    await page.getByRole('button', { name: 'Add a question' }).click();
  }
  for (const [index, question] of (bot.questions ?? []).entries()) {
    await page.getByLabel(`Question ${index + 1}`, { exact: true }).fill(question);
  }
  if (bot.provider) await page.getByLabel('LLM provider').selectOption({ label: bot.provider });
  if (bot.model !== undefined) await page.getByLabel(bot.provider === 'Azure OpenAI' ? 'Deployment name' : 'Model (optional)').fill(bot.model);
  await page.getByRole('button', { name: 'Save bot' }).click();
  const status = page.getByText(/Your bot was (created|updated)\.|Please correct/);
  await status.waitFor();
  return (await status.textContent()) ?? '';
};

/** A fresh browser with a new owner, signed in, whose bot is saved through the editor. */
export const tabOfOwnerWithBot = async (world: PagesWorld, width: Width, bot: BotFieldsInput): Promise<Tab> => {
  const tab = await openTab(world, width);
  await registerThroughPages(tab.page, newOwner(width));
  await saveBotThroughEditor(tab.page, bot);
  return tab;
};

/** The id of the signed-in owner's bot, read from the share link on the overview. */
export const botIdOnOverview = async (page: Page): Promise<string> => {
  await page.goto('/dashboard');
  const link = await page.getByRole('link', { name: /\/b\// }).getAttribute('href');
  return link!.split('/b/')[1]!;
};

/** In the page: the focused element, inside shadow roots too (the widgets live in one). */
declare function deepActiveElement(): Element | null;
const DEEP_ACTIVE = `window.deepActiveElement = () => {
  let active = document.activeElement;
  while (active && active.shadowRoot && active.shadowRoot.activeElement) active = active.shadowRoot.activeElement;
  return active;
};`;

/** Press Tab until `target` has the focus (at most `limit` presses); fails if it never does. */
export const tabTo = async (page: Page, target: Locator, limit = 60, key = 'Tab') => {
  for (let presses = 0; presses < limit; presses++) {
    await page.keyboard.press(key);
    if (await target.evaluate((element) => element === deepActiveElement()).catch(() => false)) return;
  }
  throw new Error(`keyboard focus never reached ${target}`);
};

/** The focused element shows a focus indicator (an outline or a box shadow). */
export const focusIsVisible = (page: Page) =>
  page.evaluate(() => {
    const element = deepActiveElement() as HTMLElement | null;
    if (!element || element === document.body) return false;
    const style = getComputedStyle(element);
    return (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== 'none';
  });

const require = createRequire(import.meta.url);
let axeSource: string | undefined;

/** axe-core's serious and critical violations on the page as it is now (needs a bypassCSP tab). */
export const axeViolations = async (page: Page): Promise<string[]> => {
  axeSource ??= await readFile(require.resolve('axe-core/axe.min.js'), 'utf8');
  await page.addScriptTag({ content: axeSource });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: any[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((violation) => ({
      id: violation.id as string,
      impact: violation.impact as string,
      nodes: (violation.nodes as { target: string[] }[]).map((node) => node.target.join(' ')).slice(0, 3),
    }));
  });
  return violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical').map((v) => `${v.id} (${v.impact}) at ${v.nodes.join(', ')}`);
};

/** Fails with the list when a tab saw page errors or opened a dialog. */
export const expectNoProblems = (tab: Tab) => {
  expect(tab.problems).toEqual([]);
  expect(tab.dialogs).toEqual([]);
};
