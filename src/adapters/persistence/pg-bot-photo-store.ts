import { createHash } from 'node:crypto';
import type { BotPhotoStore } from '../../application/ports.ts';
import type { Db } from './db.ts';

const SAVE_PHOTO = `
  INSERT INTO bot_photos (bot_id, sha256, image, created_at) VALUES ($1, $2, $3, $4)
  ON CONFLICT (bot_id) DO UPDATE SET sha256 = EXCLUDED.sha256, image = EXCLUDED.image, created_at = EXCLUDED.created_at`;
const NAME_PHOTO = 'UPDATE bots SET photo_sha256 = $2 WHERE id = $1';
const REMOVE_PHOTO = 'DELETE FROM bot_photos WHERE bot_id = $1';
const FIND_PHOTO = `
  SELECT p.image FROM bot_photos p JOIN bots b ON b.id = p.bot_id
  WHERE p.bot_id = $1 AND p.sha256 = $2 AND b.is_active`;

export class PgBotPhotoStore implements BotPhotoStore {
  constructor(private readonly db: Db) {}

  async save(botId: string, image: Uint8Array, now: Date): Promise<string> {
    const sha256 = createHash('sha256').update(image).digest('hex');
    await this.db.transaction(async (tx) => {
      await tx.query(SAVE_PHOTO, [botId, sha256, Buffer.from(image), now]);
      await tx.query(NAME_PHOTO, [botId, sha256]);
    });
    return sha256;
  }

  async remove(botId: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.query(REMOVE_PHOTO, [botId]);
      await tx.query(NAME_PHOTO, [botId, null]);
    });
  }

  async find(botId: string, sha256: string): Promise<Uint8Array | null> {
    const { rows } = await this.db.query<{ image: Buffer }>(FIND_PHOTO, [botId, sha256]);
    return rows[0] ? new Uint8Array(rows[0].image) : null;
  }
}
