import { decodeCursor, isUuid, type PageCursor } from '../domain/pagination.ts';
import { err, ok, type Result } from '../domain/result.ts';
import type { Bot, Conversation, Lead, Notification, Page, RefusedMessage, StoredMessage } from '../domain/types.ts';
import type {
  BotRepository,
  Clock,
  ConversationRepository,
  ConversationSummary,
  LeadRepository,
  NotificationRepository,
  PageRequest,
  RefusedMessageRepository,
  UserRepository,
} from './ports.ts';

export type OwnerError = { type: 'bot_not_found' } | { type: 'not_found' };

/** Runs `work` on the user's bot, or answers bot_not_found before the first save. */
const withBot =
  (bots: BotRepository) =>
  async <T>(userId: string, work: (bot: Bot) => Promise<Result<T, OwnerError>>): Promise<Result<T, OwnerError>> => {
    const bot = await bots.findByUserId(userId);
    return bot ? work(bot) : err({ type: 'bot_not_found' });
  };

export const makeListConversations = (d: { bots: BotRepository; conversations: ConversationRepository }) => {
  const onBot = withBot(d.bots);
  return (userId: string, page: PageRequest): Promise<Result<Page<ConversationSummary>, OwnerError>> =>
    onBot(userId, async (bot) => ok(await d.conversations.list(bot.id, page)));
};

export const makeGetConversation = (d: { bots: BotRepository; conversations: ConversationRepository }) => {
  const onBot = withBot(d.bots);
  return (
    userId: string,
    conversationId: string,
  ): Promise<Result<{ conversation: Conversation; messages: StoredMessage[] }, OwnerError>> =>
    onBot(userId, async (bot) => {
      const found = isUuid(conversationId) ? await d.conversations.get(bot.id, conversationId) : null;
      return found ? ok(found) : err({ type: 'not_found' });
    });
};

export const makeListLeads = (d: { bots: BotRepository; leads: LeadRepository }) => {
  const onBot = withBot(d.bots);
  return (userId: string, page: PageRequest): Promise<Result<Page<Lead>, OwnerError>> =>
    onBot(userId, async (bot) => ok(await d.leads.list(bot.id, page)));
};

/** What the filter refused of the owner's bot in the last 30 days (older ones are deleted), newest first. */
export const makeListRefusedMessages = (d: { bots: BotRepository; refused: RefusedMessageRepository }) => {
  const onBot = withBot(d.bots);
  return (userId: string, page: PageRequest): Promise<Result<Page<RefusedMessage>, OwnerError>> =>
    onBot(userId, async (bot) => ok(await d.refused.list(bot.id, page)));
};

/** Leads per page of an export: the whole list is never held at once. */
export const EXPORT_PAGE_SIZE = 500;

/** Every lead of the owner's bot, newest first, one page at a time (keyset, so no row is read twice). */
export const makeExportLeads = (d: { bots: BotRepository; leads: LeadRepository }) => {
  const onBot = withBot(d.bots);
  return (userId: string): Promise<Result<AsyncIterable<Lead[]>, OwnerError>> =>
    onBot(userId, async (bot) =>
      ok(
        (async function* pages() {
          let cursor: PageCursor | null = null;
          do {
            const page: Page<Lead> = await d.leads.list(bot.id, { limit: EXPORT_PAGE_SIZE, cursor });
            if (page.items.length > 0) yield page.items;
            cursor = page.nextCursor === null ? null : decodeCursor(page.nextCursor);
          } while (cursor !== null);
        })(),
      ),
    );
};

export const makeListNotifications =
  (d: { notifications: NotificationRepository }) =>
  async (userId: string, page: PageRequest, unreadOnly: boolean): Promise<Page<Notification> & { unreadCount: number }> => {
    const [list, unreadCount] = await Promise.all([
      d.notifications.list(userId, page, unreadOnly),
      d.notifications.unreadCount(userId),
    ]);
    return { ...list, unreadCount };
  };

export const makeMarkNotificationRead =
  (d: { notifications: NotificationRepository; clock: Clock }) =>
  async (userId: string, notificationId: string): Promise<Result<{ unreadCount: number }, OwnerError>> => {
    const marked = isUuid(notificationId) && (await d.notifications.markRead(userId, notificationId, d.clock.now()));
    if (!marked) return err({ type: 'not_found' });
    return ok({ unreadCount: await d.notifications.unreadCount(userId) });
  };

export const makeMarkAllNotificationsRead =
  (d: { notifications: NotificationRepository; clock: Clock }) =>
  async (userId: string): Promise<{ updated: number; unreadCount: number }> => {
    const updated = await d.notifications.markAllRead(userId, d.clock.now());
    return { updated, unreadCount: await d.notifications.unreadCount(userId) };
  };

export const makeGetAccountSettings =
  (d: { users: UserRepository }) =>
  async (userId: string): Promise<Result<{ notifyLeadsEmail: boolean }, OwnerError>> => {
    const user = await d.users.findById(userId);
    return user ? ok({ notifyLeadsEmail: user.notifyLeadsEmail }) : err({ type: 'not_found' });
  };

export const makeUpdateAccountSettings =
  (d: { users: UserRepository }) =>
  async (userId: string, patch: { notifyLeadsEmail?: boolean }): Promise<Result<{ notifyLeadsEmail: boolean }, OwnerError>> => {
    const user =
      patch.notifyLeadsEmail === undefined
        ? await d.users.findById(userId)
        : await d.users.setNotifyLeadsEmail(userId, patch.notifyLeadsEmail);
    return user ? ok({ notifyLeadsEmail: user.notifyLeadsEmail }) : err({ type: 'not_found' });
  };
