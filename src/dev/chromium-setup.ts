import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { findChromium } from '../browser/chromium-path';

/**
 * A Chromium to run: CHROMIUM_PATH, the system's, or Playwright's own download. When none is
 * there, installs one: Playwright's download first, then Debian's package when running as root
 * on a machine with apt-get (where browser downloads are blocked but the package mirror is not).
 */
export function ensureChromium(log: (message: string) => void): string {
  const found = findChromium(process.env.CHROMIUM_PATH);
  if (found) return found;

  log('no Chromium found; trying `playwright install chromium`...');
  const cli = path.join(path.dirname(require.resolve('playwright/package.json')), 'cli.js');
  spawnSync(process.execPath, [cli, 'install', 'chromium'], { stdio: 'inherit', timeout: 300_000 });
  const downloaded = findChromium();
  if (downloaded) return downloaded;

  if (process.getuid?.() === 0 && existsSync('/usr/bin/apt-get')) {
    log('installing Debian\'s chromium package...');
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    let result = spawnSync('apt-get', ['install', '-y', 'chromium'], { stdio: 'inherit', env });
    if (result.status !== 0) {
      spawnSync('apt-get', ['update'], { stdio: 'inherit', env });
      result = spawnSync('apt-get', ['install', '-y', 'chromium'], { stdio: 'inherit', env });
    }
    const installed = findChromium();
    if (installed) return installed;
  }
  throw new Error('No Chromium available: install chromium or Google Chrome, or set CHROMIUM_PATH to its executable');
}
