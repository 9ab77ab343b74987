import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * The workflow bundle, built by a child process (see bundle-workflows.ts for why not here), with
 * the given workflow interceptor modules (tracing's) bundled in.
 */
export async function bundleWorkflowsInChild(interceptorModules: string[] = []): Promise<{ code: string }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'wcs-workflows-'));
  const out = path.join(dir, 'workflows.js');
  try {
    await promisify(execFile)(process.execPath, ['--import', 'tsx', path.join(__dirname, 'bundle-workflows.ts'), out, ...interceptorModules], { maxBuffer: 16 * 1024 * 1024 });
    return { code: readFileSync(out, 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
