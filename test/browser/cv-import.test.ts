import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeReply } from '@careerbot/testkit';
import { browserAvailable } from '@careerbot/testkit/browser';
import { docx } from '../support/cv-fixtures.ts';
import { startHostSite } from '../support/host-page-server.ts';
import { botIdOnOverview, expectNoProblems, newOwner, openTab, registerThroughPages, saveBotThroughEditor, shoot, startPagesWorld, type PagesWorld } from '../support/pages.ts';

const VISITOR_KEY = 'sk-visitor-cv-import-0123456789';
const CV = ['Grace Hopper', 'Experience', 'Wrote the first compiler, A-0, for the UNIVAC I.', 'Skills', 'COBOL, compilers, teaching'];

describe.runIf(browserAvailable())('importing a CV in the bot editor, in Chromium', () => {
  let world: PagesWorld;
  beforeAll(async () => {
    world = await startPagesWorld();
  });
  afterAll(async () => world?.close());

  it('import a DOCX, review and edit it, save; the bot answers from it through the provider', async () => {
    const tab = await openTab(world, 'desktop');
    const { page } = tab;
    await registerThroughPages(page, newOwner('cv'));
    await page.goto('/dashboard/bot');
    await page.getByLabel('Name', { exact: true }).fill('Grace Hopper');

    // A wrong file first: the problem is said in words.
    await page.getByLabel('CV file').setInputFiles({ name: 'photo.pdf', mimeType: 'application/pdf', buffer: Buffer.from('89504e470d0a1a0a0000', 'hex') });
    await page.getByRole('button', { name: 'Read the file' }).click();
    await page.getByRole('alert').getByText('This file is not a PDF, a Word document (.docx)', { exact: false }).waitFor();

    await page.getByLabel('CV file').setInputFiles({ name: 'grace.docx', mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', buffer: Buffer.from(docx(CV)) });
    await page.getByRole('button', { name: 'Read the file' }).click();
    const review = page.getByLabel('Imported text (review and edit)');
    await review.waitFor();
    expect(await review.inputValue()).toContain('## Experience\n\nWrote the first compiler, A-0, for the UNIVAC I.');
    await review.fill(`${await review.inputValue()}\n\nInvented the term "debugging" after a moth.`);
    await shoot(page, 'cv-import-review');
    // Nothing is saved by the import: the editor still has no bot.
    expect((await page.request.get('/api/bots')).status()).toBe(404);

    expect(await page.getByLabel('CV file').inputValue()).not.toBe('');
    await page.getByRole('button', { name: 'Use this text as the career context' }).click();
    expect(await page.getByLabel('Career context').inputValue()).toContain('Invented the term "debugging" after a moth.');
    // The used file's name no longer sits in the file field.
    expect(await page.getByLabel('CV file').inputValue()).toBe('');
    await page.getByRole('button', { name: 'Save bot' }).click();
    await page.getByText('Your bot was created.').waitFor();

    world.provider.respondWith(fakeReply.success('Grace wrote the first compiler.'));
    await page.getByRole('link', { name: 'Try your bot' }).click();
    await page.getByLabel('Your OpenAI API key').fill(VISITOR_KEY);
    await page.getByLabel(/message/i).first().fill('What did Grace build?');
    await page.keyboard.press('Enter');
    await page.getByRole('log', { name: 'Conversation' }).getByText('Grace wrote the first compiler.').waitFor();
    const call = world.provider.requests.find((request) => request.provider === 'openai');
    expect(JSON.stringify(call?.body)).toContain('Wrote the first compiler, A-0, for the UNIVAC I.');
    expect(JSON.stringify(call?.body)).toContain('after a moth');
    expectNoProblems(tab);
    await tab.context.close();
  });

  it('upload a photo: the editor, the overview, the public page and the widget on another site show it; removing it brings the initials back', async () => {
    const tab = await openTab(world, 'desktop');
    const { page } = tab;
    await registerThroughPages(page, newOwner('photo'));
    await saveBotThroughEditor(page, { name: 'Grace Hopper', context: 'Grace wrote the first compiler.' });
    await page.goto('/dashboard/bot');
    const photo = await sharp({ create: { width: 900, height: 1200, channels: 3, background: '#2a9d8f' } }).jpeg().toBuffer();
    await page.getByLabel('Photo file').setInputFiles({ name: 'me.jpg', mimeType: 'image/jpeg', buffer: photo });
    await page.getByRole('button', { name: 'Upload photo' }).click();
    await page.getByText('Your photo is the avatar now.').waitFor();
    const avatar = page.getByRole('img', { name: 'Your photo, as the avatar' });
    expect(await avatar.getAttribute('src')).toMatch(/\/[0-9a-f]{64}\.webp$/);
    await expect.poll(() => avatar.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(512);
    await shoot(page, 'photo-editor');

    const botId = await botIdOnOverview(page);
    await expect.poll(() => page.locator('.bot-card img.avatar').getAttribute('src')).toMatch(/\.webp$/);

    await page.goto(`/b/${botId}`);
    const publicAvatar = page.locator('img.avatar').first();
    expect(await publicAvatar.getAttribute('src')).toMatch(/\.webp$/);
    await expect.poll(() => publicAvatar.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(512);
    await shoot(page, 'photo-public-page');

    const site = await startHostSite();
    try {
      site.page('/managed.html', `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Grace</title></head><body><h1>Grace</h1><script src="${world.app.baseUrl}/widget.js" data-bot-id="${botId}" async></script></body></html>`);
      const visitor = await openTab(world, 'desktop');
      await visitor.page.goto(`${site.url}/managed.html`);
      const launcherImage = visitor.page.getByRole('button', { name: /^Chat with / }).locator('img');
      await expect.poll(() => launcherImage.getAttribute('src')).toMatch(new RegExp(`/api/avatars/${botId}/[0-9a-f]{64}\\.webp$`));
      await expect.poll(() => launcherImage.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(512);
      await shoot(visitor.page, 'photo-widget');
      await visitor.context.close();
    } finally {
      await site.close();
    }

    await page.goto('/dashboard/bot');
    await page.getByRole('button', { name: 'Remove photo' }).click();
    await page.getByText('The photo was removed').waitFor();
    // The button left with the photo: the focus is in the file field, not dropped to the page.
    await expect.poll(() => page.getByLabel('Photo file').evaluate((field) => field === document.activeElement)).toBe(true);
    expect(await page.getByRole('img', { name: 'Your initials, as the avatar' }).getAttribute('src')).toBe(`/api/avatars/${botId}.svg`);
    expectNoProblems(tab);
    await tab.context.close();
  });
});
