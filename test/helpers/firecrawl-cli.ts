import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { ROOT } from '../../src/config/paths';
import type { CliRun } from './wcs-cli';

/** firecrawl-cli's own bin, unmodified, as `npx firecrawl` runs it. */
const BIN = path.join(path.dirname(createRequire(path.join(ROOT, 'package.json')).resolve('firecrawl-cli/package.json')), 'dist', 'index.js');
/** A home of its own, so no stored Firecrawl credentials are read or written. */
const HOME = mkdtempSync(path.join(os.tmpdir(), 'firecrawl-cli-home-'));

/** Runs firecrawl-cli 1.23 against the test stack; `json` is its stdout parsed, when it is JSON. */
export function firecrawl(...args: string[]): Promise<CliRun & { json: any }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args, '--api-url', inject('apiUrl'), '--api-key', inject('apiKey')],
      { cwd: HOME, env: { ...process.env, HOME, FIRECRAWL_API_KEY: '', FIRECRAWL_API_URL: '' }, timeout: 60_000 },
      (err, stdout, stderr) => {
        let json: unknown;
        try {
          json = JSON.parse(stdout);
        } catch {
          json = undefined;
        }
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr, json });
      },
    );
  });
}
