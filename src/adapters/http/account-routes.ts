import type { Request, Response } from 'express';
import { Router } from 'express';
import { z } from 'zod';
import type { makeChangePassword, makeConfirmEmailChange, makeRequestEmailChange } from '../../application/account-changes.ts';
import type { makeRequestPasswordReset, makeResetPassword } from '../../application/account-recovery.ts';
import type { ListedSession, makeListSessions, makeRevokeOtherSessions, makeRevokeSession } from '../../application/account-sessions.ts';
import type { makeGetRetention, makeSetRetention } from '../../application/conversation-retention.ts';
import type { makeDeleteAccount } from '../../application/delete-account.ts';
import type { AccountExport, makeExportAccount } from '../../application/export-account.ts';
import type { Bot } from '../../domain/types.ts';
import { ownOrigin } from '../own-origin.ts';
import {
  changeEmailBody,
  changePasswordBody,
  confirmEmailBody,
  deleteAccountBody,
  forgotPasswordBody,
  resetPasswordBody,
  retentionBody,
} from './account-schemas.ts';
import { botJson, botSchema } from './bot-routes.ts';
import { promisify } from './auth-routes.ts';
import { writable } from './csv.ts';
import { ACCOUNT_ERROR_BODIES, accountErrorReply, reply } from './http-errors.ts';
import { bodyRefusals, errorBody, errorOneOf, HEADERS, isoTimestamp, OWNER_RESPONSES, uuidString, type OperationDoc } from './operation-doc.ts';
import { currentUserId } from './owner-auth.ts';
import { conversationFields, conversationJson, leadJson, leadSchema, notificationJson, notificationSchema, refusedMessageJson, refusedMessageSchema } from './owner-routes.ts';
import { tokenInfoJson, tokenInfoSchema } from './token-routes.ts';
import { jsonBody } from './validated.ts';

export interface AccountRouteDeps {
  requestPasswordReset: ReturnType<typeof makeRequestPasswordReset>;
  resetPassword: ReturnType<typeof makeResetPassword>;
  confirmEmailChange: ReturnType<typeof makeConfirmEmailChange>;
  changePassword: ReturnType<typeof makeChangePassword>;
  requestEmailChange: ReturnType<typeof makeRequestEmailChange>;
  listSessions: ReturnType<typeof makeListSessions>;
  revokeSession: ReturnType<typeof makeRevokeSession>;
  revokeOtherSessions: ReturnType<typeof makeRevokeOtherSessions>;
  exportAccount: ReturnType<typeof makeExportAccount>;
  deleteAccount: ReturnType<typeof makeDeleteAccount>;
  getRetention: ReturnType<typeof makeGetRetention>;
  setRetention: ReturnType<typeof makeSetRetention>;
}

/** What the routes need of the web setup: the links' origin and the session cookie. */
export interface AccountWeb {
  publicUrl: string | undefined;
  sessionCookieName: string;
  secureCookies: boolean;
}

const BODY_LIMIT = 16 * 1024;
const body = <S extends z.ZodType>(schema: S) => ({ schema, limit: BODY_LIMIT, style: 'owner' as const });

/** The one answer to every accepted reset request, whether or not an account matched. */
export const FORGOT_PASSWORD_ANSWER = 'If an account matches, an e-mail with a link to reset its password is on its way. The link works once, for 30 minutes.';

const { unauthorized, forbidden, notFound, unsupportedMediaType } = OWNER_RESPONSES;
const wrongPassword = { description: 'Wrong current password, or a validation failure', bodies: [errorBody(ACCOUNT_ERROR_BODIES.wrongPassword)] };

const sessionSchema = z.object({
  id: z.string().regex(/^[0-9a-f]{32}$/).meta({ description: 'Names the session in this list only; not the cookie' }),
  current: z.boolean().meta({ description: 'The session making this request' }),
  createdAt: isoTimestamp.nullable().meta({ description: 'Sign-in time; null for sessions from before it was recorded' }),
  lastSeenAt: isoTimestamp,
  browser: z.string().meta({ description: 'From the User-Agent, e.g. "Firefox on Linux"' }),
  userAgent: z.string().nullable(),
  address: z.string().nullable().meta({ description: 'The client address at sign-in' }),
});

const exportBotSchema = botSchema.extend({
  themeColor: z.string(),
  deploymentMode: z.string(),
  rateLimits: z.object({ perMinute: z.number().int().nullable(), perDay: z.number().int().nullable() }),
  embedOrigins: z.array(z.string()),
});

const exportSchema = z.strictObject({
  exportedAt: isoTimestamp,
  account: z.strictObject({
    id: uuidString,
    username: z.string(),
    email: z.email(),
    llmProvider: z.string().nullable(),
    llmModel: z.string().nullable(),
    notifyLeadsEmail: z.boolean(),
    conversationRetentionDays: z.number().int().nullable(),
    createdAt: isoTimestamp,
  }),
  bot: exportBotSchema.nullable(),
  tokens: z.array(tokenInfoSchema).meta({ description: 'Metadata only: never a token nor its hash' }),
  ownerKey: z
    .object({ provider: z.string(), addedAt: isoTimestamp })
    .nullable()
    .meta({ description: "That a provider key of the owner's is stored, and for which provider: never the key nor any part of it" }),
  conversations: z.array(
    z.object({ ...conversationFields, messages: z.array(z.object({ role: z.enum(['user', 'assistant']), content: z.string(), createdAt: isoTimestamp })) }),
  ),
  leads: z.array(leadSchema),
  notifications: z.array(notificationSchema),
  refusedMessages: z.array(refusedMessageSchema).meta({ description: 'The messages the filter refused in the last 30 days' }),
});

const retentionSchema = z.object({ days: z.number().int().nullable() });

export const accountOperations: OperationDoc[] = [
  {
    method: 'post',
    path: '/api/auth/forgot-password',
    tag: 'Accounts',
    summary: 'Ask for a password reset link',
    description:
      'Always the same answer, whether or not an account has that e-mail address or username: when one does, an e-mail with a single-use link to `/reset-password` (valid 30 minutes) leaves after the answer. At most 3 e-mails per account (or per unknown name) and 20 requests per client address in 15 minutes; past the account limit the answer is the same and no e-mail leaves.',
    security: 'none',
    body: forgotPasswordBody,
    responses: {
      202: { description: 'Accepted (always, below the address limit)', schema: z.object({ message: z.literal(FORGOT_PASSWORD_ANSWER) }) },
      ...bodyRefusals('owner', '16 KiB'),
      403: forbidden,
      429: { description: 'Too many requests from this client address', headers: HEADERS.retryAfter, schema: errorBody('TooManyRequests') },
    },
  },
  {
    method: 'post',
    path: '/api/auth/reset-password',
    tag: 'Accounts',
    summary: 'Set a new password with a reset link',
    description: 'Spends the link (it works once, within 30 minutes of being sent) and signs the account out everywhere. Not signed in afterwards.',
    security: 'none',
    body: resetPasswordBody,
    responses: {
      200: { description: 'Password changed', schema: z.object({ reset: z.literal(true) }) },
      ...bodyRefusals('owner', '16 KiB', { description: 'Invalid, used or expired link, or a validation failure', bodies: [errorBody(ACCOUNT_ERROR_BODIES.invalidLink)] }),
      403: forbidden,
    },
  },
  {
    method: 'post',
    path: '/api/auth/confirm-email',
    tag: 'Accounts',
    summary: 'Confirm a new e-mail address with the link sent to it',
    description: 'The address changes now; every session of the account but this request’s is signed out. The link works once, within 30 minutes.',
    security: 'none',
    body: confirmEmailBody,
    responses: {
      200: { description: 'Address changed', schema: z.object({ email: z.email() }) },
      ...bodyRefusals('owner', '16 KiB', { description: 'Invalid, used or expired link', bodies: [errorBody(ACCOUNT_ERROR_BODIES.invalidLink)] }),
      403: forbidden,
      409: { description: 'Another account took the address meanwhile', schema: errorBody('A user with this email already exists') },
    },
  },
  {
    method: 'post',
    path: '/api/account/password',
    tag: 'Account',
    summary: 'Change the password',
    description: 'The current password is required. Every other session of the account is signed out; this one stays.',
    security: 'session',
    body: changePasswordBody,
    responses: {
      200: { description: 'Changed', schema: z.object({ signedOut: z.number().int().meta({ description: 'Other sessions signed out' }) }) },
      ...bodyRefusals('owner', '16 KiB', wrongPassword),
      401: unauthorized, 415: unsupportedMediaType,
      403: forbidden,
    },
  },
  {
    method: 'post',
    path: '/api/account/email',
    tag: 'Account',
    summary: 'Change the e-mail address',
    description:
      'The current password is required. A confirmation link (single use, 30 minutes) goes to the new address and a notice to the old one; the address changes only when the link is used (`POST /api/auth/confirm-email`).',
    security: 'session',
    body: changeEmailBody,
    responses: {
      202: { description: 'Confirmation sent', schema: z.object({ pending: z.email() }) },
      ...bodyRefusals('owner', '16 KiB', {
        description: 'Wrong password, the same address, or a validation failure',
        bodies: [errorOneOf([ACCOUNT_ERROR_BODIES.wrongPassword, ACCOUNT_ERROR_BODIES.sameEmail])],
      }),
      401: unauthorized, 415: unsupportedMediaType,
      403: forbidden,
      409: { description: 'Another account has that address', schema: errorBody('A user with this email already exists') },
    },
  },
  {
    method: 'get',
    path: '/api/account/sessions',
    tag: 'Account',
    summary: 'Where the owner is signed in',
    security: 'session',
    responses: { 200: { description: 'Latest seen first', schema: z.object({ items: z.array(sessionSchema) }) }, 401: unauthorized },
  },
  {
    method: 'delete',
    path: '/api/account/sessions/{id}',
    tag: 'Account',
    summary: 'Sign one session out',
    security: 'session',
    responses: { 204: { description: 'Signed out' }, 401: unauthorized, 415: unsupportedMediaType, 403: forbidden, 404: notFound },
  },
  {
    method: 'post',
    path: '/api/account/sessions/revoke-others',
    tag: 'Account',
    summary: 'Sign out everywhere else',
    security: 'session',
    responses: { 200: { description: 'Signed out', schema: z.object({ signedOut: z.number().int() }) }, 401: unauthorized, 415: unsupportedMediaType, 403: forbidden },
  },
  {
    method: 'get',
    path: '/api/account/export',
    tag: 'Account',
    summary: 'Download my data',
    description:
      'One JSON file, streamed (any number of messages, in constant memory): the account, the bot, the tokens’ metadata, every conversation with its messages, every lead, the notifications, the messages the filter refused (kept 30 days). No password hash, no token and no token hash.',
    security: 'session',
    responses: {
      200: { description: 'The file (Content-Disposition: attachment)', schema: exportSchema },
      401: unauthorized,
    },
  },
  {
    method: 'post',
    path: '/api/account/delete',
    tag: 'Account',
    summary: 'Delete the account and everything of it',
    description:
      'Confirmed with the password and the username typed out. In one transaction: the account, the bot, its conversations, messages, leads, tokens, embeddings, the notifications, every session and the throttle and rate-limit rows. The bot answers as unknown from then on; the username and e-mail are free again.',
    security: 'session',
    body: deleteAccountBody,
    responses: {
      200: { description: 'Deleted; the session cookie is cleared', schema: z.object({ deleted: z.literal(true) }) },
      ...bodyRefusals('owner', '16 KiB', {
        description: 'Wrong password, the username not typed out, or a validation failure',
        bodies: [errorOneOf([ACCOUNT_ERROR_BODIES.wrongPassword, ACCOUNT_ERROR_BODIES.usernameMismatch])],
      }),
      401: unauthorized, 415: unsupportedMediaType,
      403: forbidden,
    },
  },
  {
    method: 'get',
    path: '/api/account/retention',
    tag: 'Account',
    summary: 'Conversation retention',
    security: 'session',
    responses: { 200: { description: 'Days, or null for never', schema: retentionSchema }, 401: unauthorized },
  },
  {
    method: 'patch',
    path: '/api/account/retention',
    tag: 'Account',
    summary: 'Set conversation retention',
    description: 'A scheduled job deletes, in batches, the conversations whose last message is older. The bot’s counters keep their totals.',
    security: 'session',
    body: retentionBody,
    responses: { 200: { description: 'Saved', schema: retentionSchema }, ...bodyRefusals('owner', '16 KiB'), 401: unauthorized, 415: unsupportedMediaType, 403: forbidden },
  },
];

const sessionJson = (s: ListedSession) => ({
  id: s.id,
  current: s.current,
  createdAt: s.createdAt?.toISOString() ?? null,
  lastSeenAt: s.lastSeenAt.toISOString(),
  browser: s.browser,
  userAgent: s.userAgent,
  address: s.address,
});

const exportBotJson = (bot: Bot) => ({ ...botJson(bot), themeColor: bot.themeColor, deploymentMode: bot.deploymentMode, rateLimits: bot.rateLimits, embedOrigins: bot.embedOrigins });

/** Writes with the socket's pace: a slow reader holds the export, it never piles up in memory. */
const streamWriter = (res: Response) => async (chunk: string) => {
  if (res.destroyed) throw new Error('export reader went away');
  if (!res.write(chunk)) await writable(res);
};

/** The JSON array of `pages`, each item serialized by `write`, with commas between. */
const writeArray = async <T>(write: (chunk: string) => Promise<void>, pages: AsyncIterable<T[]>, item: (value: T, write: (chunk: string) => Promise<void>) => Promise<void>) => {
  await write('[');
  let first = true;
  for await (const page of pages) {
    for (const value of page) {
      if (!first) await write(',');
      first = false;
      await item(value, write);
    }
  }
  await write(']');
};

const writeExport = async (res: Response, data: AccountExport, now: Date) => {
  const write = streamWriter(res);
  const account = {
    id: data.user.id,
    username: data.user.username,
    email: data.user.email,
    llmProvider: data.user.llmProvider,
    llmModel: data.user.llmModel,
    notifyLeadsEmail: data.user.notifyLeadsEmail,
    conversationRetentionDays: data.retentionDays,
    createdAt: data.user.createdAt.toISOString(),
  };
  await write(`{"exportedAt":${JSON.stringify(now.toISOString())},"account":${JSON.stringify(account)}`);
  await write(`,"bot":${JSON.stringify(data.bot ? exportBotJson(data.bot) : null)},"tokens":${JSON.stringify(data.tokens.map(tokenInfoJson))}`);
  const ownerKey = data.ownerKey && { provider: data.ownerKey.provider, addedAt: data.ownerKey.addedAt.toISOString() };
  await write(`,"ownerKey":${JSON.stringify(ownerKey)}`);
  await write(',"conversations":');
  await writeArray(write, data.conversations, async ({ conversation, messages }, out) => {
    await out(`${JSON.stringify(conversationJson(conversation)).slice(0, -1)},"messages":`);
    await writeArray(out, messages, (m, o) => o(JSON.stringify({ role: m.role, content: m.content, createdAt: m.createdAt.toISOString() })));
    await out('}');
  });
  await write(',"leads":');
  await writeArray(write, data.leads, (lead, out) => out(JSON.stringify(leadJson(lead))));
  await write(',"notifications":');
  await writeArray(write, data.notifications, (n, out) => out(JSON.stringify(notificationJson(n))));
  await write(',"refusedMessages":');
  await writeArray(write, data.refusedMessages, (m, out) => out(JSON.stringify(refusedMessageJson(m))));
  await write('}');
};

/** Reached from a link in an e-mail, signed in or not: under /api/auth. */
export const accountLinkRoutes = (d: AccountRouteDeps, web: AccountWeb): Router => {
  const router = Router();

  router.post(
    '/forgot-password',
    jsonBody(body(forgotPasswordBody), async (req, res, input) => {
      const result = await d.requestPasswordReset({ identifier: input.identifier, clientAddress: req.ip ?? 'unknown', origin: ownOrigin(req, web.publicUrl) });
      if (!result.ok) return reply(res, accountErrorReply(result.error));
      res.status(202).json({ message: FORGOT_PASSWORD_ANSWER });
    }),
  );

  router.post(
    '/reset-password',
    jsonBody(body(resetPasswordBody), async (_req, res, input) => {
      const result = await d.resetPassword(input);
      if (!result.ok) return reply(res, accountErrorReply(result.error));
      res.json({ reset: true });
    }),
  );

  router.post(
    '/confirm-email',
    jsonBody(body(confirmEmailBody), async (req, res, input) => {
      const result = await d.confirmEmailChange({ token: input.token, currentSid: req.session?.userId ? req.sessionID : null });
      if (!result.ok) return reply(res, accountErrorReply(result.error));
      if (req.session?.userId === result.value.userId) req.session.email = result.value.email;
      res.json({ email: result.value.email });
    }),
  );

  return router;
};

/** The signed-in owner's own account: under /api/account, behind requireUser and the origin check. */
export const accountManagementRoutes = (d: AccountRouteDeps, web: AccountWeb): Router => {
  const router = Router();

  router.post(
    '/password',
    jsonBody(body(changePasswordBody), async (req, res, input) => {
      const result = await d.changePassword({ userId: currentUserId(req), currentSid: req.sessionID, ...input });
      if (!result.ok) return reply(res, accountErrorReply(result.error));
      res.json(result.value);
    }),
  );

  router.post(
    '/email',
    jsonBody(body(changeEmailBody), async (req, res, input) => {
      const result = await d.requestEmailChange({ userId: currentUserId(req), password: input.password, newEmail: input.newEmail, origin: ownOrigin(req, web.publicUrl) });
      if (!result.ok) return reply(res, accountErrorReply(result.error));
      res.status(202).json(result.value);
    }),
  );

  router.get('/sessions', async (req, res) => {
    res.set('Cache-Control', 'no-store').json({ items: (await d.listSessions(currentUserId(req), req.sessionID)).map(sessionJson) });
  });

  router.post('/sessions/revoke-others', async (req, res) => {
    res.json(await d.revokeOtherSessions(currentUserId(req), req.sessionID));
  });

  router.delete('/sessions/:id', async (req: Request<{ id: string }>, res) => {
    const result = await d.revokeSession(currentUserId(req), req.params.id);
    if (!result.ok) return reply(res, accountErrorReply(result.error));
    res.status(204).end();
  });

  router.get('/export', async (req, res) => {
    const result = await d.exportAccount(currentUserId(req));
    if (!result.ok) return reply(res, accountErrorReply(result.error));
    const now = new Date();
    res.set({
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Disposition': `attachment; filename="careerbot-export-${now.toISOString().slice(0, 10)}.json"`,
      'Cache-Control': 'no-store',
    });
    try {
      await writeExport(res, result.value, now);
    } catch (error) {
      // The reader went away: stop reading pages, nothing to answer.
      if (res.destroyed) return;
      throw error;
    }
    res.end();
  });

  router.post(
    '/delete',
    jsonBody(body(deleteAccountBody), async (req, res, input) => {
      const result = await d.deleteAccount({ userId: currentUserId(req), ...input });
      if (!result.ok) return reply(res, accountErrorReply(result.error));
      await promisify((done) => req.session.destroy(done));
      res.clearCookie(web.sessionCookieName, { path: '/', httpOnly: true, sameSite: 'lax', secure: web.secureCookies });
      res.json({ deleted: true });
    }),
  );

  router.get('/retention', async (req, res) => {
    res.json(await d.getRetention(currentUserId(req)));
  });

  router.patch(
    '/retention',
    jsonBody(body(retentionBody), async (req, res, input) => {
      res.json(await d.setRetention(currentUserId(req), input.days));
    }),
  );

  return router;
};
