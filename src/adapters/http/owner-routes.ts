import { Router } from 'express';
import { z } from 'zod';
import type {
  makeExportLeads,
  makeGetAccountSettings,
  makeGetConversation,
  makeListConversations,
  makeListLeads,
  makeListNotifications,
  makeListRefusedMessages,
  makeMarkAllNotificationsRead,
  makeMarkNotificationRead,
  makeUpdateAccountSettings,
} from '../../application/owner-lists.ts';
import type { ConversationSummary } from '../../application/ports.ts';
import { BLOCK_REASONS } from '@careerbot/guardrails';
import { NOTIFICATION_KINDS, type Conversation, type Lead, type Notification, type Page, type RefusedMessage, type StoredMessage } from '../../domain/types.ts';
import { writeCsv } from './csv.ts';
import { ownerErrorReply, reply } from './http-errors.ts';
import { bodyRefusals, isoTimestamp, OWNER_RESPONSES, page, uuidString, type OperationDoc } from './operation-doc.ts';
import { currentUserId } from './owner-auth.ts';
import { accountSettingsBody, notificationsQuery, pageQuery } from './schemas.ts';
import { jsonBody, validQuery } from './validated.ts';

export interface OwnerRouteDeps {
  listConversations: ReturnType<typeof makeListConversations>;
  getConversation: ReturnType<typeof makeGetConversation>;
  listLeads: ReturnType<typeof makeListLeads>;
  listRefusedMessages: ReturnType<typeof makeListRefusedMessages>;
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

export const refusedMessageJson = (m: RefusedMessage) => ({ id: m.id, reason: m.reason, content: m.content, createdAt: m.createdAt.toISOString() });

export const conversationSummaryJson = (c: ConversationSummary) => ({ ...conversationJson(c), preview: c.preview });

export const conversationDetailJson = (detail: { conversation: Conversation; messages: StoredMessage[] }) => ({
  conversation: conversationJson(detail.conversation),
  messages: detail.messages.map((m) => ({ role: m.role, content: m.content, createdAt: m.createdAt.toISOString() })),
});

export const pageJson = <T, J>(page: Page<T>, toJson: (item: T) => J) => ({ items: page.items.map(toJson), nextCursor: page.nextCursor });

export const conversationFields = {
  id: uuidString,
  sessionId: uuidString,
  messageCount: z.number().int(),
  startedAt: isoTimestamp,
  lastMessageAt: isoTimestamp,
};
export const leadSchema = z.object({
  id: uuidString,
  email: z.email(),
  capturedAt: isoTimestamp,
  conversationId: uuidString.nullable(),
  contextSummary: z.string().nullable(),
});
export const notificationSchema = z.object({
  id: uuidString,
  kind: z.enum(NOTIFICATION_KINDS),
  payload: z.record(z.string(), z.unknown()),
  createdAt: isoTimestamp,
  readAt: isoTimestamp.nullable(),
});
export const refusedMessageSchema = z.object({
  id: uuidString,
  reason: z.enum(BLOCK_REASONS).meta({ description: 'The filter’s reason, as chat’s `blocked` answer named it' }),
  content: z.string().meta({ description: 'The visitor’s message as they sent it (at most 8,000 characters): text, never markup' }),
  createdAt: isoTimestamp,
});
const accountSettingsSchema = z.object({ notifyLeadsEmail: z.boolean() });

const { unauthorized, forbidden, unsupportedMediaType, botNotFound, notFound, botOrIdNotFound, queryInvalid } = OWNER_RESPONSES;

export const ownerOperations: OperationDoc[] = [
  {
    method: 'get',
    path: '/api/bots/conversations',
    tag: 'Dashboard',
    summary: 'List conversations, newest first',
    security: 'session',
    query: pageQuery,
    responses: {
      200: { description: 'One page', schema: page(z.object({ ...conversationFields, preview: z.string() })) },
      400: queryInvalid,
      401: unauthorized,
      404: botNotFound,
    },
  },
  {
    method: 'get',
    path: '/api/bots/conversations/{id}',
    tag: 'Dashboard',
    summary: 'One transcript',
    security: 'session',
    responses: {
      200: {
        description: 'The conversation and its messages, oldest first',
        schema: z.object({
          conversation: z.object(conversationFields),
          messages: z.array(z.object({ role: z.enum(['user', 'assistant']), content: z.string(), createdAt: isoTimestamp })),
        }),
      },
      401: unauthorized,
      404: botOrIdNotFound,
    },
  },
  {
    method: 'get',
    path: '/api/bots/leads',
    tag: 'Dashboard',
    summary: 'List leads, newest first',
    security: 'session',
    query: pageQuery,
    responses: { 200: { description: 'One page', schema: page(leadSchema) }, 400: queryInvalid, 401: unauthorized, 404: botNotFound },
  },
  {
    method: 'get',
    path: '/api/bots/refused-messages',
    tag: 'Dashboard',
    summary: 'List the messages the filter refused, newest first',
    description:
      'Each chat message answered `400 blocked` is kept for 30 days with the reason and the time, so the owner can see whether a recruiter was refused; the retention job deletes older ones. The counts by reason are in `GET /api/bots/insights`.',
    security: 'session',
    query: pageQuery,
    responses: { 200: { description: 'One page', schema: page(refusedMessageSchema) }, 400: queryInvalid, 401: unauthorized, 404: botNotFound },
  },
  {
    method: 'get',
    path: '/api/bots/leads.csv',
    tag: 'Dashboard',
    summary: 'Export every lead as CSV',
    description:
      'RFC 4180, UTF-8 with a byte-order mark, CRLF line ends, header `id,email,capturedAt,conversationId,contextSummary`. A cell starting with = + - @, tab or carriage return is prefixed with a single quote.',
    security: 'session',
    responses: {
      200: { description: 'The CSV file', contentType: 'text/csv; charset=utf-8', schema: z.string() },
      401: unauthorized,
      404: botNotFound,
    },
  },
  {
    method: 'get',
    path: '/api/notifications',
    tag: 'Dashboard',
    summary: 'List notifications, newest first',
    description: '`unreadCount` counts all the user’s unread notifications, whatever the page.',
    security: 'session',
    query: notificationsQuery,
    responses: {
      200: { description: 'One page', schema: page(notificationSchema).extend({ unreadCount: z.number().int() }) },
      400: queryInvalid,
      401: unauthorized,
    },
  },
  {
    method: 'post',
    path: '/api/notifications/{id}/read',
    tag: 'Dashboard',
    summary: 'Mark one notification read',
    security: 'session',
    responses: {
      200: { description: 'Marked (again is fine)', schema: z.object({ unreadCount: z.number().int() }) },
      401: unauthorized,
      403: forbidden,
      415: unsupportedMediaType,
      404: notFound,
    },
  },
  {
    method: 'post',
    path: '/api/notifications/read-all',
    tag: 'Dashboard',
    summary: 'Mark every notification read',
    security: 'session',
    responses: {
      200: { description: 'How many changed', schema: z.object({ updated: z.number().int(), unreadCount: z.literal(0) }) },
      401: unauthorized,
      403: forbidden,
      415: unsupportedMediaType,
    },
  },
  {
    method: 'get',
    path: '/api/account/settings',
    tag: 'Dashboard',
    summary: 'Account settings',
    security: 'session',
    responses: { 200: { description: 'Settings', schema: accountSettingsSchema }, 401: unauthorized },
  },
  {
    method: 'patch',
    path: '/api/account/settings',
    tag: 'Dashboard',
    summary: 'Change account settings',
    description: '`notifyLeadsEmail`: e-mail the account address when a new lead is captured (best effort).',
    security: 'session',
    body: accountSettingsBody,
    responses: {
      200: { description: 'Settings', schema: accountSettingsSchema },
      ...bodyRefusals('owner', '16 KiB'),
      401: unauthorized,
      403: forbidden,
      415: unsupportedMediaType,
    },
  },
];


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

  router.get(
    '/refused-messages',
    validQuery(pageQuery, async (req, res, page) => {
      const result = await d.listRefusedMessages(currentUserId(req), page);
      if (!result.ok) return reply(res, ownerErrorReply(result.error));
      res.json(pageJson(result.value, refusedMessageJson));
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
