import { existsSync } from 'node:fs';
import { playwright } from './playwright-module';

const SYSTEM_BROWSERS = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable', '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome'];

/** CHROMIUM_PATH, else a system Chromium or Chrome, else Playwright's own download, else null. */
export function findChromium(configured?: string): string | null {
  if (configured) return configured;
  const system = SYSTEM_BROWSERS.find((p) => existsSync(p));
  if (system) return system;
  const bundled = playwright().chromium.executablePath();
  return bundled && existsSync(bundled) ? bundled : null;
}
