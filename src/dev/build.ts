import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { TRACING_WORKFLOW_INTERCEPTOR_MODULES } from '../telemetry/worker-tracing';
import { writeWorkflowBundle } from '../worker/bundle-workflows';
import { PREBUILT_BUNDLES } from '../worker/workflow-bundle';
import { ROOT } from '../config/paths';

/** Where `npm run build` puts the compiled service: `node dist/src/api/main.js`, `node dist/src/worker/main.js`. */
export const DIST = path.join(ROOT, 'dist');
/**
 * What the build is made from; a change to any of it makes `buildIfChanged` build again. The
 * development tools (src/dev, which tsconfig.build.json leaves out and the service never imports)
 * are not.
 */
const INPUTS = ['src', 'workflows', 'activities', 'drizzle', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json'];
const DEV_TOOLS = path.join(ROOT, 'src', 'dev');
const STAMP = path.join(DIST, '.build-inputs');

function inputFiles(entry: string): string[] {
  const full = path.join(ROOT, entry);
  if (!statSync(full).isDirectory()) return [full];
  return readdirSync(full, { recursive: true, encoding: 'utf8' })
    .map((f) => path.join(full, f))
    .filter((f) => statSync(f).isFile() && !f.startsWith(`${DEV_TOOLS}${path.sep}`))
    .sort();
}

function inputsHash(): string {
  const hash = createHash('sha256');
  for (const file of INPUTS.flatMap(inputFiles)) hash.update(path.relative(ROOT, file)).update(readFileSync(file));
  return hash.digest('hex');
}

/**
 * The production build: the TypeScript compiled to `dist/` by tsc, the migrations beside it, and
 * the workflow bundles built ahead of time (`bundleWorkflowCode`), which the compiled worker and
 * API load with `workflowBundle: { codePath }` instead of bundling at start.
 */
export async function build(log: (message: string) => void): Promise<void> {
  const hash = inputsHash();
  rmSync(DIST, { recursive: true, force: true });
  // Emit only: `npm run typecheck` (and `npm test`, CI) type-check the same sources; each file
  // compiles on its own (isolatedModules), so the emit needs no checking of its own.
  log('compiling TypeScript to dist/ (tsc -p tsconfig.build.json --noCheck)...');
  const tsc = spawnSync(process.execPath, [path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', path.join(ROOT, 'tsconfig.build.json'), '--noCheck'], { cwd: ROOT, stdio: 'inherit' });
  if (tsc.status !== 0) throw new Error(`tsc failed (exit ${tsc.status})`);
  cpSync(path.join(ROOT, 'drizzle'), path.join(DIST, 'drizzle'), { recursive: true });
  log('bundling the workflows ahead of time...');
  const bundles = path.join(DIST, 'src', 'worker');
  await writeWorkflowBundle(path.join(bundles, PREBUILT_BUNDLES.plain), []);
  await writeWorkflowBundle(path.join(bundles, PREBUILT_BUNDLES.tracing), TRACING_WORKFLOW_INTERCEPTOR_MODULES);
  writeFileSync(STAMP, hash);
  log(`built ${path.relative(ROOT, DIST)}/`);
}

/** Builds unless `dist/` was built from the sources as they are now. */
export async function buildIfChanged(log: (message: string) => void): Promise<void> {
  if (existsSync(STAMP) && readFileSync(STAMP, 'utf8') === inputsHash()) {
    log('dist/ is up to date with the sources');
    return;
  }
  await build(log);
}

if (require.main === module) {
  build((message) => console.log(`[build] ${message}`)).then(
    () => process.exit(0),
    (err: unknown) => {
      console.error('[build] failed:', err);
      process.exit(1);
    },
  );
}
