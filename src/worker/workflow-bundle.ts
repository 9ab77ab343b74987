import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { nodeArgsFor, siblingModule } from '../runtime/module-files';

/** The bundles `npm run build` writes beside the compiled worker code, by whether workflows are traced. */
export const PREBUILT_BUNDLES = { plain: 'workflows.bundle.js', tracing: 'workflows-tracing.bundle.js' } as const;

/** What Worker.create takes as `workflowBundle`: the code itself, or the file that holds it. */
export type WorkflowBundle = { code: string } | { codePath: string };

/**
 * The workflow bundle, with the given workflow interceptor modules (tracing's) bundled in. The
 * compiled service (`npm run build`, the image) loads the bundle built ahead of time, as
 * Temporal's production guidance does: no bundler at start, and every worker runs the same code.
 * From the TypeScript sources (`npm start`, the tests) it is built now, by a child process (see
 * bundle-workflows.ts for why not here).
 */
export async function workflowBundle(interceptorModules: string[] = []): Promise<WorkflowBundle> {
  const prebuilt = path.join(__dirname, interceptorModules.length > 0 ? PREBUILT_BUNDLES.tracing : PREBUILT_BUNDLES.plain);
  if (existsSync(prebuilt)) return { codePath: prebuilt };
  const dir = mkdtempSync(path.join(os.tmpdir(), 'wcs-workflows-'));
  const out = path.join(dir, 'workflows.js');
  try {
    await promisify(execFile)(process.execPath, [...nodeArgsFor(__filename), siblingModule(__filename, 'bundle-workflows'), out, ...interceptorModules], { maxBuffer: 16 * 1024 * 1024 });
    return { code: readFileSync(out, 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
