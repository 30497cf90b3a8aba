import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { NotificationRepository } from '../../src/application/ports.ts';
import { keysetPaginationContract } from './keyset-pagination.contract.ts';

export interface NotificationRepositoryFixture {
  subject: NotificationRepository;
  /** Two users with no notifications yet. */
  userId: string;
  otherUserId: string;
}

const NOW = new Date('2025-03-01T10:00:00.000Z');
const later = (ms: number) => new Date(NOW.getTime() + ms);
const ALL = { limit: 100, cursor: null };

export const notificationRepositoryContract = (makeSubject: () => Promise<NotificationRepositoryFixture>) => {
  describe('NotificationRepository contract', () => {
    it('adds a notification with its payload', async () => {
      const { subject, userId } = await makeSubject();
      const payload = { leadId: randomUUID(), email: 'ada@example.com', nested: { count: 2, tags: ['a', 'b'] } };
      const added = await subject.add(userId, 'lead_captured', payload, NOW);
      expect(added).toEqual({ id: expect.any(String), userId, kind: 'lead_captured', payload, createdAt: NOW, readAt: null });
      expect(await subject.list(userId, ALL, false)).toEqual({ items: [added], nextCursor: null });
    });

    it('lists a user’s notifications newest first, unread only when asked', async () => {
      const { subject, userId, otherUserId } = await makeSubject();
      const first = await subject.add(userId, 'conversation_started', { n: 1 }, NOW);
      const third = await subject.add(userId, 'lead_captured', { n: 3 }, later(2000));
      const second = await subject.add(userId, 'conversation_started', { n: 2 }, later(1000));
      await subject.add(otherUserId, 'conversation_started', {}, later(3000));
      expect((await subject.list(userId, ALL, false)).items).toEqual([third, second, first]);

      await subject.markRead(userId, second.id, later(4000));
      expect((await subject.list(userId, ALL, true)).items).toEqual([third, first]);
      expect((await subject.list(userId, ALL, false)).items).toEqual([third, { ...second, readAt: later(4000) }, first]);
    });

    it('marks one read, keeping the first read time when marked twice', async () => {
      const { subject, userId } = await makeSubject();
      const added = await subject.add(userId, 'lead_captured', {}, NOW);
      expect(await subject.markRead(userId, added.id, later(1000))).toBe(true);
      expect(await subject.markRead(userId, added.id, later(2000))).toBe(true);
      expect((await subject.list(userId, ALL, false)).items).toEqual([{ ...added, readAt: later(1000) }]);
      expect(await subject.unreadCount(userId)).toBe(0);
    });

    it('refuses to mark an unknown, another user’s or a non-UUID id', async () => {
      const { subject, userId, otherUserId } = await makeSubject();
      const theirs = await subject.add(otherUserId, 'lead_captured', {}, NOW);
      expect(await subject.markRead(userId, theirs.id, later(1000))).toBe(false);
      expect(await subject.markRead(userId, randomUUID(), later(1000))).toBe(false);
      expect(await subject.markRead(userId, 'not-a-uuid', later(1000))).toBe(false);
      expect(await subject.unreadCount(otherUserId)).toBe(1);
    });

    it('marks all read, counting only the newly read, and keeps earlier read times', async () => {
      const { subject, userId, otherUserId } = await makeSubject();
      const early = await subject.add(userId, 'lead_captured', {}, NOW);
      await subject.add(userId, 'lead_captured', {}, later(1000));
      await subject.add(userId, 'conversation_started', {}, later(2000));
      await subject.add(otherUserId, 'conversation_started', {}, later(2000));
      await subject.markRead(userId, early.id, later(3000));
      expect(await subject.unreadCount(userId)).toBe(2);

      expect(await subject.markAllRead(userId, later(4000))).toBe(2);
      expect(await subject.markAllRead(userId, later(5000))).toBe(0);
      expect(await subject.unreadCount(userId)).toBe(0);
      expect((await subject.list(userId, ALL, false)).items.map((n) => n.readAt)).toEqual([later(4000), later(4000), later(3000)]);
      expect(await subject.unreadCount(otherUserId)).toBe(1);
    });

    keysetPaginationContract(async () => {
      const { subject, userId } = await makeSubject();
      return {
        insertAt: async (at) => (await subject.add(userId, 'conversation_started', {}, at)).id,
        page: (request) => subject.list(userId, request, false),
      };
    });

    describe('unread only', () => {
      keysetPaginationContract(async () => {
        const { subject, userId } = await makeSubject();
        return {
          // A read notification before every unread one: paging must skip them all.
          insertAt: async (at) => {
            const read = await subject.add(userId, 'lead_captured', {}, at);
            await subject.markRead(userId, read.id, at);
            return (await subject.add(userId, 'conversation_started', {}, at)).id;
          },
          page: (request) => subject.list(userId, request, true),
        };
      });
    });
  });
};
