const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
/** Past this many addresses, windows that have ended are forgotten. */
const PRUNE_AT = 10_000;

export type LimitDecision = { allowed: true } | { allowed: false; scope: 'short' | 'long'; resetAt: number };

/**
 * The owner's protection: each visitor address gets `perMinute` messages a minute, and the
 * runtime answers `perDay` messages a UTC day in all. Fixed windows; a refused message counts
 * in neither.
 */
export class VisitorLimits {
  private readonly minutes = new Map<string, { windowStart: number; count: number }>();
  private day = { start: 0, count: 0 };

  constructor(
    private readonly perMinute: number,
    private readonly perDay: number,
    private readonly now: () => number,
  ) {}

  admit(address: string): LimitDecision {
    const now = this.now();
    const dayStart = now - (now % DAY_MS);
    if (this.day.start !== dayStart) this.day = { start: dayStart, count: 0 };
    const minuteStart = now - (now % MINUTE_MS);
    let minute = this.minutes.get(address);
    if (!minute || minute.windowStart !== minuteStart) {
      if (this.minutes.size >= PRUNE_AT) this.prune(minuteStart);
      minute = { windowStart: minuteStart, count: 0 };
      this.minutes.set(address, minute);
    }
    if (minute.count >= this.perMinute) return { allowed: false, scope: 'short', resetAt: minuteStart + MINUTE_MS };
    if (this.day.count >= this.perDay) return { allowed: false, scope: 'long', resetAt: dayStart + DAY_MS };
    minute.count += 1;
    this.day.count += 1;
    return { allowed: true };
  }

  private prune(minuteStart: number): void {
    for (const [address, window] of this.minutes) if (window.windowStart !== minuteStart) this.minutes.delete(address);
  }
}
