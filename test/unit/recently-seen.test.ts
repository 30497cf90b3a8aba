import { describe, expect, it } from 'vitest';
import { forgetFromFront } from '../../src/application/recently-seen.ts';

// Entries are [key, last seen], least recently seen first, as the two users of the sweep keep them.
const mapOf = (entries: [string, { seenAt: number; busy?: boolean }][]) => new Map(entries);
const sweep = (map: ReturnType<typeof mapOf>, now: number, max: number) =>
  forgetFromFront(map, { stale: (entry) => now - entry.seenAt > 60, max, pinned: (entry) => entry.busy === true });

describe('forgetFromFront', () => {
  it('forgets the stale entries at the front and stops at the first fresh one', () => {
    const map = mapOf([['a', { seenAt: 0 }], ['b', { seenAt: 10 }], ['c', { seenAt: 90 }], ['d', { seenAt: 5 }]]);
    sweep(map, 100, 10);
    // "d" is stale too, but behind a fresh entry: the map is ordered by last sight, so that cannot happen in use.
    expect([...map.keys()]).toEqual(['c', 'd']);
  });

  it('past its bound, forgets the least recently seen until there is room for one more', () => {
    const map = mapOf([['a', { seenAt: 95 }], ['b', { seenAt: 96 }], ['c', { seenAt: 97 }]]);
    sweep(map, 100, 2);
    expect([...map.keys()]).toEqual(['c']);
  });

  it('keeps pinned entries, stale or not, and forgets the next ones instead', () => {
    const map = mapOf([['a', { seenAt: 0, busy: true }], ['b', { seenAt: 0 }], ['c', { seenAt: 95, busy: true }], ['d', { seenAt: 96 }], ['e', { seenAt: 97 }]]);
    sweep(map, 100, 4);
    expect([...map.keys()]).toEqual(['a', 'c', 'e']);
  });
});
