/** What one delivery attempt came to. */
export type Delivery = { kind: 'delivered' } | { kind: 'dropped' } | { kind: 'retry'; afterMs?: number };

interface Entry {
  key: string;
  deliver: () => Promise<Delivery>;
  attempts: number;
  dueAt: number;
}

export interface OutboxOptions {
  /** Entries kept at most; past it, new ones are refused. */
  limit: number;
  now: () => number;
  /** In [0, 1): the jitter of each wait. */
  random: () => number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  onDropped?: (key: string) => void;
}

/**
 * Work for the platform that must not be lost while it cannot be reached: transcript saves and
 * leads, kept in memory, in order, at most `limit`, and retried with exponential backoff and
 * jitter. An entry whose key is already queued replaces it in place (a later transcript of a
 * session holds the earlier one). Entries are tried one at a time, oldest first, so a session's
 * lead never overtakes its transcript.
 */
export class Outbox {
  private readonly entries: Entry[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;
  private readonly baseDelayMs: number;
  private readonly maxDelayMs: number;

  constructor(private readonly options: OutboxOptions) {
    this.baseDelayMs = options.baseDelayMs ?? 1_000;
    this.maxDelayMs = options.maxDelayMs ?? 60_000;
  }

  get size(): number {
    return this.entries.length;
  }

  /** Entries kept at most. */
  get limit(): number {
    return this.options.limit;
  }

  has(key: string): boolean {
    return this.entries.some((entry) => entry.key === key);
  }

  /** false when the outbox is full and the work was not taken. */
  add(key: string, deliver: () => Promise<Delivery>, firstTryAfterMs = 0): boolean {
    const known = this.entries.find((entry) => entry.key === key);
    if (known) {
      known.deliver = deliver;
    } else {
      if (this.entries.length >= this.options.limit) return false;
      this.entries.push({ key, deliver, attempts: 0, dueAt: this.options.now() + firstTryAfterMs });
    }
    this.schedule();
    return true;
  }

  /** One pass over the due entries now; `all` tries every entry, due or not (the last attempt before exit). */
  async flush(all = true): Promise<void> {
    await this.running;
    this.running = this.pass(all);
    await this.running;
    this.running = null;
    this.schedule();
  }

  /** Stops the timer; what is still queued stays queued. */
  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** The wait before attempt `attempts + 1`: doubling from baseDelayMs up to maxDelayMs, the upper half jittered. */
  delayAfter(attempts: number): number {
    const ceiling = Math.min(this.maxDelayMs, this.baseDelayMs * 2 ** Math.min(attempts - 1, 30));
    return Math.round(ceiling / 2 + (ceiling / 2) * this.options.random());
  }

  private schedule(): void {
    if (this.stopped || this.timer || this.running || this.entries.length === 0) return;
    const dueAt = Math.min(...this.entries.map((entry) => entry.dueAt));
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush(false);
    }, Math.max(0, dueAt - this.options.now()));
    this.timer.unref?.();
  }

  private async pass(all: boolean): Promise<void> {
    for (const entry of [...this.entries]) {
      if (!all && entry.dueAt > this.options.now()) continue;
      const tried = entry.deliver;
      const result = await entry.deliver().catch((): Delivery => ({ kind: 'retry' }));
      if (result.kind === 'retry') {
        entry.attempts += 1;
        entry.dueAt = this.options.now() + Math.max(this.delayAfter(entry.attempts), result.afterMs ?? 0);
        continue;
      }
      // Replaced while it was being delivered: the newer work still has to go.
      if (entry.deliver !== tried) continue;
      this.entries.splice(this.entries.indexOf(entry), 1);
      if (result.kind === 'dropped') this.options.onDropped?.(entry.key);
    }
  }
}
