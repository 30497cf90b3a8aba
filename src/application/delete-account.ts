import { err, ok, type Result } from '../domain/result.ts';
import type { AccountEraser, AccountRepository, PasswordHasher } from './ports.ts';

export type DeleteAccountError = { type: 'wrong_password' } | { type: 'username_mismatch' };

/** The owner confirms with the password and the username typed out; then nothing of the account stays. */
export const makeDeleteAccount =
  (d: { accounts: AccountRepository; eraser: AccountEraser; hasher: PasswordHasher; afterErase: (botId: string | null) => void }) =>
  async (input: { userId: string; password: string; username: string }): Promise<Result<{ deleted: true }, DeleteAccountError>> => {
    const account = await d.accounts.credentialsOf(input.userId);
    const matches = account ? await d.hasher.verify(input.password, account.passwordHash) : await d.hasher.verifyDummy(input.password);
    if (!account || !matches) return err({ type: 'wrong_password' });
    if (input.username.trim().toLowerCase() !== account.username) return err({ type: 'username_mismatch' });
    const { botId } = await d.eraser.erase(input.userId);
    d.afterErase(botId);
    return ok({ deleted: true });
  };
