// The owner's photo as the avatar: re-encoded by sharp (no EXIF, at most 512 px square), stored in
// PostgreSQL, served under a content-addressed URL; hostile images refused in words.
import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient, signedInClient, validBot } from '@careerbot/testkit';
import { startTestApp, type TestApp } from '../support/test-app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => app?.close());

const post = async (client: HttpClient, bytes: Uint8Array, contentType = 'image/jpeg') => {
  const response = await fetch(`${app.baseUrl}/api/bots/avatar`, {
    method: 'POST',
    headers: { cookie: client.cookieHeader(), 'content-type': contentType, origin: app.baseUrl },
    body: Buffer.from(bytes),
  });
  return { status: response.status, json: JSON.parse(await response.text()) };
};

const ownerWithBot = async () => {
  const { client } = await signedInClient(app.baseUrl);
  const saved = await client.post('/api/bots', validBot({ name: 'Grace Hopper' }));
  expect(saved.status).toBe(201);
  return { client, botId: saved.json.bot.id as string };
};

/** A landscape photo whose EXIF says where it was taken. */
const photoWithGps = () =>
  sharp({ create: { width: 1200, height: 800, channels: 3, background: '#3366cc' } })
    .jpeg()
    .withExif({ IFD0: { Make: 'CanaryCam' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 24/1', GPSLongitudeRef: 'E', GPSLongitude: '2/1 21/1 3/1' } })
    .toBuffer();

/** A PNG whose header declares 100,000 × 100,000 pixels, in a few bytes: a decompression bomb. */
const pngBomb = () => {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(100_000, 0);
  ihdr.writeUInt32BE(100_000, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.alloc(1_000_000))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
};

describe('a photo as the avatar', () => {
  it('is re-encoded without its EXIF position, 512 px square, and becomes the image of the config view, the public page and the overview', async () => {
    const { client, botId } = await ownerWithBot();
    const original = await photoWithGps();
    expect(original.includes(Buffer.from('CanaryCam'))).toBe(true);
    expect((await sharp(original).metadata()).exif).toBeDefined();

    const set = await post(client, original);
    expect(set.status).toBe(200);
    expect(set.json.image).toMatch(new RegExp(`^/api/avatars/${botId}/[0-9a-f]{64}\\.webp$`));

    const served = await fetch(`${app.baseUrl}${set.json.image}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/webp');
    expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const etag = served.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
    const bytes = Buffer.from(await served.arrayBuffer());
    const meta = await sharp(bytes).metadata();
    expect(meta.format).toBe('webp');
    expect([meta.width, meta.height]).toEqual([512, 512]);
    expect(meta.exif).toBeUndefined();
    expect(bytes.includes(Buffer.from('CanaryCam'))).toBe(false);
    // Cropped around the centre: the colour fills the square.
    const { dominant } = await sharp(bytes).stats();
    expect(dominant).toEqual({ r: expect.closeTo(0x33, -1.3), g: expect.closeTo(0x66, -1.3), b: expect.closeTo(0xcc, -1.3) });
    expect((await fetch(`${app.baseUrl}${set.json.image}`, { headers: { 'if-none-match': etag } })).status).toBe(304);

    // Stored in PostgreSQL: the re-encoded bytes, never the upload.
    const stored = await app.db.query<{ image: Buffer }>('SELECT image FROM bot_photos WHERE bot_id = $1', [botId]);
    expect(Buffer.compare(stored.rows[0]!.image, bytes)).toBe(0);

    expect((await new HttpClient(app.baseUrl).get(`/api/bots/${botId}/public`)).json.image).toBe(set.json.image);
    expect((await client.get('/api/bots')).json.image).toBe(set.json.image);

    // Removing it brings the initials back, and the photo's URL is gone.
    const removed = await fetch(`${app.baseUrl}/api/bots/avatar`, { method: 'DELETE', headers: { cookie: client.cookieHeader(), origin: app.baseUrl } });
    expect(removed.status).toBe(204);
    expect((await new HttpClient(app.baseUrl).get(`/api/bots/${botId}/public`)).json.image).toBe(`/api/avatars/${botId}.svg`);
    expect((await client.get('/api/bots')).json.image).toBe(`/api/avatars/${botId}.svg`);
    expect((await fetch(`${app.baseUrl}${set.json.image}`)).status).toBe(404);
  });

  it('a small photo is not enlarged, a portrait is cropped square', async () => {
    const { client } = await ownerWithBot();
    const small = await post(client, await sharp({ create: { width: 300, height: 200, channels: 4, background: '#ff0000' } }).png().toBuffer(), 'image/png');
    expect(small.status).toBe(200);
    const meta = await sharp(Buffer.from(await (await fetch(`${app.baseUrl}${small.json.image}`)).arrayBuffer())).metadata();
    expect([meta.width, meta.height]).toEqual([200, 200]);
  });

  it('refuses malformed, oversized, other types and decompression bombs in words, with a 4xx', async () => {
    const { client } = await ownerWithBot();
    const malformed = await post(client, Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(200, 7)]));
    expect(malformed).toEqual({ status: 422, json: { error: 'This file is not an image that can be read: choose a PNG, JPEG or WebP photo' } });
    const gif = await post(client, await sharp({ create: { width: 10, height: 10, channels: 3, background: '#000' } }).gif().toBuffer(), 'image/gif');
    expect(gif).toEqual({ status: 415, json: { error: 'The photo must be a PNG, JPEG or WebP image' } });
    const bomb = await post(client, pngBomb(), 'image/png');
    expect(bomb).toEqual({ status: 422, json: { error: 'This image has too many pixels (over 50 million): choose a smaller photo' } });
    const big = await post(client, Buffer.alloc(5 * 1024 * 1024 + 1, 1));
    expect(big).toEqual({ status: 413, json: { error: 'The photo is larger than 5 MB' } });
    expect((await client.get('/api/bots')).json.image).toMatch(/\.svg$/);
  });

  it('needs a bot, and an unknown photo URL is a 404', async () => {
    const { client } = await signedInClient(app.baseUrl);
    expect((await post(client, await photoWithGps())).status).toBe(404);
    expect((await fetch(`${app.baseUrl}/api/avatars/not-a-uuid/${'a'.repeat(64)}.webp`)).status).toBe(404);
    expect((await fetch(`${app.baseUrl}/api/avatars/00000000-0000-4000-8000-000000000000/${'a'.repeat(64)}.webp`)).status).toBe(404);
  });
});
