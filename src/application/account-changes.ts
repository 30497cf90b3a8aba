import { ACCOUNT_LINK_LIFETIME_MS, hashAccountLinkToken, isAccountLinkToken, newAccountLinkToken } from '../domain/account-link.ts';
import { err, ok, type Result } from '../domain/result.ts';
import type { AccountRepository, AccountTokenRepository, Clock, Mailer, PasswordHasher, SessionDirectory, UserRepository } from './ports.ts';

export type WrongPassword = { type: 'wrong_password' };

/** The account's current password, checked as sign-in checks it (an unknown account costs the same). */
const passwordMatches = async (d: { accounts: AccountRepository; hasher: PasswordHasher }, userId: string, password: string) => {
  const account = await d.accounts.credentialsOf(userId);
  if (!account) {
    await d.hasher.verifyDummy(password);
    return null;
  }
  return (await d.hasher.verify(password, account.passwordHash)) ? account : null;
};

/** A new password, the current one required; every other session is signed out. */
export const makeChangePassword =
  (d: { accounts: AccountRepository; links: AccountTokenRepository; sessions: SessionDirectory; hasher: PasswordHasher }) =>
  async (input: { userId: string; currentSid: string; currentPassword: string; newPassword: string }): Promise<Result<{ signedOut: number }, WrongPassword>> => {
    if (!(await passwordMatches(d, input.userId, input.currentPassword))) return err({ type: 'wrong_password' });
    await d.accounts.setPasswordHash(input.userId, await d.hasher.hash(input.newPassword));
    await d.links.deleteForUser(input.userId, 'password_reset');
    return ok({ signedOut: await d.sessions.revokeAllExcept(input.userId, input.currentSid) });
  };

export type RequestEmailChangeError = WrongPassword | { type: 'email_taken' } | { type: 'same_email' };

/** A confirmation link to the new address, a notice to the old one; nothing changes until the link is used. */
export const makeRequestEmailChange =
  (d: {
    accounts: AccountRepository;
    users: UserRepository;
    links: AccountTokenRepository;
    hasher: PasswordHasher;
    mailer: Mailer;
    clock: Clock;
    reportMailFailure: (error: unknown) => void;
  }) =>
  async (input: { userId: string; password: string; newEmail: string; origin: string }): Promise<Result<{ pending: string }, RequestEmailChangeError>> => {
    const account = await passwordMatches(d, input.userId, input.password);
    if (!account) return err({ type: 'wrong_password' });
    if (account.email === input.newEmail) return err({ type: 'same_email' });
    if (await d.users.emailExists(input.newEmail)) return err({ type: 'email_taken' });
    const now = d.clock.now();
    const token = newAccountLinkToken();
    await d.links.deleteForUser(input.userId, 'email_change');
    await d.links.create(
      { tokenHash: hashAccountLinkToken(token), userId: input.userId, purpose: 'email_change', newEmail: input.newEmail, expiresAt: new Date(now.getTime() + ACCOUNT_LINK_LIFETIME_MS) },
      now,
    );
    const link = `${input.origin}/confirm-email#token=${token}`;
    const send = (message: Parameters<Mailer['send']>[0]) => d.mailer.send(message).catch(d.reportMailFailure);
    void send({
      to: input.newEmail,
      subject: 'Confirm your new Career Bot e-mail address',
      text: `To make ${input.newEmail} the e-mail address of the Career Bot account "${account.username}", open this link within 30 minutes. It works once:\n${link}\n`,
      secrets: [link, token],
    });
    void send({
      to: account.email,
      subject: 'Your Career Bot e-mail address is being changed',
      text: `Someone signed in to the Career Bot account "${account.username}" asked to change its e-mail address to ${input.newEmail}. It changes only when the link sent there is opened.\n\nIf it was not you, change your password now.\n`,
    });
    return ok({ pending: input.newEmail });
  };

export type ConfirmEmailChangeError = { type: 'invalid_link' } | { type: 'email_taken' };

/** The link from the new address: the address changes now, and every other session is signed out. */
export const makeConfirmEmailChange =
  (d: { links: AccountTokenRepository; accounts: AccountRepository; sessions: SessionDirectory; clock: Clock }) =>
  async (input: { token: string; currentSid: string | null }): Promise<Result<{ userId: string; email: string }, ConfirmEmailChangeError>> => {
    if (!isAccountLinkToken(input.token)) return err({ type: 'invalid_link' });
    const spent = await d.links.spend(hashAccountLinkToken(input.token), 'email_change', d.clock.now());
    if (!spent?.newEmail) return err({ type: 'invalid_link' });
    // Taken meanwhile by a registration: the unique constraint decides, as it does for register.
    if ((await d.accounts.setEmail(spent.userId, spent.newEmail)) === 'duplicate') return err({ type: 'email_taken' });
    await d.sessions.revokeAllExcept(spent.userId, input.currentSid);
    return ok({ userId: spent.userId, email: spent.newEmail });
  };
