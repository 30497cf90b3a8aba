import { describe, expect, it } from 'vitest';
import type { NewOwnerKey, OwnerKeyRepository } from '../../src/application/ports.ts';

export interface OwnerKeyRepositoryFixture {
  subject: OwnerKeyRepository;
  /** Two users with no key yet. */
  userId: string;
  otherUserId: string;
}

const NOW = new Date('2025-03-01T10:00:00.000Z');
const later = (ms: number) => new Date(NOW.getTime() + ms);

const key = (lastFour: string, bytes: number): NewOwnerKey => ({
  provider: 'openai',
  azureEndpoint: null,
  lastFour,
  checked: true,
  sealed: {
    ciphertext: Buffer.from([bytes, 1, 2]),
    iv: Buffer.alloc(12, bytes),
    authTag: Buffer.alloc(16, bytes),
    wrappedDataKey: Buffer.alloc(60, bytes),
    masterKeyId: 'abcdef0123456789',
    masterKeyVersion: 1,
  },
});

export const ownerKeyRepositoryContract = (makeSubject: () => Promise<OwnerKeyRepositoryFixture>) => {
  describe('OwnerKeyRepository contract', () => {
    it('saves, reads the status without the sealed key, gives the sealed key to the chat path, removes', async () => {
      const { subject, userId, otherUserId } = await makeSubject();
      expect(await subject.status(userId)).toBeNull();
      const saved = await subject.save(userId, key('abcd', 7), NOW);
      expect(saved).toEqual({
        provider: 'openai',
        azureEndpoint: null,
        lastFour: 'abcd',
        checked: true,
        enabled: true,
        pausedAt: null,
        dailyCap: 100,
        createdAt: NOW,
        updatedAt: NOW,
      });
      expect(await subject.status(userId)).toEqual(saved);
      expect('sealed' in saved).toBe(false);
      const record = await subject.findForChat(userId);
      expect(Buffer.from(record!.sealed.ciphertext)).toEqual(Buffer.from([7, 1, 2]));
      expect(record!.sealed.masterKeyId).toBe('abcdef0123456789');
      expect(await subject.status(otherUserId)).toBeNull();
      expect(await subject.remove(userId)).toBe(true);
      expect(await subject.remove(userId)).toBe(false);
      expect(await subject.findForChat(userId)).toBeNull();
    });

    it('a replaced key starts over (added time, pause) and keeps the switch and the cap', async () => {
      const { subject, userId } = await makeSubject();
      await subject.save(userId, key('abcd', 1), NOW);
      await subject.updateSettings(userId, { enabled: false, dailyCap: 7 }, later(1000));
      expect(await subject.pause(userId, later(2000))).toBe(true);
      expect(await subject.pause(userId, later(3000))).toBe(false);
      expect((await subject.status(userId))!.pausedAt).toEqual(later(2000));
      const replaced = await subject.save(userId, key('wxyz', 2), later(4000));
      expect(replaced).toMatchObject({ lastFour: 'wxyz', enabled: false, dailyCap: 7, pausedAt: null, createdAt: later(4000) });
      expect(await subject.updateSettings('00000000-0000-4000-8000-000000000000', { enabled: true }, NOW)).toBeNull();
    });

    it('counts answers up to the cap per day, and sums the last 30 days', async () => {
      const { subject, userId, otherUserId } = await makeSubject();
      expect(await subject.countAnswer(userId, '2025-03-01', 2)).toBe(1);
      expect(await subject.countAnswer(userId, '2025-03-01', 2)).toBe(2);
      expect(await subject.countAnswer(userId, '2025-03-01', 2)).toBeNull();
      expect(await subject.countAnswer(userId, '2025-02-01', 5)).toBe(1); // 28 days before
      expect(await subject.countAnswer(userId, '2025-01-15', 5)).toBe(1); // 45 days before
      expect(await subject.countAnswer(otherUserId, '2025-03-01', 5)).toBe(1);
      expect(await subject.usage(userId, '2025-03-01')).toEqual({ today: 2, last30Days: 3 });
      expect(await subject.usage(userId, '2025-03-02')).toEqual({ today: 0, last30Days: 3 });
    });
  });
};
