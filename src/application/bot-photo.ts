import { err, ok, type Result } from '../domain/result.ts';
import type { BotPhotoStore, BotRepository, Clock, ImageProcessor, PhotoUnusable } from './ports.ts';

export type SetBotPhotoError = PhotoUnusable | { type: 'bot_not_found' };

export const PHOTO_MAX_BYTES = 5 * 1024 * 1024;

/** The owner's photo becomes the bot's avatar: decoded and re-encoded, never stored as uploaded. */
export const makeSetBotPhoto =
  (d: { bots: BotRepository; photos: BotPhotoStore; images: ImageProcessor; clock: Clock }) =>
  async (userId: string, bytes: Uint8Array): Promise<Result<{ botId: string; photoHash: string }, SetBotPhotoError>> => {
    const bot = await d.bots.findByUserId(userId);
    if (!bot) return err({ type: 'bot_not_found' });
    const avatar = await d.images.toAvatar(bytes);
    if (!avatar.ok) return avatar;
    return ok({ botId: bot.id, photoHash: await d.photos.save(bot.id, avatar.value, d.clock.now()) });
  };

/** The initials come back. Removing twice is fine. */
export const makeRemoveBotPhoto =
  (d: { bots: BotRepository; photos: BotPhotoStore }) =>
  async (userId: string): Promise<Result<null, { type: 'bot_not_found' }>> => {
    const bot = await d.bots.findByUserId(userId);
    if (!bot) return err({ type: 'bot_not_found' });
    await d.photos.remove(bot.id);
    return ok(null);
  };

export const makeGetBotPhoto =
  (d: { photos: BotPhotoStore }) =>
  async (botId: string, sha256: string): Promise<Result<Uint8Array, { type: 'not_found' }>> => {
    const image = await d.photos.find(botId, sha256);
    return image ? ok(image) : err({ type: 'not_found' });
  };
