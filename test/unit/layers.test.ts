import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../src/config/paths';

/*
 * Layers point one way (docs/architecture.md, "Layers"): a module imports only from its own
 * layer or the ones below it, and a type two layers share lives in the lower one. Every module's
 * layer follows from its path; an import that points up fails here unless ALLOWED_UPWARD names it.
 */

/** Highest first. The first prefix that matches a module's path (from the repository root) wins. */
const LAYERS: readonly { name: string; prefixes: readonly string[] }[] = [
  { name: 'tooling', prefixes: ['src/dev/'] },
  { name: 'faces', prefixes: ['src/api/', 'src/mcp/', 'src/cli/'] },
  { name: 'orchestration', prefixes: ['workflows/', 'activities/', 'src/worker/'] },
  {
    name: 'domain',
    prefixes: ['src/agent/', 'src/crawl/', 'src/firecrawl/', 'src/jobs/', 'src/monitors/', 'src/search/', 'src/extract/', 'src/screenshots/', 'src/credits/', 'src/accounts/', 'src/limits/'],
  },
  { name: 'content', prefixes: ['src/scrape/', 'src/browser/', 'src/parse/'] },
  {
    name: 'infrastructure',
    prefixes: ['src/db/', 'src/json-schema/', 'src/net/', 'src/config/', 'src/temporal/', 'src/metrics/', 'src/telemetry/', 'src/url/', 'src/startup/', 'src/types/', 'src/runtime/'],
  },
];

/** Files directly in src/ (errors.ts, log.ts, log-errors.ts, deadline.ts) are infrastructure. */
const TOP_LEVEL_FILE_LAYER = 'infrastructure';

interface Exception {
  from: (module: string) => boolean;
  to: (module: string) => boolean;
  why: string;
}

/**
 * Deliberate upward imports. Each says why; the last test fails when one no longer matches any
 * import, so the list cannot outlive its reason.
 */
const ALLOWED_UPWARD: readonly Exception[] = [
  {
    // As in Temporal's samples, a client starts, signals and schedules a workflow by its function
    // (`client.workflow.start(crawlWorkflow, ...)`), which types its arguments and result. Only the
    // workflows' index is allowed: the function is passed as a reference, never run outside the
    // worker's sandbox.
    from: (m) => m.startsWith('src/'),
    to: (m) => m === 'workflows/index.ts',
    why: 'a client starts a workflow by its function',
  },
];

const SOURCE_ROOTS = ['src', 'workflows', 'activities'];
const SOURCE_FILE = /\.(ts|cjs|mjs|js)$/;

function layerOf(module: string): string | undefined {
  for (const layer of LAYERS) if (layer.prefixes.some((p) => module.startsWith(p))) return layer.name;
  if (/^src\/[^/]+$/.test(module)) return TOP_LEVEL_FILE_LAYER;
  return undefined;
}

function rank(layer: string): number {
  return LAYERS.length - LAYERS.findIndex((l) => l.name === layer);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(rel);
    return SOURCE_FILE.test(entry.name) && !entry.name.endsWith('.d.ts') ? [rel] : [];
  });
}

/** The file a relative specifier names, as TypeScript and tsx resolve it; undefined for packages. */
function resolveImport(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  const candidates = [base, `${base}.ts`, `${base.replace(/\.js$/, '')}.ts`, `${base}/index.ts`];
  const found = candidates.find((c) => existsSync(path.join(ROOT, c)) && statSync(path.join(ROOT, c)).isFile());
  if (!found) throw new Error(`${from}: cannot resolve '${specifier}'`);
  return found;
}

/** Every relative import of a module: static, type-only, re-exports, dynamic import() and require(). */
function importsOf(module: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(path.join(ROOT, module), 'utf8'), true, true);
  return importedFiles.map((f) => resolveImport(module, f.fileName)).filter((f): f is string => f !== undefined);
}

interface Violation {
  from: string;
  to: string;
  problem: string;
}

/** Imports that point to a higher layer (or touch a module no layer claims), but for the allowed ones. */
function upwardImports(graph: ReadonlyMap<string, readonly string[]>, allowed: readonly Exception[] = ALLOWED_UPWARD): Violation[] {
  const violations: Violation[] = [];
  for (const [from, targets] of graph) {
    const fromLayer = layerOf(from);
    if (!fromLayer) {
      violations.push({ from, to: '', problem: `${from} is in no layer: add its folder to LAYERS` });
      continue;
    }
    for (const to of targets) {
      // Data files (package.json) and the repository's own config are not modules of a layer.
      if (!SOURCE_ROOTS.some((root) => to.startsWith(`${root}/`))) continue;
      const toLayer = layerOf(to);
      if (!toLayer) violations.push({ from, to, problem: `${to} is in no layer: add its folder to LAYERS` });
      else if (rank(toLayer) > rank(fromLayer) && !allowed.some((a) => a.from(from) && a.to(to))) {
        violations.push({ from, to, problem: `${from} (${fromLayer}) imports ${to} (${toLayer}), a higher layer` });
      }
    }
  }
  return violations;
}

function importGraph(): Map<string, string[]> {
  return new Map(SOURCE_ROOTS.flatMap(sourceFiles).map((module) => [module, importsOf(module)]));
}

describe('layers', () => {
  const graph = importGraph();

  it('sees the whole tree', () => {
    expect(graph.size).toBeGreaterThan(300);
    expect(graph.get('src/api/app.ts')).toContain('src/api/routes/health.ts');
  });

  it('has no import that points up, but the commented exceptions', () => {
    expect(upwardImports(graph).map((v) => v.problem)).toEqual([]);
  });

  it('reports an import that points up, and a module in no layer', () => {
    const sample = new Map([
      ['src/db/schema/pages.ts', ['src/scrape/document.ts', 'src/db/schema/jobs.ts']],
      ['src/browser/capture.ts', ['src/screenshots/screenshot-store.ts', 'src/db/client.ts']],
      ['src/crawl/submit-crawl.ts', ['workflows/index.ts', 'workflows/crawl.ts']],
      ['src/brand-new/thing.ts', []],
      ['src/api/app.ts', ['src/crawl/submit-crawl.ts', 'src/errors.ts', 'package.json']],
    ]);
    expect(upwardImports(sample).map((v) => v.problem)).toEqual([
      'src/db/schema/pages.ts (infrastructure) imports src/scrape/document.ts (content), a higher layer',
      'src/browser/capture.ts (content) imports src/screenshots/screenshot-store.ts (domain), a higher layer',
      'src/crawl/submit-crawl.ts (domain) imports workflows/crawl.ts (orchestration), a higher layer',
      'src/brand-new/thing.ts is in no layer: add its folder to LAYERS',
    ]);
  });

  it('keeps no exception that no import needs', () => {
    const edges = [...graph].flatMap(([from, targets]) => targets.map((to) => ({ from, to })));
    for (const exception of ALLOWED_UPWARD) {
      const used = edges.some(({ from, to }) => exception.from(from) && exception.to(to) && rank(layerOf(to)!) > rank(layerOf(from)!));
      expect(used, exception.why).toBe(true);
    }
  });
});
