/**
 * Bundles the workflow code (with the workflow interceptor modules named by the further
 * arguments) and writes it to the file named by the first argument. Run as its own process by a
 * worker that has no bundle built ahead (`npm run build` builds them; see workflow-bundle.ts):
 * webpack, loaded into a process, leaves V8's array fast paths (Array.prototype.concat among
 * them) disabled for the rest of its life, which made page processing in the worker several
 * times slower.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';

/** The workflows' entry module, as this code runs: TypeScript under tsx, JavaScript once compiled. */
const WORKFLOWS = path.resolve(__dirname, '../../workflows', `index${path.extname(__filename)}`);

/** Bundles the workflows with `workflowInterceptorModules` and writes the bundle to `out`. */
export async function writeWorkflowBundle(out: string, workflowInterceptorModules: string[]): Promise<void> {
  // Webpack's report of every module is noise here; its warnings and errors are not.
  const { code } = await bundleWorkflowCode({ workflowsPath: WORKFLOWS, workflowInterceptorModules, logger: new DefaultLogger('WARN') });
  writeFileSync(out, code);
}

if (require.main === module) {
  const [out, ...workflowInterceptorModules] = process.argv.slice(2);
  if (!out) throw new Error('usage: bundle-workflows <output file> [workflow interceptor module...]');
  writeWorkflowBundle(out, workflowInterceptorModules).catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
