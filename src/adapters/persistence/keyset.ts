import { encodeCursor, type PageCursor } from '../../domain/pagination.ts';
import type { Page } from '../../domain/types.ts';

/**
 * Keyset pagination, newest first by (time, id). A page is fetched with LIMIT limit + 1:
 * the extra row only tells that a next page exists.
 */

/**
 * The condition "strictly after the cursor" for a list ordered by `time DESC, id DESC`.
 * Parameters `$n` and `$n+1` are the cursor's time and id, both null on the first page.
 */
export const afterCursor = (timeColumn: string, idColumn: string, n: number): string =>
  `($${n}::timestamptz IS NULL OR (${timeColumn}, ${idColumn}) < ($${n}::timestamptz, $${n + 1}::uuid))`;

export const cursorParams = (cursor: PageCursor | null): [Date | null, string | null] =>
  cursor ? [cursor.at, cursor.id] : [null, null];

export const toPage = <T>(rows: T[], limit: number, positionOf: (item: T) => PageCursor): Page<T> => {
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return { items, nextCursor: rows.length > limit && last ? encodeCursor(positionOf(last)) : null };
};

/**
 * The same order in memory (the fakes use it): negative when `a` comes first. UUIDs compare
 * like PostgreSQL's uuid type, byte by byte, which is the order of their lower-case text.
 */
export const newestFirst = (a: PageCursor, b: PageCursor): number => {
  const byTime = b.at.getTime() - a.at.getTime();
  if (byTime !== 0) return byTime;
  const [idA, idB] = [a.id.toLowerCase(), b.id.toLowerCase()];
  return idA === idB ? 0 : idA > idB ? -1 : 1;
};
