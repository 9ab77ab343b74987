/**
 * Bundles the workflow code (with the workflow interceptor modules named by the further
 * arguments) and writes it to the file named by the first argument. Run as its
 * own process by the worker: webpack, loaded into a process, leaves V8's array fast paths
 * (Array.prototype.concat among them) disabled for the rest of its life, which made page
 * processing in the worker several times slower.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';

async function main(): Promise<void> {
  const [out, ...workflowInterceptorModules] = process.argv.slice(2);
  if (!out) throw new Error('usage: bundle-workflows.ts <output file> [workflow interceptor module...]');
  const { code } = await bundleWorkflowCode({ workflowsPath: path.resolve(__dirname, '../../workflows/index.ts'), workflowInterceptorModules });
  writeFileSync(out, code);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
