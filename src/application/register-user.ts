import { err, ok, type Result } from '../domain/result.ts';
import type { User } from '../domain/types.ts';
import type { Clock, PasswordHasher, SignInThrottle, UserRepository } from './ports.ts';

export interface RegisterUserInput {
  username: string;
  email: string;
  password: string;
  clientAddress: string;
}

export type RegisterUserError =
  | { type: 'email_taken' }
  | { type: 'username_taken' }
  | { type: 'account_exists' }
  | { type: 'throttled'; retryAfterSeconds: number };

export const makeRegisterUser =
  (d: { users: UserRepository; hasher: PasswordHasher; clock: Clock; throttle: SignInThrottle; perAddress: number }) =>
  async (input: RegisterUserInput): Promise<Result<User, RegisterUserError>> => {
    // Every attempt counts, per client address and 15-minute window, before any bcrypt work:
    // a flood cannot tie up the hashing thread pool.
    const now = d.clock.now();
    const attempt = (await d.throttle.begin([`register:${input.clientAddress}`], now)).get(`register:${input.clientAddress}`);
    if (attempt && attempt.count > d.perAddress) {
      return err({ type: 'throttled', retryAfterSeconds: Math.max(1, Math.ceil((attempt.resetAt - now.getTime()) / 1000)) });
    }
    if (await d.users.emailExists(input.email)) return err({ type: 'email_taken' });
    if (await d.users.usernameExists(input.username)) return err({ type: 'username_taken' });
    const passwordHash = await d.hasher.hash(input.password);
    // The pre-checks can race with another registration; the unique constraints decide.
    const user = await d.users.create({ username: input.username, email: input.email, passwordHash }, now);
    return user === 'duplicate' ? err({ type: 'account_exists' }) : ok(user);
  };
