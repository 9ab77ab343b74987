import { spawnSync } from 'node:child_process';
import { accessSync, constants, cpSync, existsSync, mkdirSync, renameSync } from 'node:fs';
import path from 'node:path';

export function executable(p: string): boolean {
  try {
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first executable `name` on PATH. */
export function onPath(name: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, name);
    if (dir && executable(candidate)) return candidate;
  }
  return null;
}

/**
 * `go install` of `packages` (each `path@version`) with their binaries written to `dir`, the
 * module source left in Go's module cache. False when Go is missing or the build failed.
 */
export function goInstall(dir: string, packages: string[], log: (message: string) => void): boolean {
  const go = onPath('go');
  if (!go) return false;
  log(`building ${packages.join(' and ')} with go install (first run only; takes a few minutes)...`);
  mkdirSync(dir, { recursive: true });
  const result = spawnSync(go, ['install', ...packages], { env: { ...process.env, GOBIN: dir }, stdio: ['ignore', 'inherit', 'inherit'] });
  return result.status === 0;
}

/** Where Go keeps the source of module `module@version` once it was downloaded. */
export function goModuleDir(module: string, version: string): string | null {
  const go = onPath('go');
  if (!go) return null;
  const cache = spawnSync(go, ['env', 'GOMODCACHE'], { encoding: 'utf8' }).stdout.trim();
  // The module cache escapes upper-case letters in paths as '!' + lower case.
  return cache ? path.join(cache, `${module.replace(/[A-Z]/g, (c) => `!${c.toLowerCase()}`)}@${version}`) : null;
}

/** A program built from a Go module into a cache folder of its own, with files of the module it needs beside it. */
export interface GoTool {
  /** Folder the binaries and files are kept in. */
  dir: string;
  module: string;
  /** Tag, e.g. v1.29.1. */
  version: string;
  /** Package path inside the module (`cmd/server`) → the name the binary is kept under. */
  binaries: Record<string, string>;
  /** Paths inside the module copied into `dir` (a config template, schemas). */
  files: string[];
}

/**
 * The tool's binaries (by their kept names), built by `go install` and its files copied from the
 * module source the first time; from the cache afterwards. Throws when it cannot be built.
 */
export function ensureGoTool(t: GoTool, log: (message: string) => void): Record<string, string> {
  const kept = Object.fromEntries(Object.values(t.binaries).map((name) => [name, path.join(t.dir, name)]));
  const ready = () => Object.values(kept).every(existsSync) && t.files.every((f) => existsSync(path.join(t.dir, f)));
  if (ready()) return kept;
  // `go install` names a binary after its package's folder (`server`, `sql`).
  const built = Object.keys(t.binaries).map((pkg) => path.join(t.dir, path.basename(pkg)));
  if (!built.every(existsSync) && !goInstall(t.dir, Object.keys(t.binaries).map((pkg) => `${t.module}/${pkg}@${t.version}`), log)) {
    throw new Error(`could not build ${t.module}@${t.version} with go install (Go and the Go module proxy are needed the first time)`);
  }
  for (const [pkg, name] of Object.entries(t.binaries)) renameSync(path.join(t.dir, path.basename(pkg)), kept[name]!);
  const source = goModuleDir(t.module, t.version);
  if (!source || !existsSync(source)) throw new Error(`the source of ${t.module}@${t.version} is not in Go's module cache`);
  for (const file of t.files) {
    cpSync(path.join(source, file), path.join(t.dir, file), { recursive: true });
    // The module cache is read-only; the copies need not be.
    spawnSync('chmod', ['-R', 'u+w', path.join(t.dir, file)]);
  }
  if (!ready()) throw new Error(`${t.module}@${t.version} built, but ${t.dir} lacks what it should hold`);
  return kept;
}
