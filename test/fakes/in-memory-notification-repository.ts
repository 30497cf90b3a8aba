import { randomUUID } from 'node:crypto';
import type { NotificationRepository, PageRequest } from '../../src/application/ports.ts';
import { newestFirst, toPage } from '../../src/adapters/persistence/keyset.ts';
import type { Notification, NotificationKind, Page } from '../../src/domain/types.ts';

const position = (notification: Notification) => ({ at: notification.createdAt, id: notification.id });

/** Returns copies, and stores the payload as JSON would, like the jsonb column. */
const copy = (notification: Notification): Notification => ({
  ...notification,
  payload: JSON.parse(JSON.stringify(notification.payload)) as Record<string, unknown>,
});

export class InMemoryNotificationRepository implements NotificationRepository {
  private readonly notifications: Notification[] = [];

  async add(userId: string, kind: NotificationKind, payload: Record<string, unknown>, now: Date): Promise<Notification> {
    const notification = copy({ id: randomUUID(), userId, kind, payload, createdAt: new Date(now), readAt: null });
    this.notifications.push(notification);
    return copy(notification);
  }

  async list(userId: string, page: PageRequest, unreadOnly: boolean): Promise<Page<Notification>> {
    const rows = this.notifications
      .filter(
        (n) =>
          n.userId === userId &&
          (!unreadOnly || n.readAt === null) &&
          (!page.cursor || newestFirst(position(n), page.cursor) > 0),
      )
      .sort((a, b) => newestFirst(position(a), position(b)))
      .slice(0, page.limit + 1)
      .map(copy);
    return toPage(rows, page.limit, position);
  }

  async markRead(userId: string, notificationId: string, now: Date): Promise<boolean> {
    const notification = this.notifications.find((n) => n.id === notificationId.toLowerCase() && n.userId === userId);
    if (!notification) return false;
    notification.readAt ??= new Date(now);
    return true;
  }

  async markAllRead(userId: string, now: Date): Promise<number> {
    const unread = this.notifications.filter((n) => n.userId === userId && n.readAt === null);
    for (const notification of unread) notification.readAt = new Date(now);
    return unread.length;
  }

  async unreadCount(userId: string): Promise<number> {
    return this.notifications.filter((n) => n.userId === userId && n.readAt === null).length;
  }
}
