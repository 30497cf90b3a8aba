import { err, ok, type Result } from '../domain/result.ts';
import type { Clock, PasswordHasher, SignInThrottle, UserRepository } from './ports.ts';

/**
 * Failed sign-ins per 15-minute window: per account from one address, per account from all
 * addresses (an attacker with many addresses still guesses at most this often), per address.
 */
export const SIGN_IN_LIMITS = { perAccountAndAddress: 10, perAccount: 50, perAddress: 100 } as const;

/** bcrypt only reads 72 bytes; registration refuses longer passwords, so sign-in does too. */
const MAX_PASSWORD_BYTES = 72;

export interface SignInInput {
  /** An e-mail address or a username. */
  identifier: string;
  password: string;
  clientAddress: string;
}

export interface SignedInUser {
  id: string;
  username: string;
  email: string;
}

export type SignInError = { type: 'invalid_credentials' } | { type: 'throttled'; retryAfterSeconds: number };

export const makeSignIn =
  (d: { users: UserRepository; hasher: PasswordHasher; throttle: SignInThrottle; clock: Clock }) =>
  async (input: SignInInput): Promise<Result<SignedInUser, SignInError>> => {
    const now = d.clock.now();
    const identifier = input.identifier.trim().toLowerCase();
    const account = identifier ? await d.users.findCredentials(identifier) : null;
    // Counted per account, whether it is named by its e-mail or its username.
    const who = account ? `user:${account.id}` : identifier;
    const accountKey = `account:${who}|${input.clientAddress}`;
    const everywhereKey = `account-any:${who}`;
    const addressKey = `address:${input.clientAddress}`;
    const keys = [accountKey, everywhereKey, addressKey];

    // Counted before the password is checked: concurrent guesses see each other's attempts.
    const attempts = await d.throttle.begin(keys, now);
    const overLimit = (key: string, limit: number) => {
      const entry = attempts.get(key);
      return entry && entry.count > limit ? [entry] : [];
    };
    const exhausted = [
      ...overLimit(accountKey, SIGN_IN_LIMITS.perAccountAndAddress),
      ...overLimit(everywhereKey, SIGN_IN_LIMITS.perAccount),
      ...overLimit(addressKey, SIGN_IN_LIMITS.perAddress),
    ];
    if (exhausted.length > 0) {
      const resetAt = Math.max(...exhausted.map((entry) => entry.resetAt));
      return err({ type: 'throttled', retryAfterSeconds: Math.max(1, Math.ceil((resetAt - now.getTime()) / 1000)) });
    }

    const tooLong = Buffer.byteLength(input.password, 'utf8') > MAX_PASSWORD_BYTES;
    // An unknown account costs the same bcrypt comparison as a wrong password.
    const valid =
      account && !tooLong ? await d.hasher.verify(input.password, account.passwordHash) : await d.hasher.verifyDummy(input.password);
    if (!valid || !account) return err({ type: 'invalid_credentials' });
    await d.throttle.forgive(keys, now);
    return ok({ id: account.id, username: account.username, email: account.email });
  };
