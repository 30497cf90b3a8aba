import type { NotificationRepository, PageRequest } from '../../application/ports.ts';
import { isUuid } from '../../domain/pagination.ts';
import type { Notification, NotificationKind, Page } from '../../domain/types.ts';
import type { Queryable } from './db.ts';
import { afterCursor, cursorParams, toPage } from './keyset.ts';

interface NotificationRow {
  id: string;
  user_id: string;
  kind: NotificationKind;
  payload: Record<string, unknown>;
  created_at: Date;
  read_at: Date | null;
}

export const NOTIFICATION_COLUMNS = 'id, user_id, kind, payload, created_at, read_at';

export const rowToNotification = (row: NotificationRow): Notification => ({
  id: row.id,
  userId: row.user_id,
  kind: row.kind,
  payload: row.payload,
  createdAt: row.created_at,
  readAt: row.read_at,
});

const INSERT_NOTIFICATION = `
  INSERT INTO notifications (user_id, kind, payload, created_at) VALUES ($1, $2, $3::jsonb, $4)
  RETURNING ${NOTIFICATION_COLUMNS}`;
const LIST = `
  SELECT ${NOTIFICATION_COLUMNS} FROM notifications
  WHERE user_id = $1 AND (NOT $5::boolean OR read_at IS NULL) AND ${afterCursor('created_at', 'id', 2)}
  ORDER BY created_at DESC, id DESC
  LIMIT $4`;
// COALESCE keeps the first read time when marked twice.
const MARK_READ = 'UPDATE notifications SET read_at = COALESCE(read_at, $3) WHERE user_id = $1 AND id = $2';
const MARK_ALL_READ = 'UPDATE notifications SET read_at = $2 WHERE user_id = $1 AND read_at IS NULL';
const UNREAD_COUNT = 'SELECT count(*)::int AS count FROM notifications WHERE user_id = $1 AND read_at IS NULL';

export class PgNotificationRepository implements NotificationRepository {
  constructor(private readonly q: Queryable) {}

  async add(userId: string, kind: NotificationKind, payload: Record<string, unknown>, now: Date): Promise<Notification> {
    const { rows } = await this.q.query<NotificationRow>(INSERT_NOTIFICATION, [userId, kind, JSON.stringify(payload), now]);
    return rowToNotification(rows[0]!);
  }

  async list(userId: string, page: PageRequest, unreadOnly: boolean): Promise<Page<Notification>> {
    const { rows } = await this.q.query<NotificationRow>(LIST, [
      userId,
      ...cursorParams(page.cursor),
      page.limit + 1,
      unreadOnly,
    ]);
    return toPage(rows.map(rowToNotification), page.limit, (item) => ({ at: item.createdAt, id: item.id }));
  }

  async markRead(userId: string, notificationId: string, now: Date): Promise<boolean> {
    if (!isUuid(userId) || !isUuid(notificationId)) return false;
    return (await this.q.query(MARK_READ, [userId, notificationId, now])).rowCount! > 0;
  }

  async markAllRead(userId: string, now: Date): Promise<number> {
    return (await this.q.query(MARK_ALL_READ, [userId, now])).rowCount!;
  }

  async unreadCount(userId: string): Promise<number> {
    const { rows } = await this.q.query<{ count: number }>(UNREAD_COUNT, [userId]);
    return rows[0]!.count;
  }
}
