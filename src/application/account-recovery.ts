import { ACCOUNT_LINK_LIFETIME_MS, hashAccountLinkToken, isAccountLinkToken, newAccountLinkToken } from '../domain/account-link.ts';
import { err, ok, type Result } from '../domain/result.ts';
import type { AccountRepository, AccountTokenRepository, Clock, Mailer, PasswordHasher, SessionDirectory, SignInThrottle, UserRepository } from './ports.ts';

/** Reset requests per 15-minute window: per client address, and per account (or per unknown name, alike). */
export const RESET_LIMITS = { perAddress: 20, perAccount: 3 } as const;

export interface RequestPasswordResetInput {
  /** An e-mail address or a username. */
  identifier: string;
  clientAddress: string;
  /** The service's own origin, for the link. */
  origin: string;
}

export type RequestPasswordResetError = { type: 'throttled'; retryAfterSeconds: number };

/**
 * The answer never tells whether the account exists: the e-mail leaves after the answer,
 * and an account over its own limit is refused silently, as an unknown name is.
 */
export const makeRequestPasswordReset =
  (d: {
    users: UserRepository;
    links: AccountTokenRepository;
    throttle: SignInThrottle;
    mailer: Mailer;
    clock: Clock;
    reportMailFailure: (error: unknown) => void;
  }) =>
  async (input: RequestPasswordResetInput): Promise<Result<{ accepted: true }, RequestPasswordResetError>> => {
    const now = d.clock.now();
    const identifier = input.identifier.trim().toLowerCase();
    const account = identifier ? await d.users.findCredentials(identifier) : null;
    const addressKey = `reset-address:${input.clientAddress}`;
    const accountKey = `reset-account:${account ? `user:${account.id}` : identifier}`;
    const counts = await d.throttle.begin([addressKey, accountKey], now);
    const byAddress = counts.get(addressKey);
    if (byAddress && byAddress.count > RESET_LIMITS.perAddress) {
      return err({ type: 'throttled', retryAfterSeconds: Math.max(1, Math.ceil((byAddress.resetAt - now.getTime()) / 1000)) });
    }
    if (!account || (counts.get(accountKey)?.count ?? 0) > RESET_LIMITS.perAccount) return ok({ accepted: true });

    const token = newAccountLinkToken();
    const expiresAt = new Date(now.getTime() + ACCOUNT_LINK_LIFETIME_MS);
    await d.links.create({ tokenHash: hashAccountLinkToken(token), userId: account.id, purpose: 'password_reset', newEmail: null, expiresAt }, now);
    const link = `${input.origin}/reset-password#token=${token}`;
    // Sent after the answer, so an existing account does not answer later than an unknown one.
    d.mailer
      .send({
        to: account.email,
        subject: 'Reset your Career Bot password',
        text: `Someone asked to reset the password of the Career Bot account "${account.username}".\n\nTo choose a new password, open this link within 30 minutes. It works once:\n${link}\n\nIf it was not you, ignore this e-mail: your password stays as it is.\n`,
        secrets: [link, token],
      })
      .catch(d.reportMailFailure);
    return ok({ accepted: true });
  };

export type ResetPasswordError = { type: 'invalid_link' };

/** Spends the link, sets the password, and signs the account out everywhere. */
export const makeResetPassword =
  (d: { links: AccountTokenRepository; accounts: AccountRepository; sessions: SessionDirectory; hasher: PasswordHasher; clock: Clock }) =>
  async (input: { token: string; password: string }): Promise<Result<{ userId: string }, ResetPasswordError>> => {
    if (!isAccountLinkToken(input.token)) return err({ type: 'invalid_link' });
    const spent = await d.links.spend(hashAccountLinkToken(input.token), 'password_reset', d.clock.now());
    if (!spent) return err({ type: 'invalid_link' });
    await d.accounts.setPasswordHash(spent.userId, await d.hasher.hash(input.password));
    await d.links.deleteForUser(spent.userId, 'password_reset');
    await d.sessions.revokeAllExcept(spent.userId, null);
    return ok({ userId: spent.userId });
  };
