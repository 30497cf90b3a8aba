import { err, ok, type Result } from '../domain/result.ts';
import type { Bot, BotTokenInfo, Conversation, Lead, Notification, RefusedMessage, StoredMessage, User } from '../domain/types.ts';
import type { AccountArchive, AccountRepository, OwnerKeyRepository } from './ports.ts';

export interface AccountExport {
  user: User;
  retentionDays: number | null;
  bot: Bot | null;
  tokens: BotTokenInfo[];
  /** That the owner stored a provider key, and for which provider: never the key, nor a part of it. */
  ownerKey: { provider: string; addedAt: Date } | null;
  /** Pages of conversations, each with its messages as pages: read as written, never all at once. */
  conversations: AsyncIterable<{ conversation: Conversation; messages: AsyncIterable<StoredMessage[]> }[]>;
  leads: AsyncIterable<Lead[]>;
  notifications: AsyncIterable<Notification[]>;
  /** The messages the filter refused that are still kept (the last 30 days). */
  refusedMessages: AsyncIterable<RefusedMessage[]>;
}

const none = async function* <T>(): AsyncIterable<T[]> {};

async function* withMessages(archive: AccountArchive, pages: AsyncIterable<Conversation[]>) {
  for await (const page of pages) yield page.map((conversation) => ({ conversation, messages: archive.messages(conversation.id) }));
}

/** Everything of the account but its password hash and the tokens' hashes, streamable. */
export const makeExportAccount =
  (d: { archive: AccountArchive; accounts: AccountRepository; ownerKeys: Pick<OwnerKeyRepository, 'status'> }) =>
  async (userId: string): Promise<Result<AccountExport, { type: 'not_found' }>> => {
    const found = await d.archive.account(userId);
    if (!found) return err({ type: 'not_found' });
    const { user, bot } = found;
    return ok({
      user,
      retentionDays: await d.accounts.retentionDays(userId),
      bot,
      tokens: bot ? await d.archive.tokens(bot.id) : [],
      ownerKey: await d.ownerKeys.status(userId).then((key) => (key ? { provider: key.provider, addedAt: key.createdAt } : null)),
      conversations: bot ? withMessages(d.archive, d.archive.conversations(bot.id)) : none(),
      leads: bot ? d.archive.leads(bot.id) : none(),
      notifications: d.archive.notifications(userId),
      refusedMessages: bot ? d.archive.refusedMessages(bot.id) : none(),
    });
  };
