import sharp, { type Metadata } from 'sharp';
import type { ImageProcessor, PhotoUnusable } from '../../application/ports.ts';

/** The avatar's side, in pixels: a photo is cropped around its centre to a square at most this big. */
export const AVATAR_SIZE = 512;
/** A decompression bomb declares more pixels than this in its header and is refused before decoding. */
const MAX_INPUT_PIXELS = 50_000_000;
const ACCEPTED = new Set(['png', 'jpeg', 'webp']);

type Answer = { ok: true; value: Uint8Array } | { ok: false; error: PhotoUnusable };

/** libvips refuses a header over the pixel limit with its own words; anything else it cannot decode is not an image. */
const refusal = (error: unknown): Answer => ({
  ok: false,
  error: { type: /pixel limit/i.test(String((error as Error)?.message)) ? 'too_many_pixels' : 'not_an_image' },
});

/**
 * sharp (libvips) decodes and re-encodes: what comes out is pixels only, as WebP, so EXIF
 * (GPS position, camera), ICC and XMP metadata of the upload are gone. The orientation EXIF
 * gave is applied first, so the face is upright.
 */
export class SharpImageProcessor implements ImageProcessor {
  async toAvatar(bytes: Uint8Array): Promise<Answer> {
    const input = () => sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error', sequentialRead: true });
    let meta: Metadata;
    try {
      meta = await input().metadata();
    } catch (error) {
      return refusal(error);
    }
    if (!meta.format || !ACCEPTED.has(meta.format)) return { ok: false, error: { type: 'unsupported_image_type' } };
    if (!meta.width || !meta.height || meta.width * meta.height > MAX_INPUT_PIXELS) return { ok: false, error: { type: 'too_many_pixels' } };
    try {
      const side = Math.min(AVATAR_SIZE, meta.width, meta.height);
      const image = await input().rotate().resize(side, side, { fit: 'cover', position: 'centre' }).webp({ quality: 82 }).toBuffer();
      return { ok: true, value: new Uint8Array(image) };
    } catch (error) {
      return refusal(error);
    }
  }
}
