import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeReply } from '@careerbot/testkit';
import { browserAvailable } from '@careerbot/testkit/browser';
import { docx } from '../support/cv-fixtures.ts';
import { expectNoProblems, newOwner, openTab, registerThroughPages, shoot, startPagesWorld, type PagesWorld } from '../support/pages.ts';

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

    await page.getByRole('button', { name: 'Use this text as the career context' }).click();
    expect(await page.getByLabel('Career context').inputValue()).toContain('Invented the term "debugging" after a moth.');
    await page.getByRole('button', { name: 'Save bot' }).click();
    await page.getByText('Your bot was created.').waitFor();

    world.provider.respondWith(fakeReply.success('Grace wrote the first compiler.'));
    await page.getByRole('link', { name: 'Try your bot' }).click();
    await page.getByLabel('Your OpenAI API key').fill(VISITOR_KEY);
    await page.getByLabel(/message/i).first().fill('What did Grace build?');
    await page.keyboard.press('Enter');
    await page.getByText('Grace wrote the first compiler.').waitFor();
    const call = world.provider.requests.find((request) => request.provider === 'openai');
    expect(JSON.stringify(call?.body)).toContain('Wrote the first compiler, A-0, for the UNIVAC I.');
    expect(JSON.stringify(call?.body)).toContain('after a moth');
    expectNoProblems(tab);
    await tab.context.close();
  });
});
