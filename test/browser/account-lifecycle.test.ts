import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable } from '@careerbot/testkit/browser';
import { botIdOnOverview, cspViolations, expectNoProblems, newOwner, openTab, registerThroughPages, saveBotThroughEditor, shoot, signInThroughPages, startPagesWorld, type PagesWorld } from '../support/pages.ts';
import { startSmtpSink, type SmtpSink } from '@careerbot/testkit/smtp';

const NEW_PASSWORD = 'a brand new passphrase 42';

describe.runIf(browserAvailable())('an owner recovers, changes, inspects and leaves their account, in Chromium', () => {
  let sink: SmtpSink;
  let world: PagesWorld;
  beforeAll(async () => {
    sink = await startSmtpSink();
    world = await startPagesWorld({ SMTP_URL: `smtp://127.0.0.1:${sink.port}` });
  });
  afterAll(async () => {
    await world?.close();
    await sink?.close();
  });

  /** The link of the newest e-mail to `to` that holds one to `page`. */
  const linkFromMail = async (to: string, page: string) => {
    const mail = await sink.waitFor((candidate) => candidate.to.includes(to) && candidate.text.includes(`/${page}#token=`));
    const text = mail.text.replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    return new RegExp(`http://\\S+/${page}#token=[A-Za-z0-9_-]{43}`).exec(text)![0];
  };

  it('forgets the password → follows the e-mailed link → signs in → changes the e-mail → downloads the data → deletes the account → the public page is a 404', { timeout: 120_000 }, async () => {
    const owner = newOwner('leaver');
    const setup = await openTab(world, 'desktop');
    await registerThroughPages(setup.page, owner);
    await saveBotThroughEditor(setup.page, { name: 'Grace Hopper', context: 'Grace wrote the first compiler.', provider: 'OpenAI' });
    const botId = await botIdOnOverview(setup.page);
    await setup.context.close();

    // A fresh browser: the password is forgotten.
    const tab = await openTab(world, 'desktop');
    const { page } = tab;
    // A reset page reached with no token says at once that the link is no good, and where to get one.
    await page.goto('/reset-password');
    await page.getByText('This link is invalid, used or expired.').waitFor();
    expect(await page.getByLabel('New password').count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Ask for a new link' }).getAttribute('href')).toBe('/forgot-password');
    await shoot(page, 'reset-password-no-token');
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.waitForURL('**/forgot-password');
    await page.getByLabel('E-mail or username').fill(owner.username);
    await page.getByRole('button', { name: 'Send the link' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toContain('If an account matches');
    await shoot(page, 'forgot-password');

    const resetLink = await linkFromMail(owner.email, 'reset-password');
    await page.goto(resetLink);
    // The token leaves the address bar once read.
    await expect.poll(() => page.url()).not.toContain('token');
    await page.getByLabel('New password').fill(NEW_PASSWORD);
    await shoot(page, 'reset-password');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await page.getByRole('heading', { name: 'Password changed' }).waitFor();
    // The same link a second time: once the service refuses it, the form goes and only a new link is offered.
    await page.goto('/login');
    await page.goto(resetLink);
    await page.getByLabel('New password').fill('another-password-123');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await page.getByText('This link is invalid, used or expired.').waitFor();
    expect(await page.getByLabel('New password').count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Ask for a new link' }).getAttribute('href')).toBe('/forgot-password');
    await page.goto('/login');
    await signInThroughPages(page, { ...owner, password: NEW_PASSWORD });
    await page.waitForURL('**/dashboard');

    // The account page: change the e-mail address.
    await page.getByRole('link', { name: 'Account' }).click();
    await page.waitForURL('**/dashboard/account');
    await page.getByRole('cell', { name: 'This browser' }).waitFor();
    // Another browser signs in: its row's Sign out names when and where it signed in, as its message does.
    const other = await openTab(world, 'desktop');
    await signInThroughPages(other.page, { ...owner, password: NEW_PASSWORD });
    await other.page.waitForURL('**/dashboard');
    await page.reload();
    const signOutOther = page.getByRole('button', { name: /^Sign out .+, signed in .+/ });
    await signOutOther.waitFor();
    const otherName = (await signOutOther.getAttribute('aria-label'))!.replace(/^Sign out /, '');
    await signOutOther.click();
    await page.getByText(`${otherName} was signed out.`).waitFor();
    // The button left with its row: the focus is on the section's heading, not dropped to the page.
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent?.trim())).toBe('Where you are signed in');
    await other.context.close();
    // A wrong current password is said next to that field.
    const passwordForm = page.getByRole('form', { name: 'Password' });
    await passwordForm.getByLabel('Current password').fill('not my password');
    await passwordForm.getByLabel('New password').fill('another new passphrase');
    await passwordForm.getByRole('button', { name: 'Change the password' }).click();
    const currentPassword = passwordForm.getByLabel('Current password');
    await expect.poll(() => currentPassword.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await currentPassword.getAttribute('aria-describedby')) ?? '';
    expect(await page.locator(`[id="${describedBy}"]`).textContent()).toBe('The current password is wrong');
    expect(await passwordForm.getByRole('alert').count()).toBe(0);
    await shoot(page, 'account-wrong-password');
    const newEmail = `moved-${owner.email}`;
    const emailForm = page.getByRole('form', { name: 'E-mail address' });
    await emailForm.getByLabel('New e-mail address').fill(newEmail);
    await emailForm.getByLabel('Password').fill(NEW_PASSWORD);
    await emailForm.getByRole('button', { name: 'Send a confirmation link' }).click();
    await expect.poll(() => emailForm.getByRole('status').textContent()).toContain(`We sent a link to ${newEmail}`);
    await shoot(page, 'account');
    await sink.waitFor((mail) => mail.to.includes(owner.email) && mail.text.includes('is being changed'));
    await page.goto(await linkFromMail(newEmail, 'confirm-email'));
    await page.getByRole('button', { name: 'Confirm the new address' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toContain(`Your e-mail address is now ${newEmail}`);

    // Download the data.
    await page.goto('/dashboard/account');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download my data' }).click()]);
    const data = JSON.parse(await readFile((await download.path())!, 'utf8'));
    expect(download.suggestedFilename()).toMatch(/^careerbot-export-\d{4}-\d{2}-\d{2}\.json$/);
    expect(data.account.email).toBe(newEmail);
    expect(data.bot.id).toBe(botId);

    // Delete the account: the button waits for the username.
    const deleteForm = page.getByRole('form', { name: 'Delete the account' });
    await deleteForm.getByLabel('Password').fill(NEW_PASSWORD);
    const button = deleteForm.getByRole('button', { name: 'Delete my account for good' });
    expect(await button.isDisabled()).toBe(true);
    await deleteForm.getByLabel('Type your username to confirm').fill(owner.username);
    await button.click();
    await page.waitForURL((url) => url.pathname === '/');
    // The home page says it is done.
    await expect.poll(() => page.getByRole('status').textContent()).toContain('Your account is deleted');
    await shoot(page, 'account-deleted');

    const gone = await page.goto(`/b/${botId}`);
    expect(gone?.status()).toBe(404);
    await page.getByRole('heading', { name: 'This bot is not available' }).waitFor();
    expect(await cspViolations(page)).toEqual([]);
    expectNoProblems(tab);
  });
});
