import type { BotRouteDeps } from './bot-routes.ts';
import { overviewJson } from './bot-routes.ts';
import { conversationDetailJson, conversationSummaryJson, leadJson, notificationJson, pageJson, refusedMessageJson, type OwnerRouteDeps } from './owner-routes.ts';
import { publicBotJson } from './runtime-routes.ts';
import { tokenInfoJson, type TokenRouteDeps } from './token-routes.ts';
import type { makeGetPublicBot } from '../../application/get-bot-config.ts';
import { ownerKeyJson, type OwnerKeyRouteDeps } from './owner-key-routes.ts';

/** The first page of a list, as the pages ask for it. */
const FIRST_PAGE = { limit: 20, cursor: null };
const NOTIFICATIONS = { limit: 10, cursor: null };

/**
 * What the API's GET endpoints answer, for the pages the server renders with their data: the
 * same bodies the browser app would fetch (one mapping, shared with the routes), and null
 * where the API answers 404 (no bot yet, an unknown conversation or bot).
 */
export const pageViews = (d: BotRouteDeps & OwnerRouteDeps & TokenRouteDeps & OwnerKeyRouteDeps & { getPublicBot: ReturnType<typeof makeGetPublicBot> }) => ({
  /** GET /api/bots */
  overview: async (userId: string) => {
    const result = await d.getBotOverview(userId);
    return result.ok ? overviewJson(result.value) : null;
  },
  /** GET /api/notifications?limit=10 */
  notifications: async (userId: string) => {
    const result = await d.listNotifications(userId, NOTIFICATIONS, false);
    return { ...pageJson(result, notificationJson), unreadCount: result.unreadCount };
  },
  /** GET /api/bots/conversations?limit=20 */
  conversations: async (userId: string) => {
    const result = await d.listConversations(userId, FIRST_PAGE);
    return result.ok ? pageJson(result.value, conversationSummaryJson) : null;
  },
  /** GET /api/bots/conversations/{id} */
  conversation: async (userId: string, params: { id?: string }) => {
    const result = await d.getConversation(userId, params.id ?? '');
    return result.ok ? conversationDetailJson(result.value) : null;
  },
  /** GET /api/bots/leads?limit=20 */
  leads: async (userId: string) => {
    const result = await d.listLeads(userId, FIRST_PAGE);
    return result.ok ? pageJson(result.value, leadJson) : null;
  },
  /** GET /api/bots/refused-messages?limit=20 */
  refusedMessages: async (userId: string) => {
    const result = await d.listRefusedMessages(userId, FIRST_PAGE);
    return result.ok ? pageJson(result.value, refusedMessageJson) : null;
  },
  /** GET /api/bots/tokens */
  tokens: async (userId: string) => {
    const result = await d.listBotTokens(userId);
    return result.ok ? { tokens: result.value.map(tokenInfoJson) } : null;
  },
  /** GET /api/account/settings */
  accountSettings: async (userId: string) => {
    const result = await d.getAccountSettings(userId);
    return result.ok ? result.value : null;
  },
  /** GET /api/account/llm-key */
  ownerKey: async (userId: string) => ownerKeyJson(await d.getOwnerKey(userId)),
  /** GET /api/bots/{botId}/public */
  publicBot: async (botId: string) => {
    const result = await d.getPublicBot(botId);
    return result.ok ? publicBotJson(result.value) : null;
  },
  /** The embed page: the public view, and the sites allowed to frame it. */
  embed: async (botId: string) => {
    const result = await d.getPublicBot(botId);
    return result.ok ? { bot: publicBotJson(result.value), embedOrigins: result.value.embedOrigins } : null;
  },
});
