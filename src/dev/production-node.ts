import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { CACHE_DIR } from '../config/paths';

/**
 * The Node.js the image runs (the Dockerfile's `node:24` base), which `npm run cluster` runs too,
 * so that the production shape is tried on the production runtime whatever Node runs npm.
 */
export const PRODUCTION_NODE_VERSION = '24.21.0';

/**
 * The production Node binary: from the npm registry's `node-<platform>-<arch>` package, which
 * ships the official binary inside it, installed once under ~/.cache (not a dependency of the
 * project: only the cluster runs it).
 */
export function ensureProductionNode(log: (message: string) => void): string {
  const pkg = `node-${process.platform}-${process.arch}`;
  const prefix = path.join(CACHE_DIR, `node-${PRODUCTION_NODE_VERSION}`);
  const binary = path.join(prefix, 'node_modules', pkg, 'bin', 'node');
  if (existsSync(binary)) return binary;
  log(`installing Node.js ${PRODUCTION_NODE_VERSION} (${pkg} from the npm registry) under ${prefix}...`);
  mkdirSync(prefix, { recursive: true });
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['install', '--prefix', prefix, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', `${pkg}@${PRODUCTION_NODE_VERSION}`], { stdio: ['ignore', 'inherit', 'inherit'] });
  if (result.status !== 0 || !existsSync(binary)) throw new Error(`could not install ${pkg}@${PRODUCTION_NODE_VERSION} from the npm registry`);
  return binary;
}
