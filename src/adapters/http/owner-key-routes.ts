import { Router } from 'express';
import { z } from 'zod';
import {
  DEFAULT_OWNER_KEY_DAILY_CAP,
  type makeGetOwnerKey,
  type makeRemoveOwnerKey,
  type makeSaveOwnerKey,
  type makeUpdateOwnerKeySettings,
  type OwnerKeyOverview,
} from '../../application/owner-llm-key.ts';
import { LLM_PROVIDERS } from '../../domain/types.ts';
import { ownerKeyErrorReply, reply } from './http-errors.ts';
import { bodyRefusals, errorBody, isoTimestamp, OWNER_RESPONSES, type OperationDoc } from './operation-doc.ts';
import { currentUserId } from './owner-auth.ts';
import { jsonBody } from './validated.ts';

export interface OwnerKeyRouteDeps {
  getOwnerKey: ReturnType<typeof makeGetOwnerKey>;
  saveOwnerKey: ReturnType<typeof makeSaveOwnerKey>;
  removeOwnerKey: ReturnType<typeof makeRemoveOwnerKey>;
  updateOwnerKeySettings: ReturnType<typeof makeUpdateOwnerKeySettings>;
}

const OBJECT_EXPECTED = { error: 'Request body must be a JSON object' };
const KEY_BODY_LIMIT = 16_384;

export const ownerKeyBody = z.object(
  {
    apiKey: z
      .string({ error: 'Expected text' })
      .trim()
      .min(8, { message: 'Must be at least 8 characters' })
      .max(4096, { message: 'Must be at most 4,096 characters' })
      .regex(/^[\x21-\x7e]+$/, { message: 'Must be one line of printable characters, without spaces' }),
    azureEndpoint: z.string({ error: 'Expected text' }).trim().max(2048).optional().meta({ description: 'Azure only: the resource endpoint' }),
  },
  OBJECT_EXPECTED,
);

export const ownerKeySettingsBody = z.object(
  {
    enabled: z.boolean({ error: 'Expected true or false' }).optional(),
    dailyCap: z
      .number({ error: 'Expected a whole number' })
      .int({ message: 'Expected a whole number' })
      .min(1, { message: 'Must be at least 1' })
      .max(100_000, { message: 'Must be at most 100,000' })
      .optional(),
  },
  OBJECT_EXPECTED,
);

/** Never the key: its provider, last four characters and dates, and the usage. */
export const ownerKeyJson = (overview: OwnerKeyOverview) => ({
  key: overview.key && {
    provider: overview.key.provider,
    azureEndpoint: overview.key.azureEndpoint,
    lastFour: overview.key.lastFour,
    checked: overview.key.checked,
    enabled: overview.key.enabled,
    paused: overview.key.pausedAt !== null,
    dailyCap: overview.key.dailyCap,
    createdAt: overview.key.createdAt.toISOString(),
  },
  usage: overview.usage,
});

const ownerKeySchema = z.object({
  key: z
    .object({
      provider: z.enum(LLM_PROVIDERS),
      azureEndpoint: z.string().nullable(),
      lastFour: z.string().max(4).meta({ description: 'The last four characters of the key' }),
      checked: z.boolean().meta({ description: 'false: the provider could not be reached to check the key when it was saved' }),
      enabled: z.boolean().meta({ description: 'Visitors without a key of their own are answered with it' }),
      paused: z.boolean().meta({ description: 'The provider refused the key while answering; saving a working key resumes' }),
      dailyCap: z.number().int().meta({ description: `Messages answered with the key per UTC day (default ${DEFAULT_OWNER_KEY_DAILY_CAP})` }),
      createdAt: isoTimestamp.meta({ description: 'When this key was added' }),
    })
    .nullable()
    .meta({ description: 'null when no key is stored' }),
  usage: z.object({
    today: z.number().int().meta({ description: 'Messages answered with the owner’s key today (UTC)' }),
    last30Days: z.number().int(),
  }),
});

const { unauthorized, forbidden, unsupportedMediaType } = OWNER_RESPONSES;
const TAG = 'Owner’s provider key';

export const ownerKeyOperations: OperationDoc[] = [
  {
    method: 'get',
    path: '/api/account/llm-key',
    tag: TAG,
    summary: 'The stored key’s status and its usage',
    description: 'Never returns the key.',
    security: 'session',
    responses: { 200: { description: 'Status', schema: ownerKeySchema }, 401: unauthorized },
  },
  {
    method: 'post',
    path: '/api/account/llm-key',
    tag: TAG,
    summary: 'Store or replace the owner’s key for the bot’s provider',
    description:
      'One cheap provider call checks the key first: a key the provider refuses is not stored (400). A provider that cannot be reached does not block the save (`checked: false`). The key is stored envelope-encrypted (AES-256-GCM) and never returned. Saving resumes a paused key.',
    security: 'session',
    body: ownerKeyBody,
    responses: {
      200: { description: 'Stored', schema: ownerKeySchema },
      ...bodyRefusals('owner', '16 KiB', {
        description: 'Invalid JSON, validation failed, no provider chosen yet (save the bot first), or a key the provider refused',
        bodies: [
          errorBody('Save your bot first: the key is for its provider'),
          errorBody('The provider refused this key'),
          errorBody('A valid Azure OpenAI endpoint is required (https, on an allowed host)'),
        ],
      }),
      401: unauthorized, 415: unsupportedMediaType,
      403: forbidden,
    },
  },
  {
    method: 'patch',
    path: '/api/account/llm-key',
    tag: TAG,
    summary: 'Switch answering with the key on or off, or set its daily cap',
    security: 'session',
    body: ownerKeySettingsBody,
    responses: {
      200: { description: 'Status', schema: ownerKeySchema },
      ...bodyRefusals('owner', '16 KiB'),
      401: unauthorized, 415: unsupportedMediaType,
      403: forbidden,
      404: { description: 'No key is stored', schema: errorBody('Not found') },
    },
  },
  {
    method: 'delete',
    path: '/api/account/llm-key',
    tag: TAG,
    summary: 'Remove the stored key',
    description: 'Visitors must then bring their own key. Removing twice is fine.',
    security: 'session',
    responses: { 204: { description: 'Removed' }, 401: unauthorized, 415: unsupportedMediaType, 403: forbidden },
  },
];

/** Mounted at /api/account/llm-key behind the session, requireUser and the Origin check. */
export const ownerKeyRoutes = (d: OwnerKeyRouteDeps): Router => {
  const router = Router();

  router.get('/', async (req, res) => {
    res.set('Cache-Control', 'no-store').json(ownerKeyJson(await d.getOwnerKey(currentUserId(req))));
  });

  router.post(
    '/',
    jsonBody({ schema: ownerKeyBody, limit: KEY_BODY_LIMIT, style: 'owner' }, async (req, res, body) => {
      const result = await d.saveOwnerKey(currentUserId(req), body);
      if (!result.ok) return reply(res, ownerKeyErrorReply(result.error));
      res.set('Cache-Control', 'no-store').json(ownerKeyJson(result.value));
    }),
  );

  router.patch(
    '/',
    jsonBody({ schema: ownerKeySettingsBody, limit: KEY_BODY_LIMIT, style: 'owner' }, async (req, res, body) => {
      const result = await d.updateOwnerKeySettings(currentUserId(req), body);
      if (!result.ok) return reply(res, ownerKeyErrorReply(result.error));
      res.set('Cache-Control', 'no-store').json(ownerKeyJson(result.value));
    }),
  );

  router.delete('/', async (req, res) => {
    await d.removeOwnerKey(currentUserId(req));
    res.status(204).end();
  });

  return router;
};
