import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/**
 * Debian's Chromium, driven by playwright-core: nothing downloads a browser. CI installs it
 * (`.ci/run`); a missing browser fails there. Elsewhere `CHROMIUM_PATH` may name another
 * build, and without any the browser tests are skipped with a loud reason.
 */
export const chromiumPath = (): string | null => {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  return candidates.find((candidate): candidate is string => !!candidate && existsSync(candidate)) ?? null;
};

/** True when these tests must run: in CI, or wherever a Chromium is installed. */
export const browserAvailable = (): boolean => {
  if (chromiumPath()) return true;
  if (process.env.CI) throw new Error('Chromium is missing: .ci/run installs it with apt-get install chromium');
  console.warn('[browser tests] skipped: no Chromium here (apt-get install chromium, or set CHROMIUM_PATH)');
  return false;
};

/**
 * `allowThirdPartyStorage`: this Chromium blocks third-party cookies, and with them the storage of
 * a frame from another site (`sessionStorage` throws "Access is denied"); a browser that allows
 * them (Chrome's default on the web today, Firefox and Safari partition it instead) is asked for here.
 */
export const launchBrowser = async (options: { allowThirdPartyStorage?: boolean } = {}): Promise<Browser> =>
  chromium.launch({
    executablePath: chromiumPath() ?? undefined,
    headless: true,
    // The flags keep Chromium off the network (this machine's is closed) and quiet.
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
      ...(options.allowThirdPartyStorage ? ['--disable-features=TrackingProtection3pcd'] : []),
    ],
  });

