import { describe, expect, it } from 'vitest';
import { RevalidatingCache, type Revalidation } from '../src/revalidating-cache.ts';

/** A platform that answers from a script, and remembers the ETags it was sent. */
const platform = (script: Revalidation<string>[]) => {
  const sent: (string | null)[] = [];
  return {
    sent,
    revalidate: async (etag: string | null) => {
      sent.push(etag);
      return script.shift() ?? { kind: 'unreachable' as const };
    },
  };
};

describe('RevalidatingCache', () => {
  it('uses its copy while fresh, then revalidates with the ETag; a 304 keeps the copy', async () => {
    let now = 0;
    const p = platform([{ kind: 'changed', value: 'v1', etag: '"1"' }, { kind: 'not_modified' }]);
    const cache = new RevalidatingCache(p.revalidate, 1_000, () => now);
    expect(await cache.read()).toEqual({ kind: 'value', value: 'v1' });
    now = 999;
    expect(await cache.read()).toEqual({ kind: 'value', value: 'v1' });
    expect(p.sent).toEqual([null]);
    now = 1_000;
    expect(await cache.read()).toEqual({ kind: 'value', value: 'v1' });
    expect(p.sent).toEqual([null, '"1"']);
  });

  it('serves the last known copy while the platform cannot be reached, and retries within seconds', async () => {
    let now = 0;
    const p = platform([{ kind: 'changed', value: 'v1', etag: '"1"' }, { kind: 'unreachable' }, { kind: 'changed', value: 'v2', etag: '"2"' }]);
    const cache = new RevalidatingCache(p.revalidate, 60_000, () => now);
    await cache.read();
    now = 60_000;
    expect(await cache.read()).toEqual({ kind: 'value', value: 'v1' });
    now = 65_000;
    expect(await cache.read()).toEqual({ kind: 'value', value: 'v2' });
  });

  it('knows nothing until the platform first answers; gone drops the copy', async () => {
    let now = 0;
    const p = platform([{ kind: 'unreachable' }, { kind: 'changed', value: 'v1', etag: null }, { kind: 'gone' }]);
    const cache = new RevalidatingCache(p.revalidate, 1_000, () => now);
    expect(await cache.read()).toEqual({ kind: 'unknown' });
    now = 5_000;
    expect(await cache.read()).toEqual({ kind: 'value', value: 'v1' });
    now = 6_000;
    expect(await cache.read()).toEqual({ kind: 'gone' });
  });

  it('shares one revalidation between concurrent reads', async () => {
    const p = platform([{ kind: 'changed', value: 'v1', etag: null }]);
    const cache = new RevalidatingCache(p.revalidate, 1_000, () => 0);
    const reads = await Promise.all([cache.read(), cache.read(), cache.read()]);
    expect(reads.every((read) => read.kind === 'value')).toBe(true);
    expect(p.sent).toHaveLength(1);
  });
});
