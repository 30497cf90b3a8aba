import { Router } from 'express';
import { z } from 'zod';
import { PHOTO_MAX_BYTES, type makeGetBotPhoto, type makeRemoveBotPhoto, type makeSetBotPhoto } from '../../application/bot-photo.ts';
import { isUuid } from '../../domain/pagination.ts';
import { avatarErrorReply, ownerErrorReply, PHOTO_ERRORS, photoErrorReply, photoTooLargeReply, reply } from './http-errors.ts';
import { errorBody, HEADERS, OWNER_RESPONSES, type OperationDoc } from './operation-doc.ts';
import { currentUserId } from './owner-auth.ts';
import { readRawBody } from './request-body.ts';
import { avatarPath } from './avatar-path.ts';
import { matchesEtag } from './runtime-routes.ts';

export interface PhotoRouteDeps {
  setBotPhoto: ReturnType<typeof makeSetBotPhoto>;
  removeBotPhoto: ReturnType<typeof makeRemoveBotPhoto>;
  getBotPhoto: ReturnType<typeof makeGetBotPhoto>;
}

const photoSetSchema = z.object({ image: z.string().meta({ description: 'The avatar’s new URL path, as the config view’s `image` now says' }) });
const photoErrors = (...messages: string[]) => z.object({ error: z.enum(messages as [string, ...string[]]) });
const TAG = 'Owner';

export const photoOperations: OperationDoc[] = [
  {
    method: 'post',
    path: '/api/bots/avatar',
    tag: TAG,
    summary: 'Make a photo the bot’s avatar',
    description:
      'The body is the image itself (PNG, JPEG or WebP, at most 5 MB). It is decoded and re-encoded with sharp: cropped around its centre to a square of at most 512 px, as WebP, without its metadata (EXIF GPS position, camera). The upload itself is not kept.',
    security: 'session',
    bodyContentTypes: ['image/png', 'image/jpeg', 'image/webp', 'application/octet-stream'],
    responses: {
      200: { description: 'The avatar is the photo', schema: photoSetSchema },
      401: OWNER_RESPONSES.unauthorized,
      403: OWNER_RESPONSES.forbidden,
      404: OWNER_RESPONSES.botNotFound,
      413: { description: 'Over 5 MB', schema: errorBody(PHOTO_ERRORS.tooLarge) },
      415: { description: 'An image of another type (GIF, SVG, TIFF…)', schema: errorBody(PHOTO_ERRORS.unsupportedType) },
      422: { description: 'Not a readable image, or a decompression bomb (over 50 million pixels)', schema: photoErrors(PHOTO_ERRORS.notAnImage, PHOTO_ERRORS.tooManyPixels) },
    },
  },
  {
    method: 'delete',
    path: '/api/bots/avatar',
    tag: TAG,
    summary: 'Remove the photo: the initials come back',
    security: 'session',
    responses: { 204: { description: 'Removed (also when there was none)' }, 401: OWNER_RESPONSES.unauthorized, 403: OWNER_RESPONSES.forbidden, 404: OWNER_RESPONSES.botNotFound },
  },
  {
    method: 'get',
    path: '/api/avatars/{botId}/{file}',
    tag: 'Runtime API (v1)',
    summary: 'The owner’s photo as the bot’s avatar (public)',
    description: '`file` is `<sha256>.webp`, as in the config view’s `image`: the URL changes with the photo, so it is cached for a year. No authentication; CORS: any origin.',
    security: 'none',
    responses: {
      200: { description: 'The photo, WebP, at most 512 px square', contentType: 'image/webp', schema: z.string(), headers: HEADERS.etag },
      304: { description: 'Not modified (If-None-Match matched)', headers: HEADERS.etag },
      404: { description: 'Unknown or inactive bot, or not its current photo', schema: errorBody('not_found') },
    },
  },
];

const PHOTO_FILE = /^([0-9a-f]{64})\.webp$/;

/** Mounted at /api/bots/avatar behind the session, requireUser and the Origin check (its body is an image, not JSON). */
export const ownerPhotoRoutes = (d: PhotoRouteDeps): Router => {
  const router = Router();
  router.post('/', async (req, res) => {
    const body = await readRawBody(req, PHOTO_MAX_BYTES);
    if (body.kind === 'too_large') return reply(res, photoTooLargeReply);
    const result = await d.setBotPhoto(currentUserId(req), new Uint8Array(body.raw));
    if (!result.ok) return reply(res, photoErrorReply(result.error));
    res.set('Cache-Control', 'no-store').json({ image: avatarPath(result.value.botId, result.value.photoHash) });
  });
  router.delete('/', async (req, res) => {
    const result = await d.removeBotPhoto(currentUserId(req));
    if (!result.ok) return reply(res, ownerErrorReply(result.error));
    res.status(204).end();
  });
  return router;
};

/** Mounted at /api/avatars behind publicCors: a photo never changes under its URL. */
export const publicPhotoRoutes = (d: Pick<PhotoRouteDeps, 'getBotPhoto'>): Router => {
  const router = Router();
  router.get('/:botId/:file', async (req, res) => {
    const botId = String(req.params.botId);
    const sha256 = PHOTO_FILE.exec(String(req.params.file))?.[1];
    if (!sha256 || !isUuid(botId)) return reply(res, avatarErrorReply({ type: 'not_found' }));
    const result = await d.getBotPhoto(botId, sha256);
    if (!result.ok) return reply(res, avatarErrorReply(result.error));
    const etag = `"${sha256}"`;
    res.set({
      ETag: etag,
      'Cache-Control': 'public, max-age=31536000, immutable',
      'X-Content-Type-Options': 'nosniff',
      'Cross-Origin-Resource-Policy': 'cross-origin',
      'Content-Security-Policy': "default-src 'none'; sandbox",
    });
    if (matchesEtag(req.headers['if-none-match'], etag)) return void res.status(304).end();
    res.type('image/webp').send(Buffer.from(result.value));
  });
  return router;
};
