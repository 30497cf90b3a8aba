import { describe, expect, it } from 'vitest';
import type { PageRequest } from '../../src/application/ports.ts';
import { decodeCursor } from '../../src/domain/pagination.ts';
import type { Page } from '../../src/domain/types.ts';

/** One list of a port, empty at first: conversations of a bot, leads of a bot, notifications of a user. */
export interface PagedList {
  /** Adds a row with that time (started, captured, created) and returns its id. */
  insertAt(at: Date): Promise<string>;
  page(request: PageRequest): Promise<Page<{ id: string }>>;
}

const T0 = Date.parse('2025-03-01T10:00:00.000Z');
const at = (seconds: number) => new Date(T0 + seconds * 1000);
const byIdDescending = (ids: string[]) => [...ids].sort().reverse();

/** Follows nextCursor from the first page to the end; the ids of each page. */
const walk = async (list: PagedList, limit: number, beforeNextPage?: () => Promise<void>): Promise<string[][]> => {
  const pages: string[][] = [];
  let request: PageRequest = { limit, cursor: null };
  for (let guard = 0; guard < 50; guard += 1) {
    const page = await list.page(request);
    pages.push(page.items.map((item) => item.id));
    if (page.nextCursor === null) return pages;
    const cursor = decodeCursor(page.nextCursor);
    expect(cursor).not.toBeNull();
    await beforeNextPage?.();
    request = { limit, cursor };
  }
  throw new Error('pagination never ended');
};

/** Newest first by (time, id); `cursor` means rows strictly after that position. */
export const keysetPaginationContract = (makeList: () => Promise<PagedList>) => {
  describe('keyset pagination', () => {
    it('gives an empty page with no cursor for an empty list', async () => {
      const list = await makeList();
      expect(await list.page({ limit: 20, cursor: null })).toEqual({ items: [], nextCursor: null });
    });

    it('walks every row once, newest first, and ends with a null cursor', async () => {
      const list = await makeList();
      const ids: string[] = [];
      for (const second of [3, 1, 4, 0, 2]) ids[second] = await list.insertAt(at(second));
      expect(await walk(list, 2)).toEqual([
        [ids[4], ids[3]],
        [ids[2], ids[1]],
        [ids[0]],
      ]);
    });

    it('gives no next cursor when the last page is exactly full', async () => {
      const list = await makeList();
      const ids: string[] = [];
      for (let second = 0; second < 4; second += 1) ids.push(await list.insertAt(at(second)));
      expect(await walk(list, 2)).toEqual([
        [ids[3], ids[2]],
        [ids[1], ids[0]],
      ]);
      expect(await walk(list, 4)).toEqual([[ids[3], ids[2], ids[1], ids[0]]]);
    });

    it('breaks ties on the same time by id, neither skipping nor repeating rows', async () => {
      const list = await makeList();
      const older: string[] = [];
      const newer: string[] = [];
      for (let i = 0; i < 3; i += 1) older.push(await list.insertAt(at(0)));
      for (let i = 0; i < 3; i += 1) newer.push(await list.insertAt(at(5)));
      const pages = await walk(list, 2);
      expect(pages.map((page) => page.length)).toEqual([2, 2, 2]);
      expect(pages.flat()).toEqual([...byIdDescending(newer), ...byIdDescending(older)]);
    });

    it('keeps rows added while paging, newer than the first page, out of later pages without skipping any', async () => {
      const list = await makeList();
      const ids: string[] = [];
      for (let second = 0; second < 5; second += 1) ids.push(await list.insertAt(at(second)));
      const added: string[] = [];
      const pages = await walk(list, 2, async () => {
        added.push(await list.insertAt(at(60 + added.length)));
      });
      expect(pages.flat()).toEqual([ids[4], ids[3], ids[2], ids[1], ids[0]]);
      const fresh = await list.page({ limit: 10, cursor: null });
      expect(fresh.items.map((item) => item.id)).toEqual([...added].reverse().concat([ids[4]!, ids[3]!, ids[2]!, ids[1]!, ids[0]!]));
    });

    it('starts strictly after a cursor position that is not a row', async () => {
      const list = await makeList();
      const ids: string[] = [];
      for (let second = 0; second < 4; second += 1) ids.push(await list.insertAt(at(second)));
      const page = await list.page({ limit: 10, cursor: { at: at(2), id: 'ffffffff-ffff-4fff-bfff-ffffffffffff' } });
      // Same time, smaller id: the row at second 2 comes after that position.
      expect(page.items.map((item) => item.id)).toEqual([ids[2], ids[1], ids[0]]);
      const before = await list.page({ limit: 10, cursor: { at: at(2), id: '00000000-0000-4000-8000-000000000000' } });
      expect(before.items.map((item) => item.id)).toEqual([ids[1], ids[0]]);
    });
  });
};
