import type { Clock } from '../../src/application/ports.ts';

/** A clock that only moves when told to. */
export const fixedClock = (start = '2026-11-21T10:00:00.000Z') => {
  let now = new Date(start).getTime();
  const clock: Clock & { advance(ms: number): void; set(iso: string): void } = {
    now: () => new Date(now),
    advance: (ms) => void (now += ms),
    set: (iso) => void (now = new Date(iso).getTime()),
  };
  return clock;
};
