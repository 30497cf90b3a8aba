import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AccountRepository, AccountTokenRepository, SessionDirectory, UserRepository } from '../../src/application/ports.ts';

export interface AccountLifecycleFixture {
  users: UserRepository;
  accounts: AccountRepository;
  links: AccountTokenRepository;
  sessions: SessionDirectory;
  /** Puts a session with that cookie id for that user into the store. */
  addSession(sid: string, userId: string): Promise<void>;
}

const NOW = new Date('2026-11-21T10:00:00.000Z');
const MINUTE = 60_000;

const newUser = async (users: UserRepository) => {
  const name = `u${randomUUID().slice(0, 8)}`;
  const user = await users.create({ username: name, email: `${name}@example.com`, passwordHash: 'hash' }, NOW);
  if (user === 'duplicate') throw new Error('duplicate');
  return user;
};

const hash = () => randomUUID().replaceAll('-', '').padEnd(64, '0');

export const accountLifecycleContract = (name: string, make: () => Promise<AccountLifecycleFixture>) => {
  describe(`account lifecycle ports (${name})`, () => {
    it('AccountTokenRepository: a link is spent once, not after it expires, and only for its purpose', async () => {
      const f = await make();
      const user = await newUser(f.users);
      const reset = hash();
      await f.links.create({ tokenHash: reset, userId: user.id, purpose: 'password_reset', newEmail: null, expiresAt: new Date(NOW.getTime() + 30 * MINUTE) }, NOW);
      expect(await f.links.spend(reset, 'email_change', NOW)).toBeNull();
      const spent = await Promise.all([f.links.spend(reset, 'password_reset', NOW), f.links.spend(reset, 'password_reset', NOW)]);
      expect(spent.filter(Boolean)).toEqual([{ userId: user.id, newEmail: null }]);

      const late = hash();
      await f.links.create({ tokenHash: late, userId: user.id, purpose: 'email_change', newEmail: 'n@example.com', expiresAt: new Date(NOW.getTime() + 30 * MINUTE) }, NOW);
      expect(await f.links.spend(late, 'email_change', new Date(NOW.getTime() + 30 * MINUTE))).toBeNull();

      const forgotten = hash();
      await f.links.create({ tokenHash: forgotten, userId: user.id, purpose: 'password_reset', newEmail: null, expiresAt: new Date(NOW.getTime() + MINUTE) }, NOW);
      await f.links.deleteForUser(user.id, 'password_reset');
      expect(await f.links.spend(forgotten, 'password_reset', NOW)).toBeNull();
    });

    it('AccountRepository: password, e-mail (refusing a taken one) and retention', async () => {
      const f = await make();
      const ada = await newUser(f.users);
      const bob = await newUser(f.users);
      await f.accounts.setPasswordHash(ada.id, 'new-hash');
      expect(await f.accounts.credentialsOf(ada.id)).toEqual({ username: ada.username, email: ada.email, passwordHash: 'new-hash' });
      expect(await f.accounts.setEmail(ada.id, bob.email)).toBe('duplicate');
      expect(await f.accounts.setEmail(ada.id, 'fresh@example.com')).toBe('ok');
      expect((await f.accounts.credentialsOf(ada.id))!.email).toBe('fresh@example.com');
      expect(await f.accounts.retentionDays(ada.id)).toBeNull();
      await f.accounts.setRetentionDays(ada.id, 90);
      expect(await f.accounts.retentionDays(ada.id)).toBe(90);
      expect(await f.accounts.credentialsOf(randomUUID())).toBeNull();
    });

    it('SessionDirectory: lists an owner’s sessions without their ids, revokes one, then all but one', async () => {
      const f = await make();
      const ada = await newUser(f.users);
      const bob = await newUser(f.users);
      for (const sid of ['sid-a1', 'sid-a2', 'sid-a3']) await f.addSession(`${sid}-${ada.id}`, ada.id);
      await f.addSession(`sid-b1-${bob.id}`, bob.id);
      const listed = await f.sessions.list(ada.id, `sid-a1-${ada.id}`);
      expect(listed).toHaveLength(3);
      expect(listed.filter((s) => s.current)).toHaveLength(1);
      expect(JSON.stringify(listed)).not.toContain('sid-');
      const bobs = await f.sessions.list(bob.id, null);
      expect(await f.sessions.revoke(ada.id, bobs[0]!.id)).toBe(false);
      const other = listed.find((s) => !s.current)!;
      expect(await f.sessions.revoke(ada.id, other.id)).toBe(true);
      expect(await f.sessions.revoke(ada.id, other.id)).toBe(false);
      expect(await f.sessions.revokeAllExcept(ada.id, `sid-a1-${ada.id}`)).toBe(1);
      expect((await f.sessions.list(ada.id, `sid-a1-${ada.id}`)).map((s) => s.current)).toEqual([true]);
      expect(await f.sessions.revokeAllExcept(ada.id, null)).toBe(1);
      expect(await f.sessions.list(bob.id, null)).toHaveLength(1);
    });
  });
};
