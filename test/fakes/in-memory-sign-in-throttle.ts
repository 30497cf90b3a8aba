import type { SignInThrottle } from '../../src/application/ports.ts';

const WINDOW_MS = 15 * 60_000;

export class InMemorySignInThrottle implements SignInThrottle {
  private readonly counts = new Map<string, number>();

  private slot(key: string, now: Date) {
    const start = Math.floor(now.getTime() / WINDOW_MS) * WINDOW_MS;
    return { id: `${key}@${start}`, resetAt: start + WINDOW_MS };
  }

  async begin(keys: string[], now: Date) {
    const counted = new Map<string, { count: number; resetAt: number }>();
    for (const key of keys) {
      const { id, resetAt } = this.slot(key, now);
      const count = (this.counts.get(id) ?? 0) + 1;
      this.counts.set(id, count);
      counted.set(key, { count, resetAt });
    }
    return counted;
  }

  async forgive(keys: string[], now: Date) {
    for (const key of keys) {
      const { id } = this.slot(key, now);
      this.counts.set(id, Math.max(0, (this.counts.get(id) ?? 0) - 1));
    }
  }
}
