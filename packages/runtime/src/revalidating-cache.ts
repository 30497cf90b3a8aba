/** What revalidating a cached copy found. */
export type Revalidation<T> =
  | { kind: 'changed'; value: T; etag: string | null }
  | { kind: 'not_modified' }
  /** The platform says the copy no longer stands (a revoked token, say): it is dropped. */
  | { kind: 'gone' }
  /** The platform could not be asked: the last known copy stays in use. */
  | { kind: 'unreachable' };

export type CacheRead<T> = { kind: 'value'; value: T } | { kind: 'gone' } | { kind: 'unknown' };

/** After the platform could not be reached, how long before a request tries again. */
const RETRY_UNREACHABLE_MS = 5_000;

/**
 * One value the platform owns, kept with its ETag. Used as is for `freshMs`, then revalidated
 * (If-None-Match) by the first request that needs it, concurrent requests sharing that one
 * revalidation. While the platform cannot be reached, the last known copy is served.
 */
export class RevalidatingCache<T> {
  private current: CacheRead<T> = { kind: 'unknown' };
  private etag: string | null = null;
  private nextCheckAt = 0;
  private pending: Promise<CacheRead<T>> | null = null;

  constructor(
    private readonly revalidate: (etag: string | null) => Promise<Revalidation<T>>,
    private readonly freshMs: number,
    private readonly now: () => number,
  ) {}

  read(): Promise<CacheRead<T>> {
    if (this.now() < this.nextCheckAt) return Promise.resolve(this.current);
    this.pending ??= this.check().finally(() => {
      this.pending = null;
    });
    return this.pending;
  }

  /** The copy as it stands, without asking the platform. */
  peek(): CacheRead<T> {
    return this.current;
  }

  private async check(): Promise<CacheRead<T>> {
    const found = await this.revalidate(this.current.kind === 'value' ? this.etag : null);
    const now = this.now();
    switch (found.kind) {
      case 'changed':
        this.current = { kind: 'value', value: found.value };
        this.etag = found.etag;
        this.nextCheckAt = now + this.freshMs;
        break;
      case 'not_modified':
        this.nextCheckAt = now + this.freshMs;
        break;
      case 'gone':
        this.current = { kind: 'gone' };
        this.etag = null;
        this.nextCheckAt = now + this.freshMs;
        break;
      case 'unreachable':
        this.nextCheckAt = now + Math.min(this.freshMs, RETRY_UNREACHABLE_MS);
        break;
    }
    return this.current;
  }
}
