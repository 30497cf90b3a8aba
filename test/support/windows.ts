export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;
export const SIGN_IN_WINDOW_MS = 15 * 60_000;

/**
 * Rate limits and the sign-in throttle count in fixed windows of wall-clock time. A test that
 * fills a window waits, when needed, until the current one has `needMs` left, so its requests
 * do not straddle a boundary (where the count starts over and the test would flake).
 */
export const awayFromWindowEnd = async (windowMs: number, needMs = 5_000) => {
  const left = windowMs - (Date.now() % windowMs);
  if (left < needMs) await new Promise((resolve) => setTimeout(resolve, left + 50));
};
