import { Router } from 'express';
import type {
  makeExportLeads,
  makeGetAccountSettings,
  makeGetConversation,
  makeListConversations,
  makeListLeads,
  makeListNotifications,
  makeMarkAllNotificationsRead,
  makeMarkNotificationRead,
  makeUpdateAccountSettings,
} from '../../application/owner-lists.ts';
import type { ConversationSummary } from '../../application/ports.ts';
import type { Conversation, Lead, Notification, Page, StoredMessage } from '../../domain/types.ts';
import { writeCsv } from './csv.ts';
import { ownerErrorReply, reply } from './http-errors.ts';
import { currentUserId } from './owner-auth.ts';
import { accountSettingsBody, notificationsQuery, pageQuery } from './schemas.ts';
import { jsonBody, validQuery } from './validated.ts';

export interface OwnerRouteDeps {
  listConversations: ReturnType<typeof makeListConversations>;
  getConversation: ReturnType<typeof makeGetConversation>;
  listLeads: ReturnType<typeof makeListLeads>;
  exportLeads: ReturnType<typeof makeExportLeads>;
  listNotifications: ReturnType<typeof makeListNotifications>;
  markNotificationRead: ReturnType<typeof makeMarkNotificationRead>;
  markAllNotificationsRead: ReturnType<typeof makeMarkAllNotificationsRead>;
  getAccountSettings: ReturnType<typeof makeGetAccountSettings>;
  updateAccountSettings: ReturnType<typeof makeUpdateAccountSettings>;
}

const LEAD_CSV_HEADER = ['id', 'email', 'capturedAt', 'conversationId', 'contextSummary'];

const leadCsvRow = (lead: Lead) => {
  const json = leadJson(lead);
  return [json.id, json.email, json.capturedAt, json.conversationId, json.contextSummary];
};

async function* mapPages<T, U>(pages: AsyncIterable<T[]>, map: (item: T) => U): AsyncIterable<U[]> {
  for await (const page of pages) yield page.map(map);
}

export const conversationJson = (c: Conversation) => ({
  id: c.id,
  sessionId: c.sessionId,
  messageCount: c.messageCount,
  startedAt: c.startedAt.toISOString(),
  lastMessageAt: c.lastMessageAt.toISOString(),
});

export const leadJson = (lead: Lead) => ({
  id: lead.id,
  email: lead.email,
  capturedAt: lead.capturedAt.toISOString(),
  conversationId: lead.conversationId,
  contextSummary: lead.contextSummary,
});

export const notificationJson = (n: Notification) => ({
  id: n.id,
  kind: n.kind,
  payload: n.payload,
  createdAt: n.createdAt.toISOString(),
  readAt: n.readAt?.toISOString() ?? null,
});

export const conversationSummaryJson = (c: ConversationSummary) => ({ ...conversationJson(c), preview: c.preview });

export const conversationDetailJson = (detail: { conversation: Conversation; messages: StoredMessage[] }) => ({
  conversation: conversationJson(detail.conversation),
  messages: detail.messages.map((m) => ({ role: m.role, content: m.content, createdAt: m.createdAt.toISOString() })),
});

export const pageJson = <T, J>(page: Page<T>, toJson: (item: T) => J) => ({ items: page.items.map(toJson), nextCursor: page.nextCursor });

/** The dashboard's bot-scoped lists, mounted at /api/bots behind requireUser and the Origin check. */
export const botListRoutes = (d: OwnerRouteDeps): Router => {
  const router = Router();

  router.get(
    '/conversations',
    validQuery(pageQuery, async (req, res, page) => {
      const result = await d.listConversations(currentUserId(req), page);
      if (!result.ok) return reply(res, ownerErrorReply(result.error));
      res.json(pageJson(result.value, conversationSummaryJson));
    }),
  );

  router.get('/conversations/:id', async (req, res) => {
    const result = await d.getConversation(currentUserId(req), String(req.params.id));
    if (!result.ok) return reply(res, ownerErrorReply(result.error));
    res.json(conversationDetailJson(result.value));
  });

  router.get(
    '/leads',
    validQuery(pageQuery, async (req, res, page) => {
      const result = await d.listLeads(currentUserId(req), page);
      if (!result.ok) return reply(res, ownerErrorReply(result.error));
      res.json(pageJson(result.value, leadJson));
    }),
  );

  router.get('/leads.csv', async (req, res) => {
    const result = await d.exportLeads(currentUserId(req));
    if (!result.ok) return reply(res, ownerErrorReply(result.error));
    res.set({
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': 'attachment; filename="leads.csv"',
      'Cache-Control': 'no-store',
    });
    // Streamed a page at a time, waiting for the client to take each: a large export is
    // never held whole in memory. A failure past the first byte ends the connection.
    await writeCsv(res, LEAD_CSV_HEADER, mapPages(result.value, leadCsvRow));
  });

  return router;
};

/** Mounted at /api/notifications behind requireUser and the Origin check. */
export const notificationRoutes = (d: OwnerRouteDeps): Router => {
  const router = Router();

  router.get(
    '/',
    validQuery(notificationsQuery, async (req, res, { unread, ...page }) => {
      const result = await d.listNotifications(currentUserId(req), page, unread);
      res.json({ ...pageJson(result, notificationJson), unreadCount: result.unreadCount });
    }),
  );

  router.post('/read-all', async (req, res) => {
    res.json(await d.markAllNotificationsRead(currentUserId(req)));
  });

  router.post('/:id/read', async (req, res) => {
    const result = await d.markNotificationRead(currentUserId(req), String(req.params.id));
    if (!result.ok) return reply(res, ownerErrorReply(result.error));
    res.json(result.value);
  });

  return router;
};

/** Mounted at /api/account behind requireUser and the Origin check. */
export const accountRoutes = (d: OwnerRouteDeps): Router => {
  const router = Router();

  router.get('/settings', async (req, res) => {
    const result = await d.getAccountSettings(currentUserId(req));
    if (!result.ok) return reply(res, ownerErrorReply(result.error));
    res.json(result.value);
  });

  router.patch(
    '/settings',
    jsonBody({ schema: accountSettingsBody, limit: 16 * 1024, style: 'owner' }, async (req, res, body) => {
      const result = await d.updateAccountSettings(currentUserId(req), body);
      if (!result.ok) return reply(res, ownerErrorReply(result.error));
      res.json(result.value);
    }),
  );

  return router;
};
