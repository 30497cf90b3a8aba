/** Position after the last row of a page, in a list ordered newest first by (time, id). */
export interface PageCursor {
  at: Date;
  id: string;
}

/** Any 8-4-4-4-12 hex id, either case: PostgreSQL's uuid accepts every version. */
export const UUID_PATTERN = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

export const isUuid = (value: string): boolean => UUID_PATTERN.test(value);

/** Opaque to clients: base64url of "<iso time>|<id>". */
export const encodeCursor = (cursor: PageCursor): string =>
  Buffer.from(`${cursor.at.toISOString()}|${cursor.id}`, 'utf8').toString('base64url');

export const decodeCursor = (value: string): PageCursor | null => {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(value)) return null;
  const [iso, id, ...rest] = Buffer.from(value, 'base64url').toString('utf8').split('|');
  if (!iso || !id || rest.length > 0 || !isUuid(id)) return null;
  const at = new Date(iso);
  if (Number.isNaN(at.getTime()) || at.toISOString() !== iso) return null;
  return { at, id };
};
