import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable } from '@careerbot/testkit/browser';
import { signedInClient, validBot } from '@careerbot/testkit';
import { axeViolations, expectNoProblems, openTab, shoot, signInThroughPages, startPagesWorld, type PagesWorld } from '../support/pages.ts';

// A self-hosted bot's overview walks its owner through the runtime: a token, the command with
// this bot's values (never the provider key), the snippet with the runtime's address, and
// whether a runtime has used a token lately.
const HOSTILE_SITE = `https://ada.example'"><img src=x onerror="alert(1)">`;

describe.runIf(browserAvailable())('the dashboard’s self-hosted steps, in Chromium', () => {
  let world: PagesWorld;
  let owner: Awaited<ReturnType<typeof signedInClient>>;
  beforeAll(async () => {
    world = await startPagesWorld();
    owner = await signedInClient(world.app.baseUrl);
    await owner.client.post('/api/bots', validBot({ llmProvider: 'anthropic', llmModel: 'claude-haiku-4-5' }));
  });
  afterAll(async () => {
    await world?.close();
  });

  it('shows the three steps with this bot’s values, the minted token in the command, and when a runtime last used it', async () => {
    const tab = await openTab(world);
    const { page } = tab;
    await signInThroughPages(page, owner);
    await page.waitForURL('**/dashboard');
    // A managed bot gets the managed tag, and no runtime steps.
    expect(await page.getByRole('heading', { name: 'Put the bot on your site' }).count()).toBe(1);
    expect(await page.getByRole('heading', { name: 'Run your own runtime' }).count()).toBe(0);

    expect((await owner.client.patch('/api/bots/settings', { deploymentMode: 'self_hosted' })).status).toBe(200);
    await page.reload();
    const steps = page.getByRole('region', { name: 'Run your own runtime' });
    await steps.waitFor();
    expect(await page.getByRole('heading', { name: 'Put the bot on your site' }).count()).toBe(0);
    expect(await steps.getByRole('status', { name: 'Your runtime' }).textContent()).toBe('No runtime has used a token yet.');
    expect(await steps.getByRole('heading', { level: 3 }).allTextContents()).toEqual(['Create a token', 'Start the runtime', 'Paste the snippet']);

    const command = steps.getByLabel('Command that starts the runtime');
    await steps.getByLabel('Your site’s address').fill(HOSTILE_SITE);
    expect(await command.textContent()).toBe(
      [
        `curl -fsSL '${world.app.baseUrl}/runtime/careerbot-runtime.mjs' -o careerbot-runtime.mjs`,
        `CAREERBOT_URL='${world.app.baseUrl}' \\`,
        `CAREERBOT_TOKEN='paste-your-bot-token-here' \\`,
        `LLM_PROVIDER='anthropic' \\`,
        `LLM_MODEL='claude-haiku-4-5' \\`,
        `ALLOWED_ORIGINS='https://ada.example'\\''"><img src=x onerror="alert(1)">' \\`,
        `PORT='8787' \\`,
        'node careerbot-runtime.mjs',
      ].join('\n'),
    );
    expect(await steps.getByText('Also set LLM_API_KEY to your Anthropic key').count()).toBe(1);

    await steps.getByLabel('Your runtime’s address').fill('https://bot.ada.example</script><script>alert(2)</script>');
    await steps.getByRole('button', { name: 'Copy snippet' }).click();
    const snippet = await page.evaluate(() => navigator.clipboard.readText());
    expect(snippet).toBe(
      [
        `<script src="${world.app.baseUrl}/widget/careerbot-widget.js"></script>`,
        '<script>',
        '  CareerBotWidget.mount(document.body, { runtimeUrl: "https://bot.ada.example\\u003c/script>\\u003cscript>alert(2)\\u003c/script>", captureLead: true });',
        '</script>',
      ].join('\n'),
    );
    // What the owner typed stayed text.
    expect(await page.locator('main img:not(.avatar), main script').count()).toBe(0);
    expect(tab.dialogs).toEqual([]);
    await steps.getByLabel('Your site’s address').fill('https://ada.example');
    await steps.getByLabel('Your runtime’s address').fill('https://bot.ada.example');
    expect(await command.textContent()).toContain(`ALLOWED_ORIGINS='https://ada.example' \\`);
    expect(await steps.getByLabel('Snippet for your site').textContent()).toContain('{ runtimeUrl: "https://bot.ada.example", captureLead: true }');
    await shoot(page, 'dashboard-runtime-steps');

    // Step 1 leads to the tokens page; a token minted there comes with its command.
    await steps.getByRole('link', { name: 'Create a token for your runtime' }).click();
    await page.waitForURL('**/dashboard/tokens');
    await page.getByLabel('Token name').fill('Portfolio runtime');
    await page.getByRole('button', { name: 'Create token' }).click();
    const token = await page.getByRole('textbox', { name: 'New token' }).inputValue();
    expect(token).toMatch(/^cbt_[0-9a-f]{64}$/);
    const minted = page.getByRole('region', { name: 'Your new token “Portfolio runtime”' });
    expect(await minted.getByLabel('Command that starts the runtime').textContent()).toContain(`CAREERBOT_TOKEN='${token}' \\`);
    expect(await minted.getByText('Replace paste-your-bot-token-here').count()).toBe(0);
    await shoot(page, 'dashboard-runtime-token');

    // A runtime reads the configuration with the token: the overview says so.
    const used = await fetch(`${world.app.baseUrl}/api/v1/bot/config`, { headers: { authorization: `Bearer ${token}` } });
    expect(used.status).toBe(200);
    await page.goto('/dashboard');
    const status = await steps.getByRole('status', { name: 'Your runtime' }).textContent();
    expect(status).toMatch(/^A runtime last used the token “Portfolio runtime” on .+\.$/);
    expect(await steps.getByText('You have 1 active token.').count()).toBe(1);
    expectNoProblems(tab);
    await tab.context.close();

    // axe runs as an inline script: a tab without the page's CSP, on the same overview.
    const audit = await openTab(world, 'desktop', { bypassCSP: true });
    await signInThroughPages(audit.page, owner);
    await audit.page.getByRole('region', { name: 'Run your own runtime' }).waitFor();
    expect(await axeViolations(audit.page)).toEqual([]);
    await audit.context.close();

    // On a phone the command and the snippet wrap inside the page: nothing scrolls sideways.
    const phone = await openTab(world, 'phone');
    await signInThroughPages(phone.page, owner);
    await phone.page.getByRole('region', { name: 'Run your own runtime' }).waitFor();
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await shoot(phone.page, 'dashboard-runtime-steps');
    await phone.context.close();
  });
});
