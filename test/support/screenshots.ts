import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Screenshots are test artifacts, written under test-artifacts/screenshots (git-ignored). */
const SCREENSHOT_DIR = path.join(ROOT, 'test-artifacts', 'screenshots');

export const screenshotPath = async (name: string): Promise<string> => {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  return path.join(SCREENSHOT_DIR, `${name}.png`);
};
