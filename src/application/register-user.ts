import { err, ok, type Result } from '../domain/result.ts';
import type { User } from '../domain/types.ts';
import type { Clock, PasswordHasher, UserRepository } from './ports.ts';

export interface RegisterUserInput {
  username: string;
  email: string;
  password: string;
}

export type RegisterUserError = { type: 'email_taken' } | { type: 'username_taken' } | { type: 'account_exists' };

export const makeRegisterUser =
  (d: { users: UserRepository; hasher: PasswordHasher; clock: Clock }) =>
  async (input: RegisterUserInput): Promise<Result<User, RegisterUserError>> => {
    if (await d.users.emailExists(input.email)) return err({ type: 'email_taken' });
    if (await d.users.usernameExists(input.username)) return err({ type: 'username_taken' });
    const passwordHash = await d.hasher.hash(input.password);
    // The pre-checks can race with another registration; the unique constraints decide.
    const user = await d.users.create({ username: input.username, email: input.email, passwordHash }, d.clock.now());
    return user === 'duplicate' ? err({ type: 'account_exists' }) : ok(user);
  };
