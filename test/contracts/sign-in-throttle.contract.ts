import { describe, expect, it } from 'vitest';
import type { SignInThrottle } from '../../src/application/ports.ts';

const t0 = new Date('2026-11-21T10:07:00.000Z'); // window 10:00-10:15

export const signInThrottleContract = (name: string, makeSubject: () => Promise<SignInThrottle>) => {
  describe(`${name}: SignInThrottle`, () => {
    it('counts attempts per key atomically, each key on its own, with the window end', async () => {
      const throttle = await makeSubject();
      const key = `k${Math.random()}`;
      const counts = await Promise.all(Array.from({ length: 12 }, () => throttle.begin([key, `${key}-other`], t0)));
      expect(counts.map((c) => c.get(key)!.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
      expect(counts[0]!.get(key)!.resetAt).toBe(Date.parse('2026-11-21T10:15:00.000Z'));
      expect((await throttle.begin([`${key}-third`], t0)).get(`${key}-third`)!.count).toBe(1);
    });

    it('takes a forgiven attempt back, and starts over in the next window', async () => {
      const throttle = await makeSubject();
      const key = `k${Math.random()}`;
      await throttle.begin([key], t0);
      await throttle.begin([key], t0);
      await throttle.forgive([key], t0);
      expect((await throttle.begin([key], t0)).get(key)!.count).toBe(2);
      const next = new Date('2026-11-21T10:15:00.000Z');
      expect((await throttle.begin([key], next)).get(key)).toEqual({ count: 1, resetAt: Date.parse('2026-11-21T10:30:00.000Z') });
      await throttle.forgive([`${key}-never-seen`], t0); // nothing to take back: no error, no negative count
      expect((await throttle.begin([`${key}-never-seen`], t0)).get(`${key}-never-seen`)!.count).toBe(1);
    });
  });
};
